// "Add a device" on the account screen: a code that lets one more device in to the
// account within minutes, used once (POST /api/account/link).  It shows large, to be
// typed on the other device's sign-in screen, with the QR code of the address that
// signs a device in with it, and the time it has left, counted down every second.

import * as api from "../api.js";
import { $, $button } from "../dom.js";
import { t } from "../i18n.js";
import { revealAll } from "../reveal.js";
import { failure, revealMessage, showMessage } from "./panel.js";
import { qrDrawing } from "./qr.js";
import { clockText, linkDeadline, secondsLeft } from "./words.js";

export class LinkPanel {
  constructor() {
    this.link = null; // {code, expires, url, qr} of the code shown
    this.deadline = 0; // when it runs out, by this device's clock (ms)
    this.busy = false;
    this.error = null;
    /** @type {number | undefined} */
    this.ticker = undefined;
    $("link-make").addEventListener("click", () => this.make());
  }

  async make() {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.render();
    let link;
    try {
      link = await api.newLinkCode({ wait: false });
    } catch (error) {
      this.busy = false;
      this.error = failure(error);
      this.render();
      revealMessage($("link-error"), $("link-make"));
      return;
    }
    this.busy = false;
    this.link = link;
    this.deadline = linkDeadline(link.expires, Date.now());
    const drawing = qrDrawing(link.qr);
    $("link-qr").replaceChildren(...(drawing ? [drawing] : []));
    clearInterval(this.ticker);
    this.ticker = setInterval(() => this.tick(), 1000);
    this.render();
    revealAll([$("link-shown"), $("link-left")], { screen: $("link-title") });
  }

  tick() {
    this.render();
    if (!this.left()) clearInterval(this.ticker);
  }

  /** The seconds the code shown has left (0 without one). */
  left() {
    return this.link ? secondsLeft(this.deadline, Date.now()) : 0;
  }

  /** The screen was left: the code is not shown again. */
  close() {
    clearInterval(this.ticker);
    this.link = null;
    this.error = null;
    $("link-qr").replaceChildren();
  }

  render() {
    const left = this.left();
    $("link-box").hidden = !this.link;
    const showing = left > 0;
    $("link-code").textContent = this.link ? this.link.code : "";
    $("link-shown").hidden = !showing;
    $("link-left").textContent = showing ? t("account.link.left", { time: clockText(left) }) : t("account.link.expired");
    const button = $button("link-make");
    button.disabled = this.busy;
    button.textContent = t(this.link ? "account.link.again" : "account.link.make");
    showMessage($("link-error"), this.error);
  }
}
