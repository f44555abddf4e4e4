"""The API keeps its contract under fuzzing: ``bench/fuzz.py`` runs schemathesis, every
check and every phase (the stateful one included), against a real ``quads serve``, as a
player and as a stranger on each of the player's games; a short run of it here, without
the coverage phase (the boundary values of every parameter, many cases whatever the
examples asked: ``bench/fuzz.py`` alone runs it; the extremes of integers and dates are
also tried by ``test_api_ranges.py`` and the fuzz hooks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parents[2] / "bench" / "fuzz.py"
EXAMPLES = 3
"""Test cases per operation and phase: the short run (``bench/fuzz.py`` alone: 100)."""


STRANGER_ON = "seated"
"""The player's game the stranger fuzzes here: an online game both players sit at
(``bench/fuzz.py`` alone: all five kinds).  Strangers on every kind of
game are also tried by the online state machine (test_online_state_machine.py)."""


def test_schemathesis_finds_no_contract_fault() -> None:
    run = subprocess.run([sys.executable, str(FUZZ), "--examples", str(EXAMPLES), "--seed", "1",
                          "--stranger-on", STRANGER_ON, "--without-coverage"],
                         capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    assert run.stdout.count("passed") >= 2  # the player's run and the stranger's
    assert "as a stranger" in run.stdout
    assert "no failure" in run.stdout
