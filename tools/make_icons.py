"""Draw the page's icons: the brand mark of the header as SVG, and the PNG
icons of the web app manifest and of iOS's home screen rendered from it.

The mark is the header's ``.brand-mark``: four squares in a rounded square,
in the colours of ``css/quads.css`` (read from its custom properties, so that
the icons follow the stylesheet). The PNGs are rendered by Debian's Chromium
through Playwright, which never downloads a browser of its own::

    python tools/make_icons.py

writes into ``src/quads/web/static/icons/``:

- ``quads.svg``: the mark alone (the tab's icon, and the manifest's SVG icon);
- ``quads-192.png``, ``quads-512.png``: the mark on a rounded tile of the
  page's background, for launchers that show an icon as it is;
- ``quads-maskable-512.png``: the same over the whole square, the mark inside
  the central circle that every mask keeps (40 % of the size from the centre);
- ``apple-touch-icon.png`` (180 px): over the whole square, as iOS rounds the
  corners itself and shows transparency as black.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "quads" / "web" / "static"
CSS = STATIC / "css" / "quads.css"
CHROMIUM = "/usr/bin/chromium"

MARK = 22
"""The mark's side in the units of ``.brand-mark``: two 10-unit squares and a
2-unit gap each way, the outer corners rounded with a radius of 6."""


class Icon(NamedTuple):
    """One PNG: its file name, side in pixels, the mark's share of the side,
    and the corner radius of the background tile (a share of the side; ``None``:
    the background fills the square)."""

    name: str
    size: int
    mark: float
    tile_radius: float | None


PNGS = [
    Icon("quads-192.png", 192, 0.56, 0.22),
    Icon("quads-512.png", 512, 0.56, 0.22),
    # 0.5 of the side: the mark's corners are 0.354 from the centre, inside 0.4.
    Icon("quads-maskable-512.png", 512, 0.5, None),
    Icon("apple-touch-icon.png", 180, 0.56, None),
]


def colours(css: str) -> dict[str, str]:
    """The custom properties of the stylesheet's ``:root`` that hold a colour."""
    root = re.search(r":root\s*\{(.*?)\}", css, re.S)
    if root is None:
        raise SystemExit(f"no :root block in {CSS}")
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,8})\s*;", root.group(1)))


def mark(palette: dict[str, str], x: float = 0, y: float = 0, side: float = MARK) -> str:
    """The mark as SVG elements, ``side`` wide, its top left corner at (x, y)."""
    scale = side / MARK
    squares = [(0, 0, "accent"), (12, 0, "call"), (0, 12, "board-edge"), (12, 12, "ink")]
    rects = "".join(
        f'<rect x="{x + sx * scale:g}" y="{y + sy * scale:g}" width="{10 * scale:g}" '
        f'height="{10 * scale:g}" fill="{palette[name]}"/>'
        for sx, sy, name in squares
    )
    return (f'<clipPath id="mark"><rect x="{x:g}" y="{y:g}" width="{side:g}" height="{side:g}" '
            f'rx="{6 * scale:g}"/></clipPath><g clip-path="url(#mark)">{rects}</g>')


def mark_svg(palette: dict[str, str]) -> str:
    """The mark alone, as a file."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {MARK} {MARK}">'
            f"{mark(palette)}</svg>\n")


def icon_svg(icon: Icon, palette: dict[str, str]) -> str:
    """The SVG of ``icon``: its background and the mark centred on it."""
    size = icon.size
    if icon.tile_radius is None:
        background = f'<rect width="{size}" height="{size}" fill="{palette["bg"]}"/>'
    else:
        background = (f'<rect width="{size}" height="{size}" rx="{size * icon.tile_radius:g}" '
                      f'fill="{palette["bg"]}"/>')
    side = size * icon.mark
    offset = (size - side) / 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}">{background}{mark(palette, offset, offset, side)}</svg>')


def render(icons: list[Icon], palette: dict[str, str], out: Path) -> None:
    """Render each icon's SVG to a PNG of its size in ``out``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            for icon in icons:
                page = browser.new_page(viewport={"width": icon.size, "height": icon.size},
                                        device_scale_factor=1)
                page.set_content('<html><body style="margin:0;background:transparent">'
                                 f"{icon_svg(icon, palette)}</body></html>")
                page.screenshot(path=out / icon.name, omit_background=True,
                                clip={"x": 0, "y": 0, "width": icon.size, "height": icon.size})
                page.close()
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=STATIC / "icons",
                        help="the directory to write into (default: the page's icons)")
    args = parser.parse_args(argv)
    palette = colours(CSS.read_text("utf-8"))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "quads.svg").write_text(mark_svg(palette), "utf-8")
    render(PNGS, palette, args.out)
    for name in ["quads.svg", *(icon.name for icon in PNGS)]:
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
