// The address that a link code's QR code opens (#/link/CODE): the code, and one button
// that signs this device in with it.  Nothing happens before the person presses it (an
// address may be opened by mistake, or by a preview).  A device signed in to an account
// already is signed out of it first, as it says.

import * as api from "../api.js";
import { $, $button } from "../dom.js";
import { t } from "../i18n.js";
import { failure, revealMessage, showMessage } from "./panel.js";
import * as state from "./state.js";
import { normalCode } from "./words.js";

export class LinkView {
  /** `onSignedIn(answer)`: this device is signed in, `answer` {name, merged}. */
  constructor({ onSignedIn }) {
    this.onSignedIn = onSignedIn;
    this.code = null; // the code of the address shown
    this.busy = false;
    this.error = null;
    $("link-view-button").addEventListener("click", () => this.signIn());
  }

  /** Show the code `code` of the address. */
  open(code) {
    this.code = normalCode(code);
    this.busy = false;
    this.error = null;
    this.render();
    $button("link-view-button").focus({ preventScroll: true });
  }

  close() {
    this.code = null;
  }

  async signIn() {
    const code = this.code;
    if (this.busy || !code) return;
    this.busy = true;
    this.error = null;
    this.render();
    let answer;
    try {
      if (state.current()) {
        await api.signOut({ wait: false });
        state.signedOut();
      }
      answer = await api.signIn("link", { code }, { wait: false });
    } catch (error) {
      this.busy = false;
      this.error = failure(error);
      this.render();
      revealMessage($("link-view-error"), $("link-view-button"));
      return;
    }
    this.busy = false;
    if (this.code === code) this.onSignedIn(answer);
  }

  render() {
    if (this.code === null) return;
    $("link-view").setAttribute("aria-busy", String(this.busy));
    $("link-view-code").textContent = this.code;
    const who = state.current();
    const change = $("link-view-switch");
    change.hidden = !who;
    change.textContent = who ? t("account.link_in.switch", { name: who.name }) : "";
    $button("link-view-button").disabled = this.busy;
    showMessage($("link-view-error"), this.error);
  }
}
