// Installing the page as an app, where the browser offers it: the browser
// fires `beforeinstallprompt` when the page may be installed, and the page then
// shows its own card with an "Install" button, which asks the browser to
// install it.  Where the event never comes (browsers without the prompt, a page
// already installed), the card stays hidden; the browser's own menu still offers
// "Add to home screen".

/**
 * The `beforeinstallprompt` event, which only some browsers fire.
 * @typedef {Event & { prompt: () => Promise<void>, userChoice: Promise<{ outcome: string }> }} InstallPrompt
 */

/**
 * Show `card` while the browser offers to install the page; its `button` asks for it.
 * @param {HTMLElement} card
 * @param {HTMLElement} button
 */
export function offerInstall(card, button) {
  /** @type {InstallPrompt | null} */
  let offer = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // no mini-infobar: the card offers it instead
    offer = /** @type {InstallPrompt} */ (event);
    card.hidden = false;
  });
  button.addEventListener("click", async () => {
    if (!offer) return;
    const shown = offer;
    offer = null;
    card.hidden = true;
    try {
      await shown.prompt();
      await shown.userChoice;
    } catch (error) {
      console.warn("no install prompt:", error);
    }
  });
  window.addEventListener("appinstalled", () => {
    offer = null;
    card.hidden = true;
  });
}
