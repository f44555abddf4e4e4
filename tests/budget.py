"""How many examples the heaviest property tests try: the CI run's share (the whole
suite must fit its time), ten times as many under the ``thorough`` Hypothesis profile
(``HYPOTHESIS_PROFILE=thorough``), which a test's own ``max_examples`` would otherwise
override."""

from __future__ import annotations

import os

__all__ = ["THOROUGH", "examples"]

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


def examples(ci: int) -> int:
    """The examples of a test that tries ``ci`` of them in a CI run."""
    return ci * 10 if THOROUGH else ci
