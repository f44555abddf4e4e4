// Position strings in the page, as the notation writes them:
// "0F8./71.3/.A.2/59.6 C" (rows 1 to 4, "." for an empty cell, then the piece
// in hand or "-"; any case, any space between the two parts, as the rules read
// them).  Whether a position is legal is the server's business.

const POSITION = /^([0-9A-F.]{4})\/([0-9A-F.]{4})\/([0-9A-F.]{4})\/([0-9A-F.]{4})\s+([0-9A-F-])$/i;

/**
 * The position string of sixteen cells (a piece's hex digit or null) and a hand.
 * @param {(string | null)[]} board
 * @param {string | null} hand
 */
export function positionString(board, hand) {
  const rows = [0, 4, 8, 12].map((start) => board.slice(start, start + 4).map((p) => p || ".").join(""));
  return `${rows.join("/")} ${hand || "-"}`;
}

/**
 * The sixteen cells and the piece in hand (or null) of a position string, or null
 * if the text is not one.
 * @param {string} text
 * @returns {{ board: (string | null)[], hand: string | null } | null}
 */
export function readPosition(text) {
  const match = POSITION.exec(text.trim().toUpperCase());
  if (!match) return null;
  const board = match.slice(1, 5).join("").split("").map((c) => (c === "." ? null : c));
  return { board, hand: match[5] === "-" ? null : match[5] };
}
