// The prompt shown when the server does not know this browser's player (401
// unknown_player): its data was reset, the cookie is damaged, or the device was signed
// out of its account on another device.  The person goes on as a new player, or signs
// in again; the requests refused meanwhile are sent again once they chose (api.js):
// as the new player, or as the account signed in to.

import * as api from "../api.js";
import { $ } from "../dom.js";
import { t } from "../i18n.js";
import * as state from "./state.js";

/** Ask the person whenever the server does not know this browser; `notify(text)` shows
 * a short notice. */
export function askWhenForgotten({ notify }) {
  api.onUnknownPlayer(
    () =>
      new Promise((resolve) => {
        const panel = $("forgotten");
        const start = $("forgotten-start");
        const chosen = new AbortController();
        const choose = (fn) => () => {
          chosen.abort();
          panel.hidden = true;
          fn();
        };
        start.addEventListener("click", choose(() => {
          state.signedOut();
          notify(t("player.forgotten.done"));
          resolve(undefined);
        }), { signal: chosen.signal });
        $("forgotten-sign-in").addEventListener("click", choose(async () => {
          // The cookie that leads nowhere goes first, so that the sign-in screen starts
          // as a newcomer's (a passkey's ceremony is asked for as one).
          await api.signOut({ wait: false }).catch(() => null);
          state.signedOut();
          location.hash = "#/sign-in";
          await state.nextSignIn();
          resolve(api.SIGNED_IN_AGAIN);
        }), { signal: chosen.signal });
        panel.hidden = false;
        window.scrollTo(0, 0); // in its place above the screen, not floating over it
        start.focus({ preventScroll: true });
      }),
  );
}
