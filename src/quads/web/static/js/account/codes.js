// The ten recovery codes, shown once: after signing up, and when the account asks for
// new ones.  The codes, a button that copies them, and "I have kept them", which goes
// on.  Its texts name their catalogue keys (data-i18n), so that a change of language
// words them anew.

import { t, translatePage } from "../i18n.js";
import { revealAll } from "../reveal.js";

/**
 * @param {string} tag
 * @param {string} [key] the catalogue key of its text
 * @param {string} [className]
 */
function element(tag, key, className) {
  const made = document.createElement(tag);
  if (key) made.dataset.i18n = key;
  if (className) made.className = className;
  return made;
}

/**
 * Show `codes` in `box` (emptied first) and move the focus to its heading.
 * `onKept()` is called when the person says they kept them; `notify(text)` says
 * whether copying worked.
 * @param {HTMLElement} box
 * @param {string[]} codes
 * @param {{ onKept: () => void, notify: (text: string, options?: { tone?: string }) => void }} handlers
 */
export function showCodes(box, codes, { onKept, notify }) {
  const title = element("h2", "account.codes.title", "codes-title");
  title.id = `${box.id}-title`;
  title.tabIndex = -1;
  const text = element("p", "account.codes.text");
  const list = element("ol", "", "codes-list");
  list.setAttribute("aria-labelledby", title.id);
  for (const code of codes) {
    const item = document.createElement("li");
    const written = document.createElement("code");
    written.textContent = code;
    item.append(written);
    list.append(item);
  }
  const copy = element("button", "account.codes.copy", "button");
  const kept = element("button", "account.codes.kept", "button button-primary");
  for (const button of [copy, kept]) button.setAttribute("type", "button");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      notify(t("account.codes.copied"));
    } catch {
      notify(t("account.codes.copy_failed"), { tone: "warning" });
    }
  });
  kept.addEventListener("click", () => {
    box.hidden = true;
    box.replaceChildren();
    onKept();
  });
  const buttons = element("div", "", "button-row");
  buttons.append(copy, kept);
  box.replaceChildren(title, text, list, buttons);
  box.setAttribute("aria-labelledby", title.id);
  translatePage(box);
  box.hidden = false;
  title.focus({ preventScroll: true });
  revealAll([title, list, kept], { instant: true });
}
