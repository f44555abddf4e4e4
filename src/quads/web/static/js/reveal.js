// Keeping what the player acts on in view on a small screen: the prompt at
// the top of a play screen, the supply with its instruction when a piece is
// to be handed over, a call ("Quarto!") with its reminder whenever one is
// offered, an explanation by what was pressed.  Scrolling is instant under
// prefers-reduced-motion.

export function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const MARGIN = 8; // CSS px kept free above and below what is revealed

function scrollTo(element, instant = false) {
  const smooth = !instant && !prefersReducedMotion();
  element.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
}

/**
 * Whether `element` is shown (not hidden, not in a hidden part of the page).
 * @param {Element | null | undefined} element
 * @returns {element is Element}
 */
function shown(element) {
  return element !== null && element !== undefined && element.getClientRects().length > 0
    && (!element.checkVisibility || element.checkVisibility({ visibilityProperty: true }));
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

/**
 * Bring what the player must act on now into view: `elements`, the most
 * important first (those not shown are skipped).  As many of them as fit on
 * the screen together, from the first on, are shown whole, with the least
 * scrolling; when the screen's top (`screen`, e.g. the section) fits with
 * them, the page scrolls no further down than that, so the player keeps the
 * context above.  Nothing moves when they are in view already.
 * @param {(Element | null | undefined)[]} elements
 * @param {{ screen?: Element | null, instant?: boolean }} [options]
 */
export function revealAll(elements, { screen = null, instant = false } = {}) {
  const boxes = elements.filter(shown).map((element) => element.getBoundingClientRect());
  if (!boxes.length) return;
  const room = window.innerHeight - 2 * MARGIN;
  let top = boxes[0].top;
  let bottom = boxes[0].bottom;
  for (const box of boxes.slice(1)) {
    const joined = { top: Math.min(top, box.top), bottom: Math.max(bottom, box.bottom) };
    if (joined.bottom - joined.top > room) break;
    ({ top, bottom } = joined);
  }
  let by = 0;
  if (bottom - top > room || top < MARGIN) {
    by = top - MARGIN; // the first at the top when it is too tall, else up just enough
    if (shown(screen)) {
      const start = screen.getBoundingClientRect().top;
      if (start < top && bottom - start <= window.innerHeight - MARGIN) by = Math.min(by, start);
    }
  } else if (bottom > window.innerHeight - MARGIN) {
    by = bottom - (window.innerHeight - MARGIN);
  }
  if (Math.abs(by) < 1) return;
  const smooth = !instant && !prefersReducedMotion();
  window.scrollBy({ top: by, behavior: smooth ? "smooth" : "auto" });
}
