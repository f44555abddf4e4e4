// Making an account (#/sign-up): a name, then a passkey (where the browser makes them)
// or a password, whose rules are said beside it.  The player this device is becomes
// the account: its games, puzzle results and streak stay.  The ten recovery codes
// follow, shown this once, until the person says they kept them.

import * as api from "../api.js";
import { $, $button, $input } from "../dom.js";
import { t } from "../i18n.js";
import { showCodes } from "./codes.js";
import { makePasskey, passkeysUsable } from "./passkeys.js";
import { failure, revealMessage, showMessage } from "./panel.js";
import * as account from "./state.js";

export class SignUpView {
  /** `onMade(answer)`: the account is made and its codes kept, `answer` {name, merged};
   * `notify(text, options)` shows a short notice. */
  constructor({ onMade, notify }) {
    this.onMade = onMade;
    this.notify = notify;
    this.shown = false;
    this.busy = false;
    this.error = null; // a message {key, params}
    this.made = null; // the answer of POST /api/account while its codes show
    $("signup-passkey").addEventListener("click", () => this.withPasskey());
    $("signup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.withPassword();
    });
  }

  open() {
    this.shown = true;
    this.busy = false;
    this.error = null;
    this.render();
    $("signup-title").focus({ preventScroll: true });
  }

  close() {
    this.shown = false;
    if (this.made) this.kept(); // the codes were on the screen: they are not shown again
  }

  /** The name typed, or null after saying that it is missing. */
  name() {
    const name = $input("signup-name").value.trim();
    if (name) return name;
    this.error = { key: "account.name.missing", params: {} };
    this.render();
    $input("signup-name").focus();
    return null;
  }

  async withPasskey() {
    const name = this.name();
    if (!name || this.busy) return;
    this.busy = true;
    this.error = null;
    this.render();
    let passkey;
    try {
      passkey = await makePasskey(name);
    } catch (error) {
      this.failed(error);
      return;
    }
    await this.send({ name, passkey });
  }

  async withPassword() {
    const name = this.name();
    if (!name || this.busy) return;
    const password = $input("signup-password").value;
    if (!password) {
      this.error = { key: "account.password.missing", params: {} };
      this.render();
      $input("signup-password").focus();
      return;
    }
    await this.send({ name, password });
  }

  async send(body) {
    this.busy = true;
    this.error = null;
    this.render();
    let answer;
    try {
      answer = await api.signUp(body, { wait: false });
    } catch (error) {
      this.failed(error);
      return;
    }
    this.busy = false;
    $input("signup-password").value = "";
    this.made = answer;
    account.signedIn(answer.name);
    this.render();
    showCodes($("signup-codes"), answer.recovery_codes || [], {
      onKept: () => this.kept(),
      notify: this.notify,
    });
  }

  kept() {
    const made = this.made;
    this.made = null;
    $("signup-codes").hidden = true;
    $("signup-codes").replaceChildren();
    $input("signup-name").value = "";
    if (made && this.shown) this.onMade(made);
  }

  failed(error) {
    this.busy = false;
    this.error = failure(error);
    this.render();
    revealMessage($("signup-error"), $("signup-submit"));
    if (this.error && ["name_taken", "invalid_name"].includes(error.code)) $input("signup-name").focus();
    else if (this.error && error.code === "weak_password") $input("signup-password").focus();
  }

  render() {
    if (!this.shown) return;
    $("signup-view").setAttribute("aria-busy", String(this.busy));
    const who = account.current();
    const making = Boolean(this.made);
    $("signup-already").hidden = !who || making;
    $("signup-already-text").textContent = who ? t("account.already", { name: who.name }) : "";
    $("signup-intro").hidden = making;
    $("signup-form").hidden = Boolean(who) || making;
    $("signup-links").hidden = Boolean(who) || making;
    const passkeys = passkeysUsable();
    $("signup-passkey-box").hidden = !passkeys;
    $button("signup-passkey").disabled = this.busy;
    const submit = $button("signup-submit");
    submit.disabled = this.busy;
    // With a passkey at hand the passkey is the first choice, the password the other.
    submit.classList.toggle("button-primary", !passkeys);
    showMessage($("signup-error"), this.error);
  }
}
