"""The screens the layout is checked at: five sizes, two languages, the dark
colour scheme, and a page opened at one of them.

360x640 (English) and 360x740 and 390x844 (German) phones, a 768x1024 tablet
and a 1280x800 desktop, plus the 390x844 phone in the dark colour scheme.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from playwright.sync_api import Browser

from e2e.quads_page import QuadsPage, watch_errors
from e2e.quads_server import Server


class Screen(NamedTuple):
    width: int
    height: int
    lang: str
    touch: bool
    scheme: str = "light"


SCREENS = {
    "phone-360": Screen(360, 640, "en", True),
    "phone-390-de": Screen(390, 844, "de", True),
    "phone-360-de": Screen(360, 740, "de", True),
    "tablet": Screen(768, 1024, "en", True),
    "desktop": Screen(1280, 800, "en", False),
    "phone-dark": Screen(390, 844, "en", True, "dark"),
}


PHONES = [name for name, size in SCREENS.items() if size.touch and size.width < 600]
"""The phone screens."""


@contextmanager
def shown_at(browser: Browser, server: Server, name: str,
             base_url: str | None = None) -> Iterator[QuadsPage]:
    """A page of its own (a player of its own) at screen ``name`` of ``SCREENS``, in
    its language and colour scheme; at ``base_url`` rather than the server's address
    when given (``http://localhost:PORT``: a page served under a name can hold
    passkeys, one under an address cannot)."""
    size = SCREENS[name]
    base_url = base_url or server.url
    options: dict[str, Any] = {"viewport": {"width": size.width, "height": size.height}}
    if size.touch:
        options.update(has_touch=True, is_mobile=True, device_scale_factor=2)
    context = browser.new_context(base_url=base_url, locale="en-GB", reduced_motion="reduce",
                                  color_scheme=size.scheme, **options)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    quads = QuadsPage(page, "phone" if size.touch else "desktop", base_url)
    quads.open("/#/new")
    if size.lang != "en":
        quads.use_language(size.lang)
    # The scheme asked for is the one shown: a dark page in the dark.
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    level = sum(int(part) for part in re.findall(r"\d+", background)[:3]) / 3
    assert (level < 64) == (size.scheme == "dark"), f"{size.scheme} scheme, background {background}"
    yield quads
    context.close()
    assert not errors, f"errors in the page: {errors}"
