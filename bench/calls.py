"""What a bench's players see of calling a win: no view says whether a call would
win (``docs/web-api.md``), so a player who calls every win sees it on the board."""

from __future__ import annotations

from typing import Any

from quads.cells import parse_cell
from quads.position import Position
from quads.rules import Rules


def call_wins(view: dict[str, Any]) -> bool:
    """Whether a call offered in ``view`` (``declare_offered`` or ``claim_offered``)
    would win: the last placement completed a winning shape."""
    last = view.get("last")
    if not (view["declare_offered"] or view["claim_offered"]) or not last or not last["place"]:
        return False
    position = Position.from_string(view["position"])
    return bool(position.winning_shapes_through(parse_cell(last["place"]),
                                                Rules.parse(view["rules"])))


def winning_call(view: dict[str, Any]) -> dict[str, Any] | None:
    """The call to make in ``view`` if one wins (``{"action": "declare"}`` or
    ``{"action": "claim"}``), else ``None``."""
    if not call_wins(view):
        return None
    return {"action": "declare" if view["declare_offered"] else "claim"}
