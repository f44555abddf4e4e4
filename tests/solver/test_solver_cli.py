"""``quads solve`` and ``quads analyse``, run as real processes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def quads(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quads.cli.main", *args],
        capture_output=True, text=True, timeout=300, check=False,
    )


def test_solve_json() -> None:
    result = quads("solve", "0.../1.../2.../...5 3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"position", "rules", "value", "plies", "best", "nodes", "seconds",
                         "source"}
    assert data["source"] == "search"  # far from the empty board: no book holds it
    assert data["position"] == "0.../1.../2.../...5 3"
    assert data["rules"] == "quads"
    assert (data["value"], data["plies"]) == ("win", 1)
    assert data["best"] == {"place": "A4", "give": None}
    assert isinstance(data["nodes"], int)
    assert isinstance(data["seconds"], float)
    assert result.stderr == ""


def test_solve_json_draw_with_rules_and_traits() -> None:
    result = quads("solve", "..../..../3.../7.F. 9", "--rules", "classic", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["rules"], data["value"], data["plies"]) == ("classic", "draw", None)
    assert data["best"]["place"] is not None
    assert data["best"]["give"] is not None
    traits = quads("solve", "0.../1.../2.../.... 3", "--traits", "color", "--json")
    assert json.loads(traits.stdout)["rules"] == "lines+squares:color:auto"


def test_solve_budget_gives_unknown() -> None:
    position = ("2.../..../F4../..18", "D", "--rules", "classic", "--nodes", "500", "--json")
    result = quads("solve", *position, "--no-book")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["value"], data["plies"], data["source"]) == ("unknown", None, "search")
    assert data["best"] == {"place": None, "give": None}
    # The classic book holds this position's value (11 empty cells, one past its
    # reach), though not every turn's: out of time, the value comes from the book,
    # without a turn.
    data = json.loads(quads("solve", *position).stdout)
    searched = json.loads(quads("solve", *position[:4], "--json", "--no-book").stdout)
    assert (data["value"], data["plies"]) == (searched["value"], searched["plies"])
    assert data["source"] == "book"
    assert data["best"] == {"place": None, "give": None}


def test_solve_progress_goes_to_stderr_only() -> None:
    result = quads("solve", "..../..../F4../...8 1", "--rules", "classic", "--json",
                   "--progress", "--no-book")
    assert result.returncode == 0
    json.loads(result.stdout)  # stdout holds exactly one JSON object
    assert "nodes" in result.stderr


def test_solve_text() -> None:
    result = quads("solve", "0.../1.../2.../.... 3")
    assert result.returncode == 0
    assert "win in 1" in result.stdout
    assert "A4" in result.stdout


def test_analyse_json_lists_every_turn() -> None:
    result = quads("analyse", "36.1/B.0./.2FD/.... C", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"position", "rules", "value", "plies", "moves", "source"}
    moves = data["moves"]
    # 8 empty cells, 7 pieces to hand over (no placement wins here)
    assert len(moves) == 8 * 7
    assert len({(m["place"], m["give"]) for m in moves}) == len(moves)
    assert (moves[0]["value"], moves[0]["plies"]) == (data["value"], data["plies"])


def test_analyse_hand_over_first() -> None:
    result = quads("analyse", "..../..../..../.... -", "--json", "--nodes", "1000")
    data = json.loads(result.stdout)
    assert len(data["moves"]) == 16
    assert all(m["place"] is None for m in data["moves"])


@pytest.mark.parametrize("position", [
    "FFFF/..../..../.... 1",      # a piece twice
    "0123/..../..../.... 4",      # row 1 already won under auto calling
    "..../..../..../....",        # no hand
    "xxxx/..../..../.... 1",      # not a position
])
@pytest.mark.parametrize("command", ["solve", "analyse"])
def test_bad_positions_exit_2(command: str, position: str) -> None:
    result = quads(command, position, "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("quads: error:") or "usage:" in result.stderr


def test_bad_budget_exits_2() -> None:
    assert quads("solve", "..../..../..../.... -", "--nodes", "0").returncode == 2
