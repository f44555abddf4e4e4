"""The accounts' routes: ``/api/account`` (make, read, change, delete one; its
sessions, recovery codes and link codes).  Signing in and out is
:mod:`quads.web.sessions_api`'s, passkeys :mod:`quads.web.passkeys_api`'s, and what
they share :mod:`quads.web.signing`'s.

New accounts are counted per player and per address (``rate_signups``), the routes
that ask the password again like tries to sign in (``rate_signins``).  Whatever ends
a way in (a session ended, a deletion) is forgotten at once by this process and,
through the database's announcements, by every other.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from quads.site.accounts.service import LINK_MINUTES, SESSION_ID
from quads.site.accounts.service import SignedIn as Entered
from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.middleware.identity import acting, ended_cookie_header, token_hash
from quads.web.openapi import refusals
from quads.web.qr import qr_svg
from quads.web.schemas.accounts import (
    AccountRequest,
    AccountSettings,
    AccountView,
    DeleteAccountRequest,
    LinkCodeView,
    PasswordChange,
    PasswordCheck,
    RecoveryCodes,
    SessionList,
    SessionView,
    SignedIn,
)
from quads.web.signing import (
    S401,
    S401_ACCOUNT,
    account_view,
    device_of,
    enter,
    hashing,
    proved,
    site_of,
    trusted_of,
)
from quads.web.wiring import AccountsOf, CallerOf, PasskeysOf, ThinkingOf, TokenChangedOf

__all__ = ["router"]

router = APIRouter(prefix="/api")


# -- making an account ---------------------------------------------------------------


@router.post("/account", status_code=201, tags=["accounts"], responses=refusals(
    409, 422, 429, s409="`name_taken`, or `account_exists`: the caller has one already",
    s422="`invalid_name`, `weak_password` (with the `reason`), `no_credential`, "
         "`bad_passkey`"))
@acting
async def create_account(request: Request, response: Response, body: AccountRequest,
                         accounts: AccountsOf, passkeys: PasskeysOf, engine: ThinkingOf,
                         changed: TokenChangedOf, player: CallerOf) -> SignedIn:
    """Make the caller's player an account: every game, result and name it had is
    kept, and this device is signed in.  With a password, a passkey (made for
    ``POST /api/passkeys/options``), or both.  The answer holds ten recovery codes,
    shown this once."""
    assert player is not None  # an acting route always has a caller
    rates.charge(request, "signups")
    device, trusted, site = device_of(request), trusted_of(request), site_of(request)

    def work() -> Entered:
        accounts.check_new(body.name, body.password)
        passkey = None if body.passkey is None else passkeys.register(
            site, body.passkey.challenge, player, body.passkey.credential)
        return accounts.sign_up(player, body.name, body.password, device, trusted, passkey)

    entered = await hashing(request, engine, player, work)
    return enter(request, response, entered, changed, player)


@router.get("/account", tags=["accounts"], responses=refusals(s401=S401_ACCOUNT))
@quick
def my_account(accounts: AccountsOf, player: CallerOf) -> AccountView:
    """The caller's account."""
    return account_view(accounts, player)


@router.patch("/account", tags=["accounts"], responses=refusals(s401=S401_ACCOUNT))
@quick
def change_account(body: AccountSettings, accounts: AccountsOf,
                   player: CallerOf) -> AccountView:
    """Change the account's settings (whether ratings hide while it plays)."""
    account = accounts.account(player)
    accounts.store.set_hide_ratings(account.player, body.hide_ratings)
    return account_view(accounts, player)


@router.put("/account/password", status_code=204, response_class=Response,
            tags=["accounts"], responses=refusals(422, 429, s401=S401, s422="`weak_password`"))
async def change_password(request: Request, body: PasswordChange, accounts: AccountsOf,
                          engine: ThinkingOf, changed: TokenChangedOf,
                          player: CallerOf) -> Response:
    """Give the account a new password, proved by the current one if it has one: every
    other device is signed out."""
    rates.charge(request, "signins")
    keep = token_hash(request)
    await hashing(request, engine, player, lambda: accounts.change_password(
        player, body.current, body.new, keep))
    assert player is not None  # not_signed_in was raised otherwise
    changed(player)
    return Response(status_code=204)


@router.post("/account/recovery-codes", tags=["accounts"],
             responses=refusals(429, s401=S401))
async def new_recovery_codes(request: Request, body: PasswordCheck, accounts: AccountsOf,
                             passkeys: PasskeysOf, engine: ThinkingOf,
                             player: CallerOf) -> RecoveryCodes:
    """Ten new recovery codes, shown this once (the old ones stop working); the
    account proves itself again: its password, or a passkey (``sign_in`` ceremony) if
    it has no password."""
    rates.charge(request, "signins")
    site = site_of(request)

    def work() -> list[str]:
        account = accounts.account(player)
        accounts.check_password_again(account, body.password,
                                      proved(site, passkeys, body.passkey))
        return accounts.new_recovery_codes(account.player)

    return RecoveryCodes(recovery_codes=await hashing(request, engine, player, work))


@router.delete("/account", status_code=204, response_class=Response, tags=["accounts"],
               responses=refusals(429, s401=S401))
async def delete_account(request: Request, body: DeleteAccountRequest, accounts: AccountsOf,
                         passkeys: PasskeysOf, engine: ThinkingOf, changed: TokenChangedOf,
                         player: CallerOf) -> Response:
    """Delete the caller's account, confirmed by its name and its password (or a passkey,
    if it has no password): every device is signed out; its games stay for its
    opponents, under the name "deleted player"; the name is never given again."""
    rates.charge(request, "signins")
    site = site_of(request)
    await hashing(request, engine, player, lambda: accounts.delete(
        player, body.name, body.password, proved(site, passkeys, body.passkey)))
    assert player is not None  # not_signed_in was raised otherwise
    changed(player)
    response = Response(status_code=204)
    response.headers.append("set-cookie", ended_cookie_header(request.scope))
    return response


# -- sessions ------------------------------------------------------------------------


@router.get("/account/sessions", tags=["accounts"], responses=refusals(s401=S401_ACCOUNT))
@quick
def my_sessions(request: Request, accounts: AccountsOf, player: CallerOf) -> SessionList:
    """The devices signed in to the caller's account, the last seen first."""
    account = accounts.account(player)
    current = token_hash(request)
    return SessionList(sessions=[
        SessionView(id=s.id[:SESSION_ID], device=s.device, created=s.created, seen=s.seen,
                    current=s.id == current)
        for s in accounts.sessions(account.player)])


@router.delete("/account/sessions/{session}", status_code=204, response_class=Response,
               tags=["accounts"], responses=refusals(404, s401=S401_ACCOUNT,
                                                     s404="No such session of this account"))
@quick
def end_session(session: str, accounts: AccountsOf, changed: TokenChangedOf,
                player: CallerOf) -> Response:
    """Sign one device out (this one too, if named)."""
    account = accounts.account(player)
    accounts.end_session(account.player, session)
    changed(account.player)
    return Response(status_code=204)


@router.delete("/account/sessions", status_code=204, response_class=Response,
               tags=["accounts"], responses=refusals(s401=S401_ACCOUNT))
@quick
def end_other_sessions(request: Request, accounts: AccountsOf, changed: TokenChangedOf,
                       player: CallerOf) -> Response:
    """Sign every other device out of the caller's account."""
    account = accounts.account(player)
    if accounts.store.end_sessions(account.player, keep=token_hash(request)):
        changed(account.player)
    return Response(status_code=204)


@router.post("/account/link", tags=["accounts"], responses=refusals(429, s401=S401_ACCOUNT))
@quick
def new_link_code(request: Request, accounts: AccountsOf, player: CallerOf) -> LinkCodeView:
    """A code that lets one new device in to the caller's account within minutes: typed
    there, or its page's address opened (as a QR code, say)."""
    rates.charge(request, "signins")
    account = accounts.account(player)
    code, expires = accounts.new_link_code(account.player)
    url = f"{str(request.base_url).rstrip('/')}/#/link/{code}"
    return LinkCodeView(code=code, expires=expires, seconds=LINK_MINUTES * 60, url=url,
                        qr=qr_svg(url, "Sign in to Quads").decode())
