// The views of a game played on the device, exactly as the server's would be:
// gameView() is the GameView JSON that quads.web.views.game_view builds for a
// `computer` or `local` game (docs/web-api.md, "GameView"), field for field, and
// summaryView() the GameSummary of the list (summary_view), with what the list
// needs to know of a game that lives on the device.  So the game screen and the
// list show a device game with the same code as a server's.  Proven equal to the
// server by tests/js/local.test.mjs (cases written by tests/js/make_local_cases.py).
// No DOM, no network.
//
// API:
//   gameView(device, game?) -> GameView
//       `device` is a device game (js/local/device-game.js: id, rules, mode, level,
//       human, revision, game snapshot); `game`, its Game already restored, saves
//       restoring it again.  `id` and `device` are the device game's id; the
//       fields a server adds for online games are null or false.
//   summaryView(device, game?) -> GameSummary & {on_device: true, uploaded, upload_error}
//       a line of the list: the server's fields (`created` and `updated` as the
//       device stored them), and `on_device` (true), `uploaded` (whether the
//       server has this revision) and `upload_error` (the server's refusal of
//       this revision, {status, code, message, reason?, params?}, or null).
//   lastTurn(game) -> LastTurn | null     the last run of actions by one player
//   outcomeView(outcome) -> OutcomeView   the end of a game

import { bitsOf } from "../rules/bits.js";
import { cellName } from "../rules/cells.js";
import { Game } from "../rules/game.js";
import { writeTokens } from "../rules/notation.js";
import { other } from "../rules/outcome.js";
import { pieceName } from "../rules/pieces.js";
import { canRedo, canUndo } from "./history.js";

/** @typedef {import("../rules/outcome.js").Player} Player */
/** @typedef {import("../rules/outcome.js").Outcome} Outcome */

/**
 * @param {number} mask
 * @returns {string[]}
 */
function pieces(mask) {
  return bitsOf(mask).map(pieceName);
}

/**
 * The player who resigned, if the game ended so.
 * @param {Game} game
 * @returns {Player | null}
 */
function resigned(game) {
  const outcome = game.outcome;
  if (outcome === null || outcome.termination !== "resignation") return null;
  return other(/** @type {Player} */ (outcome.winner));
}

/**
 * The last run of actions by one player, or null before the first action.  A
 * resignation, which ends a game but is no move on the board, is passed over.
 * @param {Game} game
 */
export function lastTurn(game) {
  const actions = game.actions;
  const states = game.states;
  let end = actions.length;
  if (end && actions[end - 1].type === "resign") end -= 1;
  if (!end) return null;
  const player = states[end - 1].toMove;
  let start = end;
  while (start > 0 && states[start - 1].toMove === player) start -= 1;
  const last = {
    player, place: /** @type {string | null} */ (null), piece: /** @type {string | null} */ (null),
    give: /** @type {string | null} */ (null), declared: false, missed: false, claimed: false,
  };
  for (let i = start; i < end; i += 1) {
    const [before, action] = [states[i], actions[i]];
    if (action.type === "place") {
      last.place = cellName(action.cell);
      const hand = before.position.hand;
      last.piece = hand === null ? null : pieceName(hand);
    } else if (action.type === "give") {
      last.give = pieceName(action.piece);
      // While the receiver may still claim, nobody is told whether they could.
      last.missed = before.declarable.length > 0 && !claimPending(game);
    } else if (action.type === "declare") {
      last.declared = true;
    } else if (action.type === "decline") {
      last.missed = true;
    } else if (action.type === "claim") {
      last.claimed = true;
    }
  }
  return last;
}

/**
 * Whether the player to move stands where a claim is made: whether the hand-over
 * missed a declaration is then kept from the view (as the server's
 * quads.site.games.calls.claim_pending).
 * @param {Game} game
 */
export function claimPending(game) {
  const state = game.state;
  return state.outcome === null && state.step === "place" && state.moment;
}

/**
 * The game's tokens as the view shows them: the last one without its mark of a
 * missed declaration while a claim is pending.
 * @param {Game} game
 */
function movesShown(game) {
  const tokens = writeTokens(game.states, game.actions);
  if (tokens.length && claimPending(game)) tokens[tokens.length - 1] = tokens[tokens.length - 1].replace("?", "");
  return tokens;
}

/**
 * The end of a game: winner, reason, winning shapes, their cells and shared traits.
 * @param {Outcome} outcome
 */
export function outcomeView(outcome) {
  let cells = 0;
  for (const shape of outcome.shapes) cells |= shape.cells;
  return {
    winner: outcome.winner,
    reason: outcome.termination,
    shapes: outcome.shapes.map((shape) => shape.id),
    cells: bitsOf(cells).map(cellName),
    traits: outcome.traits.map(([trait, value]) => ({ trait, value })),
  };
}

/**
 * The device game's Game: `game` if given, else restored from its snapshot.
 * @param {{ game: import("../rules/game.js").GameSnapshot }} device
 * @param {Game} [game]
 * @returns {Game}
 */
function gameOf(device, game) {
  return game ?? Game.restore(device.game);
}

/**
 * The person's side against the computer; null between two people.
 * @param {{ mode: string, human: Player | null }} device
 * @returns {Player | null}
 */
function personOf(device) {
  return device.mode === "computer" ? device.human : null;
}

/**
 * Everything the game screen shows of a device game, as the server's GameView.
 * @param {DeviceGameData} device
 * @param {Game} [restored]
 */
export function gameView(device, restored) {
  const game = gameOf(device, restored);
  const position = game.position;
  const rules = game.rules;
  const person = personOf(device);
  const computer = device.mode === "computer";
  const over = game.isOver();
  const toMove = game.toMove;
  const hand = position.hand;
  const actions = game.actions;
  // The side that may act now: on one device the side to move, against the
  // computer the person's side when it is theirs.
  const acting = over ? null : computer ? (toMove === person ? toMove : null) : toMove;
  const step = game.step;
  const gaveUp = resigned(game);
  const board = [];
  for (let cell = 0; cell < 16; cell += 1) {
    const piece = position.pieceAt(cell);
    board.push(piece === null ? null : pieceName(piece));
  }
  return {
    id: device.id,
    rules: rules.name,
    calling: rules.calling,
    false_calls: rules.falseCalls,
    mode: device.mode,
    level: computer ? device.level : null,
    human: computer ? device.human : null,
    ply: actions.length,
    revision: device.revision,
    position: position.toString(),
    board,
    hand: hand === null ? null : pieceName(hand),
    supply: pieces(position.supply),
    safe: pieces(position.safePieces(rules)),
    safe_help: true,
    to_move: toMove,
    step,
    computer_to_move: person !== null && !over && toMove !== null && toMove !== person,
    calls_forfeited: acting !== null && game.state.silenced,
    declare_offered: acting !== null && game.isDeclareMoment(),
    claim_offered: acting !== null && game.isClaimMoment(),
    can_decline: acting !== null && step === "give" && game.legalActions().some((a) => a.type === "decline"),
    can_undo: canUndo(game, person) && gaveUp === null,
    can_redo: gaveUp === null && canRedo(game, person),
    moves: movesShown(game),
    last: lastTurn(game),
    outcome: game.outcome === null ? null : outcomeView(game.outcome),
    seats: computer
      ? { first: person === "first" ? "you" : "computer", second: person === "second" ? "you" : "computer" }
      : { first: "you", second: "you" },
    you: person,
    spectator: false,
    opponent_connected: null,
    connected: null,
    can_act: acting !== null,
    can_resign: !over,
    invite: null,
    undo_request: null,
    draw_offer: null,
    draws_left: null,
    undos_left: null,
    resigned: gaveUp,
    rematch: null,
    rematch_by: null,
    names: null, // a game on the device has no seats' names, no clock, no claim of one left
    bot_invitation: null, // ... and no seat to offer a bot
    clock: null,
    abandon_after: null,
    device: device.id,
    rated: false, // ... and no rating: only online games between accounts are rated
    tournament: null, // ... and no event: only the server pairs games of a tournament
    category: null,
    ratings: null,
  };
}

/**
 * The result of `outcome` from the side of `side` (the server's side_result).
 * @param {Outcome} outcome
 * @param {Player | null} side
 * @returns {"win" | "draw" | "loss" | null}
 */
function sideResult(outcome, side) {
  if (side === null || outcome.result === "*") return null;
  if (outcome.winner === null) return "draw";
  return outcome.winner === side ? "win" : "loss";
}

/**
 * A line of the list of games for a device game, as the server's GameSummary, and
 * what the list needs to know of a game that lives on the device.
 * @param {DeviceGameData} device
 * @param {Game} [restored]
 */
export function summaryView(device, restored) {
  const game = gameOf(device, restored);
  const computer = device.mode === "computer";
  const uploaded = device.uploaded !== null && device.uploaded.revision >= device.revision;
  const error = device.upload_error;
  return {
    id: device.id,
    rules: game.rules.name,
    mode: device.mode,
    level: computer ? device.level : null,
    human: computer ? device.human : null,
    ply: game.actions.length,
    status: game.isOver() ? "over" : "ongoing",
    to_move: game.toMove,
    created: device.created,
    updated: device.updated,
    you: computer ? device.human : null,
    opponent: computer ? "computer" : null,
    revision: device.revision,
    device: device.id,
    clock: null,
    deadline: null,
    ending: game.outcome === null ? null : game.outcome.result,
    result: computer && game.outcome !== null ? sideResult(game.outcome, device.human) : null,
    opponent_name: null,
    on_device: true,
    uploaded,
    upload_error: error !== null && error.revision === device.revision ? error.error : null,
  };
}

/**
 * @typedef {object} DeviceGameData  a device game (js/local/device-game.js)
 * @property {string} id
 * @property {string} rules the rule set's name
 * @property {"local" | "computer"} mode
 * @property {number | null} level
 * @property {Player | null} human
 * @property {number} revision
 * @property {string} created
 * @property {string} updated
 * @property {import("../rules/game.js").GameSnapshot} game
 * @property {{ revision: number, game: string, at?: string } | null} uploaded  what the
 *   server stored last: the revision, the server's id of the game and when
 * @property {{ revision: number, error: object } | null} upload_error
 */
