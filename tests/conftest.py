"""Test set-up shared by the whole suite.

Hypothesis runs under the ``ci`` profile unless ``HYPOTHESIS_PROFILE`` names
another: examples are derived from the test itself (``derandomize``) and no
example database is kept, so every run plays exactly the same games.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile(
    "ci", deadline=None, max_examples=40, derandomize=True, database=None, print_blob=True
)
settings.register_profile("thorough", deadline=None, max_examples=1000, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
