// A game played on the device: plain data (structured-clonable, so IndexedDB
// keeps it as it is; js/local/store.js) and the operations on it, which do what
// the server's routes do to a `local` or `computer` game (quads.site.games.play): the
// rules decide every action (js/rules/), undo and redo go by whole turns
// (js/local/history.js), and every change moves the revision on.  Each operation
// returns a new device game and never changes the one it is given: a refusal
// throws and changes nothing.  No DOM, no network.
//
// A device game:
//   {id, rules, mode, level, human, game, revision, created, updated, uploaded, upload_error}
//   id         a random UUID (crypto.randomUUID()), the id of `PUT /api/games/device/{id}`
//   rules      the rule set's name; mode "local" | "computer"; level 1-5 and human
//              "first" | "second" for "computer" (null for "local")
//   game       the Game's snapshot() (js/rules/game.js): rules, start, headers, the
//              actions played and those undone (the redo trail), as text
//   revision   0 when new, one more after every change
//   created, updated   ISO 8601 times (UTC)
//   uploaded   {revision, game, at}: the revision the server stored last, its id
//              there and when; null before the first upload
//   upload_error  {revision, error: {status, code, message, reason?, params?}}: the
//              server refused that revision (its rules' reason, for the page to
//              word); null when none
//
// API (`options` may give `now: () => Date`, and `revision`: the revision the
// caller saw, refused as `stale` when the game moved on since):
//   newDeviceGame({rules, mode, level, human}, {id, now}) -> device game
//   act(device, action, options)        a person's action: "place B2", an API action
//                                       ({action: "place", cell: "B2"}) or a rules Action
//   playComputer(device, texts, options)  the computer's turn, as action texts
//                                       ("place B2", "give 7"), e.g. from js/engine/
//   undo(device, options), redo(device, options)   by whole turns, as the server does
//   resign(device, options)             the person resigns (on one device: the side to move)
//   restoreGame(device) -> Game         the game, replayed by the rules
//   view(device) -> GameView, summary(device) -> GameSummary   (js/local/view.js)
//   uploadBody(device) -> the body of `PUT /api/games/device/{id}` (docs/web-api.md)
//   needsUpload(device) -> boolean      a revision the server has not stored nor refused
//   markUploaded(device, revision, gameId, options), markRefused(device, revision, error)
//                                       -> device game: what the server answered
// Refusals: the rules' own errors (IllegalActionError, InvalidRulesError ...: code,
// reason, params), or a DeviceGameError whose `code` is the server's for the same
// refusal: game_over, not_your_turn, nothing_to_undo, nothing_to_redo, stale, bad_request.

import { ENDINGS, Game, actionText, give, parseAction, place } from "../rules/game.js";
import { parseCell } from "../rules/cells.js";
import { parsePiece } from "../rules/pieces.js";
import { Rules } from "../rules/rules.js";
import { canRedo, canUndo, redo as redoTurn, undo as undoTurn } from "./history.js";
import { gameView, summaryView } from "./view.js";

/** @typedef {import("../rules/outcome.js").Player} Player */
/** @typedef {import("../rules/game.js").Action} Action */
/** @typedef {import("./view.js").DeviceGameData} DeviceGame */

/** A refusal that is not the rules' own: its `code` is the server's for the same case. */
export class DeviceGameError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {string} [reason]
   * @param {Record<string, string | number>} [params]
   */
  constructor(code, message, reason = "", params = {}) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.params = params;
  }

  get name() {
    return "DeviceGameError";
  }
}

const gameOver = () => new DeviceGameError("game_over", "the game is over");

/** @param {{ now?: () => Date }} options */
function timeOf(options) {
  return (options.now ?? (() => new Date()))().toISOString();
}

/**
 * A new game on the empty board, dated today (the `Date` header, as the server dates
 * its games).
 * @param {{ rules?: string, mode: "local" | "computer", level?: number | null, human?: Player | null }} settings
 * @param {{ id?: string, now?: () => Date }} [options]
 * @returns {DeviceGame}
 * @throws {import("../rules/errors.js").InvalidRulesError} for an unknown rule set
 * @throws {DeviceGameError} `bad_request` for another mode, level or side
 */
export function newDeviceGame({ rules = "quads", mode, level = null, human = null }, options = {}) {
  const parsed = Rules.parse(rules);
  if (mode !== "local" && mode !== "computer") {
    throw new DeviceGameError("bad_request", `mode ${String(mode)}: expected local or computer`);
  }
  const computer = mode === "computer";
  if (computer && !(typeof level === "number" && Number.isInteger(level) && level >= 1 && level <= 5)) {
    throw new DeviceGameError("bad_request", `level ${String(level)}: expected an integer from 1 to 5`);
  }
  if (computer && human !== "first" && human !== "second") {
    throw new DeviceGameError("bad_request", `human ${String(human)}: expected first or second`);
  }
  const created = timeOf(options);
  const date = `${created.slice(0, 4)}.${created.slice(5, 7)}.${created.slice(8, 10)}`;
  const game = new Game(parsed, undefined, { Date: date });
  return {
    id: options.id ?? globalThis.crypto.randomUUID(),
    rules: parsed.name,
    mode,
    level: computer ? /** @type {number} */ (level) : null,
    human: computer ? human : null,
    game: game.snapshot(),
    revision: 0,
    created,
    updated: created,
    uploaded: null,
    upload_error: null,
  };
}

/**
 * The device game's Game, replayed by the rules from its snapshot.
 * @param {DeviceGame} device
 * @returns {Game}
 */
export function restoreGame(device) {
  return Game.restore(device.game);
}

/**
 * The person's side against the computer; null between two people.
 * @param {DeviceGame} device
 * @returns {Player | null}
 */
function personOf(device) {
  return device.mode === "computer" ? device.human : null;
}

/**
 * @param {DeviceGame} device
 * @param {{ revision?: number }} options
 */
function checkRevision(device, options) {
  if (options.revision !== undefined && options.revision !== device.revision) {
    throw new DeviceGameError(
      "stale", `revision ${options.revision} is stale: the game is at revision ${device.revision}`,
      "", { revision: options.revision, current: device.revision },
    );
  }
}

/**
 * `device` after `change` played on a copy of its game: the next revision.
 * @param {DeviceGame} device
 * @param {{ now?: () => Date, revision?: number }} options
 * @param {(game: Game) => void} change throws to refuse; the game is a fresh copy
 * @returns {DeviceGame}
 */
function changed(device, options, change) {
  checkRevision(device, options);
  const game = restoreGame(device);
  change(game);
  return { ...device, game: game.snapshot(), revision: device.revision + 1, updated: timeOf(options) };
}

/**
 * A person's action as the rules' Action.  An ending (a resignation, a loss on time, an
 * abandonment, an abort) is none: a person resigns with resign(), and the others come
 * from the server only.
 * @param {string | Action | import("../rules/game.js").ResignAction
 *   | { action: string, cell?: string, piece?: string }} action
 * @returns {Action}
 */
function actionOf(action) {
  if (typeof action === "string") {
    const parsed = parseAction(action);
    if (parsed.type === "resign") throw new DeviceGameError("bad_request", "a resignation is not an action here: resign()");
    if (ENDINGS.has(parsed.type)) throw new DeviceGameError("bad_request", `not an action: ${action}`);
    return /** @type {Action} */ (parsed);
  }
  if (action !== null && typeof action === "object" && "action" in action) {
    if (action.action === "place") return place(parseCell(String(action.cell)));
    if (action.action === "give") return give(parsePiece(String(action.piece)));
    if (["declare", "claim", "decline"].includes(action.action)) return /** @type {Action} */ (parseAction(action.action));
  } else if (action !== null && typeof action === "object" && "type" in action && !ENDINGS.has(action.type)) {
    return /** @type {Action} */ (parseAction(actionText(action)));
  }
  throw new DeviceGameError("bad_request", `not an action: ${JSON.stringify(action)}`);
}

/**
 * Play one action of a person (on one device, of the side to move).
 * @param {DeviceGame} device
 * @param {string | Action | { action: string, cell?: string, piece?: string }} action
 * @param {{ now?: () => Date, revision?: number }} [options]
 * @returns {DeviceGame}
 * @throws {DeviceGameError} game_over, not_your_turn (the computer's turn), stale
 * @throws {import("../rules/errors.js").QuadsError} what the rules refuse
 */
export function act(device, action, options = {}) {
  const parsed = actionOf(action);
  return changed(device, options, (game) => {
    if (game.isOver()) throw gameOver();
    const person = personOf(device);
    if (person !== null && game.toMove !== person) {
      throw new DeviceGameError("not_your_turn", "it is the computer's turn: ask it to play");
    }
    game.apply(parsed);
  });
}

/**
 * Play the computer's turn: its actions as text ("place B2", "give 7", "declare" ...),
 * each of them while the computer is to move, checked as a whole.
 * @param {DeviceGame} device
 * @param {readonly string[]} texts
 * @param {{ now?: () => Date, revision?: number }} [options]
 * @returns {DeviceGame}
 * @throws {DeviceGameError} game_over, not_your_turn (no computer, or the person's turn), stale
 * @throws {import("../rules/errors.js").QuadsError} what the rules refuse
 */
export function playComputer(device, texts, options = {}) {
  const actions = texts.map((text) => actionOf(String(text)));
  return changed(device, options, (game) => {
    if (game.isOver()) throw gameOver();
    const person = personOf(device);
    if (person === null || device.level === null) {
      throw new DeviceGameError("not_your_turn", "there is no computer player in a game between two people");
    }
    if (game.toMove === person) throw new DeviceGameError("not_your_turn", "it is the person's turn, not the computer's");
    if (!actions.length) throw new DeviceGameError("bad_request", "the computer's turn has no action");
    for (const action of actions) {
      if (game.isOver() || game.toMove === person) {
        throw new DeviceGameError("not_your_turn", "it is the person's turn, not the computer's");
      }
      game.apply(action);
    }
  });
}

/**
 * Take back a turn, or back to the person's last turn (js/local/history.js).
 * @param {DeviceGame} device
 * @param {{ now?: () => Date, revision?: number }} [options]
 * @returns {DeviceGame}
 * @throws {DeviceGameError} nothing_to_undo, stale
 */
export function undo(device, options = {}) {
  return changed(device, options, (game) => {
    const person = personOf(device);
    if (resignedIn(game) || !canUndo(game, person)) throw new DeviceGameError("nothing_to_undo", "there is nothing to undo");
    undoTurn(game, person);
  });
}

/**
 * Play again what undo took back.
 * @param {DeviceGame} device
 * @param {{ now?: () => Date, revision?: number }} [options]
 * @returns {DeviceGame}
 * @throws {DeviceGameError} nothing_to_redo, stale
 */
export function redo(device, options = {}) {
  return changed(device, options, (game) => {
    const person = personOf(device);
    if (resignedIn(game) || !canRedo(game, person)) throw new DeviceGameError("nothing_to_redo", "there is nothing to redo");
    redoTurn(game, person);
  });
}

/**
 * Give up: against the computer the person's side loses, on one device the side to move.
 * @param {DeviceGame} device
 * @param {{ now?: () => Date, revision?: number }} [options]
 * @returns {DeviceGame}
 * @throws {DeviceGameError} game_over, stale
 */
export function resign(device, options = {}) {
  return changed(device, options, (game) => {
    const side = personOf(device) ?? game.toMove;
    if (side === null || game.isOver()) throw gameOver();
    game.resign(side);
  });
}

/** @param {Game} game */
function resignedIn(game) {
  return game.outcome !== null && game.outcome.termination === "resignation";
}

/**
 * The GameView of the game, as the server shows a game (js/local/view.js).
 * @param {DeviceGame} device
 */
export function view(device) {
  return gameView(device, restoreGame(device));
}

/**
 * The GameSummary of the game for the list, with `on_device`, `uploaded` and `upload_error`.
 * @param {DeviceGame} device
 */
export function summary(device) {
  return summaryView(device, restoreGame(device));
}

/**
 * The body of `PUT /api/games/device/{device.id}`: the game as the device has it now.
 * @param {DeviceGame} device
 */
export function uploadBody(device) {
  const players = device.mode === "computer" ? { level: device.level, human: device.human } : {};
  return {
    mode: device.mode,
    rules: device.rules,
    ...players,
    actions: [...device.game.actions],
    redo: [...device.game.redo].reverse(), // the snapshot keeps the next to redo last
    created: device.created,
    device_revision: device.revision,
  };
}

/**
 * Whether the server has neither stored nor refused the device's revision of the game
 * (a game nobody acted in is not sent).
 * @param {DeviceGame} device
 */
export function needsUpload(device) {
  if (device.revision === 0) return false;
  if (device.uploaded !== null && device.uploaded.revision >= device.revision) return false;
  return !(device.upload_error !== null && device.upload_error.revision === device.revision);
}

/**
 * The game after the server stored its `revision` as the game `gameId`.  A revision
 * older than one recorded before changes nothing.
 * @param {DeviceGame} device
 * @param {number} revision
 * @param {string} gameId
 * @param {{ now?: () => Date }} [options]
 * @returns {DeviceGame}
 */
export function markUploaded(device, revision, gameId, options = {}) {
  if (device.uploaded !== null && device.uploaded.revision >= revision) return device;
  const error = device.upload_error !== null && device.upload_error.revision <= revision ? null : device.upload_error;
  return { ...device, uploaded: { revision, game: gameId, at: timeOf(options) }, upload_error: error };
}

/**
 * The game after the server refused its `revision` with `error`
 * ({status, code, message, reason?, params?}), for the page to say why.
 * @param {DeviceGame} device
 * @param {number} revision
 * @param {{ status: number, code: string, message: string, reason?: string, params?: object }} error
 * @returns {DeviceGame}
 */
export function markRefused(device, revision, error) {
  if (device.upload_error !== null && device.upload_error.revision > revision) return device;
  return { ...device, upload_error: { revision, error: { ...error } } };
}
