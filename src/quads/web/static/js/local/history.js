// Undo and redo by whole turns, as the game screen offers them: the same as the
// server's quads.site.games.history, step for step, over the page's rules (js/rules/).
//
// A *turn* here is a run of consecutive actions by one player: a hand-over alone
// (the first turn), a placement and its hand-over, a placement and its
// declaration, a claim.  The player of an action is the one to move in the state
// before it.
//
// - Between two people (`person` null) undo takes back the last turn and redo
//   plays one turn again.
// - Against the computer (`person` is the person's side, "first" or "second")
//   undo takes back turns until one of the person's own turns is taken back: back
//   to the point where the person last had to act.  Redo plays one turn again and
//   then any following turns, up to the next point where the person has to act.
//
// Only Game.undo() and Game.redo() change the game, so the redo trail stays the
// rules' own.  No DOM, no network: it runs in node as in the page.
//
// API:
//   canUndo(game, person) -> boolean   whether undo() has something to take back
//   canRedo(game, person) -> boolean   whether redo() has something to play again
//   undo(game, person)                 take back a turn (call only when canUndo)
//   redo(game, person)                 play a turn again (call only when canRedo)
// `game` is a Game of js/rules/game.js, changed in place; `person` is null
// between two people, else the person's side.

/** @typedef {import("../rules/game.js").Game} Game */
/** @typedef {import("../rules/outcome.js").Player} Player */

/**
 * The player of the last action (there must be one).
 * @param {Game} game
 * @returns {Player}
 */
function lastPlayer(game) {
  const states = game.states;
  return states[states.length - 2].toMove;
}

/**
 * Take back the last turn; return its player.
 * @param {Game} game
 * @returns {Player}
 */
function undoTurn(game) {
  const player = lastPlayer(game);
  while (game.canUndo() && lastPlayer(game) === player) game.undo();
  return player;
}

/** @param {Game} game */
function redoTurn(game) {
  const player = game.state.toMove;
  game.redo();
  while (game.canRedo() && !game.isOver() && game.state.toMove === player) game.redo();
}

/**
 * Whether undo() has something to take back.
 * @param {Game} game
 * @param {Player | null} person
 * @returns {boolean}
 */
export function canUndo(game, person) {
  if (person === null) return game.canUndo();
  const states = game.states;
  return states.slice(0, -1).some((state) => state.toMove === person);
}

/**
 * Whether redo() has something to play again.
 * @param {Game} game
 * @param {Player | null} _person
 * @returns {boolean}
 */
export function canRedo(game, _person) {  // the same for both, as on the server
  return game.canRedo();
}

/**
 * Take back one turn (two people), or back to the person's last turn (against the
 * computer).  Call only when canUndo().
 * @param {Game} game
 * @param {Player | null} person
 */
export function undo(game, person) {
  if (person === null) {
    undoTurn(game);
    return;
  }
  while (undoTurn(game) !== person) { /* back to the person's own turn */ }
}

/**
 * Play one turn again (two people), or up to the person's next turn (against the
 * computer).  Call only when canRedo().
 * @param {Game} game
 * @param {Player | null} person
 */
export function redo(game, person) {
  redoTurn(game);
  if (person === null) return;
  while (game.canRedo() && !game.isOver() && game.state.toMove !== person) redoTurn(game);
}
