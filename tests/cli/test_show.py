"""``quads show``, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def quads(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quads.cli.main", *args],
        capture_output=True, text=True, input=stdin, timeout=120, check=False,
    )


def test_show_json_start_position() -> None:
    result = quads("show", "..../..../..../.... -", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == {
        "position": "..../..../..../.... -",
        "rules": "quads",
        "hand": None,
        "supply": list("0123456789ABCDEF"),
        "safe": list("0123456789ABCDEF"),
    }


def test_show_json_safe_pieces_depend_on_rules() -> None:
    # Row 1 holds F E 7: all dark (bit 2) and all square (bit 1).  Pieces that are
    # dark or square complete it; under --traits color only the dark ones do.
    position = "FE7./..../..../.... 1"
    full = json.loads(quads("show", position, "--json").stdout)
    assert full["hand"] == "1"
    assert full["safe"] == ["0", "8", "9"]
    narrow = json.loads(quads("show", position, "--rules", "classic", "--traits", "color",
                              "--json").stdout)
    assert narrow["rules"] == "lines:color:declare"
    assert narrow["safe"] == ["0", "2", "3", "8", "9", "A", "B"]


def test_show_accepts_board_and_hand_as_two_words() -> None:
    result = quads("show", "f..0/..a./..../.3..", "7", "--json")
    assert json.loads(result.stdout)["position"] == "F..0/..A./..../.3.. 7"


def test_show_text_names_every_trait_without_colour() -> None:
    result = quads("show", "F..0/..../..../.... 7")
    assert result.returncode == 0
    assert "TDQH" in result.stdout  # F: tall dark square hollow
    assert "SLRF" in result.stdout  # 0: short light round solid
    assert "7 (short dark square hollow)" in result.stdout
    assert "Safe:" in result.stdout


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (["..../..../.... -"], "'..../..../.... -'"),
        (["..../..../..../...X -"], "'X'"),
        (["F..F/..../..../.... -"], "piece F appears twice"),
        (["FFFF/..../..../.... -"], "piece F appears twice"),
        (["8ACE/..../..../.... -"], "already won"),
        (["..../..../..../.... -", "--rules", "lines:bogus"], "'bogus'"),
        (["..../..../..../.... -", "--traits", "height,height"], "given twice"),
    ],
)
def test_show_refuses_bad_input_with_status_2(args: list[str], quoted: str) -> None:
    result = quads("show", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("quads: error: ")
    assert quoted in result.stderr


def test_dead_shape_is_allowed_under_declare() -> None:
    # Four tall pieces in row 1: won under auto, a dead (undeclared) shape under declare.
    assert quads("show", "8ACE/..../..../.... -", "--rules", "classic", "--json").returncode == 0
