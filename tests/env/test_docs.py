"""The examples of docs/learning-agents.md run as they are written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "learning-agents.md"


def examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_page_has_its_two_examples() -> None:
    assert len(examples()) == 2


@pytest.mark.parametrize("index", [0, 1])
def test_an_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(examples()[index], f"{DOC.name} example {index + 1}", "exec"), {})
    printed = capsys.readouterr().out
    if index == 0:
        assert re.fullmatch(r"(full board, no winner|.+: all .+)\n", printed)
    else:
        assert re.fullmatch(r"reward (-1\.0|0\.0|1\.0) seat [01]\n", printed)
