// Text helpers that read and write exactly as Python's str methods do, so that
// the page's rules accept and refuse the same inputs as the Python library
// (Python's whitespace is not JavaScript's: it includes \x1c-\x1f and \x85, and
// not the byte-order mark \ufeff).

/** The characters Python's str.isspace() (and str.split(), str.strip()) treat as whitespace. */
export const SPACE_CLASS = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const SPACE_RUN = new RegExp(`[${SPACE_CLASS}]+`, "u");
const EDGES = new RegExp(`^[${SPACE_CLASS}]+|[${SPACE_CLASS}]+$`, "gu");
// Python's str.splitlines() breaks lines at three control characters too.
// eslint-disable-next-line no-control-regex
const LINE_BREAK = /\r\n|[\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]/u;

/**
 * Python's `text.strip()`.
 * @param {string} text
 * @returns {string}
 */
export function strip(text) {
  return text.replace(EDGES, "");
}

/**
 * Python's `text.split()` (no separator): the words between runs of whitespace.
 * @param {string} text
 * @returns {string[]}
 */
export function splitWords(text) {
  const stripped = strip(text);
  return stripped ? stripped.split(SPACE_RUN) : [];
}

/**
 * Python's `text.splitlines()`.
 * @param {string} text
 * @returns {string[]}
 */
export function splitLines(text) {
  const lines = [];
  let rest = text;
  while (rest) {
    const match = LINE_BREAK.exec(rest);
    if (!match) {
      lines.push(rest);
      break;
    }
    lines.push(rest.slice(0, match.index));
    rest = rest.slice(match.index + match[0].length);
  }
  return lines;
}

const UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/**
 * Python's `repr()` of a string (or of a small integer), as the library's
 * messages quote the offending input: `'A9'`, `"it's"`, `'\x00'`.
 * @param {unknown} value
 * @returns {string}
 */
export function repr(value) {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value !== "string") return String(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of value) {
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char !== " " && UNPRINTABLE.test(char)) {
      const code = /** @type {number} */ (char.codePointAt(0));
      const hex = code.toString(16);
      if (code < 0x100) out += `\\x${hex.padStart(2, "0")}`;
      else if (code < 0x10000) out += `\\u${hex.padStart(4, "0")}`;
      else out += `\\U${hex.padStart(8, "0")}`;
    } else out += char;
  }
  return out + quote;
}

/**
 * Python's `str()` of a value the page's rules may be handed where Python's
 * library takes a string or an integer: what an error's params quote.
 * @param {unknown} value
 * @returns {string}
 */
export function str(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  return String(value);
}

const DIGIT = /^\p{Nd}$/u;

/**
 * The value of a string of decimal digits of any script, as Python's `int()`
 * reads what the regular expression `\d+` matched (`"12"`, `"١٢"`).
 * @param {string} text
 * @returns {number}
 */
export function digitsValue(text) {
  let value = 0;
  for (const char of text) {
    // Unicode keeps each script's digits in runs of ten, zero first.
    const code = /** @type {number} */ (char.codePointAt(0));
    let zero = code;
    while (DIGIT.test(String.fromCodePoint(zero - 1)) && code - zero < 9 + 10 * 8) zero -= 1;
    value = value * 10 + ((code - zero) % 10);
  }
  return value;
}
