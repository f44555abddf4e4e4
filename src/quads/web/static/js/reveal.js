// Keeping what the player acts on in view on a small screen: the prompt at
// the top of a play screen, or the supply with its instruction when a piece
// is to be handed over.  Scrolling is instant under prefers-reduced-motion.

export function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function scrollTo(element, instant = false) {
  const smooth = !instant && !prefersReducedMotion();
  element.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
}

/** Scroll `screen` to its top when its `prompt` is above the screen. */
export function revealTop(prompt, screen) {
  if (prompt.getBoundingClientRect().top < 0) scrollTo(screen);
}

/**
 * Scroll `element` to the top of the screen unless all of it is in view
 * already; `instant`: without a smooth scroll (when a screen opens).
 */
export function revealWhole(element, { instant = false } = {}) {
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) scrollTo(element, instant);
}
