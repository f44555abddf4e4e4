"""The layout and accessibility checks of a screen, shared by the browser tests.

``check_screen(page, acting=...)`` asserts what a player on any screen size is
promised, on the page as it is shown right now:

- nothing scrolls sideways;
- no two visible controls overlap, and no control covers visible text (the
  notice bar, marked ``data-overlay``, is pinned to the top of the screen on
  purpose and floats over the page while it is scrolled);
- every control a finger aims at is at least 44x44 CSS px (links inside a
  sentence are exempt, as WCAG 2.5.8 allows; a radio button or checkbox counts
  with its label, which takes the tap too);
- the elements the player must act on (``acting``) are wholly inside the
  viewport;
- every piece stands out from its ground, in the light and the dark scheme:
  the ground is at least 3:1 in contrast with a dark piece's body (light
  pieces have a darker outline still);
- axe-core (the copy shipped in the ``axe-playwright-python`` package, never
  fetched from the network) finds no serious or critical violation.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

TOUCH = 44  # CSS px: the smallest tap target
SLACK = 2  # CSS px that what must be acted on may stand past the screen's edge (rounding)
SERIOUS = {"serious", "critical"}
DARK_PIECE = "rgb(91, 69, 54)"  # the body of a dark piece (js/pieces.js)

_AXE = Axe()

# One pass over the page in the browser: the controls, the text, and what
# goes wrong between them.  Boxes are in page coordinates, so that what is
# scrolled out of view is compared as well.
_GEOMETRY = r"""() => {
  const CONTROLS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, '
    + '[role="button"], [tabindex]:not([tabindex="-1"])';
  const shown = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  const box = (r) => ({ left: r.left + scrollX, top: r.top + scrollY,
                        right: r.right + scrollX, bottom: r.bottom + scrollY });
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const name = (el) => {
    const id = el.id ? '#' + el.id : '';
    const key = el.dataset && el.dataset.key ? `[data-key=${el.dataset.key}]` : '';
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${id}${key} "${text}"`;
  };
  // Off the page on purpose (the skip link until it has the focus).
  const onPage = (b) => b.bottom > 0 && b.right > 0;
  const controls = [...document.querySelectorAll(CONTROLS)]
    .filter((el) => shown(el) && !el.closest('[inert]'))
    .map((el) => ({ el, box: box(el.getBoundingClientRect()) }))
    .filter(({ box: b }) => b.right - b.left > 1 && b.bottom - b.top > 1 && onPage(b));
  const related = (a, b) => a.contains(b) || b.contains(a)
    || (a.labels && [...a.labels].some((l) => l.contains(b) || b.contains(l)))
    || (b.labels && [...b.labels].some((l) => l.contains(a) || a.contains(l)));
  const faults = [];

  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i], b = controls[j];
      if (!related(a.el, b.el) && overlap(a.box, b.box)) {
        faults.push(`${name(a.el)} overlaps ${name(b.el)}`);
      }
    }
  }

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || !shown(parent)) continue;
    if (parent.closest('.visually-hidden, svg, [inert], [data-overlay]')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      const b = box(rect);
      if (rect.width < 1 || rect.height < 1 || !onPage(b)) continue;
      for (const c of controls) {
        if (c.el.contains(parent) || related(c.el, parent)) continue;
        if (overlap(c.box, b)) {
          faults.push(`${name(c.el)} covers the text "${node.textContent.trim().slice(0, 40)}"`);
        }
      }
    }
  }

  const inSentence = (el) => el.tagName === 'A' && !el.classList.contains('button')
    && [...el.parentElement.childNodes].some((n) => n !== el && n.textContent.trim());
  for (const { el, box: b } of controls) {
    if (inSentence(el)) continue;
    let target = b;
    const label = el.labels && el.labels[0];
    if (label && (el.type === 'radio' || el.type === 'checkbox')) {
      target = box(label.getBoundingClientRect());
    }
    const width = target.right - target.left, height = target.bottom - target.top;
    if (width < TOUCH - 0.5 || height < TOUCH - 0.5) {
      faults.push(`${name(el)} is ${width.toFixed(0)}x${height.toFixed(0)} px`);
    }
  }

  // Pieces on their ground: the first opaque background behind each.
  const rgb = (text) => (text.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const linear = (c) => {
      c /= 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const dark = luminance(rgb(DARK_PIECE));
  for (const piece of document.querySelectorAll('svg.piece')) {
    if (!shown(piece) || piece.closest('.visually-hidden')) continue;
    let ground = piece.parentElement;
    while (ground && (rgb(getComputedStyle(ground).backgroundColor)[3] === 0
                      || getComputedStyle(ground).backgroundColor === 'transparent')) {
      ground = ground.parentElement;
    }
    if (!ground) continue;
    const light = luminance(rgb(getComputedStyle(ground).backgroundColor));
    const contrast = (Math.max(light, dark) + 0.05) / (Math.min(light, dark) + 0.05);
    if (contrast < 3) {
      faults.push(`${name(piece.closest('button, [role="img"], div'))}: a dark piece has a `
                  + `contrast of ${contrast.toFixed(2)} with its ground`);
    }
  }

  const scrolling = document.documentElement.scrollWidth - innerWidth;
  if (scrolling > 0) faults.push(`the page scrolls ${scrolling} px sideways`);
  return faults;
}""".replace("TOUCH", str(TOUCH)).replace("DARK_PIECE", repr(DARK_PIECE))


def layout_faults(page: Page) -> list[str]:
    """What is wrong with the layout of the screen shown (empty when nothing)."""
    faults: list[str] = page.evaluate(_GEOMETRY)
    return faults


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the screen shown."""
    results = _AXE.run(page)
    violations: list[dict[str, Any]] = results.response["violations"]
    return [v for v in violations if v["impact"] in SERIOUS]


def describe(violations: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:5])
        + f"\n  {v['nodes'][0]['failureSummary']}"
        for v in violations
    )


BOX = """(element) => {
  const box = element.getBoundingClientRect();
  const hidden = element.closest("[hidden]");
  return { x: box.x, y: box.y, width: box.width, height: box.height,
           hiddenBy: hidden ? hidden.id || hidden.tagName : null,
           display: getComputedStyle(element).display, address: location.hash };
}"""
"""An element's box in the viewport, as ``Locator.bounding_box`` gives it, and (to say
why, should it be empty) the element hiding it, its display and the page's address."""


def check_screen(page: Page, *, acting: tuple[Locator, ...] = (), audit: bool = True) -> None:
    """Assert the promises of the module docstring on the screen shown.

    ``acting``: what the player must act on now, which must be in the viewport.
    ``audit``: run axe-core too (it takes a moment, so walks may skip repeats).
    """
    size = page.viewport_size
    assert size is not None
    for target in acting:
        expect(target).to_be_in_viewport()
        # wholly in view (a pixel of rounding aside), not a sliver at the edge; measured
        # in the page at once, so that a line drawn anew in between is measured as drawn
        box = target.evaluate(BOX)
        assert min(box["width"], box["height"]) > 0, f"{target} is not shown: {box}"
        inside = (box["x"] >= -SLACK and box["y"] >= -SLACK
                  and box["x"] + box["width"] <= size["width"] + SLACK
                  and box["y"] + box["height"] <= size["height"] + SLACK)
        assert inside, f"{target} is not wholly in view: {box} on a {size} screen"
    faults = layout_faults(page)
    assert not faults, "layout faults:\n" + "\n".join(faults)
    if audit:
        violations = axe_violations(page)
        assert not violations, "accessibility violations:\n" + describe(violations)
