// Working without the server: the service worker that keeps the page's files
// (sw.js), and the banner that says so when the server cannot be reached.
//
// The banner shows while the browser is offline (its `offline` event) or while
// the page's requests find no server (api.js retries them); it goes away by
// itself with the `online` event or the next answer of the server.  It names
// the cause it saw first, says what does not work, and that nothing is lost.

import { t } from "./i18n.js";

/** Register the service worker; where there is none, the page works as before. */
export function keepForOffline() {
  if (!("serviceWorker" in navigator)) return;
  try {
    navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("no service worker:", error));
  } catch (error) {
    console.warn("no service worker:", error);
  }
}

export class OfflineBanner {
  /**
   * Fill `element` (a live region that stays in the page, empty while all is
   * well) while the connection is lost; call `onBack()` when it is back.
   */
  constructor(element, { onBack = () => {} } = {}) {
    this.element = element;
    this.onBack = onBack;
    this.networkDown = !navigator.onLine;
    this.serverDown = false;
    this.cause = this.networkDown ? "net.offline" : null; // the key of the first sentence
    window.addEventListener("offline", () => {
      this.networkDown = true;
      this.cause = "net.offline";
      this.update();
    });
    // The requests waiting for the server try again at once (api.js): they
    // tell whether it answers, so the banner keeps its words until then.
    window.addEventListener("online", () => {
      this.networkDown = false;
      this.update();
    });
  }

  /** What api.js reports: whether the server answered the last attempt. */
  reachable(answered) {
    if (answered) {
      this.serverDown = false;
    } else {
      this.serverDown = true;
      this.cause = navigator.onLine ? "net.unreachable" : "net.offline";
    }
    this.update();
  }

  get shown() {
    return this.element.childElementCount > 0;
  }

  update() {
    const lost = this.networkDown || this.serverDown;
    const wasShown = this.shown;
    if (!lost) {
      this.cause = null;
      this.element.replaceChildren();
      if (wasShown) this.onBack();
      return;
    }
    this.render();
  }

  /** Draw the texts (after a change of language too). */
  render() {
    if (!this.cause) return;
    // Unchanged words are not written again: the region would say them again.
    if (this.element.textContent === `${t(this.cause)} ${t("net.offline.detail")}`) return;
    const cause = document.createElement("strong");
    cause.textContent = t(this.cause);
    const detail = document.createElement("span");
    detail.textContent = t("net.offline.detail");
    this.element.replaceChildren(cause, " ", detail);
  }
}
