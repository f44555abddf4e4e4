"""Write the JSON Schema of the live sockets' messages into ``docs/web-api.md``.

The block between ``<!-- live-schema:start -->`` and ``<!-- live-schema:end -->``
is made from the models the server itself sends and reads
(:func:`quads.web.openapi.live_schemas`); a test checks that it is current.

    python tools/api_docs.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from quads.web.openapi import live_schemas

DOC = Path(__file__).resolve().parent.parent / "docs" / "web-api.md"
BLOCK = re.compile(r"(<!-- live-schema:start -->\n).*?(<!-- live-schema:end -->)", re.S)


def live_block() -> str:
    """The block's text: the schema as indented JSON in a fenced code block."""
    return "```json\n" + json.dumps(live_schemas(), indent=2) + "\n```\n"


def with_block(text: str) -> str:
    """``text`` with its live-schema block made current."""
    return BLOCK.sub(lambda match: match[1] + live_block() + match[2], text)


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    if not BLOCK.search(text):
        print(f"{DOC}: no live-schema block", file=sys.stderr)
        return 1
    DOC.write_text(with_block(text), encoding="utf-8")
    print(f"wrote the live messages' schema into {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
