// The account screen's forms that ask for the password again (when the account has
// one): changing the password (or giving a passkey-only account one), new recovery
// codes (shown once, as on signing up), and deleting the account, confirmed by its
// name, after a plain warning.

import * as api from "../api.js";
import { $, $button, $input } from "../dom.js";
import { t } from "../i18n.js";
import { showCodes } from "./codes.js";
import { failure, revealMessage, showMessage } from "./panel.js";

/** The forms, with the box of each one's refusal. */
const ERRORS = { password: "password-error", recovery: "recovery-error", delete: "delete-error" };

export class Security {
  /** `notify(text, options)` shows a short notice; `onChange()`: the account changed
   * (load it again); `onDeleted()`: the account is no more. */
  constructor({ notify, onChange, onDeleted }) {
    this.notify = notify;
    this.onChange = onChange;
    this.onDeleted = onDeleted;
    this.account = null;
    this.busy = null; // the form whose request is on its way
    /** @type {Record<string, {key: string, params: object} | null>} */
    this.errors = {};
    this.deleting = false; // the form that deletes the account is open
    this.codes = false; // new recovery codes are on the screen
    for (const form of Object.keys(ERRORS)) {
      $(`${form}-form`).addEventListener("submit", (event) => {
        event.preventDefault();
        this.submit(form);
      });
    }
    $("delete-open").addEventListener("click", () => this.openDelete(!this.deleting));
    $("delete-cancel").addEventListener("click", () => this.openDelete(false));
  }

  openDelete(open) {
    this.deleting = open;
    this.errors.delete = null;
    this.render();
    if (open) $input("delete-name").focus();
    else $button("delete-open").focus();
  }

  /** The fields of `form` that must not be empty, each with what says so. */
  needed(form) {
    const password = this.account && this.account.password;
    if (form === "password") {
      return [...(password ? [["password-current", "account.password.missing"]] : []), ["password-new", "account.password.missing"]];
    }
    if (form === "recovery") return password ? [["recovery-password", "account.password.missing"]] : [];
    return [["delete-name", "account.name.missing"], ...(password ? [["delete-password", "account.password.missing"]] : [])];
  }

  async submit(form) {
    if (this.busy || !this.account) return;
    const missing = this.needed(form).find(([id]) => !$input(id).value);
    if (missing) {
      this.errors[form] = { key: missing[1], params: {} };
      this.render();
      $input(missing[0]).focus();
      return;
    }
    const password = this.account.password;
    const value = (id) => (password ? $input(id).value : null);
    this.busy = form;
    this.errors[form] = null;
    this.render();
    let answer;
    try {
      if (form === "password") {
        answer = await api.changePassword(value("password-current"), $input("password-new").value, { wait: false });
      } else if (form === "recovery") {
        answer = await api.newRecoveryCodes(value("recovery-password"), { wait: false });
      } else {
        answer = await api.deleteAccount($input("delete-name").value.trim(), value("delete-password"), { wait: false });
      }
    } catch (error) {
      this.busy = null;
      this.errors[form] = failure(error);
      this.render();
      revealMessage($(ERRORS[form]), $(`${form}-form`).querySelector("button[type=submit]"));
      return;
    }
    this.busy = null;
    for (const id of ["password-current", "password-new", "recovery-password", "delete-password"]) $input(id).value = "";
    this.done(form, answer);
  }

  done(form, answer) {
    if (form === "delete") {
      this.deleting = false;
      $input("delete-name").value = "";
      this.onDeleted();
    } else if (form === "password") {
      this.notify(t("account.password.changed"));
      this.onChange();
    } else {
      this.codes = true;
      this.render();
      showCodes($("recovery-codes"), answer.recovery_codes, {
        notify: this.notify,
        onKept: () => {
          this.codes = false;
          this.onChange();
          $("recovery-title").focus();
        },
      });
    }
  }

  close() {
    this.account = null;
    this.busy = null;
    this.errors = {};
    this.deleting = false;
    this.codes = false;
    $("recovery-codes").hidden = true;
    $("recovery-codes").replaceChildren();
    for (const id of ["password-current", "password-new", "recovery-password", "delete-name", "delete-password"]) {
      $input(id).value = "";
    }
  }

  /** Show the forms for `account` (its view; the last one shown without).
   * @param {any} [account]
   */
  render(account = null) {
    if (account) this.account = account;
    if (!this.account) return;
    const password = this.account.password;
    $input("password-user").value = this.account.name;
    $("password-none").hidden = password;
    $("password-current-field").hidden = !password;
    $("password-submit").textContent = t(password ? "account.password.change" : "account.password.set");
    $("recovery-left").textContent = t("account.recovery_codes.left", { left: this.account.recovery_codes_left });
    $("recovery-form").hidden = this.codes;
    $("recovery-password-field").hidden = !password;
    $("delete-form").hidden = !this.deleting;
    $("delete-open").setAttribute("aria-expanded", String(this.deleting));
    $("delete-open").hidden = this.deleting;
    $("delete-password-field").hidden = !password;
    for (const form of Object.keys(ERRORS)) {
      for (const button of $(`${form}-form`).querySelectorAll("button")) button.disabled = this.busy !== null;
      showMessage($(ERRORS[form]), this.errors[form] || null);
    }
  }
}
