"""The models of accounts: signing up, in and out, the account itself, its sessions,
passkeys, recovery codes and link codes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

__all__ = [
    "AccountRequest",
    "AccountSettings",
    "AccountView",
    "DeleteAccountRequest",
    "LinkCodeView",
    "LinkRequest",
    "PasskeyCeremony",
    "PasskeyOptionsRequest",
    "PasskeyProof",
    "PasskeyView",
    "PasswordChange",
    "PasswordCheck",
    "RecoveryCodes",
    "RecoveryRequest",
    "SessionList",
    "SessionView",
    "SignInRequest",
    "SignedIn",
]

_NAME = Field(min_length=1, max_length=64,
              description="3 to 20 letters A-Z, digits, `_` and `-`; unique without regard "
                          "to case")
_PASSWORD = Field(min_length=1, max_length=1024,
                  description="At least 10 characters, not a common one")


class PasskeyProof(BaseModel):
    """The browser's answer to a passkey ceremony that the server began."""

    challenge: str = Field(min_length=1, max_length=64,
                           description="The `challenge` id of the ceremony's options")
    credential: dict[str, Any] = Field(
        description="`navigator.credentials.create()` or `.get()`'s answer as JSON "
                    "(`PublicKeyCredential.toJSON()`)")


class AccountRequest(BaseModel):
    """A new account, made of the caller's player: with a password, a passkey, or both."""

    name: str = _NAME
    password: str | None = Field(default=None, min_length=1, max_length=1024,
                                 description="At least 10 characters, not a common one; "
                                             "may be left out with a passkey")
    passkey: PasskeyProof | None = Field(
        default=None, description="A passkey made for the options of "
                                  "`POST /api/passkeys/options` with this name")


class SignInRequest(BaseModel):
    """A sign-in by name and password."""

    name: str = _NAME
    password: str = _PASSWORD


class RecoveryRequest(BaseModel):
    """A sign-in by one of the account's recovery codes."""

    name: str = _NAME
    code: str = Field(min_length=1, max_length=64)


class LinkRequest(BaseModel):
    """A sign-in by a link code that a signed-in device made."""

    code: str = Field(min_length=1, max_length=64)


class SignedIn(BaseModel):
    """This device is signed in (its cookie holds the new session)."""

    name: str
    merged: bool = Field(default=False, description="Whether what this device did before "
                                                    "(games, puzzle results) became the "
                                                    "account's")
    recovery_codes: list[str] | None = Field(
        default=None, description="On sign-up only: ten codes, each of which signs in once "
                                  "without password or passkey; shown this once")


class PasskeyView(BaseModel):
    """One of the account's passkeys."""

    id: str
    created: datetime
    used: datetime | None


class AccountView(BaseModel):
    """The caller's account."""

    name: str
    created: datetime
    password: bool = Field(description="Whether it has a password")
    passkeys: list[PasskeyView]
    recovery_codes_left: int
    hide_ratings: bool = Field(description="Whether ratings are hidden while it plays")


class AccountSettings(BaseModel):
    """What an account changes of itself."""

    hide_ratings: bool = Field(strict=True)


class PasswordChange(BaseModel):
    """A new password, proved by the current one (if the account has one)."""

    current: str | None = Field(default=None, max_length=1024)
    new: str = _PASSWORD


class PasswordCheck(BaseModel):
    """The account proves itself again before a change that matters: its password, or
    for an account without one a passkey (an answer to a ``sign_in`` ceremony)."""

    password: str | None = Field(default=None, max_length=1024)
    passkey: PasskeyProof | None = None


class DeleteAccountRequest(BaseModel):
    """Delete my account: its name, and its password (or for an account without one, a
    passkey: an answer to a ``sign_in`` ceremony)."""

    name: str = _NAME
    password: str | None = Field(default=None, max_length=1024)
    passkey: PasskeyProof | None = None


class RecoveryCodes(BaseModel):
    """New recovery codes, shown this once; the old ones no longer work."""

    recovery_codes: list[str]


class SessionView(BaseModel):
    """A device signed in to the account."""

    id: str = Field(description="Names the session to end it")
    device: str
    created: datetime
    seen: datetime
    current: bool = Field(description="Whether it is this device")


class SessionList(BaseModel):
    """The devices signed in to the account, the last seen first."""

    sessions: list[SessionView]


class LinkCodeView(BaseModel):
    """A code that lets one new device in, within minutes."""

    code: str
    expires: datetime
    seconds: int = Field(description="How long it lasts from now (whatever this device's "
                                     "clock says)")
    url: str = Field(description="The page that signs a device in with this code")
    qr: str = Field(description="The page's address as a QR code (an SVG image)")


class PasskeyOptionsRequest(BaseModel):
    """Begin a passkey ceremony: ``register`` (a new passkey: for the signed-in account,
    or for the account ``name`` about to be made) or ``sign_in``."""

    purpose: str = Field(pattern="^(register|sign_in)$")
    name: str | None = Field(default=None, max_length=64)


class PasskeyCeremony(BaseModel):
    """The options to give `navigator.credentials.create()` or `.get()`."""

    challenge: str = Field(description="Send back with the answer")
    options: dict[str, Any] = Field(description="`PublicKeyCredentialCreationOptions` or "
                                                "`...RequestOptions` as JSON")
