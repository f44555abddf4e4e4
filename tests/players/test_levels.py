"""The five computer levels: what each one must and must not do."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from budget import examples
from quads import ADVANCED, CLASSIC, QUADS, Game, Position, Rules, Step, read_record
from quads.bits import iter_bits
from quads.game import Claim, Declare, Give
from quads.players import LEVELS, make_player
from quads.players.club import rank_turns, replies_with_a_safe_piece
from quads.players.match import play_game
from quads.solver import Value, solve

RULE_SETS = [QUADS, CLASSIC, ADVANCED, Rules.parse("lines:color,height:auto")]


def random_game(seed: int, rules: Rules, turns: int) -> Game:
    """A game after ``turns`` turns of two seeded casual players (never over)."""
    game = Game(rules)
    players = [make_player(2, seed), make_player(2, seed + 1)]
    for _ in range(turns):
        to_move = game.to_move
        assert to_move is not None
        trial = game.copy()
        players[to_move].play(trial)
        if trial.is_over():
            break
        game = trial
    return game


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("rules", [QUADS, CLASSIC], ids=lambda r: r.name)
def test_every_level_plays_whole_games_reproducibly(level: int, rules: Rules) -> None:
    def game(seed: int) -> Game:
        return play_game(make_player(level, seed), make_player(1, seed + 1), rules)

    first, again, other = game(11), game(11), game(12)
    assert first.is_over()
    assert first.actions == again.actions
    assert len({first.actions, other.actions, game(13).actions}) > 1


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_declares_at_once(level: int) -> None:
    game = read_record('[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1 *\n')
    assert game.can_declare()
    assert make_player(level, 0).actions(game) == [Declare()]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_claims_a_missed_shape(level: int) -> None:
    game = read_record('[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 *\n')
    assert game.can_claim()
    assert make_player(level, 0).actions(game) == [Claim()]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_winning_placement_in_declare_rules_is_declared(level: int) -> None:
    # Under classic, levels 2-5 always see the win on D1; whoever completes a shape declares.
    game = read_record('[Rules "advanced"]\n\n1. 7 A1C 2. B1D C1E *\n')
    actions = make_player(max(level, 2), 5).actions(game)
    assert actions[-1] == Declare()


def test_the_beginner_misses_wins_and_hands_over_winners_sometimes() -> None:
    # Row 1 holds 7 C D: all dark.  Piece E (dark) wins on D1 for whoever places it.
    game = read_record("1. 7 A1C 2. B1D C1E *")
    placements = [make_player(1, seed).actions(game)[0] for seed in range(200)]
    wins = sum(1 for p in placements if str(p) == "place D1")
    assert 0 < wins < 200
    # At a hand-over with dangerous pieces, it sometimes hands over a winner.
    game = read_record("1. 7 A1C 2. B1D C1")
    assert game.step is Step.GIVE
    danger = game.position.danger(QUADS) & game.position.supply
    assert danger
    assert game.position.safe_pieces(QUADS)
    gives = [make_player(1, seed).actions(game)[0] for seed in range(200)]
    winners = sum(1 for give in gives if isinstance(give, Give) and danger >> give.piece & 1)
    assert 0 < winners < 200


@given(st.integers(0, 10_000), st.integers(1, 12), st.sampled_from(RULE_SETS))
def test_the_casual_player_takes_wins_and_hands_over_safe_pieces(
    seed: int, turns: int, rules: Rules
) -> None:
    game = random_game(seed, rules, turns)
    position = game.position
    actions = make_player(2, seed).actions(game)
    trial = game.copy()
    for action in actions:
        trial.apply(action)
    if position.hand is not None and position.winning_cells(position.hand, rules):
        assert trial.outcome is not None
        assert trial.outcome.winner == game.to_move
    if trial.step is Step.PLACE and not trial.is_over():
        before = trial.states[-2].position
        if before.safe_pieces(rules):
            assert before.safe_pieces(rules) >> trial.position.hand & 1  # type: ignore[operator]


@given(st.integers(0, 10_000), st.integers(2, 12), st.sampled_from(RULE_SETS))
def test_the_club_player_keeps_a_safe_piece_when_it_can(
    seed: int, turns: int, rules: Rules
) -> None:
    game = random_game(seed, rules, turns)
    position = game.position
    assume(position.hand is not None and not position.winning_cells(position.hand, rules))
    keeps = [c for c in iter_bits(position.empty_cells)
             if position.place(c).safe_pieces(rules) or not position.place(c).supply]
    turn = make_player(3, seed).choose_turn(position, rules)
    assert turn.place is not None
    if keeps:
        assert turn.place in keeps
        after = position.place(turn.place)
        if after.supply:
            assert after.safe_pieces(rules) >> turn.give & 1  # type: ignore[operator]


def test_rank_turns_puts_wins_first_and_lists_every_safe_turn() -> None:
    position = Position.from_string("7CD./..../..../.... E")
    ranked = rank_turns(position, QUADS)
    assert [str(t) for _, t in ranked] == ["D1"]
    position = Position.from_string("7C../..../..../.... D")
    ranked = rank_turns(position, QUADS)
    scores = [score for score, _ in ranked]
    assert scores == sorted(scores)
    for _, turn in ranked:
        assert turn.place is not None
        assert turn.give is not None
        assert position.place(turn.place).safe_pieces(QUADS) >> turn.give & 1


@pytest.mark.parametrize("level", [4, 5])
@given(seed=st.integers(0, 10_000), turns=st.integers(8, 13))
def test_solving_levels_never_worsen_a_solved_value(level: int, seed: int, turns: int) -> None:
    rules = CLASSIC if seed % 2 else QUADS
    game = random_game(seed, rules, turns)
    position = game.position
    player = LEVELS[level]
    assume(position.empty_count <= player.SOLVE_FROM)  # type: ignore[attr-defined]
    # The expert is exact when the solver answers within its node budget.
    budget = solve(position, rules, nodes=player.NODES)  # type: ignore[attr-defined]
    assume(budget.value is not Value.UNKNOWN)
    before = solve(position, rules)
    turn = make_player(level, seed).choose_turn(position, rules)
    after = position.play(turn)
    if turn.give is None:
        assert before.value in (Value.WIN, Value.DRAW)
        return
    reply = solve(after, rules)
    mirrored = {Value.WIN: Value.LOSS, Value.LOSS: Value.WIN, Value.DRAW: Value.DRAW}
    assert mirrored[reply.value] == before.value
    if before.value is Value.WIN:
        assert reply.plies is not None
        assert before.plies == reply.plies + (
            1 if turn.place is not None else 0)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level 6"):
        make_player(6)


@settings(max_examples=examples(15))  # each a search of up to two million nodes
@given(seed=st.integers(0, 10_000))
def test_the_perfect_players_trap_never_loses(seed: int) -> None:
    rules = CLASSIC if seed % 2 else QUADS
    game = random_game(seed, rules, 6)
    position = game.position
    assume(position.hand is not None and position.empty_count <= 11)
    player = make_player(5, seed)
    turn, chance, _ = player._trap(position, rules, 2_000_000)  # type: ignore[attr-defined]
    assume(turn is not None)
    assert turn is not None
    assert 0.0 <= chance <= 1.0
    reply = solve(position.play(turn), rules)
    assert reply.value is not Value.WIN


@given(seed=st.integers(0, 10_000), turns=st.integers(1, 5))
def test_the_squeeze_count_is_the_count_of_replies_that_keep_a_safe_piece(
    seed: int, turns: int
) -> None:
    rules = CLASSIC if seed % 2 else QUADS
    position = random_game(seed, rules, turns).position
    assume(position.hand is not None)
    for cell in iter_bits(position.empty_cells):
        after = position.place(cell)
        for piece in iter_bits(after.supply):
            received = after.give(piece)
            expected = 16 if not received.supply else sum(
                1 for reply in iter_bits(received.empty_cells)
                if received.place(reply).safe_pieces(rules))
            assert replies_with_a_safe_piece(after, piece, rules) == expected
