"""The passkey ceremonies of accounts (``/api/passkeys``): options to begin one,
a passkey added to the signed-in account, and one removed.  Signing in by a passkey
is :mod:`quads.web.sessions_api`'s; signing up by one, ``POST /api/account``'s.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from quads.site.errors import SiteError
from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.middleware.identity import acting, signing_in
from quads.web.openapi import refusals
from quads.web.schemas.accounts import (
    AccountView,
    PasskeyCeremony,
    PasskeyOptionsRequest,
    PasskeyProof,
)
from quads.web.signing import (
    S401_ACCOUNT,
    account_view,
    site_of,
)
from quads.web.wiring import AccountsOf, CallerOf, PasskeysOf

__all__ = ["router"]

router = APIRouter(prefix="/api")


# -- passkeys ------------------------------------------------------------------------


@router.post("/passkeys/options", tags=["accounts"], responses=refusals(
    422, 429, s401=S401_ACCOUNT, s422="`invalid_name`, `name_taken`"))
@acting
@signing_in
@quick
def passkey_options(request: Request, body: PasskeyOptionsRequest, accounts: AccountsOf,
                    passkeys: PasskeysOf, player: CallerOf) -> PasskeyCeremony:
    """Begin a passkey ceremony: ``register`` a passkey for the signed-in account (or,
    with a ``name``, for the account about to be made with ``POST /api/account``), or
    ``sign_in``."""
    rates.charge(request, "signins")
    if body.purpose == "sign_in":  # a token that leads nowhere (signed out elsewhere) too
        ceremony = passkeys.begin(site_of(request), "sign_in", None)
    elif player is None:
        raise SiteError("not_signed_in", "this device's cookie leads to no player now: "
                        "sign in, or start as a new player, first")
    elif body.name is not None:
        accounts.check_new(body.name, None)
        ceremony = passkeys.begin(site_of(request), "register", player, body.name)
    else:
        account = accounts.account(player)
        ceremony = passkeys.begin(site_of(request), "register", player, account.name)
    return PasskeyCeremony(challenge=ceremony.challenge, options=ceremony.options)


@router.post("/passkeys", status_code=201, tags=["accounts"], responses=refusals(
    422, s401=S401_ACCOUNT, s422="`bad_passkey`"))
@quick
def add_passkey(request: Request, body: PasskeyProof, accounts: AccountsOf,
                passkeys: PasskeysOf, player: CallerOf) -> AccountView:
    """Keep a new passkey of the signed-in account (made for the options of a
    ``register`` ceremony)."""
    account = accounts.account(player)
    made = passkeys.register(site_of(request), body.challenge, account.player, body.credential)
    accounts.add_passkey(account.player, made)
    return account_view(accounts, player)


@router.delete("/passkeys/{passkey}", tags=["accounts"], responses=refusals(
    404, 409, s401=S401_ACCOUNT, s404="No such passkey of this account",
    s409="`last_credential`: the account would have no way in left"))
@quick
def remove_passkey(passkey: str, accounts: AccountsOf, player: CallerOf) -> AccountView:
    """Remove one of the account's passkeys (not its last way in)."""
    account = accounts.account(player)
    accounts.remove_passkey(account, passkey)
    return account_view(accounts, player)
