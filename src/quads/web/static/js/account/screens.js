// The account's screens and the way to them.  #/sign-in (and #/sign-in/recovery,
// #/sign-in/code) signs this device in, #/sign-up makes an account of the player it is,
// #/account shows the account signed in, #/link/CODE signs in by a link code.  The top
// bar names the account signed in (to #/account), or offers to sign in; it shows
// nothing while the page has never heard from the server whether it is signed in.

import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { AccountView } from "./account-view.js";
import { LinkView } from "./link-view.js";
import { SignInView } from "./sign-in-view.js";
import { SignUpView } from "./sign-up-view.js";
import * as state from "./state.js";

/** Each screen's element. */
const ELEMENTS = { signin: "signin-view", signup: "signup-view", account: "account-view", link: "link-view" };

export class AccountScreens {
  /** `notify(text, options)` shows a short notice; `home()` shows the home screen. */
  constructor({ notify, home }) {
    this.notify = notify;
    this.home = home;
    const signedIn = (answer) => {
      state.signedIn(answer.name);
      this.leave("account.signed_in", answer.name);
    };
    this.views = {
      signin: new SignInView({ onSignedIn: signedIn }),
      signup: new SignUpView({ notify, onMade: (answer) => this.leave("account.made", answer.name) }),
      account: new AccountView({ notify, onSignedOut: (key) => this.leave(key) }),
      link: new LinkView({ onSignedIn: signedIn }),
    };
    /** @type {string | null} the account screen shown */
    this.shown = null;
    state.onChange(() => this.render());
  }

  /** The screen that `hash` names, {screen, argument}, or null for none of these. */
  static match(hash) {
    const signIn = /^#\/sign-in(?:\/(recovery|code))?$/.exec(hash);
    if (signIn) return { screen: "signin", argument: signIn[1] || "" };
    if (hash === "#/sign-up") return { screen: "signup", argument: "" };
    if (hash === "#/account") return { screen: "account", argument: "" };
    const link = /^#\/link\/([A-Za-z0-9-]{1,64})$/.exec(hash);
    if (link) return { screen: "link", argument: link[1] };
    return null;
  }

  /** The page shows `screen` (any of the page's: "setup", "game", ... "signin"). */
  show(screen) {
    for (const [name, id] of Object.entries(ELEMENTS)) {
      $(id).hidden = name !== screen;
      if (name !== screen) this.views[name].close();
    }
    this.shown = screen in ELEMENTS ? screen : null;
    this.renderEntry();
  }

  /** Open the screen `match` found. */
  async open({ screen, argument }) {
    await this.views[screen].open(argument);
  }

  /** The server answers again after a time without it. */
  back() {
    this.views.account.back();
  }

  /** Signed in, out, or the account made: say so and go home. */
  leave(key, name = "") {
    this.notify(t(key, { name }));
    this.home();
  }

  renderEntry() {
    const entry = /** @type {HTMLAnchorElement} */ ($("nav-account"));
    const who = state.current();
    entry.hidden = who === undefined || this.shown !== null;
    entry.href = who ? "#/account" : "#/sign-in";
    entry.textContent = who ? who.name : t("nav.account.sign_in");
    if (who) entry.setAttribute("aria-label", t("nav.account.label", { name: who.name }));
    else entry.removeAttribute("aria-label");
  }

  render() {
    if (this.shown) this.views[this.shown].render();
    this.renderEntry();
  }
}
