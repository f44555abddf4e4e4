// Unit tests of what the account screens say of what the server sends
// (src/quads/web/static/js/account/words.js): a device, a code, how long a link code
// lasts, why a passkey did not work.  Run by .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

import { errorMessage } from "../../src/quads/web/static/js/errors.js";
import {
  LINK_LIFETIME_MS,
  OVERRIDES,
  clockText,
  deviceWords,
  isAddress,
  linkDeadline,
  normalCode,
  passkeyFailure,
  secondsLeft,
} from "../../src/quads/web/static/js/account/words.js";

test("a device is worded as its browser on its system", () => {
  assert.deepEqual(deviceWords("Chrome Mobile on Android"), {
    key: "account.device", params: { browser: "Chrome Mobile", system: "Android" } });
  assert.deepEqual(deviceWords("Firefox on Mac OS X"), {
    key: "account.device", params: { browser: "Firefox", system: "Mac OS X" } });
  // the last " on " splits: a browser's name may hold the word
  assert.deepEqual(deviceWords("Carry on Browser on Linux").params, { browser: "Carry on Browser", system: "Linux" });
});

test("a device the server could not tell is an unknown one; any other text is shown as it is", () => {
  for (const device of ["unknown device", "", "  ", null, undefined, 42]) {
    assert.deepEqual(deviceWords(device), { key: "account.device.unknown", params: {} });
  }
  assert.deepEqual(deviceWords("Safari"), { key: "account.device.named", params: { device: "Safari" } });
  assert.deepEqual(deviceWords("Mozilla/5.0 (X11; Lin").key, "account.device.named");
  assert.deepEqual(deviceWords("on Linux").key, "account.device.named");
});

test("a code is written as the server writes it, whatever was typed", () => {
  assert.equal(normalCode("abcd-efgh"), "ABCD-EFGH");
  assert.equal(normalCode(" abcd efgh "), "ABCD-EFGH");
  assert.equal(normalCode("ABCDEFGHJKLM"), "ABCD-EFGH-JKLM");
  assert.equal(normalCode("ab-c"), "ABC");
  assert.equal(normalCode("--"), "");
  assert.equal(normalCode("x".repeat(100)).replaceAll("-", "").length, 64);
});

test("a link code runs out when the server says, by this device's clock", () => {
  const received = Date.parse("2026-03-01T10:00:00Z");
  assert.equal(linkDeadline("2026-03-01T10:05:00Z", received), received + 5 * 60 * 1000);
  assert.equal(linkDeadline("2026-03-01T10:04:30.500Z", received), received + 270_500);
});

test("a device whose clock is off counts the code's whole lifetime from when it came", () => {
  const received = Date.parse("2026-03-01T10:00:00Z");
  // the device's clock is 10 minutes ahead: the code seems expired already
  assert.equal(linkDeadline("2026-03-01T09:55:00Z", received), received + LINK_LIFETIME_MS);
  // ... or an hour behind: it seems to last an hour
  assert.equal(linkDeadline("2026-03-01T11:05:00Z", received), received + LINK_LIFETIME_MS);
  assert.equal(linkDeadline("not a time", received), received + LINK_LIFETIME_MS);
});

test("the countdown counts whole seconds up, and stops at nought", () => {
  assert.equal(secondsLeft(10_000, 0), 10);
  assert.equal(secondsLeft(10_000, 9_001), 1);
  assert.equal(secondsLeft(10_000, 10_000), 0);
  assert.equal(secondsLeft(10_000, 20_000), 0);
  assert.equal(clockText(300), "5:00");
  assert.equal(clockText(65), "1:05");
  assert.equal(clockText(9), "0:09");
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(-3), "0:00");
});

test("a passkey that the browser did not give says why, or nothing when the page withdrew it", () => {
  const dom = (name) => Object.assign(new Error(name), { name });
  assert.equal(passkeyFailure(dom("NotAllowedError")), "account.passkey.cancelled");
  assert.equal(passkeyFailure(dom("InvalidStateError")), "account.passkey.exists");
  assert.equal(passkeyFailure(dom("SecurityError")), "account.passkey.unavailable");
  assert.equal(passkeyFailure(dom("NotSupportedError")), "account.passkey.unavailable");
  assert.equal(passkeyFailure(dom("AbortError")), null);
  // a refusal of the server is no failure of the browser's: it is worded as a refusal
  const refusal = Object.assign(new Error("bad_passkey"), { status: 422, code: "bad_passkey" });
  assert.equal(passkeyFailure(refusal), undefined);
  assert.equal(passkeyFailure(null), undefined);
});

test("refusals of the account's routes are worded by their reason, a lost server by the screens' own words", () => {
  const has = (key) => ["error.weak_password", "error.weak_password.common", "error.name_taken",
    "account.offline"].includes(key);
  const weak = Object.assign(new Error(), { code: "weak_password", reason: "common", params: {} });
  assert.equal(errorMessage(weak, { has, overrides: OVERRIDES }).key, "error.weak_password.common");
  const lost = Object.assign(new Error(), { code: "unreachable" });
  assert.equal(errorMessage(lost, { has, overrides: OVERRIDES }).key, "account.offline");
});

test("a page served under an address, not a name, cannot hold passkeys", () => {
  for (const host of ["127.0.0.1", "192.168.1.20", "[::1]", "::1", "[2001:db8::1]"]) assert.equal(isAddress(host), true, host);
  for (const host of ["localhost", "quads.example", "127.0.0.1.example", "a1.b2.c3.d4"]) assert.equal(isAddress(host), false, host);
});
