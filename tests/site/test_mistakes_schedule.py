"""When an exercise comes back (quads.site.mistakes.schedule): new ones are due at
once, right answers push the next showing further out each time, a wrong one brings
it back within the day, and the same answers at the same moments give the same
dates, whatever process computes them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from quads.site.mistakes.schedule import Memory, answered, new_memory

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _after(memory: Memory, answers: list[bool]) -> list[Memory]:
    """The memories after each answer, each given when the exercise was due."""
    seen = []
    for right in answers:
        memory = answered(memory, right, max(memory.due, START))
        seen.append(memory)
    return seen


def test_a_new_exercise_is_due_at_once() -> None:
    memory = new_memory(START)
    assert memory.due == START
    assert not memory.learnt


def test_right_answers_push_the_next_showing_further_each_time() -> None:
    memories = _after(new_memory(START), [True] * 6)
    gaps = [later.due - earlier.due for earlier, later in pairwise(memories)]
    assert all(gap > timedelta(0) for gap in gaps)
    assert gaps == sorted(gaps)
    assert gaps[-1] > timedelta(days=7)
    assert memories[-1].learnt


def test_a_wrong_answer_brings_it_back_soon() -> None:
    learnt = _after(new_memory(START), [True] * 5)[-1]
    assert learnt.learnt
    moment = learnt.due
    missed = answered(learnt, False, moment)
    assert missed.due - moment < timedelta(days=1)
    assert missed.due < answered(learnt, True, moment).due
    assert not missed.learnt  # back to relearning


def test_the_same_answers_give_the_same_dates() -> None:
    answers = [True, False, True, True, False, True]
    first = _after(new_memory(START), answers)
    second = _after(new_memory(START), answers)
    assert [m.due for m in first] == [m.due for m in second]
    # The card read back from its JSON goes on as the one kept in memory.
    again = answered(Memory(first[2].due, first[2].learnt, first[2].card), True, first[2].due)
    assert again.due == first[3].due
