// The errors of the page's rules.  Each one mirrors an exception class of the
// Python library (`name` is that class's name, `message` is its English text,
// word for word), and carries what the page needs to word it in any language,
// exactly as the server's API sends a refusal of the library (quads/web/errors.py):
// a `code` for the kind of error, a `reason` for the case (quads/errors.py: the
// library's own, e.g. `cell_taken`, `already_won`; "" where it gives none), and
// the `params` it speaks of (cells and pieces by name, shapes by id).

/** @typedef {Record<string, string | number>} Params */

/** Base class of every error raised for bad input (Python's `QuadsError`). */
export class QuadsError extends Error {
  /**
   * @param {string} message the English message, as Python's library words it
   * @param {string} [reason] what is wrong, the library's reason for the case, e.g. `cell_taken`
   * @param {Params} [params] the values the reason speaks of, as the library names them
   */
  constructor(message, reason = "", params = {}) {
    super(message);
    this.reason = reason;
    this.params = params;
  }

  /** The Python class name: `QuadsError`, `InvalidRulesError`, ... */
  get name() {
    return "QuadsError";
  }

  /** The kind of error, the server's code for it: `invalid_rules`, `illegal_action`, ...
   * (`unprocessable` for a refusal of no narrower kind). */
  get code() {
    return "unprocessable";
  }
}

/** A cell name is not one of `A1` .. `D4`. */
export class InvalidCellError extends QuadsError {
  get name() { return "InvalidCellError"; }
  get code() { return "invalid_cell"; }
}

/** A piece is not a hex digit `0` .. `F` (or an integer 0 .. 15). */
export class InvalidPieceError extends QuadsError {
  get name() { return "InvalidPieceError"; }
  get code() { return "invalid_piece"; }
}

/** A rule-set name or one of its parts is not understood. */
export class InvalidRulesError extends QuadsError {
  get name() { return "InvalidRulesError"; }
  get code() { return "invalid_rules"; }
}

/** A position string is malformed, or describes an impossible position. */
export class InvalidPositionError extends QuadsError {
  get name() { return "InvalidPositionError"; }
  get code() { return "invalid_position"; }
}

/** A game record cannot be read: a header, a token or the order of tokens is wrong. */
export class InvalidRecordError extends QuadsError {
  get name() { return "InvalidRecordError"; }
  get code() { return "invalid_record"; }
}

/** An action that the rules do not allow in the current state of a game. */
export class IllegalActionError extends QuadsError {
  get name() { return "IllegalActionError"; }
  get code() { return "illegal_action"; }
}
