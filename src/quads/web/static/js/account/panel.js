// What the account's screens share: what went wrong, in words, in its box; a date.

import { currentLanguage } from "../i18n.js";
import { describeError, messageWords } from "../names.js";
import { revealAll } from "../reveal.js";
import { OVERRIDES, passkeyFailure } from "./words.js";

/**
 * The message {key, params} of what a request or a passkey ceremony threw; null when
 * there is nothing to say (the page withdrew it).
 * @param {any} error
 */
export function failure(error) {
  const key = passkeyFailure(error);
  if (key === null || (error && error.code === "cancelled")) return null;
  return key ? { key, params: {} } : describeError(error, { overrides: OVERRIDES });
}

/**
 * Show `message` ({key, params}) in the box `element`, hidden without one.
 * @param {HTMLElement} element
 * @param {{ key: string, params: object } | null} message
 */
export function showMessage(element, message) {
  element.hidden = !message;
  element.textContent = message ? messageWords(message) : "";
}

/**
 * Bring the refusal shown in `element` into view, with what was pressed (`pressed`).
 * @param {HTMLElement} element
 * @param {...(HTMLElement | null)} pressed
 */
export function revealMessage(element, ...pressed) {
  if (!element.hidden) revealAll([element, ...pressed]);
}

/**
 * A moment the server sent (ISO 8601), as the page's language writes it.
 * @param {string} iso
 */
export function dateText(iso) {
  const format = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
  return format.format(new Date(iso));
}
