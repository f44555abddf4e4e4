// A whole game under any rule set, step by step, with undo and redo.
//
// A game is a sequence of actions: give a piece, place the piece in hand, and
// under `declare` calling declare a shape just completed, claim a shape the
// opponent missed, or decline to declare after the sixteenth piece.  A
// GameState applies one action and returns the next state without changing
// itself; a Game keeps the list of states, so undo and redo are exact.  The
// same as Python's quads.game, message for message.

import { cellName, parseCell } from "./cells.js";
import { IllegalActionError, QuadsError } from "./errors.js";
import { FIRST, Outcome, other } from "./outcome.js";
import { BIT_TRAIT, parsePiece, pieceName } from "./pieces.js";
import { EMPTY, Position } from "./position.js";
import { QUADS, Rules } from "./rules.js";
import { repr } from "./text.js";

/** @typedef {import("./shapes.js").Shape} Shape */
/** @typedef {import("./outcome.js").Player} Player */
/** @typedef {import("./pieces.js").Trait} Trait */
/** @typedef {import("./turn.js").Turn} Turn */
/**
 * An action: `{type: "give", piece}`, `{type: "place", cell}`, `{type: "declare"}`,
 * `{type: "claim"}`, `{type: "decline"}`.  Build them with give(), place(), ...
 * @typedef {{ type: "give", piece: number } | { type: "place", cell: number }
 *   | { type: "declare" } | { type: "claim" } | { type: "decline" }} Action
 */
/** @typedef {"give" | "place" | "over"} Step */

/**
 * The action of handing `piece` over.
 * @param {number} piece
 * @returns {Action}
 */
export function give(piece) {
  pieceName(piece); // validates: throws InvalidPieceError unless 0-15
  return Object.freeze({ type: "give", piece });
}

/**
 * The action of placing the piece in hand on `cell`.
 * @param {number} cell
 * @returns {Action}
 */
export function place(cell) {
  cellName(cell); // validates: throws InvalidCellError unless 0-15
  return Object.freeze({ type: "place", cell });
}

/**
 * The action of `player` resigning (Python's Resign).
 * @param {Player} player
 * @returns {ResignAction}
 * @throws {TypeError} if `player` is not `first` or `second`, as Python's Resign does
 */
export function resignation(player) {
  if (player !== "first" && player !== "second") throw new TypeError(`a resignation names a Player, not ${repr(player)}`);
  return Object.freeze({ type: "resign", player });
}

/**
 * The action of `player`'s clock running out (Python's Timeout): the other player wins.
 * @param {Player} player
 * @returns {ResignAction}
 */
export function timeout(player) {
  if (player !== "first" && player !== "second") throw new TypeError(`a timeout names a Player, not ${repr(player)}`);
  return Object.freeze({ type: "timeout", player });
}

/**
 * The action of `player` leaving during their turn and the other claiming the win, or
 * with `draw` a draw (Python's Abandon).
 * @param {Player} player
 * @param {boolean} [draw]
 * @returns {ResignAction}
 */
export function abandonment(player, draw = false) {
  if (player !== "first" && player !== "second") throw new TypeError(`an abandonment names a Player, not ${repr(player)}`);
  return Object.freeze({ type: "abandon", player, draw: Boolean(draw) });
}

/** The players agreed to a draw (Python's Agree). */
export const AGREE = /** @type {ResignAction} */ (Object.freeze({ type: "agree" }));

/** A side did not make its first move in time: the game ends with no result (Python's Abort). */
export const ABORT = /** @type {ResignAction} */ (Object.freeze({ type: "abort" }));

/** The types of the endings from outside the board: no record token, no turn. */
export const ENDINGS = Object.freeze(new Set(["resign", "timeout", "abandon", "agree", "abort"]));

/** Declare ("Quarto!") the winning shape one's own placement just completed. */
export const DECLARE = /** @type {Action} */ (Object.freeze({ type: "declare" }));
/** Claim, before placing, a winning shape whose declaration the opponent missed. */
export const CLAIM = /** @type {Action} */ (Object.freeze({ type: "claim" }));
/** End the game without declaring after the sixteenth piece (a draw). */
export const DECLINE = /** @type {Action} */ (Object.freeze({ type: "decline" }));

/**
 * An action as Python writes it: `give F`, `place A1`, `declare`, `claim`,
 * `decline`; and a resignation as `resign first` or `resign second`.
 * @param {Action | ResignAction} action
 * @returns {string}
 */
export function actionText(action) {
  if (action.type === "give") return `give ${pieceName(action.piece)}`;
  if (action.type === "place") return `place ${cellName(action.cell)}`;
  if (action.type === "resign" || action.type === "timeout") return `${action.type} ${action.player}`;
  if (action.type === "abandon") return `abandon ${action.player}${action.draw ? " draw" : ""}`;
  return action.type;
}

/**
 * Read an action written as actionText writes it, as Python's
 * quads.storage.stored.parse_action reads a stored action.
 * @param {string} text
 * @returns {Action | ResignAction}
 * @throws {import("./errors.js").QuadsError} if `text` is not one (an InvalidCellError
 *   or InvalidPieceError if its cell or piece is wrong)
 */
export function parseAction(text) {
  const words = String(text);
  const space = words.indexOf(" ");
  const verb = space < 0 ? words : words.slice(0, space);
  const arg = space < 0 ? "" : words.slice(space + 1);
  if (verb === "give" && arg) return give(parsePiece(arg));
  if (verb === "place" && arg) return place(parseCell(arg));
  if (verb === "resign" && (arg === "first" || arg === "second")) return resignation(arg);
  if (verb === "timeout" && (arg === "first" || arg === "second")) return timeout(arg);
  const [side, draw = "", ...rest] = arg.split(" ");
  if (verb === "abandon" && (side === "first" || side === "second") && (draw === "" || draw === "draw") && !rest.length) {
    return abandonment(side, draw === "draw");
  }
  if (verb === "abort" && !arg) return ABORT;
  if (verb === "agree" && !arg) return AGREE;
  if (verb === "declare" && !arg) return DECLARE;
  if (verb === "claim" && !arg) return CLAIM;
  if (verb === "decline" && !arg) return DECLINE;
  throw new QuadsError(`invalid stored action ${repr(text)}`);
}

/**
 * Whether two actions are the same.
 * @param {Action | ResignAction} a
 * @param {Action | ResignAction} b
 */
export function sameAction(a, b) {
  return actionText(a) === actionText(b);
}

/**
 * The counted trait values shared by the pieces of `shapes`, high bit first, true first.
 * @param {Position} position
 * @param {readonly Shape[]} shapes
 * @param {Rules} rules
 * @returns {[Trait, boolean][]}
 */
function sharedTraits(position, shapes, rules) {
  const seen = new Set();
  for (const shape of shapes) for (const [b, v] of position.sharedValues(shape, rules)) seen.add(b * 2 + (v ? 1 : 0));
  return [...seen].sort((x, y) => y - x).map((key) => [BIT_TRAIT[key >> 1], Boolean(key & 1)]);
}

/**
 * Under forfeited false calls, `player` made one and may not call until their next
 * action of the step `until` ("give" after a false claim, "place" after a false
 * declaration).
 * @typedef {{ readonly player: Player, readonly until: "give" | "place" }} Forfeit
 */

/** One moment of a game.  Immutable: apply() returns a new state. */
export class GameState {
  /**
   * @param {Position} position
   * @param {Player} toMove
   * @param {readonly Shape[]} [declarable] winning shapes the player to move has just completed and may declare
   * @param {readonly Shape[]} [claimable] winning shapes the opponent completed but did not declare
   * @param {Outcome | null} [outcome]
   * @param {boolean} [moment] under declare calling, whether the player to move stands
   *   where a call is made (right after their own placement; before placing a piece
   *   handed over right after the opponent's placement), whether or not it would win
   * @param {Forfeit | null} [forfeit] who may not call now or soon, after a false call
   */
  constructor(position, toMove, declarable = [], claimable = [], outcome = null, moment = false,
    forfeit = null) {
    this.position = position;
    this.toMove = toMove;
    this.declarable = Object.freeze([...declarable]);
    this.claimable = Object.freeze([...claimable]);
    this.outcome = outcome;
    this.moment = moment;
    this.forfeit = forfeit === null ? null : Object.freeze({ ...forfeit });
    Object.freeze(this);
  }

  /** Whether the player to move forfeited their calls for now. */
  get silenced() {
    return this.forfeit !== null && this.forfeit.player === this.toMove;
  }

  /** What the player to move must do now. @returns {Step} */
  get step() {
    if (this.outcome !== null) return "over";
    return this.position.hand === null ? "give" : "place";
  }

  /**
   * Every action allowed now, in a fixed order (Python's order).  Given `rules` whose
   * false calls cost something, a call at a calling moment is listed whether or not it
   * would win; otherwise only a call that wins.
   * @param {Rules} [rules]
   * @returns {Action[]}
   */
  legalActions(rules) {
    const step = this.step;
    const costly = rules !== undefined && !rules.freeCalls;
    /** @type {Action[]} */
    const actions = [];
    if (step === "give") {
      if (!this.silenced && (this.declarable.length || (costly && this.moment))) actions.push(DECLARE);
      if (this.declarable.length && !this.position.supply) actions.push(DECLINE);
      for (const piece of this.position.legalHandovers()) actions.push(give(piece));
    } else if (step === "place") {
      if (!this.silenced && (this.claimable.length || (costly && this.moment))) actions.push(CLAIM);
      for (const cell of this.position.legalPlacements()) actions.push(place(cell));
    }
    return actions;
  }

  /**
   * The state after `action` (a resignation too, whoever is to move).
   * @param {Action | ResignAction} action
   * @param {Rules} rules
   * @returns {GameState}
   * @throws {IllegalActionError} if the action is not allowed now; the message says why
   */
  apply(action, rules) {
    if (this.step === "over") {
      throw new IllegalActionError(`cannot ${actionText(action)}: the game is over`, "game_over");
    }
    if (action.type === "give") return this.#give(action.piece, rules);
    if (action.type === "place") return this.#place(action.cell, rules);
    if (action.type === "declare") return this.#declare(rules);
    if (action.type === "claim") return this.#claim(rules);
    if (action.type === "decline") return this.#decline();
    if (ENDINGS.has(action.type)) return new GameState(this.position, this.toMove, [], [], ending(/** @type {ResignAction} */ (action)));
    throw new IllegalActionError(`unknown action ${JSON.stringify(action)}`, "unknown_action");
  }

  /**
   * @param {number} piece
   * @param {Rules} rules
   */
  #give(piece, rules) {
    const name = pieceName(piece);
    if (this.step !== "give") {
      const hand = pieceName(/** @type {number} */ (this.position.hand));
      throw new IllegalActionError(`cannot give ${name}: piece ${hand} must be placed first`, "place_first", { piece: name, hand });
    }
    if (!((this.position.supply >> piece) & 1)) {
      throw new IllegalActionError(`cannot give ${name}: it is not in the supply`, "not_in_supply", { piece: name });
    }
    // Handing over without declaring misses the declaration; the opponent may claim.
    return new GameState(this.position.give(piece), other(this.toMove), [], this.declarable, null,
      rules.declare && this.moment, this.#forfeitAfter("give"));
  }

  /**
   * The forfeit that outlasts an action of `step` by the player to move.
   * @param {"give" | "place"} step
   */
  #forfeitAfter(step) {
    const forfeit = this.forfeit;
    if (forfeit !== null && forfeit.player === this.toMove && forfeit.until === step) return null;
    return forfeit;
  }

  /**
   * @param {number} cell
   * @param {Rules} rules
   */
  #place(cell, rules) {
    const name = cellName(cell);
    if (this.step !== "place") {
      throw new IllegalActionError(`cannot place on ${name}: a piece must be handed over first`, "give_first", { cell: name });
    }
    if ((this.position.occupied >> cell) & 1) {
      throw new IllegalActionError(`cannot place on ${name}: the cell is taken`, "cell_taken", { cell: name });
    }
    const after = this.position.place(cell);
    const completed = after.winningShapesThrough(cell, rules);
    if (completed.length && !rules.declare) {
      const outcome = new Outcome("win", this.toMove, completed, sharedTraits(after, completed, rules));
      return new GameState(after, this.toMove, [], [], outcome);
    }
    if (!completed.length && !after.supply) {
      return new GameState(after, this.toMove, [], [], new Outcome("full-board", null));
    }
    // The claim window closes with this placement; the shapes missed die for good.
    return new GameState(after, this.toMove, completed, [], null, rules.declare, this.#forfeitAfter("place"));
  }

  /** @param {Rules} rules */
  #declare(rules) {
    if (this.step === "place") {
      throw new IllegalActionError(
        "cannot declare: a placement must come first, and only its own shapes can be declared", "nothing_to_declare",
      );
    }
    this.#checkNotSilenced("declare");
    if (!this.declarable.length) {
      if (rules.freeCalls || !this.moment) {
        const why = this.moment || rules.freeCalls
          ? "the last placement completed no winning shape" : "no placement was just made";
        throw new IllegalActionError(`cannot declare: ${why}`, "nothing_to_declare");
      }
      return this.#falseCall(rules, "place");
    }
    const outcome = new Outcome("declaration", this.toMove, this.declarable, sharedTraits(this.position, this.declarable, rules));
    return new GameState(this.position, this.toMove, [], [], outcome);
  }

  /** @param {Rules} rules */
  #claim(rules) {
    if (this.step === "give") {
      throw new IllegalActionError(
        "cannot claim: a claim is made before placing the piece one was handed", "nothing_to_claim",
      );
    }
    this.#checkNotSilenced("claim");
    if (!this.claimable.length) {
      if (rules.freeCalls || !this.moment) {
        const why = this.moment || rules.freeCalls
          ? "the opponent missed no declaration on the last placement"
          : "the opponent made no placement just before";
        throw new IllegalActionError(`cannot claim: ${why}`, "nothing_to_claim");
      }
      return this.#falseCall(rules, "give");
    }
    const outcome = new Outcome("claim", this.toMove, this.claimable, sharedTraits(this.position, this.claimable, rules));
    return new GameState(this.position, this.toMove, [], [], outcome);
  }

  /** @param {string} call */
  #checkNotSilenced(call) {
    if (this.silenced) {
      throw new IllegalActionError(`cannot ${call}: a false call forfeited this chance to call`, "calls_forfeited");
    }
  }

  /**
   * A call with nothing to call, under false calls that cost something: the game
   * lost, or the caller's next chance to call (until their next action of `until`).
   * @param {Rules} rules
   * @param {"give" | "place"} until
   */
  #falseCall(rules, until) {
    if (rules.falseCalls === "losing-calls") {
      return new GameState(this.position, this.toMove, [], [], new Outcome("false-call", other(this.toMove)));
    }
    return new GameState(this.position, this.toMove, [], [], null, this.moment, { player: this.toMove, until });
  }

  #decline() {
    if (!(this.step === "give" && this.declarable.length && !this.position.supply)) {
      throw new IllegalActionError(
        "cannot decline: that is only possible after the sixteenth piece completes a shape", "nothing_to_decline",
      );
    }
    return new GameState(this.position, this.toMove, [], [], new Outcome("full-board", null));
  }

  /**
   * The state after `player` resigns: the other player wins.
   * @param {Player} player
   * @returns {GameState}
   * @throws {IllegalActionError} if the game is already over
   */
  resign(player) {
    return this.apply(resignation(player), QUADS); // a resignation does not depend on the rules
  }
}

/**
 * A game in progress: the rule set, the actions so far, undo and redo.  Mirrors
 * Python's quads.Game; resign() ends it with the termination `resignation`.
 */
export class Game {
  /**
   * Start a game under `rules` from `start` (the empty board by default).  The
   * player to move at `start` is the first; a full board is over at once, a draw.
   * @param {Rules} [rules]
   * @param {Position} [start]
   * @param {Record<string, string>} [headers] record headers (Event, First, ...)
   * @throws {import("./errors.js").InvalidPositionError} if `start` cannot arise under `rules`
   */
  constructor(rules = QUADS, start = EMPTY, headers = {}) {
    start.check(rules);
    /** @type {Rules} */
    this.rules = rules;
    /** @type {Position} */
    this.start = start;
    /** @type {Record<string, string>} */
    this.headers = { ...headers };
    const outcome = start.emptyCount ? null : new Outcome("full-board", null);
    /** @type {GameState[]} */
    this._states = [new GameState(start, FIRST, [], [], outcome)];
    /** @type {(Action | ResignAction)[]} */
    this._actions = [];
    /** @type {(Action | ResignAction)[]} */
    this._redo = [];
  }

  /** The current state. */
  get state() {
    return this._states[this._states.length - 1];
  }

  /** Every state from the start to now (one more than `actions`). */
  get states() {
    return [...this._states];
  }

  /** The actions played so far, in order (a resignation is the last if any). */
  get actions() {
    return [...this._actions];
  }

  /** The current position, as the player to move sees it. */
  get position() {
    return this.state.position;
  }

  /** The player to act now, or null once the game is over. @returns {Player | null} */
  get toMove() {
    return this.state.outcome !== null ? null : this.state.toMove;
  }

  /** What the player to move must do now. */
  get step() {
    return this.state.step;
  }

  /** How the game ended, or null while it goes on. */
  get outcome() {
    return this.state.outcome;
  }

  /** The player who resigned, if the game ended so; else null. @returns {Player | null} */
  get resigned() {
    const outcome = this.state.outcome;
    return outcome === null || outcome.termination !== "resignation" ? null : other(/** @type {Player} */ (outcome.winner));
  }

  /** Whether the game has ended. */
  isOver() {
    return this.state.outcome !== null;
  }

  /** Whether the player to move would win by declaring now (never shown before a call). */
  canDeclare() {
    return this.step === "give" && this.state.declarable.length > 0 && !this.state.silenced;
  }

  /** Whether the player to move would win by claiming now (never shown before a call). */
  canClaim() {
    return this.step === "place" && this.state.claimable.length > 0 && !this.state.silenced;
  }

  /**
   * Whether the player to move stands where a declaration is made: under declare
   * calling, right after their own placement (and no false call forfeited it),
   * whether or not it would win.
   */
  isDeclareMoment() {
    return this.rules.declare && this.step === "give" && this.state.moment && !this.state.silenced;
  }

  /**
   * Whether the player to move stands where a claim is made: before placing the
   * piece handed over right after the opponent's placement, whether or not it wins.
   */
  isClaimMoment() {
    return this.rules.declare && this.step === "place" && this.state.moment && !this.state.silenced;
  }

  /** Every action allowed now; under false calls that cost, a call at every moment. */
  legalActions() {
    return this.state.legalActions(this.rules);
  }

  /**
   * Play `action`.
   * @param {Action | ResignAction} action
   * @throws {IllegalActionError} if it is not allowed now; the game is unchanged
   */
  apply(action) {
    const next = this.state.apply(action, this.rules);
    this._states.push(next);
    this._actions.push(action);
    const last = this._redo[this._redo.length - 1];
    if (last && sameStep(last, action)) this._redo.pop();
    else this._redo.length = 0;
  }

  /** @param {number} piece */
  give(piece) { this.apply(give(piece)); }

  /** @param {number} cell */
  place(cell) { this.apply(place(cell)); }

  declare() { this.apply(DECLARE); }

  claim() { this.apply(CLAIM); }

  decline() { this.apply(DECLINE); }

  /**
   * `player` resigns: the other player wins, and the game is over.
   * @param {Player} player
   * @throws {IllegalActionError} if the game is already over
   */
  resign(player) {
    this.apply(resignation(player));
  }

  /**
   * Play a whole turn, its placement and then its hand-over, checked as a whole:
   * if any part is illegal, nothing changes.
   * @param {Turn} turn
   * @throws {IllegalActionError} if the turn is not legal now
   */
  play(turn) {
    /** @type {Action[]} */
    const actions = [];
    if (turn.place !== null) actions.push(place(turn.place));
    if (turn.give !== null) actions.push(give(turn.give));
    let state = this.state;
    for (const action of actions) state = state.apply(action, this.rules);
    for (const action of actions) this.apply(action);
  }

  /** Whether there is an action to take back. */
  canUndo() {
    return this._actions.length > 0;
  }

  /** Whether there is an undone action to play again. */
  canRedo() {
    return this._redo.length > 0;
  }

  /**
   * Take back the last action and return it.
   * @throws {IllegalActionError} if no action has been played
   */
  undo() {
    if (!this._actions.length) throw new IllegalActionError("cannot undo: no action has been played", "nothing_to_undo");
    this._states.pop();
    const action = /** @type {Action | ResignAction} */ (this._actions.pop());
    this._redo.push(action);
    return action;
  }

  /**
   * Play again the last action taken back and return it.
   * @throws {IllegalActionError} if there is nothing to redo
   */
  redo() {
    if (!this._redo.length) throw new IllegalActionError("cannot redo: nothing has been undone", "nothing_to_redo");
    const action = this._redo[this._redo.length - 1];
    this.apply(action);
    return action;
  }

  /**
   * The game as plain data, to store (e.g. in IndexedDB) and restore() later:
   * the rule set's name, the start position, the headers, the actions played and
   * the actions undone (the next to redo last), all as text.
   * @returns {GameSnapshot}
   */
  snapshot() {
    return {
      rules: this.rules.name,
      start: this.start.toString(),
      headers: { ...this.headers },
      actions: this._actions.map(actionText),
      redo: this._redo.map(actionText),
    };
  }

  /**
   * The game a snapshot() describes, replayed action by action by the rules.
   * @param {GameSnapshot} snapshot
   * @returns {Game}
   * @throws {import("./errors.js").QuadsError} if the snapshot does not describe a game
   *   the rules allow, actions undone included
   */
  static restore(snapshot) {
    const game = new Game(Rules.parse(snapshot.rules), Position.fromString(snapshot.start), snapshot.headers ?? {});
    for (const text of snapshot.actions) game.apply(parseAction(text));
    game._redo = (snapshot.redo ?? []).map(parseAction);
    const probe = game.copy();
    while (probe.canRedo()) probe.redo(); // an action undone that cannot be played again is refused now
    return game;
  }

  /** An independent copy (states are immutable and shared). */
  copy() {
    const copy = Object.create(Game.prototype);
    copy.rules = this.rules;
    copy.start = this.start;
    copy.headers = { ...this.headers };
    copy._states = [...this._states];
    copy._actions = [...this._actions];
    copy._redo = [...this._redo];
    return /** @type {Game} */ (copy);
  }
}

/**
 * An ending from outside the board: a resignation, a timeout, an abandonment (won or
 * drawn), a draw agreed or an abort.
 * @typedef {{ type: "resign" | "timeout", player: Player }
 *   | { type: "abandon", player: Player, draw: boolean } | { type: "agree" }
 *   | { type: "abort" }} ResignAction
 */

/**
 * How an ending ends a game.
 * @param {ResignAction} action
 * @returns {Outcome}
 */
function ending(action) {
  if (action.type === "resign") return new Outcome("resignation", other(action.player));
  if (action.type === "timeout") return new Outcome("time", other(action.player));
  if (action.type === "abandon") return new Outcome("abandonment", action.draw ? null : other(action.player));
  if (action.type === "agree") return new Outcome("agreement", null);
  return new Outcome("aborted", null);
}
/**
 * @typedef {object} GameSnapshot
 * @property {string} rules the rule set's name
 * @property {string} start the start position string
 * @property {Record<string, string>} headers
 * @property {string[]} actions the actions played, as actionText writes them
 * @property {string[]} redo the actions undone, the next to redo last
 */

/**
 * @param {Action | ResignAction} a
 * @param {Action | ResignAction} b
 */
function sameStep(a, b) {
  return sameAction(a, b);
}
