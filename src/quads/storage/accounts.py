"""Accounts: the players that keep one self on every device, and their ways in.

An account is a player (its id does not change, so that every game, result and seek
it had stays its own) with a unique name and some ways to sign in: a password's
hash, passkeys, recovery codes.  Each device signed in holds a *session* token, of
which the store keeps only the SHA-256 hash; the token that made the player (whose
hash is its id) is retired when a person makes an account, so that only sessions,
which can be ended, lead to it.  (A bot keeps its token: its programs use it.)

Every change that ends a way in (a session ended, an account deleted, a player
merged into another) is announced like a bot's new token (``NOTIFY quads_games,
'PLAYER key'``), so that every server process forgets at once what it knew of that
player's tokens.

This module only stores: what a name or a password may be, how a password is
hashed and when a sign-in is allowed are the site's rules (:mod:`quads.site.accounts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Connection, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from quads.storage.bot_keys import KEY_CHANGED
from quads.storage.database import moment_text
from quads.storage.errors import StorageError
from quads.storage.merging import merge_player
from quads.storage.store import GameStore
from quads.storage.stored import now
from quads.storage.tables import (
    accounts,
    challenges,
    link_codes,
    passkeys,
    players,
    recovery_codes,
    seeks,
    sessions,
    trusted_devices,
)

__all__ = [
    "DELETED_NAME",
    "Account",
    "AccountExistsError",
    "AccountStore",
    "NameTakenError",
    "Passkey",
    "Session",
]

DELETED_NAME = "deleted player"
"""The name a deleted account's seats show in the games it leaves to its opponents."""

RETIRED = "retired:"
"""What ``players.token_hash`` starts with once the token whose hash is the player's id
no longer leads to it (a person who made an account): no token hashes to it."""


class NameTakenError(StorageError):
    """Another account has this name (without regard to case), or had it."""


class AccountExistsError(StorageError):
    """The player has an account already."""


@dataclass(frozen=True)
class Account:
    """An account as the store keeps it."""

    player: str
    name: str
    password: str | None
    """The Argon2id hash of its password, if it has one."""
    created: datetime
    hide_ratings: bool
    deleted: datetime | None


@dataclass(frozen=True)
class Session:
    """A device signed in to an account."""

    id: str
    """The SHA-256 of its token."""
    device: str
    created: datetime
    seen: datetime


@dataclass(frozen=True)
class Passkey:
    """A WebAuthn credential of an account."""

    id: str
    """The credential's id, base64url."""
    player: str
    public_key: str
    """The credential's public key (COSE), base64url."""
    sign_count: int
    created: datetime
    used: datetime | None


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


class AccountStore:
    """The accounts of ``store``'s database, their sessions and ways in."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    # -- accounts ---------------------------------------------------------------

    def create(self, player: str, name: str, password: str | None, codes: Sequence[str],
               session: str, device: str, trusted: str,
               passkey: tuple[str, str, int] | None = None) -> None:
        """Make ``player`` an account named ``name`` with the ``password`` hash (or
        none), the recovery codes' hashes ``codes``, a ``passkey`` (its id, public key
        and counter) if any, and this device signed in by the session token hash
        ``session`` and trusted by ``trusted``.  A person's first token stops leading
        to it.

        :raises NameTakenError: if an account has the name (in any case).
        :raises AccountExistsError: if ``player`` has an account already.
        """
        moment = moment_text(now())
        try:
            with self.store.begin(write=True) as connection:
                if connection.execute(select(accounts.c.player)
                                      .where(accounts.c.player == player)).first():
                    raise AccountExistsError(f"player {player!r} has an account already")
                connection.execute(insert(accounts), {
                    "player": player, "name": name, "name_key": name.lower(),
                    "password": password, "created": moment})
                self.store.keep_players(connection, player)
                connection.execute(update(players).where(players.c.id == player)
                                   .values(name=name))
                connection.execute(
                    update(players).where(players.c.id == player, players.c.bot.is_(None),
                                          players.c.token_hash.is_(None))
                    .values(token_hash=RETIRED + player))
                if codes:
                    connection.execute(insert(recovery_codes),
                                       [{"player": player, "code_hash": c} for c in codes])
                if passkey is not None:
                    connection.execute(insert(passkeys), {
                        "id": passkey[0], "player": player, "public_key": passkey[1],
                        "sign_count": passkey[2], "created": moment})
                self._sign_in(connection, player, session, device, trusted, moment)
                self._announce(connection, player)
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken") from None

    def by_name(self, name: str) -> Account | None:
        """The account named ``name`` (in any case), deleted or not."""
        return self._one(accounts.c.name_key == name.lower())

    def of(self, player: str) -> Account | None:
        """``player``'s account, if it has one (deleted or not)."""
        return self._one(accounts.c.player == player)

    def _one(self, condition: ColumnElement[bool]) -> Account | None:
        with self.store.begin() as connection:
            row = connection.execute(select(accounts).where(condition)).mappings().first()
        if row is None:
            return None
        created = _moment(row["created"])
        assert created is not None
        return Account(player=row["player"], name=row["name"], password=row["password"],
                       created=created, hide_ratings=bool(row["hide_ratings"]),
                       deleted=_moment(row["deleted"]))

    def standing(self, player: str) -> tuple[bool, bool]:
        """Whether ``player`` has an account (deleted or not), and whether it is a bot."""
        with self.store.begin() as connection:
            row = connection.execute(
                select(players.c.bot, accounts.c.player)
                .select_from(players.outerjoin(accounts, accounts.c.player == players.c.id))
                .where(players.c.id == player)).first()
        return (False, False) if row is None else (row[1] is not None, row[0] is not None)

    def set_password(self, player: str, password: str | None) -> None:
        """Keep ``password`` (a hash, or ``None`` for none) as the account's."""
        with self.store.begin(write=True) as connection:
            connection.execute(update(accounts).where(accounts.c.player == player)
                                .values(password=password))

    def set_hide_ratings(self, player: str, hide: bool) -> None:
        """Whether the account hides ratings while it plays."""
        with self.store.begin(write=True) as connection:
            connection.execute(update(accounts).where(accounts.c.player == player)
                               .values(hide_ratings=int(hide)))

    def delete(self, player: str) -> None:
        """Delete ``player``'s account: every way in ends, its open seeks go, its name
        in games becomes :data:`DELETED_NAME`; its games, ratings and name stay (the
        name is never given again)."""
        with self.store.begin(write=True) as connection:
            connection.execute(update(accounts).where(accounts.c.player == player)
                               .values(deleted=moment_text(now()), password=None))
            connection.execute(update(players).where(players.c.id == player)
                               .values(name=DELETED_NAME))
            for table in (sessions, passkeys, recovery_codes, link_codes, trusted_devices):
                connection.execute(delete(table).where(table.c.player == player))
            connection.execute(delete(seeks).where(seeks.c.player == player))
            self._announce(connection, player)

    # -- sessions ---------------------------------------------------------------

    def sign_in(self, player: str, session: str, device: str, trusted: str,
                merge: str | None = None, replaces: tuple[str, str] | None = None) -> bool:
        """Sign a device in to ``player``'s account by the session token hash
        ``session``, trusted from now on by ``trusted``; with ``merge``, the anonymous
        player the device was is merged into the account first (every game and result
        of it becomes the account's, and its token stops leading anywhere); with
        ``replaces`` (a player and a session token hash), the session the device held
        until now ends.  Whether anything of ``merge`` became the account's."""
        moment = moment_text(now())
        moved = 0
        with self.store.begin(write=True) as connection:
            if merge is not None and merge != player:
                moved = merge_player(connection, merge, player)
                connection.execute(
                    update(players).where(players.c.id == merge)
                    .values(token_hash=RETIRED + merge))
                self._announce(connection, merge)
            if replaces is not None:
                old_player, old_session = replaces
                if connection.execute(delete(sessions).where(
                        sessions.c.player == old_player,
                        sessions.c.id == old_session)).rowcount:
                    self._announce(connection, old_player)
            self._sign_in(connection, player, session, device, trusted, moment)
        return moved > 0

    def _sign_in(self, connection: Connection, player: str, session: str, device: str,
                 trusted: str, moment: str) -> None:
        connection.execute(insert(sessions), {"id": session, "player": player,
                                              "device": device, "created": moment,
                                              "seen": moment})
        if not connection.execute(select(trusted_devices.c.id).where(
                trusted_devices.c.id == trusted)).first():
            connection.execute(insert(trusted_devices), {"id": trusted, "player": player,
                                                         "created": moment})

    def session_player(self, session: str) -> str | None:
        """The player signed in by the session token hash ``session``, if it lasts."""
        with self.store.begin() as connection:
            row = connection.execute(select(sessions.c.player)
                                     .where(sessions.c.id == session)).first()
        return None if row is None else str(row[0])

    def seen(self, session: str) -> None:
        """Note that the device of ``session`` was seen now."""
        with self.store.begin(write=True) as connection:
            connection.execute(update(sessions).where(sessions.c.id == session)
                               .values(seen=moment_text(now())))

    def sessions(self, player: str) -> list[Session]:
        """The devices signed in to ``player``'s account, the last seen first."""
        with self.store.begin() as connection:
            rows = connection.execute(
                select(sessions).where(sessions.c.player == player)
                .order_by(sessions.c.seen.desc(), sessions.c.id)).mappings().all()
        return [Session(id=row["id"], device=row["device"],
                        created=datetime.fromisoformat(row["created"]),
                        seen=datetime.fromisoformat(row["seen"])) for row in rows]

    def end_sessions(self, player: str, *, only: str | None = None,
                     keep: str | None = None) -> int:
        """End ``player``'s sessions: ``only`` that one (by its hash), or all but
        ``keep``; how many ended.  Every process forgets them at once."""
        condition = sessions.c.player == player
        if only is not None:
            condition = and_(condition, sessions.c.id == only)
        if keep is not None:
            condition = and_(condition, sessions.c.id != keep)
        with self.store.begin(write=True) as connection:
            ended = int(connection.execute(delete(sessions).where(condition)).rowcount)
            if ended:
                self._announce(connection, player)
        return ended

    def trusted(self, device: str, player: str) -> bool:
        """Whether the device of the trusted-device token hash ``device`` signed in to
        ``player``'s account before."""
        with self.store.begin() as connection:
            return connection.execute(select(trusted_devices.c.id).where(
                trusted_devices.c.id == device,
                trusted_devices.c.player == player)).first() is not None

    # -- recovery codes and link codes ------------------------------------------

    def use_recovery_code(self, player: str, code: str) -> bool:
        """Use the recovery code of hash ``code`` of ``player``'s; whether it was one
        (it is gone now)."""
        with self.store.begin(write=True) as connection:
            return bool(connection.execute(delete(recovery_codes).where(
                recovery_codes.c.player == player,
                recovery_codes.c.code_hash == code)).rowcount)

    def recovery_codes_left(self, player: str) -> int:
        """How many of ``player``'s recovery codes are unused."""
        with self.store.begin() as connection:
            return int(connection.execute(select(func.count()).select_from(recovery_codes)
                                          .where(recovery_codes.c.player == player))
                       .scalar_one())

    def replace_recovery_codes(self, player: str, codes: Sequence[str]) -> None:
        """Make the hashes ``codes`` ``player``'s only recovery codes."""
        with self.store.begin(write=True) as connection:
            connection.execute(delete(recovery_codes)
                               .where(recovery_codes.c.player == player))
            connection.execute(insert(recovery_codes),
                               [{"player": player, "code_hash": c} for c in codes])

    def add_link_code(self, player: str, code: str, expires: datetime) -> None:
        """Keep the hash ``code`` of a code that lets a device in to ``player``'s
        account until ``expires``; codes expired meanwhile go."""
        with self.store.begin(write=True) as connection:
            connection.execute(delete(link_codes)
                               .where(link_codes.c.expires < moment_text(now())))
            connection.execute(insert(link_codes), {"code_hash": code, "player": player,
                                                    "expires": moment_text(expires)})

    def use_link_code(self, code: str) -> str | None:
        """The player whose unexpired link code hashes to ``code``, once: the code is
        gone after."""
        with self.store.begin(write=True) as connection:
            row = connection.execute(select(link_codes.c.player, link_codes.c.expires)
                                     .where(link_codes.c.code_hash == code)).first()
            if row is None:
                return None
            taken = connection.execute(delete(link_codes).where(
                link_codes.c.code_hash == code)).rowcount
            if not taken or row[1] < moment_text(now()):
                return None
            return str(row[0])

    # -- passkeys ---------------------------------------------------------------

    def add_challenge(self, challenge_id: str, challenge: str, purpose: str,
                      player: str | None, expires: datetime) -> None:
        """Keep a passkey ceremony's challenge until ``expires``; expired ones go."""
        with self.store.begin(write=True) as connection:
            connection.execute(delete(challenges)
                               .where(challenges.c.expires < moment_text(now())))
            connection.execute(insert(challenges), {
                "id": challenge_id, "challenge": challenge, "purpose": purpose,
                "player": player, "expires": moment_text(expires)})

    def take_challenge(self, challenge_id: str, purpose: str) -> tuple[str, str | None] | None:
        """The unexpired challenge ``challenge_id`` for ``purpose`` and its player, once."""
        with self.store.begin(write=True) as connection:
            row = connection.execute(select(challenges).where(
                challenges.c.id == challenge_id,
                challenges.c.purpose == purpose)).mappings().first()
            if row is None or not connection.execute(delete(challenges).where(
                    challenges.c.id == challenge_id)).rowcount:
                return None
            if row["expires"] < moment_text(now()):
                return None
            return str(row["challenge"]), row["player"]

    def add_passkey(self, player: str, credential: str, public_key: str,
                    sign_count: int) -> None:
        """Keep a new passkey of ``player``'s.

        :raises StorageError: if the credential is known already.
        """
        try:
            with self.store.begin(write=True) as connection:
                connection.execute(insert(passkeys), {
                    "id": credential, "player": player, "public_key": public_key,
                    "sign_count": sign_count, "created": moment_text(now())})
        except IntegrityError:
            raise StorageError(f"the passkey {credential!r} is known already") from None

    def passkey(self, credential: str) -> Passkey | None:
        """The passkey of id ``credential``, if any."""
        with self.store.begin() as connection:
            row = connection.execute(select(passkeys).where(passkeys.c.id == credential)
                                     ).mappings().first()
        return None if row is None else self._passkey(row)

    def passkeys(self, player: str) -> list[Passkey]:
        """``player``'s passkeys, the oldest first."""
        with self.store.begin() as connection:
            rows = connection.execute(select(passkeys).where(passkeys.c.player == player)
                                      .order_by(passkeys.c.created)).mappings().all()
        return [self._passkey(row) for row in rows]

    @staticmethod
    def _passkey(row: object) -> Passkey:
        values = dict(row)  # type: ignore[call-overload]
        return Passkey(id=values["id"], player=values["player"],
                       public_key=values["public_key"], sign_count=values["sign_count"],
                       created=datetime.fromisoformat(values["created"]),
                       used=_moment(values["used"]))

    def passkey_used(self, credential: str, sign_count: int) -> None:
        """Note a sign-in by the passkey ``credential`` and its new counter."""
        with self.store.begin(write=True) as connection:
            connection.execute(update(passkeys).where(passkeys.c.id == credential)
                               .values(sign_count=sign_count, used=moment_text(now())))

    def remove_passkey(self, player: str, credential: str) -> bool:
        """Remove one of ``player``'s passkeys; whether it was theirs."""
        with self.store.begin(write=True) as connection:
            return bool(connection.execute(delete(passkeys).where(
                passkeys.c.player == player, passkeys.c.id == credential)).rowcount)

    # -- news -------------------------------------------------------------------

    def _announce(self, connection: Connection, player: str) -> None:
        """Tell every process that ``player``'s tokens changed (when this commits)."""
        self.store.notify(connection, f"{player} {KEY_CHANGED}")
