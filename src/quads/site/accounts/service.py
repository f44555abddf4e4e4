"""The rules of accounts: signing up, in and out, the sessions, recovery and links.

An account is made of the caller's current player (:meth:`Accounts.sign_up`):
nothing it had is lost, and its device is signed in at once.  Signing in
(:meth:`Accounts.sign_in` and the ways beside the password) gives the device a new
session; an anonymous player the device was is merged into the account (its games
and results become the account's), a bot or another account never is.  A wrong
name and a wrong password are refused alike (``401 bad_credentials``) after the same
work.

Every method here may hash or verify a password, which costs a core for tens of
milliseconds: the web layer calls them in a bounded lane of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from quads.site.accounts.codes import hashed, link_code, normal_code, recovery_codes, token
from quads.site.accounts.names import check_name
from quads.site.accounts.passkeys import NewPasskey
from quads.site.accounts.passwords import (
    check_password,
    hash_password,
    needs_rehash,
    verify_password,
    waste_time,
)
from quads.site.accounts.throttle import AccountThrottle
from quads.site.errors import SiteError
from quads.storage.accounts import (
    Account,
    AccountExistsError,
    AccountStore,
    NameTakenError,
    Session,
)
from quads.storage.errors import StorageError
from quads.storage.stored import now

__all__ = ["LINK_MINUTES", "Accounts", "SignedIn"]

LINK_MINUTES = 5
"""How long a link code lets a new device in."""

SESSION_ID = 16
"""Hex digits of a session's hash that name it in its owner's list."""


@dataclass(frozen=True)
class SignedIn:
    """A device just signed in: the tokens to give it (a session and a trusted-device
    token, both cookies), and on sign-up the recovery codes, shown once."""

    player: str
    name: str
    session: str
    trusted: str
    recovery_codes: list[str] = field(default_factory=list)
    merged: bool = False
    """Whether the anonymous player the device was became part of the account."""


def _bad_credentials() -> SiteError:
    return SiteError("bad_credentials", "no account has this name and password")


class Accounts:
    """The accounts of ``store`` under the per-account ``throttle``."""

    def __init__(self, store: AccountStore, throttle: AccountThrottle | None = None) -> None:
        self.store = store
        self.throttle = throttle if throttle is not None else AccountThrottle()

    # -- signing up ---------------------------------------------------------------

    def check_new(self, name: str, password: str | None) -> None:
        """Refuse a name or a password that no new account may have.

        :raises SiteError: ``invalid_name``, ``weak_password``, ``name_taken``.
        """
        check_name(name)
        if password is not None:
            check_password(password, name)
        if self.store.by_name(name) is not None:
            raise SiteError("name_taken", f"the name {name!r} is taken", "", name=name)

    def sign_up(self, player: str, name: str, password: str | None, device: str,
                trusted: str | None = None, passkey: NewPasskey | None = None) -> SignedIn:
        """Make ``player`` (the caller) an account named ``name``, with ``password``,
        ``passkey`` or both, and sign this device in.

        :raises SiteError: ``invalid_name``, ``weak_password``, ``name_taken``,
            ``no_credential`` with neither password nor passkey, or ``account_exists``
            if the caller has an account already.
        """
        if password is None and passkey is None:
            raise SiteError("no_credential", "an account needs a password or a passkey")
        self.check_new(name, password)
        codes = recovery_codes()
        session, trust = token(), trusted or token()
        try:
            self.store.create(player, name, None if password is None else hash_password(password),
                              [hashed(code) for code in codes], hashed(session), device,
                              hashed(trust), None if passkey is None else (
                                  passkey.id, passkey.public_key, passkey.sign_count))
        except NameTakenError:
            raise SiteError("name_taken", f"the name {name!r} is taken", "", name=name) from None
        except AccountExistsError:
            raise SiteError("account_exists", "this player has an account already: sign out "
                            "first to make another") from None
        return SignedIn(player, name, session, trust, codes)

    # -- signing in -----------------------------------------------------------------

    def sign_in(self, name: str, password: str, device: str, caller: str | None,
                trusted: str | None = None, replaces: str | None = None) -> SignedIn:
        """Sign a device in by name and password.

        :raises SiteError: ``bad_credentials`` (a wrong name or password, alike), or
            ``rate_limited`` while the account's failures from untrusted devices are
            over its throttle.
        """
        account = self.store.by_name(name)
        known = account is not None and account.deleted is None
        is_trusted = known and trusted is not None and account is not None and (
            self.store.trusted(hashed(trusted), account.player))
        if not is_trusted:
            self.throttle.check(name)
        if account is None or account.deleted is not None:
            waste_time(password)
            if not is_trusted:
                self.throttle.failed(name)
            raise _bad_credentials()
        if not verify_password(account.password, password):
            if not is_trusted:
                self.throttle.failed(name)
            raise _bad_credentials()
        assert account.password is not None
        if needs_rehash(account.password):
            self.store.set_password(account.player, hash_password(password))
        return self.enter(account, device, caller, trusted, replaces)

    def recover(self, name: str, code: str, device: str, caller: str | None,
                trusted: str | None = None, replaces: str | None = None) -> SignedIn:
        """Sign a device in by a recovery code of the account ``name``, which is used up.

        :raises SiteError: ``bad_credentials``, ``rate_limited``.
        """
        self.throttle.check(name)
        account = self.store.by_name(name)
        if (account is None or account.deleted is not None
                or not self.store.use_recovery_code(account.player, hashed(normal_code(code)))):
            self.throttle.failed(name)
            raise _bad_credentials()
        return self.enter(account, device, caller, trusted, replaces)

    def link(self, code: str, device: str, caller: str | None,
             trusted: str | None = None, replaces: str | None = None) -> SignedIn:
        """Sign a device in by a link code that a signed-in device made, used up.

        :raises SiteError: ``bad_link_code`` if it is not one, was used or expired.
        """
        player = self.store.use_link_code(hashed(normal_code(code)))
        account = None if player is None else self.store.of(player)
        if account is None or account.deleted is not None:
            raise SiteError("bad_link_code", "this code lets no device in: it was mistyped, "
                            "used, or has expired; make a new one on a signed-in device")
        return self.enter(account, device, caller, trusted, replaces)

    def enter(self, account: Account, device: str, caller: str | None,
              trusted: str | None = None, replaces: str | None = None) -> SignedIn:
        """Sign a device in to ``account`` (its owner proved it): a new session; the
        anonymous player ``caller`` merged in; the session ``replaces`` (the hash of the
        device's token, when it was signed in already) ends: a sign-in always rotates
        the device's session."""
        merge = None
        if caller is not None and caller != account.player:
            has_account, bot = self.store.standing(caller)
            merge = None if has_account or bot else caller
        old = None if caller is None or replaces is None or replaces == caller else (
            caller, replaces)
        session = token()
        trust = trusted if trusted and self.store.trusted(hashed(trusted), account.player) \
            else token()
        merged = self.store.sign_in(account.player, hashed(session), device, hashed(trust),
                                    merge, old)
        return SignedIn(account.player, account.name, session, trust, merged=merged)

    # -- a signed-in account --------------------------------------------------------

    def account(self, player: str | None) -> Account:
        """The caller's account.

        :raises SiteError: ``not_signed_in`` if the caller has none (or it is deleted).
        """
        account = None if player is None else self.store.of(player)
        if account is None or account.deleted is not None:
            raise SiteError("not_signed_in", "sign in to an account first")
        return account

    def sessions(self, player: str) -> list[Session]:
        """The devices signed in to ``player``'s account."""
        return self.store.sessions(player)

    def end_session(self, player: str, session: str) -> None:
        """End one of ``player``'s sessions, named by the first digits of its hash.

        :raises SiteError: ``not_found`` if none of theirs is named so.
        """
        found = [s.id for s in self.store.sessions(player)
                 if len(session) == SESSION_ID and s.id.startswith(session)]
        if not found or not self.store.end_sessions(player, only=found[0]):
            raise SiteError.not_found(f"no session {session!r} of this account")

    def change_password(self, player: str | None, current: str | None, new: str,
                        keep: str | None = None) -> None:
        """Give the account ``new`` as its password, proving ``current`` (if it has one);
        every other device is signed out (all but the session ``keep``).

        :raises SiteError: ``bad_credentials`` for a wrong current password,
            ``weak_password``.
        """
        account = self.account(player)
        if account.password is not None and not verify_password(account.password,
                                                                 current or ""):
            raise _bad_credentials()
        check_password(new, account.name)
        self.store.set_password(account.player, hash_password(new))
        self.store.end_sessions(account.player, keep=keep)

    def check_password_again(self, account: Account, password: str | None,
                             passkey: str | None = None) -> None:
        """Ask the account to prove itself again before a change that matters: its
        password, or for an account without one a passkey of its own just proved
        (``passkey``: the player that passkey belongs to).

        :raises SiteError: ``bad_credentials`` if the proof is wrong or missing.
        """
        if account.password is not None:
            if not verify_password(account.password, password or ""):
                raise _bad_credentials()
        elif passkey != account.player:
            raise _bad_credentials()

    def add_passkey(self, player: str, passkey: NewPasskey) -> None:
        """Keep a passkey registered for ``player``'s account.

        :raises SiteError: ``bad_passkey`` if it is known already.
        """
        try:
            self.store.add_passkey(player, passkey.id, passkey.public_key, passkey.sign_count)
        except StorageError:
            raise SiteError("bad_passkey", "this passkey is known here already") from None

    def remove_passkey(self, account: Account, passkey: str) -> None:
        """Remove one of ``account``'s passkeys, unless it is its last way in (no
        password and no other passkey).

        :raises SiteError: ``not_found``, ``last_credential``.
        """
        keys = self.store.passkeys(account.player)
        if passkey not in {k.id for k in keys}:
            raise SiteError.not_found(f"no passkey {passkey!r} of this account")
        if account.password is None and len(keys) == 1:
            raise SiteError("last_credential", "this passkey is the account's last way in: "
                            "give it a password or another passkey first")
        self.store.remove_passkey(account.player, passkey)

    def new_recovery_codes(self, player: str) -> list[str]:
        """Ten new recovery codes for the account, the old ones void."""
        self.account(player)
        codes = recovery_codes()
        self.store.replace_recovery_codes(player, [hashed(code) for code in codes])
        return codes

    def new_link_code(self, player: str) -> tuple[str, datetime]:
        """A code that lets one new device in to the account within minutes, and when
        it expires."""
        self.account(player)
        code = link_code()
        expires = now() + timedelta(minutes=LINK_MINUTES)
        self.store.add_link_code(player, hashed(code), expires)
        return code, expires

    def delete(self, player: str | None, name: str, password: str | None,
               passkey: str | None = None) -> None:
        """Delete the caller's account, confirmed by its name and its password (or, for
        an account without one, a passkey of its own: ``passkey`` as in
        :meth:`check_password_again`).

        :raises SiteError: ``bad_credentials`` if either is wrong.
        """
        account = self.account(player)
        if name.lower() != account.name.lower():
            waste_time(password or "")
            raise _bad_credentials()
        self.check_password_again(account, password, passkey)
        self.store.delete(account.player)
