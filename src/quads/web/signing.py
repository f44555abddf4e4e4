"""What the routes of accounts, sessions and passkeys share: the cookies a device
gets when it signs in, the device's name and trusted-device token, the lane that
hashes, and the account as they answer it.

A device that signs in gets two cookies: the identity cookie
(:data:`~quads.web.middleware.identity.COOKIE`), which now holds its session's token,
and a trusted-device token (:data:`DEVICE_COOKIE`, sent to ``/api/`` only), which it
keeps when it signs out, so that its owner's sign-ins are never slowed by a
stranger's failures (:mod:`quads.site.accounts.throttle`).  Everything that hashes or
verifies a password runs in the ``accounts`` lane of
:class:`~quads.web.thinking.Thinking` (bounded, at a lower priority), never on the
event loop nor in the database lane.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fastapi import Request, Response

from quads.site.accounts.devices import describe
from quads.site.accounts.passkeys import Passkeys, Site
from quads.site.accounts.service import Accounts
from quads.site.accounts.service import SignedIn as Entered
from quads.web.middleware.identity import cookie_header
from quads.web.schemas.accounts import AccountView, PasskeyProof, PasskeyView, SignedIn
from quads.web.settings import client_address
from quads.web.thinking import Thinking

__all__ = ["DEVICE_COOKIE", "S401", "S401_ACCOUNT", "account_view", "device_of", "enter",
           "hashing", "proved", "site_of", "trusted_of"]

DEVICE_COOKIE = "quads_device"
"""The cookie that holds a device's trusted-device token."""

_DEVICE_MAX_AGE = 400 * 86_400

_T = TypeVar("_T")

S401 = ("`bad_credentials`: no account has this name and password (a wrong name and a "
        "wrong password alike)")
"""The description of a ``401`` of a route that checks credentials."""
S401_ACCOUNT = "`not_signed_in`: the caller has no account"
"""The description of a ``401`` of a route of the caller's account."""


def site_of(request: Request) -> Site:
    """The relying party of a passkey ceremony: this request's host and origin."""
    origin = str(request.base_url).rstrip("/")
    return Site(rp_id=request.url.hostname or "localhost", origin=origin)


def device_of(request: Request) -> str:
    """The device of ``request``, as its owner's list of sessions names it."""
    return describe(request.headers.get("user-agent", ""))


def trusted_of(request: Request) -> str | None:
    """The trusted-device token ``request`` brings, if any."""
    token = request.cookies.get(DEVICE_COOKIE)
    return token if token and len(token) <= 64 else None


def proved(site: Site, passkeys: Passkeys, proof: PasskeyProof | None) -> str | None:
    """The player whose passkey ``proof`` (an answer to a ``sign_in`` ceremony) proves,
    if one came (in a lane: it reads and writes the store).

    :raises SiteError: ``bad_passkey`` if it proves nothing.
    """
    if proof is None:
        return None
    return passkeys.authenticate(site, proof.challenge, proof.credential).player


async def hashing(request: Request, engine: Thinking, player: str | None,
                   work: Callable[[], _T]) -> _T:
    """``work()`` in the accounts lane, counted against the caller and their address."""
    return await engine.run("accounts", client_address(request.scope), work, player)


def enter(request: Request, response: Response, entered: Entered,
           changed: Callable[[str], None], caller: str | None) -> SignedIn:
    """Give the device its session and trusted-device cookies; forget what ended."""
    response.headers.append("set-cookie", cookie_header(entered.session, request.scope))
    secure = "; Secure" if request.url.scheme == "https" else ""
    response.headers.append("set-cookie", f"{DEVICE_COOKIE}={entered.trusted}; Path=/api/; "
                            f"Max-Age={_DEVICE_MAX_AGE}; HttpOnly; SameSite=Strict{secure}")
    if caller is not None:
        # Its first token (made an account, or merged), or the session it held until
        # now, leads nowhere now.
        changed(caller)
    return SignedIn(name=entered.name, merged=entered.merged,
                    recovery_codes=entered.recovery_codes or None)


def account_view(accounts: Accounts, player: str | None) -> AccountView:
    """The caller's account as its routes answer it (in the database lane).

    :raises SiteError: ``not_signed_in`` for a caller without one.
    """
    account = accounts.account(player)
    keys = accounts.store.passkeys(account.player)
    return AccountView(
        name=account.name, created=account.created, password=account.password is not None,
        passkeys=[PasskeyView(id=k.id, created=k.created, used=k.used) for k in keys],
        recovery_codes_left=accounts.store.recovery_codes_left(account.player),
        hide_ratings=account.hide_ratings)
