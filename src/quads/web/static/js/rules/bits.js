// One-line helpers for the 16-bit masks used everywhere (cells and pieces).

/** A mask with all sixteen bits set: every cell, or every piece. */
export const FULL = 0xffff;

/**
 * The number of set bits of `mask`.
 * @param {number} mask
 * @returns {number}
 */
export function popcount(mask) {
  let n = mask - ((mask >>> 1) & 0x5555);
  n = (n & 0x3333) + ((n >>> 2) & 0x3333);
  n = (n + (n >>> 4)) & 0x0f0f;
  return (n + (n >>> 8)) & 0x1f;
}

/**
 * The index of the lowest set bit of a non-zero `mask`.
 * @param {number} mask
 * @returns {number}
 */
export function lsb(mask) {
  return 31 - Math.clz32(mask & -mask);
}

/**
 * The indices of the set bits of `mask`, lowest first.
 * @param {number} mask
 * @returns {number[]}
 */
export function bitsOf(mask) {
  const out = [];
  while (mask) {
    const low = mask & -mask;
    out.push(31 - Math.clz32(low));
    mask ^= low;
  }
  return out;
}
