"""``quads replay``, run as a real process on files and standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def quads(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quads.cli.main", *args],
        capture_output=True, text=True, input=stdin, timeout=120, check=False,
    )


CLAIMED = """[First "Ada"]
[Second "Ben"]
[Rules "classic"]
[Result "0-1"]

1. 7 A1C 2. B1D C1E 3. D1?3 ! 0-1
"""


def test_replay_json_of_a_claimed_game(tmp_path: Path) -> None:
    path = tmp_path / "game.qds"
    path.write_text(CLAIMED, encoding="utf-8")
    result = quads("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["position"] == "7CDE/..../..../.... 3"
    assert data["rules"] == "classic"
    assert data["status"] == "won"
    assert data["winner"] == "second"
    assert data["reason"] == "claim"
    assert data["to_move"] is None
    assert data["can_declare"] is False
    assert data["can_claim"] is False


def test_replay_from_stdin_mid_claim_window() -> None:
    record = '[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 *\n'
    data = json.loads(quads("replay", "-", "--json", stdin=record).stdout)
    assert data["status"] == "ongoing"
    assert data["winner"] is None
    assert data["to_move"] == "second"
    assert data["can_claim"] is True
    assert data["can_declare"] is False


def test_replay_declaration_window() -> None:
    record = '[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1 *\n'
    data = json.loads(quads("replay", "-", "--json", stdin=record).stdout)
    assert data["to_move"] == "first"
    assert data["can_declare"] is True
    assert data["position"] == "7CDE/..../..../.... -"


def test_replay_text_tells_the_story() -> None:
    result = quads("replay", "-", stdin=CLAIMED)
    assert result.returncode == 0, result.stderr
    assert "places E on D1, hands over 3 without declaring (missed)" in result.stdout
    assert "claims the missed shape" in result.stdout
    assert "Ben wins by claim: row 1: all dark." in result.stdout


def test_replay_bad_token_names_the_token() -> None:
    result = quads("replay", "-", stdin='[Rules "quads"]\n\n1. 7 A1C 2. A1D *\n')
    assert result.returncode == 2
    assert "'A1D'" in result.stderr
    assert "taken" in result.stderr


def test_replay_missing_file() -> None:
    result = quads("replay", "/nonexistent/game.qds")
    assert result.returncode == 2
    assert "/nonexistent/game.qds" in result.stderr
