// The page's elements by id.  Every id a module asks for is in index.html (or in
// what play-area.js writes into it before the screens start), so a lookup always
// finds its element; the typed forms say which kind of element it is.

/**
 * The element whose id is `id`.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/**
 * The <input> whose id is `id`.
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export function $input(id) {
  return /** @type {HTMLInputElement} */ (document.getElementById(id));
}

/**
 * The <button> whose id is `id`.
 * @param {string} id
 * @returns {HTMLButtonElement}
 */
export function $button(id) {
  return /** @type {HTMLButtonElement} */ (document.getElementById(id));
}

/**
 * The <select> whose id is `id`.
 * @param {string} id
 * @returns {HTMLSelectElement}
 */
export function $select(id) {
  return /** @type {HTMLSelectElement} */ (document.getElementById(id));
}

/**
 * Rebuild what `container` holds with `rebuild()`, the focus kept where it was: on
 * the new element with the data-focus-key of the one that had it.
 * @param {HTMLElement} container
 * @param {() => void} rebuild
 */
export function keepingFocus(container, rebuild) {
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && container.contains(active) ? active.dataset.focusKey : null;
  rebuild();
  if (focused) focusKey(container, focused);
}

/**
 * Move the focus to the element of `container` whose data-focus-key is `key`, if any.
 * @param {HTMLElement} container
 * @param {string} key
 */
export function focusKey(container, key) {
  const target = /** @type {HTMLElement | null} */ (container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`));
  if (target) target.focus();
}
