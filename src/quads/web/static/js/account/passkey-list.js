// The account's passkeys, on the account screen: when each was added and last used,
// with a button that removes it (never the account's last way in: the server refuses
// that, 409 last_credential), and "Add a passkey" where this browser makes them.

import * as api from "../api.js";
import { $, $button, keepingFocus } from "../dom.js";
import { t } from "../i18n.js";
import { makePasskey, passkeysUsable } from "./passkeys.js";
import { dateText, failure, revealMessage, showMessage } from "./panel.js";

export class PasskeyList {
  /** `notify(text)` shows a short notice; `onChange(account)`: the account's view after a change. */
  constructor({ notify, onChange }) {
    this.notify = notify;
    this.onChange = onChange;
    this.passkeys = [];
    this.busy = false;
    this.error = null;
    $("passkeys-list").addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target.closest("button[data-passkey]") : null;
      if (target instanceof HTMLElement && target.dataset.passkey) this.remove(target.dataset.passkey);
    });
    $("passkeys-add").addEventListener("click", () => this.add());
  }

  /** Do `change()` (a request answering the account's view); `done` is the notice after it. */
  async changing(change, done) {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.render();
    let account;
    try {
      account = await change();
    } catch (error) {
      this.busy = false;
      this.error = failure(error);
      this.render();
      revealMessage($("passkeys-error"));
      return;
    }
    this.busy = false;
    this.notify(t(done));
    this.onChange(account);
  }

  add() {
    return this.changing(async () => api.addPasskey(await makePasskey(), { wait: false }), "account.passkeys.added");
  }

  remove(id) {
    return this.changing(() => api.removePasskey(id, { wait: false }), "account.passkeys.removed");
  }

  close() {
    this.error = null;
  }

  item(passkey) {
    const item = document.createElement("li");
    item.className = "account-item";
    const text = document.createElement("div");
    text.className = "account-item-text";
    const added = dateText(passkey.created);
    const name = document.createElement("strong");
    name.textContent = t("account.passkeys.item", { date: added });
    const used = document.createElement("small");
    used.textContent = passkey.used ? t("account.passkeys.used", { date: dateText(passkey.used) }) : t("account.passkeys.unused");
    text.append(name, used);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.dataset.passkey = passkey.id;
    button.dataset.focusKey = `passkey-${passkey.id}`;
    button.disabled = this.busy;
    button.textContent = t("account.passkeys.remove");
    button.setAttribute("aria-label", t("account.passkeys.remove.label", { date: added }));
    item.append(text, button);
    return item;
  }

  /** Show the passkeys of `account` (its view; the last one shown without).
   * @param {any} [account]
   */
  render(account = null) {
    if (account) this.passkeys = account.passkeys;
    const list = $("passkeys-list");
    const signature = JSON.stringify([this.passkeys, this.busy, document.documentElement.lang]);
    if (list.dataset.signature !== signature) {
      list.dataset.signature = signature;
      keepingFocus(list, () => list.replaceChildren(...this.passkeys.map((passkey) => this.item(passkey))));
    }
    list.hidden = !this.passkeys.length;
    $("passkeys-none").hidden = this.passkeys.length > 0;
    const usable = passkeysUsable();
    $("passkeys-unusable").hidden = usable;
    const add = $button("passkeys-add");
    add.hidden = !usable;
    add.disabled = this.busy;
    showMessage($("passkeys-error"), this.error);
  }
}
