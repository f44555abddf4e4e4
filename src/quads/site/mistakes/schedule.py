"""When an exercise comes back: spaced repetition by FSRS (the ``fsrs`` library).

An exercise's memory state is an FSRS card, kept as the card's own JSON.  A right
answer rates the card ``Good`` (the next showing is pushed out, further each time),
a wrong one ``Again`` (it comes back soon).  A new exercise is due at once.  The
scheduler's parameters are FSRS's defaults, with fuzzing off so that the same answers
at the same moments give the same dates (the store, the tests and any process agree).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache

from fsrs import Card, Rating, Scheduler, State

__all__ = ["Memory", "answered", "new_memory"]


@dataclass(frozen=True, slots=True)
class Memory:
    """An exercise's memory state: when it is due, whether it is learnt (past its
    learning steps, in review), and the card as JSON for the store."""

    due: datetime
    learnt: bool
    card: str


@cache
def _scheduler() -> Scheduler:
    return Scheduler(enable_fuzzing=False)


def _memory(card: Card) -> Memory:
    return Memory(card.due, card.state is State.Review, card.to_json())


def new_memory(at: datetime) -> Memory:
    """The memory of an exercise found at ``at``: new, due at once."""
    return _memory(Card(due=at))


def answered(memory: Memory, right: bool, at: datetime) -> Memory:
    """The memory after an answer at ``at``, right or wrong."""
    card = Card.from_json(memory.card)
    card, _ = _scheduler().review_card(card, Rating.Good if right else Rating.Again, at)
    return _memory(card)
