// The account screen (#/account) of a signed-in device: its name and "Sign out"; the
// devices signed in (devices.js); "Add a device" (link-panel.js); the passkeys
// (passkey-list.js); the password, new recovery codes and deleting the account
// (security.js); and whether ratings hide while the person plays.  A device that is
// signed in to no account is sent to the sign-in screen.

import * as api from "../api.js";
import { $, $input } from "../dom.js";
import { t } from "../i18n.js";
import { profileAddress } from "../players/links.js";
import { DevicesPanel } from "./devices.js";
import { LinkPanel } from "./link-panel.js";
import { PasskeyList } from "./passkey-list.js";
import { dateText, failure, showMessage } from "./panel.js";
import { Security } from "./security.js";
import * as state from "./state.js";

export class AccountView {
  /** `notify(text, options)` shows a short notice; `onSignedOut(key)`: this device is
   * signed out (or its account deleted), `key` the notice that says so. */
  constructor({ notify, onSignedOut }) {
    this.notify = notify;
    this.onSignedOut = onSignedOut;
    this.shown = false;
    this.account = null; // the server's view of the account
    this.status = null; // a message {key, params} in place of the account (loading, offline)
    this.error = null; // what went wrong with "Sign out"
    this.playingError = null; // ... with the switch of ratings
    this.switching = false; // the switch's change is on its way: it shows what was chosen
    this.busy = false;
    this.devices = new DevicesPanel({ notify, onSignedOut: () => this.signedOut("account.signed_out") });
    this.link = new LinkPanel();
    this.passkeys = new PasskeyList({ notify, onChange: (account) => this.show(account) });
    this.security = new Security({
      notify,
      onChange: () => this.load(),
      onDeleted: () => this.signedOut("account.delete.done"),
    });
    $("account-sign-out").addEventListener("click", () => this.signOut());
    $("hide-ratings").addEventListener("change", () => this.hideRatings());
  }

  async open() {
    if (!this.shown) $("account-title").focus({ preventScroll: true });
    this.shown = true;
    this.account = null;
    this.status = { key: "account.loading", params: {} };
    this.render();
    await this.load();
  }

  /** Ask the server for the account (again), and then for its devices. */
  async load() {
    let account;
    try {
      account = await api.getAccount({ wait: false });
    } catch (error) {
      if (!this.shown || error.code === "cancelled") return;
      if (error.code === "not_signed_in") {
        state.signedOut();
        location.replace("#/sign-in");
        return;
      }
      if (!this.account) this.status = failure(error);
      else this.error = failure(error);
      this.render();
      return;
    }
    if (!this.shown) return;
    this.show(account);
    await this.devices.load();
  }

  /** The server answers again after a time without it: what waited for it loads. */
  back() {
    if (this.shown && !this.account) this.load();
  }

  /** Show `account`, the server's view of it after a change. */
  show(account) {
    state.seen(account);
    this.account = account;
    this.status = null;
    this.render();
  }

  close() {
    this.shown = false;
    this.account = null;
    this.error = null;
    this.playingError = null;
    this.devices.close();
    this.link.close();
    this.passkeys.close();
    this.security.close();
  }

  async signOut() {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.render();
    try {
      await api.signOut({ wait: false });
    } catch (error) {
      this.busy = false;
      this.error = failure(error);
      this.render();
      return;
    }
    this.busy = false;
    this.signedOut("account.signed_out");
  }

  signedOut(key) {
    state.signedOut();
    this.onSignedOut(key);
  }

  async hideRatings() {
    const box = $input("hide-ratings");
    const hide = box.checked;
    this.playingError = null;
    this.switching = true;
    let account;
    try {
      account = await api.changeAccount({ hide_ratings: hide }, { wait: false });
    } catch (error) {
      this.switching = false;
      box.checked = !hide;
      this.playingError = failure(error);
      this.render();
      return;
    }
    this.switching = false;
    this.show(account);
  }

  render() {
    if (!this.shown) return;
    const account = this.account;
    $("account-view").setAttribute("aria-busy", String(!account && this.status?.key === "account.loading"));
    showMessage($("account-status"), this.status);
    showMessage($("account-error"), this.error);
    $("account-body").hidden = !account;
    if (!account) return;
    $("account-name").textContent = account.name;
    $("account-since").textContent = t("account.since", { date: dateText(account.created) });
    /** @type {HTMLAnchorElement} */ ($("account-profile")).href = profileAddress(account.name);
    $("account-sign-out").toggleAttribute("disabled", this.busy);
    if (!this.switching) $input("hide-ratings").checked = account.hide_ratings;
    showMessage($("playing-error"), this.playingError);
    this.devices.render();
    this.link.render();
    this.passkeys.render(account);
    this.security.render(account);
  }
}
