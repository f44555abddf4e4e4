"""A draw offered and answered between two devices (two browser contexts of one
Chromium, a German phone and an English desktop): the offer shows live on the other
page, playing on declines it, the limit is said on the button, and an accepted offer
ends the game drawn on both pages."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.layout import check_screen
from e2e.quads_page import Person
from e2e.quads_server import Server
from e2e.test_online import create_online, give, join, place


def test_a_draw_offered_declined_by_playing_on_then_accepted(person: Person,
                                                            server: Server) -> None:
    alice = person(server.url, "phone", "de")  # 360x740: hands over first
    bob = person(server.url, "desktop", "en")
    invite = create_online(alice, "quads", "first")
    join(bob, invite, "second")
    page_a, page_b = alice.page, bob.page
    expect(page_a.locator("#draw-button")).to_have_text(alice.t("action.draw"))

    # Alice offers a draw: Bob reads it live, with the answer in view.
    alice.press(page_a.locator("#draw-button"))
    expect(page_a.locator("#draw-text")).to_have_text(alice.t("draw.waiting"))
    expect(page_a.locator("#draw-button")).to_be_disabled()
    expect(page_a.locator("#draw-button")).to_have_text(alice.t("action.draw.left", count=2))
    expect(page_b.locator("#draw-text")).to_have_text(bob.t("draw.offered"))
    check_screen(page_b, acting=(page_b.locator("#draw-accept"),))

    # Alice hands over, Bob plays on: the offer lapses on both pages.
    give(alice, "7", bob)
    expect(page_b.locator("#draw-panel")).to_be_visible()  # her own move keeps it
    place(bob, "A1", alice)
    expect(page_a.locator("#draw-panel")).to_be_hidden()
    expect(page_b.locator("#draw-panel")).to_be_hidden()
    give(bob, "C", alice)

    # Bob offers one in turn, and Alice, on her phone, accepts it.
    bob.press(page_b.locator("#draw-button"))
    expect(page_a.locator("#draw-text")).to_have_text(alice.t("draw.offered"))
    check_screen(page_a, acting=(page_a.locator("#draw-accept"),))
    alice.press(page_a.locator("#draw-accept"))
    for quads in (alice, bob):
        expect(quads.page.locator("#end-title")).to_have_text(quads.t("end.draw"))
        expect(quads.page.locator("#end-reason")).to_have_text(quads.t("end.agreement.you"))
        expect(quads.page.locator("#draw-button")).to_be_hidden()
    assert bob.view()["outcome"]["reason"] == "agreement"
