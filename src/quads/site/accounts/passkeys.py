"""Passkeys: signing up and in without a password (WebAuthn, by ``py_webauthn``).

A ceremony has two requests.  The first (:meth:`Passkeys.begin`) keeps a random
challenge in the store for a few minutes, under an id the browser sends back, and
answers the options for ``navigator.credentials.create()`` (to register a passkey)
or ``.get()`` (to sign in).  The second hands the browser's answer to
:meth:`Passkeys.register` or :meth:`Passkeys.authenticate`, which take the challenge
(once: a replayed answer finds none) and check the answer against it, the site's
origin and its relying party id (the host name).

Passkeys are *discoverable*: signing in needs no name, the authenticator offers
the accounts it holds for this site, and the answer names its credential, which
names the account.  User verification (a PIN, a fingerprint) is required.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from quads.site.errors import SiteError
from quads.storage.accounts import AccountStore, Passkey
from quads.storage.stored import now

__all__ = ["CEREMONY_MINUTES", "Ceremony", "NewPasskey", "Passkeys", "Purpose", "Site"]

CEREMONY_MINUTES = 5
"""How long a ceremony's challenge may be answered."""

Purpose = Literal["register", "sign_in"]


@dataclass(frozen=True)
class Site:
    """Where the ceremony happens: the relying party's id (the host name), the origin
    the browser must report (``https://host``), and the name shown by the browser."""

    rp_id: str
    origin: str
    name: str = "Quads"


@dataclass(frozen=True)
class Ceremony:
    """A ceremony begun: its challenge's id, and the options for the browser."""

    challenge: str
    options: dict[str, Any]


@dataclass(frozen=True)
class NewPasskey:
    """A passkey registered, to keep: its credential id and public key (base64url)."""

    id: str
    public_key: str
    sign_count: int


def _bad_passkey(message: str) -> SiteError:
    return SiteError("bad_passkey", message)


class Passkeys:
    """The passkey ceremonies of ``store``'s accounts."""

    def __init__(self, store: AccountStore) -> None:
        self.store = store

    def begin(self, site: Site, purpose: Purpose, player: str | None,
              name: str | None = None) -> Ceremony:
        """Begin a ceremony for ``purpose``: ``register`` a passkey of ``player``'s
        (named ``name`` in the authenticator: the account's, or the one about to be
        made), or ``sign_in``."""
        challenge = secrets.token_bytes(32)
        if purpose == "register":
            if player is None or name is None:
                raise ValueError("a passkey is registered for a player and a name")
            known = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.id))
                     for p in self.store.passkeys(player)]
            options = generate_registration_options(
                rp_id=site.rp_id, rp_name=site.name, user_name=name, user_display_name=name,
                user_id=hashlib.sha256(player.encode()).digest()[:16], challenge=challenge,
                exclude_credentials=known,
                authenticator_selection=AuthenticatorSelectionCriteria(
                    resident_key=ResidentKeyRequirement.REQUIRED,
                    user_verification=UserVerificationRequirement.REQUIRED))
            text = options_to_json(options)
        else:
            text = options_to_json(generate_authentication_options(
                rp_id=site.rp_id, challenge=challenge,
                user_verification=UserVerificationRequirement.REQUIRED))
        ceremony = secrets.token_urlsafe(16)
        self.store.add_challenge(ceremony, bytes_to_base64url(challenge), purpose, player,
                                 now() + timedelta(minutes=CEREMONY_MINUTES))
        return Ceremony(ceremony, json.loads(text))

    def _challenge(self, ceremony: str, purpose: Purpose) -> tuple[bytes, str | None]:
        found = self.store.take_challenge(ceremony, purpose)
        if found is None:
            raise _bad_passkey("this passkey ceremony is unknown, was answered already or "
                               "has expired: begin again")
        return base64url_to_bytes(found[0]), found[1]

    def register(self, site: Site, ceremony: str, player: str,
                 credential: dict[str, Any]) -> NewPasskey:
        """Check the browser's answer to a ``register`` ceremony that ``player`` began.

        :raises SiteError: ``bad_passkey`` if the ceremony is not theirs, is spent, or
            the answer does not prove a new passkey made for it.
        """
        challenge, began_by = self._challenge(ceremony, "register")
        if began_by != player:
            raise _bad_passkey("this passkey ceremony was begun by somebody else")
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=site.rp_id, expected_origin=site.origin,
                require_user_verification=True)
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise _bad_passkey(f"the passkey was not made as asked: {exc}") from None
        return NewPasskey(bytes_to_base64url(verified.credential_id),
                          bytes_to_base64url(verified.credential_public_key),
                          verified.sign_count)

    def authenticate(self, site: Site, ceremony: str, credential: dict[str, Any]) -> Passkey:
        """Check the browser's answer to a ``sign_in`` ceremony: the passkey it proved
        (its counter noted).

        :raises SiteError: ``bad_passkey`` if the ceremony is spent, the passkey unknown
            here, or the answer does not prove it.
        """
        challenge, _ = self._challenge(ceremony, "sign_in")
        credential_id = credential.get("id") if isinstance(credential, dict) else None
        passkey = self.store.passkey(credential_id) if isinstance(credential_id, str) else None
        if passkey is None:
            raise _bad_passkey("this passkey belongs to no account here")
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=site.rp_id, expected_origin=site.origin,
                credential_public_key=base64url_to_bytes(passkey.public_key),
                credential_current_sign_count=passkey.sign_count,
                require_user_verification=True)
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise _bad_passkey(f"the passkey did not prove itself: {exc}") from None
        self.store.passkey_used(passkey.id, verified.new_sign_count)
        return passkey
