"""How often a name may be tried: the throttle of sign-ins, per account.

Guessing one account's password from many addresses is slowed by counting the
failed tries at each account: ``failures`` of them (a moving window, ``limits``)
and every further try is refused with ``rate_limited`` until the window frees one.
That alone would let a stranger lock a player out by failing on purpose, so the
devices that signed in to the account before (they keep a *trusted device* token)
are never counted nor refused here: its owner, at home, always gets in; a new
device is let in by a link code from a signed-in one, a passkey or a recovery code.
Tries per address are the web layer's (:mod:`quads.web.middleware.rates`).

Counts are kept in the memory of each process, as the other rates are, in the same
windows (:class:`~quads.site.windows.Windows`), which forget the names whose
failures all left their window: a flood of tries at made-up names leaves nothing
behind.
"""

from __future__ import annotations

import math
import time

from limits import parse_many
from limits.strategies import MovingWindowRateLimiter

from quads.site.errors import SiteError
from quads.site.windows import Windows

__all__ = ["AccountThrottle"]


class AccountThrottle:
    """Failed tries per account, by untrusted devices, at most ``failures`` (a
    ``limits`` text such as ``10/hour``)."""

    def __init__(self, failures: str = "10/15minutes;30/day") -> None:
        self._items = parse_many(failures)
        self.windows = Windows()
        """The failures counted, by name."""
        self._limiter = MovingWindowRateLimiter(self.windows)

    def check(self, name: str) -> None:
        """Refuse a try at the account ``name`` from an untrusted device while its
        failures are over the throttle.

        :raises SiteError: ``rate_limited`` with ``retry_after`` (seconds).
        """
        key = name.lower()
        waits = [self._wait(item, key) for item in self._items
                 if not self._limiter.test(item, "account", key)]
        if waits:
            wait = max(waits)
            raise SiteError("rate_limited", f"too many failed sign-ins to this account: try "
                            f"again in {wait} s, or from a device signed in to it before",
                            "account", retry_after=wait)

    def failed(self, name: str) -> None:
        """Count a failed try at the account ``name`` by an untrusted device."""
        for item in self._items:
            self._limiter.hit(item, "account", name.lower())

    def _wait(self, item: object, key: str) -> int:
        reset = self._limiter.get_window_stats(item, "account", key).reset_time  # type: ignore[arg-type]
        return max(1, math.ceil(reset - time.time()))
