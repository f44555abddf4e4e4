// Signing in (#/sign-in): a passkey first (a big button, and among the suggestions of
// the name field where the browser offers it), else the name and password; beside them
// #/sign-in/recovery, by a recovery code, and #/sign-in/code, by the code a signed-in
// device shows under "Add a device".  A device signed in already says as whom, with the
// way to its account.

import * as api from "../api.js";
import { $, $input } from "../dom.js";
import { t } from "../i18n.js";
import { autofillUsable, passkeysUsable, provePasskey } from "./passkeys.js";
import { failure, revealMessage, showMessage } from "./panel.js";
import * as account from "./state.js";

/** The form of each way in: "" by password, "recovery", "code". */
const FORMS = { "": "signin-form", recovery: "signin-recovery-form", code: "signin-code-form" };

/** The value of input `id`, trimmed unless it is a password. */
function value(id) {
  const input = $input(id);
  return input.type === "password" ? input.value : input.value.trim();
}

export class SignInView {
  /** `onSignedIn(answer)`: this device is signed in, `answer` {name, merged}. */
  constructor({ onSignedIn }) {
    this.onSignedIn = onSignedIn;
    /** @type {string | null} the way shown ("", "recovery", "code"); null while hidden */
    this.way = null;
    this.busy = false;
    this.error = null; // a message {key, params}
    /** @type {AbortController | null} withdraws the passkey offered in the name field */
    this.autofill = null;
    /** @type {Promise<unknown>} settles once that offer is over */
    this.autofillOver = Promise.resolve();
    $("signin-passkey").addEventListener("click", () => this.withPasskey());
    for (const [way, id] of Object.entries(FORMS)) {
      $(id).addEventListener("submit", (event) => {
        event.preventDefault();
        this.submit(way);
      });
    }
  }

  /** Show the way `way` ("", "recovery" or "code"). */
  open(way) {
    const again = this.way !== null;
    this.close();
    this.way = way;
    this.busy = false;
    this.error = null;
    this.render();
    if (!again) $("signin-title").focus({ preventScroll: true });
    if (way === "" && !account.current()) this.offerAutofill();
  }

  close() {
    this.way = null;
    this.stopAutofill();
  }

  /** Offer the person's passkeys among the suggestions of the name field, quietly: a
   * browser or a server that cannot leaves the button and the password. */
  async offerAutofill() {
    if (!(await autofillUsable()) || this.way !== "" || this.autofill) return;
    const offer = new AbortController();
    this.autofill = offer;
    const proving = provePasskey({ autofill: true, signal: offer.signal });
    this.autofillOver = proving.catch(() => null);
    let proof;
    try {
      proof = await proving;
    } catch {
      return;
    } finally {
      if (this.autofill === offer) this.autofill = null;
    }
    if (this.way === "" && !this.busy) await this.send("passkey", proof);
  }

  /** Withdraw the passkey offered in the name field; resolves once it is over (the
   * browser runs one ceremony at a time). */
  stopAutofill() {
    if (this.autofill) this.autofill.abort();
    this.autofill = null;
    return this.autofillOver;
  }

  async withPasskey() {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.render();
    await this.stopAutofill();
    let proof;
    try {
      proof = await provePasskey();
    } catch (error) {
      this.failed(error);
      return;
    }
    await this.send("passkey", proof);
  }

  submit(way) {
    if (this.busy) return;
    /** @type {Record<string, string>} */
    let body;
    /** @type {[string, string][]} each field that must not be empty, and what says so */
    let needed;
    if (way === "recovery") {
      body = { name: value("signin-recovery-name"), code: value("signin-recovery-code") };
      needed = [["signin-recovery-name", "account.name.missing"], ["signin-recovery-code", "account.recovery.missing"]];
    } else if (way === "code") {
      body = { code: value("signin-code") };
      needed = [["signin-code", "account.code.missing"]];
    } else {
      body = { name: value("signin-name"), password: value("signin-password") };
      needed = [["signin-name", "account.name.missing"], ["signin-password", "account.password.missing"]];
    }
    const missing = needed.find(([id]) => !value(id));
    if (missing) {
      this.error = { key: missing[1], params: {} };
      this.render();
      $input(missing[0]).focus();
      return;
    }
    this.stopAutofill();
    this.send(way === "code" ? "link" : way, body);
  }

  /** Sign in `by` a way of POST /api/session with `body`. */
  async send(by, body) {
    this.busy = true;
    this.error = null;
    this.render();
    let answer;
    try {
      answer = await api.signIn(by, body, { wait: false });
    } catch (error) {
      this.failed(error);
      return;
    }
    this.busy = false;
    for (const id of ["signin-password", "signin-recovery-code", "signin-code"]) $input(id).value = "";
    this.onSignedIn(answer);
  }

  failed(error) {
    this.busy = false;
    this.error = failure(error);
    this.render();
    const form = this.way === null ? null : $(FORMS[this.way]).querySelector("button[type=submit]");
    revealMessage($("signin-error"), /** @type {HTMLElement | null} */ (form));
  }

  render() {
    const way = this.way;
    if (way === null) return;
    $("signin-view").setAttribute("aria-busy", String(this.busy));
    const who = account.current();
    $("signin-already").hidden = !who;
    $("signin-already-text").textContent = who ? t("account.already", { name: who.name }) : "";
    $("signin-ways").hidden = Boolean(who);
    $("signin-passkey-box").hidden = way !== "" || !passkeysUsable();
    for (const [name, id] of Object.entries(FORMS)) $(id).hidden = name !== way;
    $("signin-to-password").hidden = way === "";
    $("signin-to-recovery").hidden = way === "recovery";
    $("signin-to-code").hidden = way === "code";
    $("signin-passkey").toggleAttribute("disabled", this.busy);
    for (const id of Object.values(FORMS)) {
      const button = /** @type {HTMLButtonElement} */ ($(id).querySelector("button[type=submit]"));
      button.disabled = this.busy;
      button.textContent = t(this.busy ? "account.sign_in.busy" : "account.sign_in.button");
    }
    showMessage($("signin-error"), this.error);
  }
}
