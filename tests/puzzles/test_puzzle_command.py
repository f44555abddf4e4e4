"""``quads puzzle``: text, JSON, the solution and bad dates."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys

import pytest

from quads.cli.main import main
from quads.puzzles import puzzle_for

MONDAY = "2025-03-10"
THURSDAY = "2025-03-13"


def test_json_fields_without_and_with_the_solution(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--date", THURSDAY, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    puzzle = puzzle_for(datetime.date(2025, 3, 13))
    assert data["date"] == THURSDAY
    assert data["rules"] == "classic"
    assert data["position"] == puzzle.position.to_string()
    assert data["goal"] == {"result": "win", "plies": puzzle.plies, "moves": puzzle.moves}
    assert "solution" not in data
    assert main(["puzzle", "--date", THURSDAY, "--json", "--solution"]) == 0
    solution = json.loads(capsys.readouterr().out)["solution"]
    assert solution == [turn.text for turn in puzzle.solution[:-1]] + [
        puzzle.solution[-1].text + "!"]
    assert len(solution) == puzzle.plies
    assert solution[-1].endswith("!")
    assert all(len(token) == 3 for token in solution)


def test_text_shows_board_goal_and_weekday(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--date", THURSDAY]) == 0
    out = capsys.readouterr().out
    assert "Thursday 2025-03-13" in out
    assert "difficulty 4 of 7" in out
    assert "rules classic" in out
    assert "   +------+" in out
    assert "Goal:     force a win in 3 placements of your own" in out
    assert "Solution" not in out
    assert main(["puzzle", "--date", MONDAY, "--solution"]) == 0
    out = capsys.readouterr().out
    assert "Goal:     win at once" in out
    assert "Solution: " in out


@pytest.mark.parametrize("text", ["2025-13-01", "2025-02-30", "20250310", "tomorrow", ""])
def test_a_malformed_date_is_refused(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--date", text]) == 2
    err = capsys.readouterr().err
    assert f"invalid date {text!r}" in err
    assert "YYYY-MM-DD" in err


def test_a_separate_process_gives_the_same_puzzle() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "quads.cli.main", "puzzle", "--date", MONDAY, "--json",
         "--solution"], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    puzzle = puzzle_for(datetime.date.fromisoformat(MONDAY))
    assert data == puzzle.summary(solution=True)


def test_the_default_date_is_today() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "quads.cli.main", "puzzle", "--json"],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["date"] == datetime.date.today().isoformat()
