// Keyboard movement inside a grid of buttons (the board, the supply).
//
// The grid is one stop for Tab; inside it the arrow keys move the focus, Home
// and End jump to the first and last button, and Enter or Space press the
// focused button (buttons do that by themselves).  The button that had the
// focus last keeps tabindex 0, so Tab comes back to it.

/**
 * Make the buttons of `container` one roving tab stop.  `columns()` tells how
 * many buttons make one row right now (the supply reflows on narrow screens).
 */
export function makeRoving(container, columns) {
  container.addEventListener("keydown", (event) => {
    const items = [...container.querySelectorAll("button")];
    const index = items.indexOf(document.activeElement);
    if (index < 0) return;
    const step = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: -columns(),
      ArrowDown: columns(),
      Home: -index,
      End: items.length - 1 - index,
    }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(items.length - 1, index + step));
    focusItem(container, items[next]);
  });
  container.addEventListener("focusin", (event) => {
    if (event.target.matches("button")) setTabStop(container, event.target);
  });
}

function setTabStop(container, item) {
  for (const other of container.querySelectorAll("button")) other.tabIndex = other === item ? 0 : -1;
  container.dataset.active = item.dataset.key;
}

/** Move the focus to `item` (a button of `container`). */
export function focusItem(container, item, options = {}) {
  if (!item) return;
  setTabStop(container, item);
  item.focus(options);
}

/**
 * After the buttons were drawn anew: give the tab stop back to the button that
 * had it (by its data-key), else to `fallbackKey`, else to the first.
 */
export function restoreTabStop(container, fallbackKey) {
  const items = [...container.querySelectorAll("button")];
  if (!items.length) return;
  const byKey = (key) => items.find((item) => item.dataset.key === key);
  const item = byKey(container.dataset.active) || byKey(fallbackKey) || items[0];
  for (const other of items) other.tabIndex = other === item ? 0 : -1;
}
