// What the account screens say of what the server sends: a device as its owner knows
// it, a code as people write it, how long a link code lasts, why a passkey did not
// work.  Messages are catalogue keys and params, {key, params}, never text, so that a
// screen words them anew when the language changes; nothing here touches the page, so
// the module runs, and is tested, without a browser.

/** The wording of refusals that the account screens give a code of their own. */
export const OVERRIDES = Object.freeze({ unreachable: "account.offline" });

/** How long a link code lets a device in (docs/web-api.md, "Accounts"). */
export const LINK_LIFETIME_MS = 5 * 60 * 1000;

/**
 * A device as the server describes it ("Chrome Mobile on Android", "unknown device"),
 * in the words of the page's language: {key, params}.
 * @param {unknown} device
 */
export function deviceWords(device) {
  const text = typeof device === "string" ? device.trim() : "";
  if (!text || text.toLowerCase() === "unknown device") return { key: "account.device.unknown", params: {} };
  const at = text.lastIndexOf(" on ");
  if (at > 0 && at + 4 < text.length) {
    return { key: "account.device", params: { browser: text.slice(0, at), system: text.slice(at + 4) } };
  }
  return { key: "account.device.named", params: { device: text } };
}

/**
 * A code as typed or as an address holds it, written as the server writes codes: capital
 * letters and digits in groups of four ("abcd efgh" is "ABCD-EFGH").
 * @param {string} text
 */
export function normalCode(text) {
  const letters = text.toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, 64);
  return (letters.match(/.{1,4}/g) || []).join("-");
}

/**
 * When a link code made at `received` (ms, this device's clock) runs out by this
 * device's clock.  The server's `expires` counts when it says the code lives for
 * LINK_LIFETIME_MS at most; a device whose clock is off by more (its `expires` seems
 * past, or too far ahead) counts the whole lifetime from when the code came.
 * @param {string} expires an ISO 8601 time
 * @param {number} received
 */
export function linkDeadline(expires, received) {
  const left = Date.parse(expires) - received;
  return received + (left > 0 && left <= LINK_LIFETIME_MS ? left : LINK_LIFETIME_MS);
}

/**
 * The whole seconds from `now` to `deadline` (both ms), 0 once it passed.
 * @param {number} deadline
 * @param {number} now
 */
export function secondsLeft(deadline, now) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/**
 * "4:05": minutes and seconds.
 * @param {number} seconds
 */
export function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * Why a passkey ceremony of the browser failed, as a catalogue key; null when it says
 * nothing to the person (the page withdrew it), undefined when `error` is no failure
 * of the browser's (a refusal of the server, worded as such).
 * @param {unknown} error
 * @returns {string | null | undefined}
 */
export function passkeyFailure(error) {
  const name = error !== null && typeof error === "object" && "name" in error ? error.name : null;
  switch (name) {
    case "AbortError":
      return null;
    case "NotAllowedError": // the person cancelled, or let it time out
      return "account.passkey.cancelled";
    case "InvalidStateError": // this authenticator holds a passkey of the account already
      return "account.passkey.exists";
    case "SecurityError":
    case "NotSupportedError":
      return "account.passkey.unavailable";
    default:
      return undefined;
  }
}

/**
 * Whether `hostname` is an address (IPv4 or IPv6) rather than a name: a page served
 * under an address cannot hold passkeys, which belong to a domain.
 * @param {string} hostname
 */
export function isAddress(hostname) {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname) || hostname.includes(":");
}
