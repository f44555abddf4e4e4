// Passkeys (WebAuthn): the browser's half of the ceremonies that the server begins and
// checks (docs/web-api.md, "Accounts").  The server's options reach the browser as JSON
// (PublicKeyCredential.parse...FromJSON) and the browser's answer goes back as JSON
// (PublicKeyCredential.toJSON()), with the ceremony's challenge id.

import * as api from "../api.js";
import { isAddress } from "./words.js";

/** Whether this browser can make and use passkeys on this page: it has WebAuthn with
 * its JSON forms, and the page is served under a name (a passkey belongs to a domain,
 * never to an address such as 127.0.0.1). */
export function passkeysUsable() {
  const credential = window.PublicKeyCredential;
  return typeof credential === "function"
    && typeof credential.parseCreationOptionsFromJSON === "function"
    && typeof credential.parseRequestOptionsFromJSON === "function"
    && window.isSecureContext && !isAddress(location.hostname);
}

/** Whether the browser offers passkeys in the autofill of a name field. */
export async function autofillUsable() {
  if (!passkeysUsable() || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return false;
  try {
    return await PublicKeyCredential.isConditionalMediationAvailable();
  } catch {
    return false;
  }
}

/** @param {Credential | null} credential */
function answer(credential) {
  if (!(credential instanceof PublicKeyCredential)) throw new DOMException("no passkey", "NotAllowedError");
  return credential.toJSON();
}

/**
 * Make a new passkey: for the signed-in account, or with `name` for the account that
 * POST /api/account is about to make.  Resolves the proof to send, {challenge, credential}.
 * @param {string | null} [name]
 */
export async function makePasskey(name = null) {
  const body = name === null ? { purpose: "register" } : { purpose: "register", name };
  const { challenge, options } = await api.passkeyOptions(body, { wait: false });
  const made = await navigator.credentials.create({
    publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
  });
  return { challenge, credential: answer(made) };
}

/**
 * Prove one of the person's passkeys, to sign in.  `autofill`: offered among the
 * suggestions of the name field (the browser's conditional mediation) until the person
 * picks it or `signal` withdraws it.  Resolves the proof to send, {challenge, credential}.
 * @param {{ autofill?: boolean, signal?: AbortSignal | null }} [options]
 */
export async function provePasskey({ autofill = false, signal = null } = {}) {
  const { challenge, options } = await api.passkeyOptions({ purpose: "sign_in" }, { wait: false, signal });
  /** @type {CredentialRequestOptions} */
  const request = { publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) };
  if (autofill) request.mediation = "conditional";
  if (signal) request.signal = signal;
  return { challenge, credential: answer(await navigator.credentials.get(request)) };
}
