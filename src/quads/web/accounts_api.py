"""The accounts' routes: ``/api/account`` (make, read, change, delete one; its
sessions, recovery codes and link codes), ``/api/session`` (sign this device in or
out) and ``/api/passkeys`` (the passkey ceremonies).

Everything that hashes or verifies a password runs in the ``accounts`` lane of
:class:`~quads.web.thinking.Thinking` (bounded, at a lower priority), never on the
event loop nor in the database lane.  A device that signs in gets two cookies: the
identity cookie (:data:`~quads.web.middleware.identity.COOKIE`), which now holds its
session's token, and a trusted-device token (:data:`DEVICE_COOKIE`, sent to
``/api/`` only), which it keeps when it signs out, so that its owner's sign-ins are
never slowed by a stranger's failures (:mod:`quads.site.accounts.throttle`).

Tries to sign in are counted per player and per address (``rate_signins``), new
accounts too (``rate_signups``).  Whatever ends a way in (a session ended, a
merge, a deletion) is forgotten at once by this process and, through the
database's announcements, by every other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fastapi import APIRouter, Request, Response

from quads.site.accounts.devices import describe
from quads.site.accounts.passkeys import Passkeys, Site
from quads.site.accounts.service import LINK_MINUTES, SESSION_ID, Accounts
from quads.site.accounts.service import SignedIn as Entered
from quads.site.errors import SiteError
from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.middleware.identity import (
    acting,
    cookie_header,
    ended_cookie_header,
    signing_in,
    token_hash,
)
from quads.web.openapi import refusals
from quads.web.qr import qr_svg
from quads.web.schemas.accounts import (
    AccountRequest,
    AccountSettings,
    AccountView,
    DeleteAccountRequest,
    LinkCodeView,
    LinkRequest,
    PasskeyCeremony,
    PasskeyOptionsRequest,
    PasskeyProof,
    PasskeyView,
    PasswordChange,
    PasswordCheck,
    RecoveryCodes,
    RecoveryRequest,
    SessionList,
    SessionView,
    SignedIn,
    SignInRequest,
)
from quads.web.settings import client_address
from quads.web.wiring import AccountsOf, CallerOf, PasskeysOf, ThinkingOf, TokenChangedOf

__all__ = ["DEVICE_COOKIE", "router"]

router = APIRouter(prefix="/api")

DEVICE_COOKIE = "quads_device"
"""The cookie that holds a device's trusted-device token."""

_DEVICE_MAX_AGE = 400 * 86_400

_T = TypeVar("_T")

_S401 = ("`bad_credentials`: no account has this name and password (a wrong name and a "
         "wrong password alike)")
_S401_ACCOUNT = "`not_signed_in`: the caller has no account"


def _site(request: Request) -> Site:
    """The relying party of a passkey ceremony: this request's host and origin."""
    origin = str(request.base_url).rstrip("/")
    return Site(rp_id=request.url.hostname or "localhost", origin=origin)


def _device(request: Request) -> str:
    return describe(request.headers.get("user-agent", ""))


def _trusted(request: Request) -> str | None:
    token = request.cookies.get(DEVICE_COOKIE)
    return token if token and len(token) <= 64 else None


def _proved(site: Site, passkeys: Passkeys, proof: PasskeyProof | None) -> str | None:
    """The player whose passkey ``proof`` (an answer to a ``sign_in`` ceremony) proves,
    if one came (in a lane: it reads and writes the store).

    :raises SiteError: ``bad_passkey`` if it proves nothing.
    """
    if proof is None:
        return None
    return passkeys.authenticate(site, proof.challenge, proof.credential).player


async def _hashing(request: Request, engine: ThinkingOf, player: str | None,
                   work: Callable[[], _T]) -> _T:
    """``work()`` in the accounts lane, counted against the caller and their address."""
    return await engine.run("accounts", client_address(request.scope), work, player)


def _enter(request: Request, response: Response, entered: Entered,
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
    device, trusted, site = _device(request), _trusted(request), _site(request)

    def work() -> Entered:
        accounts.check_new(body.name, body.password)
        passkey = None if body.passkey is None else passkeys.register(
            site, body.passkey.challenge, player, body.passkey.credential)
        return accounts.sign_up(player, body.name, body.password, device, trusted, passkey)

    entered = await _hashing(request, engine, player, work)
    return _enter(request, response, entered, changed, player)


@router.get("/account", tags=["accounts"], responses=refusals(s401=_S401_ACCOUNT))
@quick
def my_account(accounts: AccountsOf, player: CallerOf) -> AccountView:
    """The caller's account."""
    return _view(accounts, player)


def _view(accounts: Accounts, player: str | None) -> AccountView:
    account = accounts.account(player)
    keys = accounts.store.passkeys(account.player)
    return AccountView(
        name=account.name, created=account.created, password=account.password is not None,
        passkeys=[PasskeyView(id=k.id, created=k.created, used=k.used) for k in keys],
        recovery_codes_left=accounts.store.recovery_codes_left(account.player),
        hide_ratings=account.hide_ratings)


@router.patch("/account", tags=["accounts"], responses=refusals(s401=_S401_ACCOUNT))
@quick
def change_account(body: AccountSettings, accounts: AccountsOf,
                   player: CallerOf) -> AccountView:
    """Change the account's settings (whether ratings hide while it plays)."""
    account = accounts.account(player)
    accounts.store.set_hide_ratings(account.player, body.hide_ratings)
    return _view(accounts, player)


@router.put("/account/password", status_code=204, response_class=Response,
            tags=["accounts"], responses=refusals(422, 429, s401=_S401, s422="`weak_password`"))
async def change_password(request: Request, body: PasswordChange, accounts: AccountsOf,
                          engine: ThinkingOf, changed: TokenChangedOf,
                          player: CallerOf) -> Response:
    """Give the account a new password, proved by the current one if it has one: every
    other device is signed out."""
    rates.charge(request, "signins")
    keep = token_hash(request)
    await _hashing(request, engine, player, lambda: accounts.change_password(
        player, body.current, body.new, keep))
    assert player is not None  # not_signed_in was raised otherwise
    changed(player)
    return Response(status_code=204)


@router.post("/account/recovery-codes", tags=["accounts"],
             responses=refusals(429, s401=_S401))
async def new_recovery_codes(request: Request, body: PasswordCheck, accounts: AccountsOf,
                             passkeys: PasskeysOf, engine: ThinkingOf,
                             player: CallerOf) -> RecoveryCodes:
    """Ten new recovery codes, shown this once (the old ones stop working); the
    account proves itself again: its password, or a passkey (``sign_in`` ceremony) if
    it has no password."""
    rates.charge(request, "signins")
    site = _site(request)

    def work() -> list[str]:
        account = accounts.account(player)
        proved = _proved(site, passkeys, body.passkey)
        accounts.check_password_again(account, body.password, proved)
        return accounts.new_recovery_codes(account.player)

    return RecoveryCodes(recovery_codes=await _hashing(request, engine, player, work))


@router.delete("/account", status_code=204, response_class=Response, tags=["accounts"],
               responses=refusals(429, s401=_S401))
async def delete_account(request: Request, body: DeleteAccountRequest, accounts: AccountsOf,
                         passkeys: PasskeysOf, engine: ThinkingOf, changed: TokenChangedOf,
                         player: CallerOf) -> Response:
    """Delete the caller's account, confirmed by its name and its password (or a passkey,
    if it has no password): every device is signed out; its games stay for its
    opponents, under the name "deleted player"; the name is never given again."""
    rates.charge(request, "signins")
    site = _site(request)
    await _hashing(request, engine, player, lambda: accounts.delete(
        player, body.name, body.password, _proved(site, passkeys, body.passkey)))
    assert player is not None  # not_signed_in was raised otherwise
    changed(player)
    response = Response(status_code=204)
    response.headers.append("set-cookie", ended_cookie_header(request.scope))
    return response


# -- sessions ------------------------------------------------------------------------


@router.get("/account/sessions", tags=["accounts"], responses=refusals(s401=_S401_ACCOUNT))
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
               tags=["accounts"], responses=refusals(404, s401=_S401_ACCOUNT,
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
               tags=["accounts"], responses=refusals(s401=_S401_ACCOUNT))
@quick
def end_other_sessions(request: Request, accounts: AccountsOf, changed: TokenChangedOf,
                       player: CallerOf) -> Response:
    """Sign every other device out of the caller's account."""
    account = accounts.account(player)
    if accounts.store.end_sessions(account.player, keep=token_hash(request)):
        changed(account.player)
    return Response(status_code=204)


@router.post("/account/link", tags=["accounts"], responses=refusals(429, s401=_S401_ACCOUNT))
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


# -- signing in and out ---------------------------------------------------------------


@router.post("/session", tags=["accounts"], responses=refusals(429, s401=_S401))
@signing_in
async def sign_in(request: Request, response: Response, body: SignInRequest,
                  accounts: AccountsOf, engine: ThinkingOf, changed: TokenChangedOf,
                  player: CallerOf) -> SignedIn:
    """Sign this device in by name and password: a new session.  What this device did
    before as a player without an account (its games, puzzle results) becomes the
    account's."""
    rates.charge(request, "signins")
    device, trusted, old = _device(request), _trusted(request), token_hash(request)
    entered = await _hashing(request, engine, player, lambda: accounts.sign_in(
        body.name, body.password, device, player, trusted, old))
    return _enter(request, response, entered, changed, player)


@router.post("/session/recovery", tags=["accounts"], responses=refusals(429, s401=_S401))
@signing_in
async def sign_in_by_recovery_code(request: Request, response: Response,
                                   body: RecoveryRequest, accounts: AccountsOf,
                                   engine: ThinkingOf, changed: TokenChangedOf,
                                   player: CallerOf) -> SignedIn:
    """Sign this device in by one of the account's recovery codes, used up by it."""
    rates.charge(request, "signins")
    device, trusted, old = _device(request), _trusted(request), token_hash(request)
    entered = await _hashing(request, engine, player, lambda: accounts.recover(
        body.name, body.code, device, player, trusted, old))
    return _enter(request, response, entered, changed, player)


@router.post("/session/link", tags=["accounts"], responses=refusals(
    429, s401="`bad_link_code`: mistyped, used, or expired"))
@signing_in
@quick
def sign_in_by_link_code(request: Request, response: Response, body: LinkRequest,
                         accounts: AccountsOf, changed: TokenChangedOf,
                         player: CallerOf) -> SignedIn:
    """Sign this device in by a link code that a signed-in device made, used up by it."""
    rates.charge(request, "signins")
    entered = accounts.link(body.code, _device(request), player, _trusted(request),
                            token_hash(request))
    return _enter(request, response, entered, changed, player)


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


# -- passkeys ------------------------------------------------------------------------


@router.post("/passkeys/options", tags=["accounts"], responses=refusals(
    422, 429, s401=_S401_ACCOUNT, s422="`invalid_name`, `name_taken`"))
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
        ceremony = passkeys.begin(_site(request), "sign_in", None)
    elif player is None:
        raise SiteError("not_signed_in", "this device's cookie leads to no player now: "
                        "sign in, or start as a new player, first")
    elif body.name is not None:
        accounts.check_new(body.name, None)
        ceremony = passkeys.begin(_site(request), "register", player, body.name)
    else:
        account = accounts.account(player)
        ceremony = passkeys.begin(_site(request), "register", player, account.name)
    return PasskeyCeremony(challenge=ceremony.challenge, options=ceremony.options)


@router.post("/passkeys", status_code=201, tags=["accounts"], responses=refusals(
    422, s401=_S401_ACCOUNT, s422="`bad_passkey`"))
@quick
def add_passkey(request: Request, body: PasskeyProof, accounts: AccountsOf,
                passkeys: PasskeysOf, player: CallerOf) -> AccountView:
    """Keep a new passkey of the signed-in account (made for the options of a
    ``register`` ceremony)."""
    account = accounts.account(player)
    made = passkeys.register(_site(request), body.challenge, account.player, body.credential)
    accounts.add_passkey(account.player, made)
    return _view(accounts, player)


@router.delete("/passkeys/{passkey}", tags=["accounts"], responses=refusals(
    404, 409, s401=_S401_ACCOUNT, s404="No such passkey of this account",
    s409="`last_credential`: the account would have no way in left"))
@quick
def remove_passkey(passkey: str, accounts: AccountsOf, player: CallerOf) -> AccountView:
    """Remove one of the account's passkeys (not its last way in)."""
    account = accounts.account(player)
    accounts.remove_passkey(account, passkey)
    return _view(accounts, player)


@router.post("/session/passkey", tags=["accounts"], responses=refusals(
    422, 429, s422="`bad_passkey`: unknown here, or it did not prove itself"))
@signing_in
@quick
def sign_in_by_passkey(request: Request, response: Response, body: PasskeyProof,
                       accounts: AccountsOf, passkeys: PasskeysOf, changed: TokenChangedOf,
                       player: CallerOf) -> SignedIn:
    """Sign this device in by a passkey (the answer to a ``sign_in`` ceremony)."""
    rates.charge(request, "signins")
    proved = passkeys.authenticate(_site(request), body.challenge, body.credential)
    account = accounts.account(proved.player)
    entered = accounts.enter(account, _device(request), player, _trusted(request),
                             token_hash(request))
    return _enter(request, response, entered, changed, player)

