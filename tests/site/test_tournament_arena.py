"""An arena's scoring (streaks on fire, no-shows) and the pairing of its free players."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quads.site.tournaments.arena import (
    ArenaPairings,
    Free,
    Pairing,
    Result,
    Side,
    arena_score,
    pair_free,
    pauses,
)

W, D, L, N = Result.WIN, Result.DRAW, Result.LOSS, Result.NO_SHOW
START = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.mark.parametrize(("results", "sheet", "on_fire"), [
    ([], (), False),
    ([W], (2,), False),
    ([W, W], (2, 2), True),
    ([W, W, W, D, W, W, L], (2, 2, 4, 2, 2, 2, 0), False),
    ([W, W, W, W, W], (2, 2, 4, 4, 4), True),
    ([W, W, D, D], (2, 2, 2, 1), False),
    ([W, W, N, W, W, W], (2, 2, 0, 2, 2, 4), True),
    ([D, W, L, W, W, D], (1, 2, 0, 2, 2, 2), False),
])
def test_the_sheet_of_an_arena(results: list[Result], sheet: tuple[int, ...],
                               on_fire: bool) -> None:
    score = arena_score(results)
    assert score.sheet == sheet
    assert score.total == sum(sheet)
    assert score.on_fire is on_fire


def test_the_counts_of_an_arena_score() -> None:
    score = arena_score([W, W, W, D, N, L, L])
    assert (score.wins, score.draws, score.losses, score.no_shows) == (3, 1, 2, 1)
    assert score.games == 7


def test_only_a_no_show_pauses() -> None:
    assert [pauses(result) for result in Result] == [False, False, False, True]


results = st.lists(st.sampled_from(Result), max_size=30)


@given(results)
def test_a_game_counts_double_exactly_after_two_wins(played: list[Result]) -> None:
    score = arena_score(played)
    assert score.total == sum(score.sheet)
    for index, result in enumerate(played):
        doubled = index >= 2 and played[index - 2] is W and played[index - 1] is W
        base = {W: 2, D: 1, L: 0, N: 0}[result]
        assert score.sheet[index] == base * (2 if doubled else 1)
    assert score.on_fire is (len(played) >= 2 and played[-1] is W and played[-2] is W)


@given(results, results)
def test_a_no_show_scores_nothing_and_ends_the_streak(before: list[Result],
                                                      after: list[Result]) -> None:
    score = arena_score([*before, N, *after])
    assert score.sheet[len(before)] == 0
    assert arena_score([*before, N]).on_fire is False
    assert score.sheet[len(before) + 1:] == arena_score(after).sheet


def _free(player: str, score: int = 0, rating: int = 1500, minutes: int = 0,
          last: str | None = None, firsts: int = 0, seconds: int = 0,
          side: Side | None = None) -> Free:
    return Free(player, score, rating, START + timedelta(minutes=minutes), last, firsts,
                seconds, side)


def test_neighbours_in_score_meet() -> None:
    free = [_free("a", 10), _free("b", 2), _free("c", 9), _free("d", 3)]
    made = pair_free(free)
    assert {frozenset((p.first, p.second)) for p in made.pairings} == {
        frozenset("ac"), frozenset("bd")}
    assert made.waiting == ()
    assert [p.first in "ac" for p in made.pairings] == [True, False]  # best ranked first


def test_at_equal_scores_neighbours_in_rating_meet() -> None:
    free = [_free("a", 4, 1500), _free("b", 4, 2100), _free("c", 4, 1550), _free("d", 4, 2000)]
    assert {frozenset((p.first, p.second)) for p in pair_free(free).pairings} == {
        frozenset("bd"), frozenset("ac")}


def test_last_opponents_do_not_meet_again_straight_away() -> None:
    free = [_free("a", 10, last="b"), _free("b", 9, last="a"), _free("c", 8), _free("d", 7)]
    assert {frozenset((p.first, p.second)) for p in pair_free(free).pairings} == {
        frozenset("ac"), frozenset("bd")}
    assert pair_free([_free("a", last="b"), _free("b", last="a")]) == ArenaPairings(
        (), ("a", "b"))


def test_a_pair_is_split_to_seat_two_blocked_players() -> None:
    # a meets b by rank; then c and d, each other's last opponents, would wait.
    free = [_free("a", 9), _free("b", 8), _free("c", 7, last="d"), _free("d", 6, last="c")]
    made = pair_free(free)
    assert len(made.pairings) == 2
    assert made.waiting == ()


def test_with_an_odd_number_the_latest_free_waits() -> None:
    free = [_free("a", 9, minutes=0), _free("b", 5, minutes=3), _free("c", 1, minutes=1)]
    made = pair_free(free)
    assert made.waiting == ("b",)
    assert made.pairings == (Pairing("a", "c"),)


def test_who_hands_over_first() -> None:
    assert pair_free([_free("a", 9, firsts=3, seconds=1), _free("b", 1, firsts=1,
                                                               seconds=1)]).pairings == (
        Pairing("b", "a"),)
    assert pair_free([_free("a", 9, firsts=1, seconds=1, side=Side.FIRST),
                      _free("b", 1, firsts=2, seconds=2, side=Side.SECOND)]).pairings == (
        Pairing("b", "a"),)
    assert pair_free([_free("a", 9), _free("b", 1)]).pairings == (Pairing("a", "b"),)
    drawn = {pair_free([_free("a", 9), _free("b", 1)], random.Random(seed)).pairings[0].first
             for seed in range(20)}
    assert drawn == {"a", "b"}


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        pair_free([_free("a"), _free("a", 3)])


@st.composite
def free_players(draw: st.DrawFn, most: int = 12) -> list[Free]:
    names = [chr(ord("a") + i) for i in range(draw(st.integers(0, most)))]
    made = []
    for name in names:
        firsts, seconds = draw(st.integers(0, 5)), draw(st.integers(0, 5))
        made.append(_free(name, draw(st.integers(0, 12)), draw(st.sampled_from([1400, 1500])),
                          draw(st.integers(0, 5)),
                          draw(st.sampled_from([None, *[n for n in names if n != name], "gone"])),
                          firsts, seconds, draw(st.sampled_from([None, *Side]))))
    return made


def _maximum_pairs(free: list[Free]) -> int:
    """The most pairs of allowed players, by trying every partner of the first."""
    if len(free) < 2:
        return 0
    top, rest = free[0], free[1:]
    best = _maximum_pairs(rest)
    for partner in rest:
        if top.last_opponent != partner.player and partner.last_opponent != top.player:
            best = max(best, 1 + _maximum_pairs([f for f in rest if f is not partner]))
    return best


@given(free_players(), st.one_of(st.none(), st.integers(0, 10)))
def test_arena_pairing_properties(free: list[Free], seed: int | None) -> None:
    made = pair_free(free, None if seed is None else random.Random(seed))
    by_name = {entry.player: entry for entry in free}
    seated = [name for pairing in made.pairings for name in (pairing.first, pairing.second)]
    assert len(seated) == len(set(seated))  # nobody paired twice
    assert sorted([*seated, *made.waiting]) == sorted(by_name)  # everyone paired or waiting
    for pairing in made.pairings:
        first, second = by_name[pairing.first], by_name[pairing.second]
        assert first.last_opponent != second.player
        assert second.last_opponent != first.player
        # who hands over first: the lower balance, then who did not in their last game
        assert (first.balance, first.last_side is Side.FIRST) <= (
            second.balance, second.last_side is Side.FIRST)
    for i, one in enumerate(made.waiting):  # two wait only if blocked from each other
        for other in made.waiting[i + 1:]:
            assert by_name[one].last_opponent == other or by_name[other].last_opponent == one
    if len(free) <= 9:
        assert len(made.pairings) == _maximum_pairs(free)


@given(free_players(8), st.randoms(use_true_random=False))
def test_arena_pairing_ignores_the_order_of_its_input(free: list[Free],
                                                      shuffler: random.Random) -> None:
    shuffled = list(free)
    shuffler.shuffle(shuffled)
    assert pair_free(shuffled) == pair_free(free)
