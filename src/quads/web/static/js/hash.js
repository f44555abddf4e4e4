// The parts of the page's address (`#/game/ID`, `#/puzzle/DATE`, `#/players/NAME`).

/**
 * `part` of the address with its %-escapes decoded; as it was typed when an escape is
 * broken (`%E0%A4%A`), so that the screen it names says that there is no such thing
 * instead of the page failing to open it.
 * @param {string} part
 */
export function decodePart(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
