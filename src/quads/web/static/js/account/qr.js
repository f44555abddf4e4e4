// The QR code of a link code: an SVG image that the server makes (docs/web-api.md,
// "Accounts") and sends as text.  The page's policy lets images come only from the
// server's own addresses, so the drawing is put in the page itself: parsed as SVG,
// and kept only in the few elements and attributes a QR code is drawn with, so that
// nothing in it could run or load anything.

const SVG = "http://www.w3.org/2000/svg";
const ELEMENTS = new Set(["svg", "g", "path", "rect"]);
const ATTRIBUTES = new Set(["width", "height", "viewBox", "d", "fill", "stroke", "stroke-width",
  "transform", "x", "y", "class", "shape-rendering"]);

/**
 * Keep of `element` (an element of a parsed SVG) only what draws: the elements and
 * attributes above, and no text.
 * @param {Element} element
 */
function keepDrawing(element) {
  for (const name of element.getAttributeNames()) {
    if (!ATTRIBUTES.has(name)) element.removeAttribute(name);
  }
  for (const child of [...element.childNodes]) {
    if (child instanceof Element && child.namespaceURI === SVG && ELEMENTS.has(child.localName)) keepDrawing(child);
    else child.remove();
  }
}

/**
 * The drawing of `text` (an SVG image's source) for this page, or null when it is none.
 * @param {string} text
 * @returns {Element | null}
 */
export function qrDrawing(text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG || root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length) {
    return null;
  }
  keepDrawing(root);
  const drawing = document.importNode(root, true);
  drawing.setAttribute("aria-hidden", "true");
  drawing.setAttribute("focusable", "false");
  return drawing;
}
