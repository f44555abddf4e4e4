"""Swiss events: rounds paired by the Dutch system as the pairing library pairs them,
byes, late entries, withdrawals, and the standings' tie-breaks."""

from __future__ import annotations

import pytest
from caissify_pairings import generate_pairings
from caissify_pairings.fpc import check_trf

from quads.site.tournaments.swiss import (
    Entrant,
    Game,
    Outcome,
    Pairing,
    Round,
    UnpairableRoundError,
    pair_round,
    standings,
)
from swiss_helpers import trf_report

NINE = [Entrant(f"p{i}", 2000 - 37 * i) for i in range(9)]  # p0 the strongest
OUTCOMES = (Outcome.FIRST_WINS, Outcome.DRAW, Outcome.SECOND_WINS)


def _play(players: list[Entrant], rounds: int, total: int | None = None,
          outcomes: tuple[Outcome, ...] = OUTCOMES) -> list[Round]:
    """Pairs and plays ``rounds`` rounds, each board's outcome set by its place."""
    history: list[Round] = []
    for number in range(1, rounds + 1):
        made = pair_round(players, history, number, total)
        assert made.number == number
        history.append(Round(tuple(Game(p.first, p.second, outcomes[(number + board) % 3])
                                   for board, p in enumerate(made.pairings)), made.bye))
    return history


def test_round_one_is_the_librarys_own_pairing() -> None:
    library = generate_pairings(
        "dutch", [{"id": n, "name": e.player, "rating": e.rating, "starting_number": n,
                   "score": 0.0, "color_hist": [], "float_history": [], "bye_count": 0}
                  for n, e in enumerate(NINE, start=1)], set(), 1, 3)
    made = pair_round(NINE, [], 1, 3)
    assert made.pairings == tuple(Pairing(NINE[row["white_id"] - 1].player,
                                          NINE[row["black_id"] - 1].player)
                                  for row in library if row.get("black_id") is not None)
    assert made.bye == "p8"


@pytest.mark.parametrize(("rounds", "outcomes"), [
    (3, OUTCOMES), (6, OUTCOMES), (6, (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW))])
def test_a_nine_player_swiss_is_paired_as_the_library_pairs_it(
        rounds: int, outcomes: tuple[Outcome, ...]) -> None:
    history = _play(NINE, rounds, rounds, outcomes)
    report = check_trf(trf_report(NINE, history))  # the library re-pairs each round
    assert report["summary"]["rounds_checked"] == rounds
    assert report["summary"]["rounds_mismatched"] == 0, report["rounds"]
    number = {entrant.player: n for n, entrant in enumerate(
        sorted(NINE, key=lambda entrant: -entrant.rating), start=1)}
    for played, checked in zip(history, report["rounds"], strict=True):  # sides too
        assert {(number[game.first], number[game.second]) for game in played.games} == {
            (row["white"], row["black"]) for row in checked["engine_pairings"]
            if row.get("black") is not None}
    byes = [played.bye for played in history]
    assert None not in byes
    assert len(set(byes)) == rounds  # one bye a round, nobody twice
    met = [frozenset((game.first, game.second)) for played in history for game in played.games]
    assert len(met) == 4 * rounds
    assert len(set(met)) == 4 * rounds  # nobody meets the same opponent twice


def test_a_late_entrant_scores_half_a_point_for_each_round_missed() -> None:
    late = Entrant("late", 1990, joined=3)
    players = [*NINE[:7], late]
    history = _play(players, 2)
    assert all("late" not in (g.first, g.second) for played in history for g in played.games)
    assert "late" not in (history[0].bye, history[1].bye)
    made = pair_round(players, history, 3)
    assert "late" in {name for p in made.pairings for name in (p.first, p.second)}
    assert {s.player: s.points for s in standings(players, history)}["late"] == 1.0


def test_a_withdrawn_player_is_not_paired_but_their_games_still_count() -> None:
    history = _play(NINE, 1)
    gone = history[0].games[0].first
    players = [Entrant(e.player, e.rating, withdrawn=e.player == gone) for e in NINE]
    made = pair_round(players, history, 2)
    assert gone not in {name for p in made.pairings for name in (p.first, p.second)}
    assert made.bye is None  # eight left: no bye
    assert len(made.pairings) == 4
    table = {s.player: s for s in standings(players, history)}
    assert table[gone].withdrawn
    assert table[history[0].games[0].second].buchholz == table[gone].points


def test_tie_breaks_on_a_small_event() -> None:
    players = [Entrant("a", 1500), Entrant("b", 1600), Entrant("c", 1700), Entrant("d", 1400)]
    history = [
        Round((Game("a", "b", Outcome.FIRST_WINS), Game("c", "d", Outcome.DRAW))),
        Round((Game("a", "c", Outcome.DRAW), Game("d", "b", Outcome.FIRST_WINS))),
    ]
    # points: a 1.5, b 0, c 1, d 1.5
    # Buchholz: a = b 0 + c 1 = 1; d = c 1 + b 0 = 1; c = d 1.5 + a 1.5 = 3; b = 3
    # Sonneborn-Berger: a = b 0 + c 1/2 = 0.5; d = c 1/2 + b 0 = 0.5; c = 1.5/2 + 1.5/2 = 1.5
    table = standings(players, history)
    assert [(s.player, s.points, s.buchholz, s.sonneborn_berger) for s in table] == [
        ("a", 1.5, 1.0, 0.5), ("d", 1.5, 1.0, 0.5), ("c", 1.0, 3.0, 1.5), ("b", 0.0, 3.0, 0.0)]
    # a before d: equal in points, Buchholz and SB, a the higher rated


def test_sonneborn_berger_decides_before_rating() -> None:
    players = [Entrant("a", 1500), Entrant("d", 1900), Entrant("p", 1600), Entrant("q", 1700)]
    history = [
        Round((Game("a", "p", Outcome.FIRST_WINS), Game("d", "q", Outcome.FIRST_WINS))),
        Round((Game("a", "q", Outcome.SECOND_WINS), Game("d", "p", Outcome.SECOND_WINS))),
        Round((Game("p", "q", Outcome.FIRST_WINS), Game("a", "d", Outcome.DRAW))),
    ]
    # points: p 2, a 1.5, d 1.5, q 1; Buchholz a = p 2 + q 1 + d 1.5 = 4.5 = d's;
    # Sonneborn-Berger: a = p 2 + d 1.5/2 = 2.75; d = q 1 + a 1.5/2 = 1.75
    table = standings(players, history)
    assert [(s.player, s.points, s.buchholz, s.sonneborn_berger) for s in table] == [
        ("p", 2.0, 4.0, 2.5), ("a", 1.5, 4.5, 2.75), ("d", 1.5, 4.5, 1.75),
        ("q", 1.0, 5.0, 1.5)]


def test_a_bye_scores_a_point_and_adds_nothing_to_the_tie_breaks() -> None:
    players = [Entrant("a", 1500), Entrant("b", 1400), Entrant("c", 1300)]
    history = [Round((Game("a", "b", Outcome.FIRST_WINS),), bye="c")]
    table = {s.player: s for s in standings(players, history)}
    assert (table["c"].points, table["c"].buchholz, table["c"].sonneborn_berger) == (1, 0, 0)
    assert (table["a"].buchholz, table["a"].sonneborn_berger) == (0, 0)


def test_refusals() -> None:
    with pytest.raises(ValueError, match="follows 0 rounds"):
        pair_round(NINE, [], 2)
    with pytest.raises(ValueError, match="not registered"):
        pair_round(NINE, [Round((Game("p0", "x", Outcome.DRAW),))], 2)
    with pytest.raises(ValueError, match="joined later"):
        standings([Entrant("a", 1, joined=2), Entrant("b", 1)],
                  [Round((Game("a", "b", Outcome.DRAW),))])
    two = [Entrant("a", 1500), Entrant("b", 1400)]
    with pytest.raises(UnpairableRoundError):
        pair_round(two, [Round((Game("a", "b", Outcome.DRAW),))], 2)
