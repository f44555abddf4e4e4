"""The marks on the board and the supply never hide each other: a safe piece's
✓ and the analysis's value both show, and the hinted cell does not wear the
ring of the last move; at every screen the layout is checked at
(``e2e.screens``), the dark colour scheme included."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.quads_page import QuadsPage

# Each supply piece with both marks: the boxes of the piece, its ✓ and its value.
_MARK_BOXES = """() => [...document.querySelectorAll("#supply .supply-piece")].map((piece) => {
  const box = (el) => {
    const options = { opacityProperty: true, visibilityProperty: true };
    if (!el || !el.checkVisibility(options)) return null;
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const badge = piece.querySelector(".safe-badge"), value = piece.querySelector(".value-mark");
  // what a person sees at the mark's centre: the mark itself, or what covers it
  // (the marks let presses through to the piece: found by the hit test for the check only)
  const seen = (el) => {
    const b = box(el);
    if (!b) return false;
    const before = el.style.pointerEvents;
    el.style.pointerEvents = "auto";
    const top = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    el.style.pointerEvents = before;
    return Boolean(top) && (top === el || el.contains(top));
  };
  return { key: piece.dataset.key, piece: box(piece), badge: box(badge), value: box(value),
           badgeSeen: seen(badge), valueSeen: seen(value) };
})"""

# The colours of the rings around an element: its box shadows (the faint
# inner shadow aside) and its outline.
_RINGS = """(el) => {
  const style = getComputedStyle(el);
  const opaque = (c) => {
    const a = c.match(/[\\d.]+/g).map(Number);
    return a.length < 4 || a[3] > 0.5;
  };
  const colours = (style.boxShadow.match(/rgba?\\([^)]*\\)/g) || []).filter(opaque);
  const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  if (outlined) colours.push(style.outlineColor);
  return { colours, outline: style.outlineStyle, shadow: style.boxShadow };
}"""


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["left"] >= outer["left"] - 0.5 and inner["right"] <= outer["right"] + 0.5
            and inner["top"] >= outer["top"] - 0.5 and inner["bottom"] <= outer["bottom"] + 0.5)


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5
            or a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5)


def test_the_safe_mark_and_the_value_both_show(screen: QuadsPage) -> None:
    quads = screen
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    for toggle in ("#safe-toggle", "#analyse-toggle"):
        page.locator(toggle).check()
    # The first piece to hand over: every piece is safe, and each has a value.
    expect(page.locator("#safe-count")).to_have_text(quads.t("safe.many", count=16, total=16))
    expect(page.locator("#supply .value-mark")).to_have_count(16, timeout=30_000)
    expect(page.locator("#supply .safe-badge")).to_have_count(16)
    page.locator("#supply").scroll_into_view_if_needed()
    for piece in page.evaluate(_MARK_BOXES):
        key = piece["key"]
        for mark in ("badge", "value"):
            assert piece[mark], f"piece {key}: the {mark} is not shown: {piece}"
            assert piece[f"{mark}Seen"], f"piece {key}: the {mark} is covered: {piece}"
        assert apart(piece["badge"], piece["value"]), f"piece {key}: the marks overlap: {piece}"
        for mark in ("badge", "value"):
            assert inside(piece[mark], piece["piece"]), f"piece {key}: the {mark} sticks out"


def test_the_hinted_cell_and_the_last_move_look_different(screen: QuadsPage) -> None:
    quads = screen
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    quads.give("0")
    quads.place("A1")
    quads.give("1")  # player 1 is to place; the last move went to A1
    expect(quads.cell("A1")).to_have_class(re.compile(r"\blast\b"))
    quads.press(page.locator("#hint-button"))
    hinted = page.locator("#board .cell.hinted")
    expect(hinted).to_have_count(1, timeout=30_000)
    last = page.locator("#board .cell.last").evaluate(_RINGS)
    hint = hinted.evaluate(_RINGS)
    assert hint["colours"], hint
    assert last["colours"], last
    shared = set(hint["colours"]) & set(last["colours"])
    assert not shared, f"the hint and the last move share the ring {shared}: {hint} {last}"
    assert hint["outline"] != last["outline"], (hint, last)
