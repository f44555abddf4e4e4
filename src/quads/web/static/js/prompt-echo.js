// A heading that repeats the prompt only while the prompt is out of view.  On a
// phone the prompt stands above the board and the supply below it, so the
// supply's heading says what to do when a piece is to be handed over; where the
// prompt is in view too (a desktop, a tall phone at the first move), the heading
// keeps its own words and the instruction is read once.
//
// The heading holds both texts in one place, the one not shown hidden, so that it
// keeps its height as the page scrolls and nothing below it moves.

export class PromptEcho {
  /**
   * @param {HTMLElement} heading the heading that may repeat the prompt
   * @param {HTMLElement} prompt the prompt, watched as it enters and leaves the view
   */
  constructor(heading, prompt) {
    this.heading = heading;
    this.prompt = prompt;
    this.echo = false;
    this.promptInView = true;
    this.own = document.createElement("span");
    this.copy = document.createElement("span");
    this.own.textContent = heading.textContent;
    heading.classList.add("prompt-echo");
    heading.removeAttribute("data-i18n"); // its words come from set(), in the language of the moment
    heading.replaceChildren(this.own, this.copy);
    new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      this.promptInView = entry.isIntersecting && entry.intersectionRatio > 0.99;
      this.draw();
    }, { threshold: [0, 1] }).observe(prompt);
  }

  /** Say the prompt when it is out of view (`echo`), or else the heading's own `words`. */
  set(echo, words) {
    this.echo = echo;
    if (this.own.textContent !== words) this.own.textContent = words;
    const copy = echo ? this.prompt.textContent || "" : "";
    if (this.copy.textContent !== copy) this.copy.textContent = copy;
    this.draw();
  }

  draw() {
    const echoing = this.echo && !this.promptInView;
    this.own.toggleAttribute("aria-hidden", echoing);
    this.copy.toggleAttribute("aria-hidden", !echoing);
    this.heading.classList.toggle("echoing", echoing);
  }
}
