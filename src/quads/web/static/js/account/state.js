// Who is signed in on this device: an account's name, nobody, or not known yet.
//
// The server says it (GET /api/account: the account, or 401 not_signed_in) when the
// page starts, when it answers again after a time without it, and the page notes every
// sign-in and sign-out itself.  The answer is remembered on the device, so that the page
// names the account without the server too; a page that never heard the server's answer
// shows no account at all, and works anonymously as it always did.

import * as api from "../api.js";

const KEY = "quads.account";

/** @typedef {{ name: string } | null | undefined} Who  an account; null: none; undefined: not known */

/** @type {Who} */
let who = remembered();
/** @type {Set<(who: Who) => void>} */
const listeners = new Set();
/** @type {Set<() => void>} called once at the next sign-in */
const waiting = new Set();

/** @returns {Who} */
function remembered() {
  const name = localStorage.getItem(KEY);
  if (name === null) return undefined;
  return name ? { name } : null;
}

/** @param {Who} next */
function set(next) {
  who = next;
  if (next === undefined) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, next ? next.name : "");
  for (const fn of listeners) fn(who);
}

/** The account signed in on this device: {name}, null for none, undefined while not known. */
export function current() {
  return who;
}

/** Call fn(who) whenever who is signed in changes (or is found out). */
export function onChange(fn) {
  listeners.add(fn);
}

/** A promise that resolves at the next sign-in (or sign-up) on this page. */
export function nextSignIn() {
  return new Promise((/** @type {(value?: unknown) => void} */ resolve) => waiting.add(() => resolve()));
}

/** Ask the server who is signed in; resolves the account's view, or null.  Without the
 * server (or with any other trouble) what was known stays, and it resolves undefined. */
export async function refresh() {
  try {
    const account = await api.getAccount({ wait: false });
    seen(account);
    return account;
  } catch (error) {
    if (error.code !== "not_signed_in") return undefined;
    set(null);
    return null;
  }
}

/** The server showed the account signed in, `account` ({name, ...}). */
export function seen(account) {
  if (!who || who.name !== account.name) set({ name: account.name });
}

/** This device just signed in (or made an account) as `name`. */
export function signedIn(name) {
  set({ name });
  const called = [...waiting];
  waiting.clear();
  for (const fn of called) fn();
}

/** This device is signed out (or its account was deleted): it is a newcomer now. */
export function signedOut() {
  set(null);
}
