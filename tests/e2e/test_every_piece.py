"""All sixteen pieces are accounted for on the game screen at every moment of a
game: on the board, in the supply and in hand together, up to and after its end
(by a claim, a resignation, a full board and a winning placement), on one
device, against the computer and online on both players' devices."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from e2e.quads_page import Person, QuadsPage
from e2e.quads_server import Server
from e2e.test_online import create_online, give, join, place, settled

# The pieces the screen shows where a player sees them: every visible piece
# drawn on the board, in the supply and in the hand.
_SHOWN = """() => ["#board", "#supply", "#hand"]
  .flatMap((area) => [...document.querySelectorAll(`${area} svg.piece`)])
  .filter((piece) => piece.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    && piece.getBoundingClientRect().width > 1)
  .map((piece) => [...piece.classList].find((name) => /^piece-[0-9A-F]$/.test(name)))"""

FULL_BOARD_DRAW = (
    "1 A1A B10 C1E D12 A2F B23 C25 D2D A38 B36 C39 D3B A47 B4C C44 D4"
)
"""A game of the quads rules that fills the board without a win."""

GAMES = {
    # player 1 completes row 1 and hands over without calling; player 2 claims
    "claim": ("classic", "8 A19 B1A C1B D1C", "claim"),
    # player 2 resigns holding the piece handed to them
    "resignation": ("quads", "0 A11", "resign"),
    "draw": ("quads", FULL_BOARD_DRAW, None),
    # the fourth dark piece in row 1 wins as it is placed
    "win": ("quads", "7 A1C B1D C1E D1", None),
}


def assert_sixteen(quads: QuadsPage, when: str, *, online: bool = False) -> None:
    if online:  # either player: no request of theirs on its way
        settled(quads)
    else:  # the person can act, or the game is over
        quads.wait_until_idle()
    shown = quads.page.evaluate(_SHOWN)
    assert sorted(shown) == [f"piece-{n:X}" for n in range(16)], f"{when}: {sorted(shown)}"


@pytest.mark.parametrize("end", list(GAMES))
def test_every_piece_is_shown_at_every_moment(quads: QuadsPage, end: str) -> None:
    page = quads.page
    rules, moves, last = GAMES[end]
    quads.start_game(mode="local", rules=rules)
    assert_sixteen(quads, "at the start")
    for token in moves.split():
        if len(token) != 1:
            quads.place(token[:2])
            assert_sixteen(quads, f"after placing on {token[:2]}")
        if len(token) != 2:
            quads.give(token[-1])
            assert_sixteen(quads, f"after handing over {token[-1]}")
    if last == "claim":
        quads.press(page.locator("#claim-button"))
    elif last == "resign":
        quads.press(page.locator("#resign-button"))
        quads.press(page.locator("#confirm-yes"))
    expect(page.locator("#end-panel")).to_be_visible()
    assert_sixteen(quads, f"at the end by {end}")


def test_every_piece_is_shown_when_resigning_to_the_computer(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    quads.give("5")
    quads.wait_until_idle()  # the computer placed it and handed one over
    assert quads.hand() is not None
    assert_sixteen(quads, "with the computer's piece in hand")
    quads.press(page.locator("#resign-button"))
    quads.press(page.locator("#confirm-yes"))
    expect(page.locator("#end-panel")).to_be_visible()
    assert_sixteen(quads, "after resigning to the computer")


def test_every_piece_is_shown_on_both_devices_online(person: Person, server: Server) -> None:
    host = person(server.url, "phone", "en")
    guest = person(server.url, "desktop", "de")
    join(guest, create_online(host, "classic", "first"), "second")
    players = (host, guest)
    for who in players:
        assert_sixteen(who, "at the start", online=True)
    turns = [(host, "8"), (guest, "A19"), (host, "B1A"), (guest, "C1B"), (host, "D1C")]
    for actor, token in turns:
        other = guest if actor is host else host
        if len(token) == 3:
            place(actor, token[:2], other)
            for who in players:
                assert_sixteen(who, f"after the placement on {token[:2]}", online=True)
        give(actor, token[-1], other)
        for who in players:
            assert_sixteen(who, f"after handing over {token[-1]}", online=True)
    # The host completed row 1 without calling: the guest claims, holding piece C, and
    # confirms (online, a false call would lose the game).
    guest.press(guest.page.locator("#claim-button"))
    guest.press(guest.page.locator("#confirm-yes"))
    for who in players:
        expect(who.page.locator("#end-panel")).to_be_visible()
        assert_sixteen(who, "at the end by a claim", online=True)
