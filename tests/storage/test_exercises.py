"""A player's exercises in a real store, SQLite and PostgreSQL: found ones kept once per
key (seen again instead), listed by due date and the due ones alone, counted, nobody
else's reachable, and answers whose latest memory wins whatever order they arrive in,
none lost from the count."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from quads.storage import GameStore
from quads.storage.exercises import NewExercise
from quads.storage.merging import merge_player
from quads.storage.tables import exercise_answers
from storage.conftest import ADA, BEA

AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _found(key: str, due: datetime = AT) -> NewExercise:
    return NewExercise(key=key, rules="quads", position="A0../1F.D/27../4.BC 8",
                       kind="give", keep="win", played="3", answers=("6",), game="g1",
                       card='{"card": 1}', due=due)


def test_an_exercise_found_again_is_seen_again(store: GameStore) -> None:
    assert store.keep_exercises(ADA, [_found("k1"), _found("k2")], AT) == 2
    assert store.keep_exercises(ADA, [_found("k1")], AT + timedelta(days=1)) == 0
    kept = {e.key: e for e in store.exercises_of(ADA)}
    assert (kept["k1"].seen, kept["k2"].seen) == (2, 1)
    assert kept["k1"].found == AT  # the first finding stands
    assert kept["k1"].answers == ("6",)
    assert store.keep_exercises(BEA, [_found("k1")], AT) == 1  # another player's own


def test_the_due_ones_and_the_counts(store: GameStore) -> None:
    store.keep_exercises(ADA, [_found("soon", AT), _found("later", AT + timedelta(days=3))],
                         AT)
    assert [e.key for e in store.exercises_of(ADA)] == ["soon", "later"]
    assert [e.key for e in store.exercises_of(ADA, due_by=AT + timedelta(hours=1))] == [
        "soon"]
    assert store.exercise_counts(ADA, AT) == (0, 1, 2)  # learnt, due, new
    assert store.exercise_counts(BEA, AT) == (0, 0, 0)


def test_nobody_reaches_another_player_s_exercise(store: GameStore) -> None:
    store.keep_exercises(ADA, [_found("k1")], AT)
    (mine,) = store.exercises_of(ADA)
    assert store.exercise(BEA, mine.id) is None
    assert not store.answer_exercise(BEA, mine.id, "{}", AT, True, AT)
    assert store.exercise(ADA, mine.id) == mine  # unchanged by the stranger


def test_the_latest_answer_s_memory_wins_and_every_answer_counts(store: GameStore) -> None:
    store.keep_exercises(ADA, [_found("k1")], AT)
    (mine,) = store.exercises_of(ADA)
    later, earlier = AT + timedelta(hours=2), AT + timedelta(hours=1)
    assert store.answer_exercise(ADA, mine.id, '{"late": 1}', AT + timedelta(days=4), True,
                                 later)
    # An answer given earlier (offline, sent late) counts but keeps no memory.
    assert not store.answer_exercise(ADA, mine.id, '{"early": 1}', AT, False, earlier)
    now = store.exercise(ADA, mine.id)
    assert now is not None
    assert (now.card, now.due, now.learnt, now.tries, now.answered) == (
        '{"late": 1}', AT + timedelta(days=4), True, 2, later)


def test_an_answer_sent_again_under_its_id_counts_once(store: GameStore) -> None:
    store.keep_exercises(ADA, [_found("k1")], AT)
    mine = store.exercise_by_key(ADA, "k1")
    assert mine is not None
    assert store.exercise_by_key(BEA, "k1") is None
    given = AT + timedelta(hours=1)
    assert store.answer_exercise(ADA, mine.id, '{"once": 1}', AT + timedelta(days=2), True,
                                 given, once="a1")
    assert not store.answer_exercise(ADA, mine.id, '{"twice": 1}', AT + timedelta(days=9),
                                     True, given + timedelta(hours=1), once="a1")
    # A stranger using the same id reaches nothing.
    assert not store.answer_exercise(BEA, mine.id, "{}", AT, False, given, once="a2")
    now = store.exercise(ADA, mine.id)
    assert now is not None
    assert (now.card, now.tries, now.answered) == ('{"once": 1}', 1, given)
    # Another id is another answer.
    assert store.answer_exercise(ADA, mine.id, '{"other": 1}', AT, False,
                                 given + timedelta(hours=2), once="a2")
    assert store.exercise(ADA, mine.id).tries == 2  # type: ignore[union-attr]


def test_a_player_merged_into_an_account_brings_their_exercises(store: GameStore) -> None:
    store.keep_exercises(ADA, [_found("shared"), _found("own")], AT)
    store.keep_exercises(BEA, [_found("shared")], AT)
    dropped = store.exercise_by_key(ADA, "shared")
    assert dropped is not None
    store.answer_exercise(ADA, dropped.id, "{}", AT, False, AT, once="a1")
    with store.begin(write=True) as connection:
        merge_player(connection, ADA, BEA)
    assert sorted(e.key for e in store.exercises_of(BEA)) == ["own", "shared"]
    assert store.exercises_of(ADA) == []
    with store.begin() as connection:  # the answers of the exercise dropped go with it
        assert connection.execute(select(exercise_answers)).all() == []


def test_a_player_with_exercises_is_not_pruned(store: GameStore) -> None:
    store.keep_exercises(ADA, [_found("k1")], AT)
    later = datetime.now(UTC) + timedelta(days=400)
    store.prune(timedelta(days=30), timedelta(days=30), at=later)
    assert [e.key for e in store.exercises_of(ADA)] == ["k1"]
    assert store.has_player(ADA)
    assert not store.has_player(BEA)  # nothing kept them
