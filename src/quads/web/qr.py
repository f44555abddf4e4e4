"""Invitation addresses as QR codes (SVG, made on the server with segno)."""

from __future__ import annotations

import functools
import io

import segno

__all__ = ["qr_svg"]


@functools.lru_cache(maxsize=256)
def qr_svg(text: str, title: str = "Invitation") -> bytes:
    """A QR code of ``text`` as a standalone SVG, dark on light with a quiet zone (the
    codes of the last few hundred addresses are kept: a page asks again)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=4, dark="#1b1b1b",
                                     light="#ffffff", xmldecl=False, title=title)
    return out.getvalue()
