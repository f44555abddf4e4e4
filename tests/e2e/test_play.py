"""Playing whole games in the browser: against the computer, two people on one
device with a missed declaration, undo and redo, keyboard play."""

from __future__ import annotations

import re
from urllib.parse import quote

from playwright.sync_api import expect

from e2e.quads_page import CELLS, QuadsPage


def test_full_game_against_level_1(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    expect(page.locator("#setup-title")).to_have_text(quads.t("setup.title"))
    expect(page.locator("#level-field label.choice")).to_have_count(5)
    expect(page.locator("#level-field")).to_contain_text(quads.t("level.5.name"))
    quads.check_screen()
    quads.screenshot("new-game")

    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.give.first.you"))
    expect(page.locator("#supply button")).to_have_count(16)
    expect(quads.cell("A1")).to_have_attribute("aria-label", quads.t("cell.empty", cell="A1"))
    expect(quads.supply_piece("F")).to_have_attribute("aria-label", quads.piece_label("F"))
    assert quads.hand() is None

    # While the computer plays its turn, the page shows that it is thinking;
    # then it says where the piece went and which piece is now in hand.
    quads.press(quads.supply_piece("0"))
    expect(page.locator("#thinking")).to_be_visible()
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.computer_turn"))
    expect(page.locator("#supply button.playable")).to_have_count(0)
    quads.wait_until_idle()
    expect(page.locator("#thinking")).to_be_hidden()
    view = quads.view()
    computer_cell = view["last"]["place"]
    assert view["last"] == {**view["last"], "player": "second", "piece": "0", "give": view["hand"]}
    expect(quads.cell(computer_cell)).to_have_attribute("data-piece", "0")
    expect(quads.cell(computer_cell)).to_have_class(re.compile(r"\blast\b"))
    expect(page.locator("#last-move")).to_have_text(quads.t(
        "last.computer.place_give", piece=quads.piece_label("0"), cell=computer_cell,
        give=quads.piece_label(view["hand"])))
    assert quads.hand() == view["hand"]
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.place.you"))
    expect(page.locator("#hand-caption")).to_have_text(quads.t("game.hand.yours"))

    # One more turn, to show a game in progress.
    free = next(cell for cell, piece in zip(CELLS, quads.board(), strict=True) if piece is None)
    quads.place(free)
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.give.you"))
    quads.give(page.locator("#supply button.playable").first.get_attribute("data-key") or "")
    assert quads.board() == quads.view()["board"]
    quads.check_screen()
    quads.screenshot("mid-game")

    quads.play_to_end()
    view = quads.view()
    outcome = view["outcome"]
    assert outcome is not None
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.over"))
    title = {"first": "end.you_win", "second": "end.computer_wins", None: "end.draw"}
    expect(page.locator("#end-title")).to_have_text(quads.t(title[outcome["winner"]]))
    assert quads.board() == view["board"]
    winning = page.eval_on_selector_all("#board .winning", "cells => cells.map(c => c.dataset.key)")
    assert sorted(winning) == sorted(outcome["cells"])
    if outcome["winner"]:
        assert len(winning) >= 4
        first = outcome["traits"][0]
        word = quads.t(f"trait.{first['trait']}.{1 if first['value'] else 0}")
        expect(page.locator("#end-shared")).to_contain_text(word)
    quads.check_screen()
    quads.screenshot("end-vs-computer")

    # Play again: a new game with the same settings.
    old_id = quads.game_id()
    quads.press(page.locator("#play-again"))
    expect(page.locator("#end-panel")).to_be_hidden()
    quads.wait_until_idle()
    assert quads.game_id() != old_id
    assert quads.board() == [None] * 16
    assert quads.view()["level"] == 1


def test_missed_declaration_is_claimed(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="classic")
    one, two = quads.t("player.first"), quads.t("player.second")
    declare, claim = quads.button("declare-button"), quads.button("claim-button")
    message = page.locator("#game-message")

    expect(page.locator("#prompt")).to_have_text(
        quads.t("prompt.give.first.player", player=one, other=two))
    expect(declare).to_be_hidden()
    quads.give("8")
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.place.player", player=two))
    expect(claim).to_be_hidden()  # nothing has been placed yet
    quads.place("A1")

    # Calling "Quarto!" is offered after every placement; a false call is refused.
    expect(declare).to_be_visible()
    extra = page.locator("#prompt-extra")
    expect(extra).to_be_hidden()  # no reminder while fewer than four pieces are down
    quads.press(declare)
    expect(message).to_have_text(quads.t("error.illegal_action.declare"))
    assert quads.view()["ply"] == 2
    quads.give("9")

    # The claim is offered before every placement; a false claim is refused too.
    expect(message).to_be_hidden()
    expect(claim).to_be_visible()
    quads.press(claim)
    expect(message).to_have_text(quads.t("error.illegal_action.claim"))
    quads.place("B1")
    quads.give("A")
    quads.place("C1")
    expect(extra).to_be_hidden()
    quads.give("B")

    # Player 1 completes row 1 (all tall, all light) but hands over without calling.
    quads.place("D1")
    expect(declare).to_be_visible()
    expect(extra).to_have_text(quads.t("prompt.give.declare"))
    quads.give("C")
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.place.player", player=two))
    expect(page.locator("#prompt-extra")).to_have_text(quads.t("prompt.place.claim"))

    # Player 2 notices and claims.
    quads.press(claim)
    expect(page.locator("#end-panel")).to_be_visible()
    expect(page.locator("#end-title")).to_have_text(quads.t("end.player_wins", player=two))
    expect(page.locator("#end-reason")).to_have_text(
        quads.t("end.claim.they", who=two, shapes=quads.t("shape.row", name="1")))
    traits = quads.t("trait.height.1") + quads.t("end.and") + quads.t("trait.color.0")
    expect(page.locator("#end-shared")).to_have_text(quads.t("end.shared", traits=traits))
    winning = page.eval_on_selector_all("#board .winning", "cells => cells.map(c => c.dataset.key)")
    assert winning == ["A1", "B1", "C1", "D1"]
    expect(quads.cell("A1")).to_have_attribute("aria-label", re.compile(
        re.escape(quads.t("cell.winning", label=quads.t(
            "cell.piece", cell="A1", piece=quads.piece_label("8"))))))
    outcome = quads.view()["outcome"]
    assert (outcome["winner"], outcome["reason"]) == ("second", "claim")
    expect(page.locator("#moves")).to_contain_text("D1?C")
    quads.check_screen()
    quads.screenshot("end-claim")


def test_undo_and_redo_against_the_computer(quads: QuadsPage) -> None:
    page = quads.page
    undo, redo = quads.button("undo-button"), quads.button("redo-button")
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    expect(undo).to_be_disabled()
    expect(redo).to_be_disabled()

    quads.give("0")
    before = (quads.board(), quads.hand())
    free = [cell for cell, piece in zip(CELLS, before[0], strict=True) if piece is None]
    quads.place(free[0])
    quads.give(page.locator("#supply button.playable").first.get_attribute("data-key") or "")
    after = (quads.board(), quads.hand())
    assert sum(p is not None for p in after[0]) == 3

    # Undo takes back the computer's reply and the person's own turn.
    expect(undo).to_be_enabled()
    quads.check_screen()
    quads.press(undo)
    quads.wait_until_idle()
    expect(page.locator("#prompt")).to_have_text(quads.t("prompt.place.you"))
    assert (quads.board(), quads.hand()) == before
    expect(redo).to_be_enabled()

    quads.press(redo)
    quads.wait_until_idle()
    assert (quads.board(), quads.hand()) == after
    expect(redo).to_be_disabled()
    assert quads.view()["moves"] == page.eval_on_selector_all(
        "#moves button.move", "moves => moves.map(m => m.dataset.token)")


def test_keyboard_play(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    # The supply is one tab stop; arrows move inside it, Enter hands over.
    page.locator('#supply button[tabindex="0"]').focus()
    page.keyboard.press("ArrowRight")
    expect(quads.supply_piece("1")).to_be_focused()
    page.keyboard.press("Enter")
    quads.wait_until_idle()
    assert quads.hand() == "1"

    # The focus moved on to the board; arrows and Space place the piece.
    expect(quads.cell("A1")).to_be_focused()
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(quads.cell("B2")).to_be_focused()
    page.keyboard.press(" ")
    quads.wait_until_idle()
    expect(quads.cell("B2")).to_have_attribute("data-piece", "1")
    label = quads.t("cell.piece", cell="B2", piece=quads.piece_label("1"))
    expect(quads.cell("B2")).to_have_attribute("aria-label", quads.t("cell.last", label=label))
    # ... and back to the supply for the next hand-over.
    expect(page.locator("#supply button:focus")).to_have_count(1)
    page.keyboard.press("End")
    expect(quads.supply_piece("F")).to_be_focused()


def test_a_started_game_opens_at_its_top_with_the_focus_where_one_acts(
        quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    quads.choose("mode", "local")
    page.locator("#start-button").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#game-view")).to_be_visible()
    quads.wait_until_idle()
    # the first step is a hand-over: the focus is on a piece of the supply
    expect(page.locator("#supply button:focus")).to_have_count(1)
    page.keyboard.press("Enter")  # hand over the focused piece at once
    expect(page.locator("#prompt")).to_be_in_viewport()
    expect(page.locator("#hand")).to_be_in_viewport()
    quads.wait_until_idle()
    assert quads.view()["ply"] == 1


def test_the_calls_and_the_header_leave_room_on_a_phone_in_german(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    quads.use_language("de")
    header = page.locator("header.topbar").bounding_box()
    assert header is not None
    if quads.device == "phone":  # two rows: the brand and the language, then the links
        assert header["height"] <= 120, f"the header takes {header['height']} px"
    # A missed declaration: the claim button shows beside the piece in hand.
    game = quads.api_post("/api/games/import", {
        "record": '[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 *\n', "mode": "local"})
    quads.open(f"/#/game/{game['id']}")
    quads.wait_until_idle()
    claim = quads.button("claim-button")
    expect(claim).to_be_visible()
    caption = page.locator("#hand-caption")
    expect(caption).to_have_text(quads.t("game.hand.player", player=quads.t("player.second")))
    quads.assert_apart(claim, page.locator("#game-view .hand-card"), page.locator("#board"))
    # the caption keeps its words on one line
    lines = caption.evaluate("el => Math.round(el.getBoundingClientRect().height"
                             " / parseFloat(getComputedStyle(el).lineHeight))")
    assert lines == 1
    quads.check_screen()


def test_the_instruction_and_the_piece_are_in_view_whenever_one_acts(quads: QuadsPage) -> None:
    """Against the computer, through a whole game: before each placement the prompt and
    the piece in hand are on the screen; before each hand-over the supply and its
    heading, which then holds the instruction."""
    page = quads.page
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    for _ in range(16):
        quads.wait_until_idle()
        if quads.is_over():
            break
        view = quads.view()
        if view["step"] == "place":
            expect(page.locator("#prompt")).to_be_in_viewport()
            expect(page.locator("#hand")).to_be_in_viewport()
            quads.place(next(cell for cell, piece in zip(CELLS, quads.board(), strict=True)
                             if piece is None))
        else:
            # The supply's heading says what the prompt says when the prompt is out of
            # view (on a phone it is above the board, the supply below it), and only then.
            title = page.locator("#supply-title")
            expect(title).to_have_text(quads.supply_heading(), use_inner_text=True)
            expect(title).to_be_in_viewport()
            expect(quads.supply_piece(view["supply"][0])).to_be_in_viewport()
            quads.give(view["supply"][0])
        quads.check_screen()
    assert quads.view()["ply"] > 2


def test_every_turn_is_announced_to_screen_readers(quads: QuadsPage) -> None:
    """The board changes silently; a polite live region tells each new turn in
    words, the person's own and the computer's."""
    page = quads.page
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_have_text("")  # opening a game announces nothing
    page.evaluate("""() => {
        window.announced = [];
        const region = document.getElementById("announce");
        new MutationObserver(() => window.announced.push(region.textContent))
            .observe(region, { childList: true, characterData: true, subtree: true });
    }""")
    quads.give("3")
    quads.wait_until_idle()  # the computer places the 3 and hands a piece back
    last = quads.view()["last"]
    cell = next(c for c, p in zip(CELLS, quads.board(), strict=True) if p is None)
    quads.place(cell)
    expect(announce).to_have_text(quads.t(
        "last.you.place", piece=quads.piece_label(last["give"]), cell=cell))
    assert page.evaluate("window.announced") == [
        quads.t("last.you.give", give=quads.piece_label("3")),
        quads.t("last.computer.place_give", piece=quads.piece_label("3"), cell=last["place"],
                give=quads.piece_label(last["give"])),
        quads.t("last.you.place", piece=quads.piece_label(last["give"]), cell=cell),
    ]
    # A new game: the last move of the one before is no longer heard as news.
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    expect(announce).to_have_text("")


def test_sounds_are_off_until_turned_on_and_the_choice_is_kept(quads: QuadsPage) -> None:
    page = quads.page
    # Count the notes the page starts (its sounds are made with the Web Audio API).
    page.add_init_script("""
        window.notes = 0;
        const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function () {
            window.notes += 1;
            return make.call(this);
        };
    """)
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    sound = page.locator("#sound-toggle")
    expect(sound).not_to_be_checked()
    quads.give("3")
    quads.wait_until_idle()  # the computer has placed a piece
    assert page.evaluate("window.notes") == 0

    quads.press(page.locator("label.toggle", has=sound))
    expect(sound).to_be_checked()
    quads.place(next(c for c, p in zip(CELLS, quads.board(), strict=True) if p is None))
    page.wait_for_function("window.notes > 0")
    page.reload()
    quads.wait_until_idle()
    expect(page.locator("#sound-toggle")).to_be_checked()


def test_a_placed_piece_drops_in_unless_motion_is_reduced(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    page.evaluate("""() => {
        window.landed = [];
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) {
            window.landed.push(this.closest("[data-key]").dataset.key);
            return animate.apply(this, args);
        };
    }""")
    quads.give("3")
    quads.place("A1")  # the test's browser asks for reduced motion: nothing moves
    quads.give("4")
    page.emulate_media(reduced_motion="no-preference")
    quads.place("B1")
    # A drawing of the board during the drop continues it (one more call, same piece).
    assert set(page.evaluate("window.landed")) == {"B1"}


def test_the_analysis_marks_every_turn_with_its_value(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    toggle = page.locator("#analyse-toggle")
    expect(toggle).not_to_be_checked()
    expect(page.locator("#supply .value-mark")).to_have_count(0)
    quads.press(page.locator("#analyse-switch"))
    # The first hand-over, from the opening book: every piece draws.
    expect(page.locator("#supply .value-draw")).to_have_count(16)
    expect(page.locator("#analysis-value")).to_have_text(quads.t(
        "analysis.position.player", player=quads.t("player.first"),
        value=quads.t("analysis.draw")))
    mark = quads.supply_piece("3").locator(".value-mark")
    expect(mark).to_have_text(quads.t("analysis.mark.draw"))
    expect(quads.supply_piece("3")).to_have_attribute(
        "aria-label", re.compile(re.escape(quads.t("analysis.draw")) + "$"))
    quads.check_screen(page.locator("#supply"))
    quads.give("3")
    expect(page.locator("#board .value-draw")).to_have_count(16)

    # Classic rules, three tall light pieces in row 1: handing over any piece that
    # is tall or light loses at the next placement.
    quads.start_game(mode="local", rules="classic")
    for piece, cell in (("8", "A1"), ("9", "B1"), ("A", "C1")):
        quads.give(piece)
        quads.place(cell)
    losing = quads.supply_piece("B")
    # Thirteen cells empty: the engine searches (no book there), which on a machine
    # busy with a whole test suite may take longer than an assertion's usual 5 s.
    expect(losing).to_have_class(re.compile(r"\bvalue-loss\b"), timeout=30_000)
    expect(losing.locator(".value-mark")).to_have_text(quads.t("analysis.mark.loss", plies=1))
    expect(losing).to_have_attribute("aria-label", re.compile(
        re.escape(quads.t("analysis.loss", plies=1)) + "$"))
    expect(quads.supply_piece("5")).not_to_have_class(re.compile(r"\bvalue-loss\b"))

    # Online it is not offered: it would help one side.
    game = quads.api_post("/api/games", {"mode": "online", "rules": "quads"})
    quads.open(f"/#/game/{game['id']}")
    expect(page.locator("#invite-panel")).to_be_visible()
    expect(page.locator("#analyse-switch")).to_be_hidden()
    expect(page.locator(".value-mark")).to_have_count(0)


def test_the_review_marks_the_turn_that_threw_the_game_away(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    review = page.locator("#review-open")
    expect(review).to_be_hidden()  # only once the game is over
    # Player 2 puts a third short piece in row 1 and hands over a fourth: lost.
    for piece, cell in (("0", "A1"), ("1", "B1"), ("2", "C1"), ("3", "D1")):
        quads.give(piece)
        quads.place(cell)
    quads.press(review)
    panel = page.locator("#review-panel")
    expect(panel).to_have_attribute("aria-busy", "false", timeout=60_000)
    items = page.locator("#review-list li")
    expect(items).to_have_count(5)
    # each turn reads as a sentence
    one, two = quads.t("player.first"), quads.t("player.second")
    expect(items.nth(0).locator("button.review-turn")).to_contain_text(
        quads.t("review.turn.player.give", number=1, player=one, piece=quads.piece_label("0")))
    expect(items.nth(1).locator("button.review-turn")).to_contain_text(quads.t(
        "review.turn.player.place_give", number=2, player=two, cell="A1",
        piece=quads.piece_label("1")))
    fatal = items.nth(3)
    expect(fatal).to_have_class(re.compile(r"\bmistake\b"))
    expect(fatal.locator("button.review-turn")).to_contain_text(quads.t("analysis.loss", plies=2))
    why = fatal.locator(".review-why")
    expect(why).to_have_text(re.compile(
        "^(" + re.escape(quads.t("review.lost_draw", best="@")).replace("@", ".+") + "|"
        + re.escape(quads.t("review.lost_win", best="@")).replace("@", ".+") + ")$"))
    # the board before the first mistake is shown, the cell played ringed
    first = page.locator("#review-list li.mistake").first
    expect(first.locator("button.review-turn")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#review-board .mini-board")).to_be_visible()
    quads.press(fatal.locator("button.review-turn"))
    expect(page.locator('#review-board .cell.last[data-key="C1"]')).to_have_count(1)
    # the turn threw the draw away: a better cell or piece is ringed with dashes, beside
    # the piece that was to be placed and the one handed over, and the caption says so
    expect(page.locator('#review-pieces .review-piece.plain[data-piece="2"]')).to_have_count(1)
    expect(page.locator('#review-pieces .review-piece.last[data-piece="3"]')).to_have_count(1)
    better = page.locator("#review-board .cell.marked, #review-pieces .review-piece.marked")
    expect(better).not_to_have_count(0)
    caption = page.locator("#review-board-caption")
    expect(caption).to_have_text(" ".join(quads.t(key, number=4) for key in (
        "review.board", "review.board.cell", "review.board.piece", "review.board.better")))
    quads.check_screen(fatal.locator("button.review-turn"))

    # The winning placement reads "win in 1 → won", not "win in 1 → win in 1".
    back, forward = page.locator("#review-back"), page.locator("#review-forward")
    quads.press(forward)
    last = items.nth(4).locator("button.review-turn")
    expect(last).to_have_attribute("aria-pressed", "true")
    expect(last).to_contain_text(quads.t("review.value.changed", before=quads.t(
        "analysis.win", plies=1), after=quads.t("review.value.won")))
    expect(forward).to_be_disabled()
    # The first turn hands over only: its piece is ringed, no cell, no better choice.
    last.focus()
    page.keyboard.press("Home")
    first_turn = items.nth(0).locator("button.review-turn")
    expect(first_turn).to_have_attribute("aria-pressed", "true")
    expect(first_turn).to_be_focused()
    expect(back).to_be_disabled()
    expect(page.locator("#review-board .cell.last")).to_have_count(0)
    expect(page.locator('#review-pieces .review-piece.last[data-piece="0"]')).to_have_count(1)
    expect(caption).to_have_text(" ".join(quads.t(key, number=1) for key in (
        "review.board", "review.board.piece")))
    # A turn that kept the value (a draw kept) is said to keep it, and no better
    # cell is pointed at, though the solver's best turn may be another.
    page.keyboard.press("ArrowDown")
    second = items.nth(1).locator("button.review-turn")
    expect(second).to_have_attribute("aria-pressed", "true")
    expect(second).to_be_focused()
    expect(second).to_contain_text(quads.t("review.value.kept", value=quads.t("analysis.draw")))
    expect(page.locator("#review-board .cell.marked, #review-pieces .review-piece.marked")
           ).to_have_count(0)
    quads.press(forward)
    expect(items.nth(2).locator("button.review-turn")).to_have_attribute("aria-pressed", "true")
    quads.check_screen(forward)


def test_the_analysis_board_sets_up_a_position_and_shares_it(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    quads.press(page.locator("#setup-view a[href='#/analyse']"))
    view = page.locator("#analyse-view")
    expect(view).to_be_visible()
    expect(view).to_have_attribute("aria-busy", "false")
    # The empty board, from the opening book: every first piece draws.
    expect(page.locator("#analyse-supply .value-draw")).to_have_count(16)

    # An endgame from its address: the marks are the server's values, best per cell.
    endgame = "0F8./71.3/.A.2/59.6 C"
    quads.open(f"/#/analyse/quads/{quote(endgame)}")
    expect(page.locator("#analyse-position")).to_have_text(endgame)
    expect(view).to_have_attribute("aria-busy", "false")
    moves = quads.api(f"/api/analysis?position={quote(endgame)}&rules=quads")["moves"]
    for cell in ("D1", "C2", "A3", "C4"):
        best = next(m for m in moves if m["place"] == cell)
        mark = page.locator(f'#analyse-board button[data-key="{cell}"] .value-mark')
        expect(mark).to_have_text(quads.t(f"analysis.mark.{best['value']}", plies=best["plies"]))
    quads.check_screen(page.locator("#analyse-board"))

    # Setting up changes the address; Back goes to the position before.
    quads.press(page.locator('#analyse-board button[data-key="A1"]'))  # takes the 0 back
    expect(page.locator("#analyse-position")).to_have_text(".F8./71.3/.A.2/59.6 C")
    assert quote(".F8./71.3/.A.2/59.6 C", safe="") in page.url
    quads.press(page.locator('#analyse-supply button[data-key="0"]'))
    quads.press(page.locator('#analyse-board button[data-key="D1"]'))
    expect(page.locator("#analyse-position")).to_have_text(".F80/71.3/.A.2/59.6 C")
    page.go_back()
    expect(page.locator("#analyse-position")).to_have_text(".F8./71.3/.A.2/59.6 C")
    # A position that cannot be is refused with the server's reason.
    quads.open(f"/#/analyse/quads/{quote('0000/..../..../.... -')}")
    expect(page.locator("#analyse-status")).not_to_have_text(quads.t("analysis.thinking"))
    expect(page.locator("#analyse-board .value-mark")).to_have_count(0)


def test_an_address_with_a_broken_escape_says_what_it_cannot_open(quads: QuadsPage) -> None:
    """``%E0%A4%A`` is no %-escape: the screen it names says it cannot open it, as for
    any other address it cannot read, instead of the page failing on it silently."""
    page = quads.page
    quads.open("/#/game/%E0%A4%A")
    expect(page.locator("#game-away-title")).to_have_text(quads.t("away.failed.title"))
    quads.open("/#/puzzle/%E0%A4%A")
    expect(page.locator("#puzzle-message")).to_have_text(quads.t("error.invalid_date"))
    # A profile of a name nobody has says so (not that a game was not found).
    for name in ("%E0%A4%A", "nobody-plays-here"):
        quads.open(f"/#/players/{name}")
        expect(page.locator("#profile-status")).to_have_text(quads.t("profile.not_found"))
