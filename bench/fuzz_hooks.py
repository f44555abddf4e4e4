"""The check that ``bench/fuzz.py`` adds to schemathesis's own for a stranger's runs.

``QUADS_FUZZ_FOREIGN`` maps the ids of another player's games to their mode.
A stranger may read an online game (anyone holding its link may watch it),
and nothing else of another player's games: every other ``2xx`` fails.
"""

from __future__ import annotations

import json
import os
from typing import Any

import schemathesis

FOREIGN: dict[str, str] = json.loads(os.environ.get("QUADS_FUZZ_FOREIGN", "{}"))
WATCHING = ("", "/record", "/review")
"""What a spectator reads of an online game, after ``/api/games/{game_id}``."""


@schemathesis.check
def strangers_get_nothing(ctx: Any, response: Any, case: Any) -> bool | None:
    game = (case.path_parameters or {}).get("game_id")
    if game not in FOREIGN or not 200 <= response.status_code < 300:
        return None
    rest = case.operation.path.removeprefix("/api/games/{game_id}")
    if FOREIGN[game] == "online" and case.method.upper() == "GET" and rest in WATCHING:
        return None
    raise AssertionError(
        f"a stranger got {response.status_code} for {case.method.upper()} "
        f"{case.operation.path} on another player's {FOREIGN[game]} game")
