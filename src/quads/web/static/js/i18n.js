// The message catalogue: every text on the page comes from here.
//
// The server serves one flat JSON object per language at /api/messages/{lang}.
// `t(key, params)` looks a key up and fills in {placeholders}; `translatePage()`
// fills every element that names its key in a data-i18n* attribute.

import { fetchMessages } from "./api.js";

export const LANGUAGES = ["en", "de"];
const STORAGE_KEY = "quads.lang";

let messages = {};
let language = "en";

/** The language to start with: the one remembered, else the browser's first match. */
export function preferredLanguage() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored !== null && LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** Load the catalogue of `lang`, remember the choice and translate the page. */
export async function setLanguage(lang) {
  messages = await fetchMessages(lang);
  language = lang;
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  translatePage();
}

export function currentLanguage() {
  return language;
}

/** The text of `key` with each {name} replaced by params[name]. */
export function t(key, params = {}) {
  const text = messages[key];
  if (text === undefined) {
    console.warn(`missing message: ${key}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalogue has `key` (for optional, more specific texts). */
export function has(key) {
  return key in messages;
}

/**
 * Fill the texts of `root`: data-i18n sets the text content, data-i18n-label
 * the aria-label and data-i18n-title the tooltip.
 * @param {ParentNode} [root]
 */
export function translatePage(root = document) {
  /** @param {string} selector */
  const all = (selector) => /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector));
  for (const el of all("[data-i18n]")) el.textContent = t(String(el.dataset.i18n));
  for (const el of all("[data-i18n-label]")) el.setAttribute("aria-label", t(String(el.dataset.i18nLabel)));
  for (const el of all("[data-i18n-title]")) el.title = t(String(el.dataset.i18nTitle));
  document.title = t("app.title");
}
