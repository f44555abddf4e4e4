"""What a password may be, and how it is kept.

As NIST SP 800-63B asks: at least 10 characters, at most 128 (so that hashing one
costs a bounded time), no rules about kinds of characters, and none that is common
or easily guessed: :mod:`zxcvbn` knows the 30,000 most common passwords and the
patterns people use (``aaaaaaaaaa``, ``1234567890``, a word and a year), and a
password it guesses within a million tries is refused, as is one built on the
account's own name.

Passwords are kept only as Argon2id hashes (``argon2-cffi``), with OWASP's
parameters: 19 MiB of memory, 2 passes, one lane.  A hash costs tens of milliseconds
of a core: the web layer runs every hashing in a bounded lane of its own.  A hash
made with older parameters is made again at the next sign-in (:func:`needs_rehash`).
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

from quads.site.errors import SiteError

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "check_password", "hash_password", "needs_rehash",
           "verify_password", "waste_time"]

MIN_LENGTH = 10
MAX_LENGTH = 128

_GUESSES = 10**6
"""A password that zxcvbn guesses in fewer tries is refused as common."""

_HASHER = PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)

_DUMMY = _HASHER.hash("a password nobody has, to take a verification's time")
"""Verified against when there is no account, so that a wrong name takes as long to
refuse as a wrong password."""


def check_password(password: str, name: str) -> None:
    """Refuse ``password`` for the account ``name`` if it is too short, too long, common
    or built on the name.

    :raises SiteError: ``weak_password``, with the reason ``too_short``, ``too_long``,
        ``common`` or ``like_name``.
    """
    if len(password) < MIN_LENGTH:
        raise SiteError("weak_password", f"a password has at least {MIN_LENGTH} characters",
                        "too_short", min=MIN_LENGTH)
    if len(password) > MAX_LENGTH:
        raise SiteError("weak_password", f"a password has at most {MAX_LENGTH} characters",
                        "too_long", max=MAX_LENGTH)
    if name and name.lower() in password.lower():
        raise SiteError("weak_password", "a password must not hold the account's name",
                        "like_name")
    if zxcvbn(password, user_inputs=[name, "quads", "quarto"])["guesses"] < _GUESSES:
        raise SiteError("weak_password", "this password is among the common ones, or is "
                        "easily guessed: choose a longer or less usual one", "common")


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password``, to keep."""
    return _HASHER.hash(password)


def verify_password(hashed: str | None, password: str) -> bool:
    """Whether ``password`` is the one of ``hashed``; with no hash (no such account, or
    one without a password), ``False`` after as long as a real verification takes."""
    try:
        return _HASHER.verify(_DUMMY if hashed is None else hashed, password) and (
            hashed is not None)
    except (VerificationError, InvalidHashError):
        return False


def waste_time(password: str) -> None:
    """Take as long as a verification of ``password`` (for a refusal that must not be
    told from a wrong password by its time)."""
    verify_password(None, password)


def needs_rehash(hashed: str) -> bool:
    """Whether ``hashed`` was made with other parameters than today's."""
    return _HASHER.check_needs_rehash(hashed)
