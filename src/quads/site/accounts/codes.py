"""The tokens and codes of accounts, and the hashes by which the store keeps them.

Session tokens and trusted-device tokens are 256 random bits, like a player's
token.  Recovery codes (ten, shown once) and link codes (valid for minutes, used
once) are for people to type: letters of an alphabet without look-alikes, in
groups.  A recovery code has 60 bits; a link code 40, enough for the minutes it
lives under the rate of tries a client is allowed.  Each is kept as its SHA-256: the
secrets are random, so no slow hash is needed to protect them.
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["ALPHABET", "hashed", "link_code", "normal_code", "recovery_codes", "token"]

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""32 letters and digits, without ``I O 0 1``, which people mix up."""

RECOVERY_CODES = 10


def token() -> str:
    """A new secret token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def hashed(secret: str) -> str:
    """The SHA-256 of ``secret`` in hex, as the store keeps it."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _code(groups: int) -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(groups))


def recovery_codes() -> list[str]:
    """Ten new recovery codes (``ABCD-EFGH-JKLM``, 60 bits each)."""
    return [_code(3) for _ in range(RECOVERY_CODES)]


def link_code() -> str:
    """A new link code (``ABCD-EFGH``, 40 bits)."""
    return _code(2)


def normal_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes anywhere) in its written form, so that
    its hash is found."""
    letters = "".join(c for c in text.upper() if c.isascii() and c.isalnum())[:64]
    return "-".join(letters[i:i + 4] for i in range(0, len(letters), 4))
