"""``quads match``, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys


def quads(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "quads.cli.main", *args],
                          capture_output=True, text=True, timeout=300, check=False)


def test_match_json_counts_every_game() -> None:
    result = quads("match", "3", "1", "--games", "6", "--rules", "classic", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 6
    assert data["wins_a"] + data["wins_b"] + data["draws"] == 6
    assert data["rules"] == "classic"
    assert set(data["move_seconds_a"]) == {"median", "p95", "max"}
    times = data["move_seconds_a"]
    assert 0 <= times["median"] <= times["p95"] <= times["max"]


def test_the_same_seed_replays_the_same_match() -> None:
    runs = [json.loads(quads("match", "2", "1", "--games", "8", "--seed", "5", "--json").stdout)
            for _ in range(2)]
    assert [(r["wins_a"], r["wins_b"], r["draws"]) for r in runs] == [
        (runs[0]["wins_a"], runs[0]["wins_b"], runs[0]["draws"])] * 2


def test_text_output_names_the_levels() -> None:
    result = quads("match", "2", "1", "--games", "2")
    assert "level 2 (casual) vs level 1 (beginner), 2 games" in result.stdout


def test_bad_level_is_refused() -> None:
    result = quads("match", "6", "1")
    assert result.returncode == 2
    assert "invalid player '6'" in result.stderr
