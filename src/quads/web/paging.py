"""The cursor of a paged list: where the page before ended, opaque to clients.

A cursor is the ``(updated, id)`` of the last game of a page, in URL-safe
base64: the next page starts after it (keyset paging), so pages stay in step
while games are added or played, and reading page ``n`` costs the same as
reading the first.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime

from quads.site.errors import SiteError
from quads.web.fields import GAME_ID_PATTERN

__all__ = ["CURSOR_PATTERN", "read_cursor", "write_cursor"]

CURSOR_PATTERN = r"^[A-Za-z0-9_-]{1,200}$"
"""What a cursor looks like."""


def write_cursor(key: tuple[str, str]) -> str:
    """The cursor of the page after the game whose ``(updated, id)`` is ``key``."""
    text = f"{key[0]} {key[1]}".encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def _not_ours() -> SiteError:
    return SiteError("invalid_cursor",
                    "cursor: not a cursor of this server (take it from `next`)")


def read_cursor(cursor: str) -> tuple[str, str]:
    """The ``(updated, id)`` that ``cursor`` names.

    :raises SiteError: ``422 invalid_cursor`` for a cursor of the right form that this
        server did not write (one of the wrong form never gets here: ``400``).
    """
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        updated, game_id = text.split(" ")
        datetime.fromisoformat(updated)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise _not_ours() from None
    if not re.fullmatch(GAME_ID_PATTERN, game_id):
        raise _not_ours()
    return updated, game_id
