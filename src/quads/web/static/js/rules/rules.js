// Rule sets: which shapes win, which traits count, how a win is called, and what
// a false call costs.  A rule set has a stable text name that Rules.parse reads
// back: a preset (`quads`, `classic`, `advanced`) or `SHAPES:TRAITS:CALLING`, e.g.
// `lines:color,height:auto`, then the false calls' part unless they are free
// (`classic:losing-calls`), read exactly as Python's Rules.parse reads it.

import { InvalidRulesError } from "./errors.js";
import { TRAITS, TRAIT_BIT, parseTrait } from "./pieces.js";
import { LINES, SHAPES } from "./shapes.js";
import { repr, strip } from "./text.js";

/** @typedef {"lines" | "lines+squares"} ShapeSet */
/** @typedef {"auto" | "declare"} Calling */
/**
 * What a call with nothing to call costs under `declare` calling: refused
 * (`free-calls`), the caller's next chance to call (`forfeit-calls`), or the game
 * (`losing-calls`).
 * @typedef {"free-calls" | "forfeit-calls" | "losing-calls"} FalseCalls
 */

/** @type {readonly FalseCalls[]} */
const FALSE_CALLS = Object.freeze(["free-calls", "forfeit-calls", "losing-calls"]);

/** Every trait counts. */
export const ALL_TRAITS = 0b1111;

/** A rule set.  Immutable; compare with `equals` or by `name`. */
export class Rules {
  /**
   * @param {ShapeSet} [shapes]
   * @param {number} [traits] the counted traits, a mask of trait bits (non-empty)
   * @param {Calling} [calling]
   * @param {FalseCalls} [falseCalls] what a false call costs (not free only under declare)
   * @throws {InvalidRulesError} if a choice is out of range
   */
  constructor(shapes = "lines+squares", traits = ALL_TRAITS, calling = "auto",
    falseCalls = "free-calls") {
    if (!Number.isInteger(traits)) {
      throw new InvalidRulesError(`invalid trait mask ${repr(traits)}`, "traits");
    }
    if (!(traits > 0 && traits <= ALL_TRAITS)) {
      throw new InvalidRulesError(
        `invalid trait mask ${traits}: at least one of the four traits must count`, "traits",
      );
    }
    if (!["lines", "lines+squares"].includes(shapes) || !["auto", "declare"].includes(calling)) {
      throw new InvalidRulesError(`invalid rule set ${shapes}, ${calling}`, "rules");
    }
    if (!FALSE_CALLS.includes(falseCalls)) {
      throw new InvalidRulesError(`invalid false calls ${repr(falseCalls)}`, "rules");
    }
    if (falseCalls !== "free-calls" && calling !== "declare") {
      throw new InvalidRulesError(
        `${falseCalls} needs declare calling: under ${calling} calling nothing is called`, "rules",
      );
    }
    /** @type {ShapeSet} */
    this.shapes = shapes;
    /** @type {number} */
    this.traits = traits;
    /** @type {Calling} */
    this.calling = calling;
    /** The shapes that can win under these rules. */
    this.winningShapes = shapes === "lines" ? LINES : SHAPES;
    /** The cell masks of `winningShapes`, in the same order. */
    this.shapeMasks = Object.freeze(this.winningShapes.map((shape) => shape.cells));
    /** The counted traits in their conventional order. */
    this.countedTraits = Object.freeze(TRAITS.filter((t) => (traits >> TRAIT_BIT[t]) & 1));
    /** Whether wins must be declared. */
    this.declare = calling === "declare";
    /** @type {FalseCalls} */
    this.falseCalls = falseCalls;
    /** Whether a false call is refused and changes nothing. */
    this.freeCalls = falseCalls === "free-calls";
    Object.freeze(this);
  }

  /**
   * The stable text name: a preset name where one matches, else
   * `SHAPES:TRAITS:CALLING`; then `:` and the false calls' part unless they are free.
   */
  get name() {
    const base = this.withFalseCalls("free-calls");
    let found = Object.entries(PRESETS).find(([, preset]) => preset.equals(base))?.[0];
    found ??= `${this.shapes}:${this.countedTraits.join(",")}:${this.calling}`;
    return this.freeCalls ? found : `${found}:${this.falseCalls}`;
  }

  toString() {
    return this.name;
  }

  /**
   * Whether `other` is the same rule set.
   * @param {Rules} other
   */
  equals(other) {
    return other instanceof Rules && other.shapes === this.shapes && other.traits === this.traits
      && other.calling === this.calling && other.falseCalls === this.falseCalls;
  }

  /**
   * The same rule set counting only `traits` (a trait mask).
   * @param {number} traits
   */
  withTraits(traits) {
    return new Rules(this.shapes, traits, this.calling, this.falseCalls);
  }

  /**
   * The same rule set with `falseCalls`.
   * @param {FalseCalls} falseCalls
   * @throws {InvalidRulesError} for false calls that cost anything without declare calling
   */
  withFalseCalls(falseCalls) {
    return new Rules(this.shapes, this.traits, this.calling, falseCalls);
  }

  /**
   * Read a rule-set name: a preset, or `SHAPES:TRAITS:CALLING` with the parts in
   * any order and any left out (taken from `quads`).
   * @param {string} text
   * @returns {Rules}
   * @throws {InvalidRulesError} if the name or one of its parts is not understood
   */
  static parse(text) {
    if (typeof text !== "string") {
      throw new InvalidRulesError(`invalid rule set ${repr(text)}`, "rules");
    }
    const key = strip(text).toLowerCase();
    if (Object.hasOwn(PRESETS, key)) return PRESETS[key];
    if (!key) throw new InvalidRulesError(`invalid rule set ${repr(text)}: empty name`, "rules", { rules: text });
    let parts = key.split(":").map(strip);
    /** @type {FalseCalls | null} */
    let falseCalls = null;
    for (const part of parts) {
      if (!FALSE_CALLS.includes(/** @type {FalseCalls} */ (part))) continue;
      if (falseCalls !== null) throw new InvalidRulesError(`invalid rule set ${repr(text)}: false calls given twice`, "rules", { rules: text });
      falseCalls = /** @type {FalseCalls} */ (part);
    }
    parts = parts.filter((part) => !FALSE_CALLS.includes(/** @type {FalseCalls} */ (part)));
    const base = parts.length === 1 && Object.hasOwn(PRESETS, parts[0])
      ? PRESETS[parts[0]] : Rules.#parts(text, parts);
    try {
      return base.withFalseCalls(falseCalls ?? "free-calls");
    } catch (error) {
      if (!(error instanceof InvalidRulesError)) throw error;
      throw new InvalidRulesError(`invalid rule set ${repr(text)}: ${error.message}`, "rules", { rules: text });
    }
  }

  /**
   * The rule set of the parts of `text` other than its false calls'.
   * @param {string} text
   * @param {string[]} parts
   * @returns {Rules}
   */
  static #parts(text, parts) {
    if (!parts.length) {
      throw new InvalidRulesError(`invalid rule set ${repr(text)}: no shapes, traits or calling`, "rules", { rules: text });
    }
    /** @type {ShapeSet | null} */
    let shapes = null;
    /** @type {Calling | null} */
    let calling = null;
    /** @type {number | null} */
    let traits = null;
    for (const part of parts) {
      if (part === "lines" || part === "lines+squares") {
        if (shapes !== null) throw new InvalidRulesError(`invalid rule set ${repr(text)}: shapes given twice`, "rules", { rules: text });
        shapes = part;
      } else if (part === "auto" || part === "declare") {
        if (calling !== null) throw new InvalidRulesError(`invalid rule set ${repr(text)}: calling given twice`, "rules", { rules: text });
        calling = part;
      } else {
        if (traits !== null) throw new InvalidRulesError(`invalid rule set ${repr(text)}: traits given twice`, "rules", { rules: text });
        try {
          traits = parseTraits(part);
        } catch (error) {
          if (!(error instanceof InvalidRulesError)) throw error;
          throw new InvalidRulesError(
            `invalid rule set ${repr(text)}: ${repr(part)} is not a preset (quads, classic, `
            + "advanced), a shape set (lines, lines+squares), a calling (auto, "
            + "declare), false calls (free-calls, forfeit-calls, losing-calls) "
            + `or a trait list (${error.message})`,
            "rules", { rules: text },
          );
        }
      }
    }
    return new Rules(shapes ?? "lines+squares", traits ?? ALL_TRAITS, calling ?? "auto");
  }
}

/**
 * Read a comma-separated list of trait names into a trait mask.
 * @param {string} text
 * @returns {number}
 * @throws {InvalidRulesError} if a name is unknown, repeated, or the list is empty
 */
export function parseTraits(text) {
  let mask = 0;
  const names = text.split(",").map(strip);
  if (!strip(text) || names.some((name) => !name)) {
    throw new InvalidRulesError(`invalid trait list ${repr(text)}: expected names separated by commas`, "traits", { traits: text });
  }
  for (const name of names) {
    const bit = 1 << TRAIT_BIT[parseTrait(name)];
    if (mask & bit) throw new InvalidRulesError(`invalid trait list ${repr(text)}: ${repr(name)} given twice`, "traits", { traits: text });
    mask |= bit;
  }
  return mask;
}

/** Quads: lines and squares, all four traits, wins spotted automatically (the default). */
export const QUADS = new Rules("lines+squares", ALL_TRAITS, "auto");
/** Classic Quarto: lines only, all four traits, wins must be declared. */
export const CLASSIC = new Rules("lines", ALL_TRAITS, "declare");
/** Quarto with squares: lines and squares, all four traits, wins must be declared. */
export const ADVANCED = new Rules("lines+squares", ALL_TRAITS, "declare");

/** @type {Readonly<Record<string, Rules>>} */
export const PRESETS = Object.freeze({ quads: QUADS, classic: CLASSIC, advanced: ADVANCED });
