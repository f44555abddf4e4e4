"""A player's mistakes as exercises that come back until they are learnt.

* :mod:`~quads.site.mistakes.schedule`: when an exercise comes back after an
  answer, by spaced repetition (FSRS, the `fsrs` library: the algorithm Anki uses).

The exercises themselves are the library's (:mod:`quads.mistakes`).
"""
