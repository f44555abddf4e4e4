"""The API keeps its contract under fuzzing: ``bench/fuzz.py`` runs schemathesis, every
check and every phase (the stateful one included), against a real ``quads serve``, as a
player and as a stranger on each of the player's games; a short run of it here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parents[2] / "bench" / "fuzz.py"
EXAMPLES = 15
"""Test cases per operation and phase: the short run (``bench/fuzz.py`` alone: 100)."""


def test_schemathesis_finds_no_contract_fault() -> None:
    run = subprocess.run([sys.executable, str(FUZZ), "--examples", str(EXAMPLES), "--seed", "1"],
                         capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    assert run.stdout.count("passed") >= 6  # the player's run and five strangers' runs
    assert "no failure" in run.stdout
