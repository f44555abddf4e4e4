"""The site's refusals: what its rules forbid, named by a code.

A :class:`SiteError` says what was refused and why, in three parts that a client
can read: ``code`` (``seat_taken``, ``not_your_turn`` ...), an English ``message``
for developers, and, where the refusal says more, a ``reason`` and ``params`` (the
values it speaks of), from which a page words it in its reader's language.

The site knows nothing of HTTP: the web layer answers each code with the status
of its one table (:data:`quads.web.errors.STATUSES`), and a code without one there
is a fault of the server, which the tests look for.
"""

from __future__ import annotations

from quads.errors import Params

__all__ = ["SiteError"]


class SiteError(Exception):
    """A refusal of the site's rules (not of the library's: those are
    :class:`quads.errors.QuadsError`)."""

    def __init__(self, code: str, message: str, reason: str = "", /,
                 **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.params: Params = dict(params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"

    @classmethod
    def stale(cls, revision: int, current: int) -> SiteError:
        """The client's ``revision`` is not the game's."""
        return cls("stale", f"revision {revision} is stale: the game is at revision {current}",
                   "", revision=revision, current=current)

    @classmethod
    def not_your_turn(cls, message: str) -> SiteError:
        """A person acts on the computer's turn, or the computer is asked on a person's."""
        return cls("not_your_turn", message)

    @classmethod
    def game_over(cls) -> SiteError:
        """An action after the end of the game."""
        return cls("game_over", "the game is over")

    @classmethod
    def not_found(cls, message: str) -> SiteError:
        """Nothing of that name, or nothing the caller may see."""
        return cls("not_found", message)
