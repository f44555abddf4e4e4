// The devices signed in to the account, on the account screen: each with its browser
// and system, when it was last seen, and a button that signs it out; this device
// marked as such; and "Sign out everywhere else".  A device signed out here is refused
// at its next request (401 unknown_player), where the page asks its person what to do.

import * as api from "../api.js";
import { $, $button, keepingFocus } from "../dom.js";
import { t } from "../i18n.js";
import { messageWords } from "../names.js";
import { dateText, failure, revealMessage, showMessage } from "./panel.js";
import { deviceWords } from "./words.js";

export class DevicesPanel {
  /** `notify(text)` shows a short notice; `onSignedOut()`: this device was signed out. */
  constructor({ notify, onSignedOut }) {
    this.notify = notify;
    this.onSignedOut = onSignedOut;
    this.sessions = null; // [{id, device, created, seen, current}], null until loaded
    this.busy = false;
    this.error = null;
    $("devices-list").addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target.closest("button[data-session]") : null;
      if (target instanceof HTMLElement && target.dataset.session) this.end(target.dataset.session);
    });
    $("devices-end-others").addEventListener("click", () => this.end(null));
  }

  async load() {
    try {
      this.sessions = (await api.listSessions({ wait: false })).sessions;
      this.error = null;
    } catch (error) {
      this.error = failure(error);
    }
    this.render();
  }

  /** Sign out the device of session `id`, or with null every device but this one. */
  async end(id) {
    if (this.busy || !this.sessions) return;
    const session = this.sessions.find((s) => s.id === id);
    this.busy = true;
    this.error = null;
    this.render();
    try {
      // This device's own session ends as signing out does: its cookie goes with it.
      if (session && session.current) await api.signOut({ wait: false });
      else await api.endSessions(id, { wait: false });
    } catch (error) {
      this.busy = false;
      this.error = failure(error);
      this.render();
      revealMessage($("devices-error"));
      return;
    }
    this.busy = false;
    if (session && session.current) {
      this.onSignedOut();
      return;
    }
    this.notify(t(id ? "account.devices.ended" : "account.devices.ended_others"));
    await this.load();
    if (!id) $button("devices-end-others").blur();
  }

  close() {
    this.sessions = null;
    this.error = null;
  }

  /** The line of one device. */
  item(session) {
    const item = document.createElement("li");
    item.className = "account-item";
    const text = document.createElement("div");
    text.className = "account-item-text";
    const name = document.createElement("strong");
    const device = messageWords(deviceWords(session.device));
    name.textContent = device; // the server's words of a browser: text, never markup
    text.append(name);
    if (session.current) {
      const mark = document.createElement("span");
      mark.className = "account-this";
      mark.textContent = t("account.device.this");
      text.append(" ", mark);
    }
    const seen = document.createElement("small");
    const when = dateText(session.seen);
    seen.textContent = t("account.device.seen", { date: when });
    text.append(seen);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.dataset.session = session.id;
    button.dataset.focusKey = `session-${session.id}`;
    button.disabled = this.busy;
    button.textContent = t("account.device.end");
    button.setAttribute("aria-label", t(session.current ? "account.device.end.this" : "account.device.end.label",
      { device, date: when }));
    item.append(text, button);
    return item;
  }

  render() {
    const list = $("devices-list");
    const sessions = this.sessions || [];
    const signature = JSON.stringify([sessions, this.busy, document.documentElement.lang]);
    if (list.dataset.signature !== signature) {
      list.dataset.signature = signature;
      keepingFocus(list, () => list.replaceChildren(...sessions.map((session) => this.item(session))));
    }
    const others = $button("devices-end-others");
    others.hidden = sessions.length < 2;
    others.disabled = this.busy;
    showMessage($("devices-error"), this.error);
  }
}
