"""What an account's name may be.

A name is 3 to 20 letters (``A-Z a-z``), digits, ``_`` and ``-``, so that it reads
the same everywhere, fits in a URL as it is, and can never be mistaken for a name a
player without an account was given (``Quiet Heron 42`` has spaces).  Two names that
differ only in case are the same name: it is kept as it was written and looked up in
lower case.  Names that would pass for the site itself or for nobody are reserved.
"""

from __future__ import annotations

import re

from quads.site.errors import SiteError

__all__ = ["NAME", "RESERVED", "check_name"]

NAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
"""An account's name, whole."""

RESERVED = frozenset({
    "admin", "administrator", "anonymous", "api", "account", "bot", "bots", "deleted",
    "deleted-player", "deleted_player", "guest", "help", "lobby", "me", "mod", "moderator",
    "nobody", "null", "official", "player", "quads", "quarto", "root", "server", "session",
    "settings", "staff", "support", "system", "undefined", "unknown", "www",
})
"""Names nobody may take (compared in lower case)."""


def check_name(name: str) -> str:
    """``name``, if an account may have it.

    :raises SiteError: ``invalid_name``, with the reason ``length`` (not 3 to 20
        characters), ``characters`` (others than letters, digits, ``_`` and ``-``) or
        ``reserved``.
    """
    if not 3 <= len(name) <= 20:
        raise SiteError("invalid_name", f"a name has 3 to 20 characters, not {len(name)}",
                        "length", min=3, max=20)
    if NAME.fullmatch(name) is None:
        raise SiteError("invalid_name", f"{name!r}: a name has only letters A-Z, digits, "
                        "'_' and '-'", "characters")
    if name.lower() in RESERVED:
        raise SiteError("invalid_name", f"the name {name!r} is reserved", "reserved")
    return name
