"""Signing a device in and out: ``/api/session`` (by name and password), its
``/recovery``, ``/link`` and ``/passkey`` ways, and ``DELETE /api/session``.

Tries to sign in are counted per player and per address (``rate_signins``).  Every
sign-in gives the device a new session (the one it held ends) and merges the
anonymous player it was into the account (:mod:`quads.site.accounts.service`).
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.middleware.identity import ended_cookie_header, signing_in, token_hash
from quads.web.openapi import refusals
from quads.web.schemas.accounts import (
    LinkRequest,
    PasskeyProof,
    RecoveryRequest,
    SignedIn,
    SignInRequest,
)
from quads.web.signing import (
    S401,
    device_of,
    enter,
    hashing,
    site_of,
    trusted_of,
)
from quads.web.wiring import AccountsOf, CallerOf, PasskeysOf, ThinkingOf, TokenChangedOf

__all__ = ["router"]

router = APIRouter(prefix="/api")


# -- signing in and out ---------------------------------------------------------------


@router.post("/session", tags=["accounts"], responses=refusals(429, s401=S401))
@signing_in
async def sign_in(request: Request, response: Response, body: SignInRequest,
                  accounts: AccountsOf, engine: ThinkingOf, changed: TokenChangedOf,
                  player: CallerOf) -> SignedIn:
    """Sign this device in by name and password: a new session.  What this device did
    before as a player without an account (its games, puzzle results) becomes the
    account's."""
    rates.charge(request, "signins")
    device, trusted, old = device_of(request), trusted_of(request), token_hash(request)
    entered = await hashing(request, engine, player, lambda: accounts.sign_in(
        body.name, body.password, device, player, trusted, old))
    return enter(request, response, entered, changed, player)


@router.post("/session/recovery", tags=["accounts"], responses=refusals(429, s401=S401))
@signing_in
async def sign_in_by_recovery_code(request: Request, response: Response,
                                   body: RecoveryRequest, accounts: AccountsOf,
                                   engine: ThinkingOf, changed: TokenChangedOf,
                                   player: CallerOf) -> SignedIn:
    """Sign this device in by one of the account's recovery codes, used up by it."""
    rates.charge(request, "signins")
    device, trusted, old = device_of(request), trusted_of(request), token_hash(request)
    entered = await hashing(request, engine, player, lambda: accounts.recover(
        body.name, body.code, device, player, trusted, old))
    return enter(request, response, entered, changed, player)


@router.post("/session/link", tags=["accounts"], responses=refusals(
    429, s401="`bad_link_code`: mistyped, used, or expired"))
@signing_in
@quick
def sign_in_by_link_code(request: Request, response: Response, body: LinkRequest,
                         accounts: AccountsOf, changed: TokenChangedOf,
                         player: CallerOf) -> SignedIn:
    """Sign this device in by a link code that a signed-in device made, used up by it."""
    rates.charge(request, "signins")
    entered = accounts.link(body.code, device_of(request), player, trusted_of(request),
                            token_hash(request))
    return enter(request, response, entered, changed, player)


@router.delete("/session", status_code=204, response_class=Response, tags=["accounts"])
@signing_in
@quick
def sign_out(request: Request, accounts: AccountsOf, changed: TokenChangedOf,
             player: CallerOf) -> Response:
    """Sign this device out: its session ends, and it is a newcomer from now on (it
    keeps being trusted by the account, for its next sign-in).  A player without an
    account has no session: nothing changes for it."""
    session = token_hash(request)
    response = Response(status_code=204)
    if player is not None and session == player:
        return response  # no session: its cookie is the player itself, kept
    if player is not None and session is not None and accounts.store.end_sessions(
            player, only=session):
        changed(player)
    response.headers.append("set-cookie", ended_cookie_header(request.scope))
    return response


@router.post("/session/passkey", tags=["accounts"], responses=refusals(
    422, 429, s422="`bad_passkey`: unknown here, or it did not prove itself"))
@signing_in
@quick
def sign_in_by_passkey(request: Request, response: Response, body: PasskeyProof,
                       accounts: AccountsOf, passkeys: PasskeysOf, changed: TokenChangedOf,
                       player: CallerOf) -> SignedIn:
    """Sign this device in by a passkey (the answer to a ``sign_in`` ceremony)."""
    rates.charge(request, "signins")
    proved = passkeys.authenticate(site_of(request), body.challenge, body.credential)
    account = accounts.account(proved.player)
    entered = accounts.enter(account, device_of(request), player, trusted_of(request),
                             token_hash(request))
    return enter(request, response, entered, changed, player)
