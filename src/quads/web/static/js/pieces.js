// The sixteen pieces, drawn as SVG.  This is the only place that draws a piece.
//
// A piece is a hex digit 0-F: bit 8 tall, 4 dark, 2 square, 1 hollow.  Each
// trait is drawn so that it reads at a glance and without colour:
//   height  a tall body or a short one;
//   colour  dark pieces are dark and striped, light ones pale and plain;
//   shape   square pieces are boxes with corners, round ones cylinders;
//   top     hollow pieces have a dark hole in the top face.

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** @type {[string, number][]} each trait with its bit */
export const TRAITS = [
  ["height", 8],
  ["color", 4],
  ["shape", 2],
  ["top", 1],
];

/** The traits of piece `code` (a hex digit) as {height, color, shape, top} booleans. */
export function traitsOf(code) {
  const bits = parseInt(code, 16);
  return Object.fromEntries(TRAITS.map(([name, bit]) => [name, (bits & bit) !== 0]));
}

/** The spoken name of a piece, e.g. "tall dark square hollow". */
export function pieceLabel(code) {
  const traits = traitsOf(code);
  const words = Object.fromEntries(
    TRAITS.map(([name]) => [name, t(`trait.${name}.${traits[name] ? 1 : 0}`)]),
  );
  return t("piece.label", words);
}

const PALETTE = {
  dark: { front: "#5b4536", side: "#45342a", top: "#73594a", line: "#1f1813", hole: "#0d0a08", ring: "#d9c6ae" },
  light: { front: "#f1e3c4", side: "#dcc9a3", top: "#fbf3e2", line: "#3a3129", hole: "#3a3129", ring: "#3a3129" },
};

function el(name, attributes) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

// The stripes that mark a dark piece, defined once for the whole document.
function ensureDefinitions() {
  if (document.getElementById("piece-stripes")) return;
  const svg = el("svg", { width: 0, height: 0, "aria-hidden": "true", class: "svg-defs" });
  const pattern = el("pattern", {
    id: "piece-stripes",
    width: 7,
    height: 7,
    patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)",
  });
  pattern.append(el("rect", { x: 0, y: 0, width: 2.2, height: 7, fill: "#ffffff", opacity: 0.22 }));
  const defs = el("defs", {});
  defs.append(pattern);
  svg.append(defs);
  document.body.append(svg);
}

// Geometry, in a 100 x 100 box.  The bottom stays put; a tall piece is higher.
const BOTTOM = 90;
const TALL_TOP = 22;
const SHORT_TOP = 56;

function roundPiece(group, top, colors, stripes) {
  // A cylinder: body, bottom curve, top ellipse.
  const [left, right, rx, ry] = [26, 74, 24, 8];
  const bottom = BOTTOM - ry;
  const body = `M${left} ${top} L${left} ${bottom} A${rx} ${ry} 0 0 0 ${right} ${bottom} L${right} ${top} Z`;
  group.append(el("path", { d: body, fill: colors.front }));
  // a band of shade on the right gives the cylinder its roundness
  const shade = `M${right - 12} ${top} L${right - 12} ${bottom + ry - 1} A${rx} ${ry} 0 0 0 ${right} ${bottom} L${right} ${top} Z`;
  group.append(el("path", { d: shade, fill: colors.side }));
  if (stripes) group.append(el("path", { d: body, fill: "url(#piece-stripes)" }));
  group.append(el("path", { d: body, fill: "none", stroke: colors.line, "stroke-width": 2.4, "stroke-linejoin": "round" }));
  group.append(el("ellipse", { cx: 50, cy: top, rx, ry, fill: colors.top, stroke: colors.line, "stroke-width": 2.4 }));
  return { cx: 50, cy: top, rx: 12, ry: 4.2 };
}

function squarePiece(group, top, colors, stripes) {
  // A box seen slightly from above and the right: front, side and top faces.
  const [left, width, depthX, depthY] = [22, 42, 14, 9];
  const right = left + width;
  const bottom = BOTTOM;
  const front = `M${left} ${top} H${right} V${bottom} H${left} Z`;
  const side = `M${right} ${top} L${right + depthX} ${top - depthY} V${bottom - depthY} L${right} ${bottom} Z`;
  const lid = `M${left} ${top} L${left + depthX} ${top - depthY} H${right + depthX} L${right} ${top} Z`;
  const line = { fill: "none", stroke: colors.line, "stroke-width": 2.4, "stroke-linejoin": "round" };
  group.append(el("path", { d: front, fill: colors.front }));
  group.append(el("path", { d: side, fill: colors.side }));
  if (stripes) {
    group.append(el("path", { d: front, fill: "url(#piece-stripes)" }));
    group.append(el("path", { d: side, fill: "url(#piece-stripes)" }));
  }
  group.append(el("path", { d: lid, fill: colors.top }));
  for (const d of [front, side, lid]) group.append(el("path", { d, ...line }));
  return { cx: left + depthX / 2 + width / 2, cy: top - depthY / 2, rx: 11, ry: 3.6 };
}

/**
 * An <svg> drawing of piece `code`.  It is decorative (aria-hidden): the
 * element holding it carries the piece's label.
 */
export function pieceSvg(code) {
  ensureDefinitions();
  const traits = traitsOf(code);
  const colors = traits.color ? PALETTE.dark : PALETTE.light;
  const top = traits.height ? TALL_TOP : SHORT_TOP;
  const svg = el("svg", {
    viewBox: "0 0 100 100",
    class: `piece piece-${code.toUpperCase()}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  const group = el("g", {});
  svg.append(group);
  const draw = traits.shape ? squarePiece : roundPiece;
  const hole = draw(group, top, colors, traits.color);
  if (traits.top) {
    group.append(el("ellipse", { ...hole, fill: colors.hole, stroke: colors.ring, "stroke-width": 1.6 }));
  }
  return svg;
}
