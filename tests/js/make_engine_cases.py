"""Write the cases that prove the page's engine (``js/engine/``) equal to the Python library.

Run ``python tests/js/make_engine_cases.py`` (``.ci/run`` does, before
``node --test tests/js/``); it writes ``tests/js/cases/engine-*.json`` and the
opening books as the server serves them (``tests/js/cases/books/NAME.bin``), which
``tests/js/engine-*.test.mjs`` check the modules of
``src/quads/web/static/js/engine/`` against:

- ``engine-books``: the books' analysis, solution and held scores of random
  positions at and above (and one cell below) each book's reach;
- ``engine-solve``: Python's ``solve`` and ``analyse`` with one thread (values,
  best turns, drawing turns compared, node counts, budgets running out);
- ``engine-analysis``: ``GET /api/analysis``'s view (``analyse_with_book``);
- ``engine-hints``: ``hint`` and its view on random games, calls and claims;
- ``engine-review``: ``review`` and its view on random finished games;
- ``engine-mistakes``: the exercises of random finished games (``quads.mistakes``);
- ``engine-puzzles``: the verdicts of ``POST /api/puzzles/{date}/check`` on the
  puzzles of several dates, for right and wrong turns;
- ``engine-levels``: level 5's turns along games from random openings against a
  perfect opponent, with their values, and whether Python's level 5 drew at random.

Everything is seeded, so the same library writes the same cases.  Importing this
module writes nothing::

    python tests/js/make_engine_cases.py [--only SECTION ...]
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "cases"

SEARCH_SECONDS = 60.0
"""The time budget of searches whose result must be complete (they take far less)."""


def write(name: str, data: Any) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_text(json.dumps(data) + "\n", encoding="utf-8")


def turn_text(turn: Any) -> str | None:
    return None if turn is None else str(turn.text)


def random_position(rules: Any, rng: random.Random, empties: int, *, hand: bool = True) -> Any:
    """A position with ``empties`` empty cells after random play that does not end the
    game (with the side to move holding a piece, or about to hand one over): no
    winning placement, a safe piece handed over where there is one."""
    from quads.position import EMPTY

    while True:
        position = EMPTY.give(rng.randrange(16))
        while position.empty_count > empties or (position.empty_count == empties and not hand):
            assert position.hand is not None
            winning = position.winning_cells(position.hand, rules)
            cells = [c for c in range(16)
                     if not (position.occupied | winning) >> c & 1]
            if not cells:
                break
            placed = position.place(rng.choice(cells))
            if not hand and placed.empty_count == empties:
                return placed
            gives = placed.safe_pieces(rules) or placed.supply  # a safe piece where one is left
            if not gives:
                break
            position = placed.give(rng.choice([p for p in range(16) if gives >> p & 1]))
        else:
            return position


# -- books -------------------------------------------------------------------------


def page_book(rules: Any) -> Any:
    """The book the page judges ``rules`` from: the shipped one, cut as it is served
    (``quads.web.books.PAGE_MIN_EMPTY``); the library may reach deeper."""
    from quads.book import book_for
    from quads.web.books import PAGE_MIN_EMPTY

    book = book_for(rules)
    return None if book is None else book.reaching(PAGE_MIN_EMPTY)



def analysis_json(analysis: Any) -> dict[str, Any]:
    return {
        "value": analysis.value.value, "plies": analysis.plies, "complete": analysis.complete,
        "moves": [[turn_text(m.turn), m.value.value, m.plies] for m in analysis.moves],
    }


def solution_json(solution: Any) -> dict[str, Any]:
    return {"value": solution.value.value, "plies": solution.plies,
            "best": turn_text(solution.best), "complete": solution.complete,
            "nodes": solution.nodes}


def books_cases(rng: random.Random) -> dict[str, Any]:
    """The books as served, and what they say of random positions near the empty board."""
    from quads.position import EMPTY
    from quads.rules import Rules
    from quads.web.books import NAMES, book_bytes

    (OUT / "books").mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        data = book_bytes(name)
        assert data is not None, name
        (OUT / "books" / f"{name}.bin").write_bytes(data)
    cases = []
    for name in ("quads", "classic", "advanced"):
        rules = Rules.parse(name)
        book = page_book(rules)
        assert book is not None
        low = book.header.min_empty
        positions = [EMPTY]
        for index in range(110):
            empties = low + index % (17 - low)
            hand = index % 5 != 4 or empties == 16
            if empties == 16:
                positions.append(EMPTY.give(rng.randrange(16)))
            else:
                positions.append(random_position(rules, rng, empties, hand=hand))
        for index in range(30):
            positions.append(random_position(rules, rng, low - 1, hand=index % 4 != 3))
        for position in positions:
            analysis = book.analysis(position, rules)
            solution = book.solution(position, rules)
            cases.append({
                "rules": rules.name, "position": position.to_string(),
                "covers": book.covers(position),
                "score": book.score(position, rules),
                "analysis": None if analysis is None else analysis_json(analysis),
                "solution": None if solution is None else solution_json(solution),
            })
    return {"books": dict(NAMES), "cases": cases}


# -- the solver's stages -----------------------------------------------------------

SOLVE_RULES = (
    "quads", "classic", "advanced", "lines:color,height:auto", "lines+squares:shape,top:declare",
    "lines:height,color,shape", "lines+squares:color",
)


def solve_cases(rng: random.Random) -> dict[str, Any]:
    """``solve`` and ``analyse`` with one thread: complete, and cut short by node budgets."""
    from quads.rules import Rules
    from quads.solver import analyse, solve

    cases = []
    for name in SOLVE_RULES:
        rules = Rules.parse(name)
        top = 10 if len(rules.counted_traits) == 4 else 8
        for index in range(16):
            if index < 12:
                empties = 2 + index % (top - 1)
                runs: list[dict[str, Any]] = [{}, {"distance": False}, {"refine": True}]
                analyses: list[dict[str, Any]] = [{}]
            else:  # budgets run out (they are checked every few thousand nodes)
                empties = top + 2 + index % 2
                runs = [{"nodes": rng.randrange(5_000, 60_000)},
                        {"nodes": rng.randrange(5_000, 60_000), "distance": False}]
                analyses = [{"nodes": rng.randrange(5_000, 60_000)}]
            position = random_position(rules, rng, empties, hand=index % 6 != 5)
            cases.append({
                "rules": rules.name, "position": position.to_string(),
                "solve": [[options, solution_json(solve(position, rules, threads=1, **options))]
                          for options in runs],
                "analyse": [[options, {**analysis_json(a), "nodes": a.nodes}]
                            for options in analyses
                            for a in [analyse(position, rules, threads=1, **options)]],
            })
    return {"cases": cases}


# -- the analysis board ------------------------------------------------------------


def analysis_cases(rng: random.Random) -> dict[str, Any]:
    """``GET /api/analysis``'s view of positions the book judges and positions searched
    to the end (a rule set without a book included)."""
    from quads.book import analyse_with_book
    from quads.cells import cell_name
    from quads.pieces import piece_name
    from quads.rules import Rules
    from quads.web.schemas.analysis import AnalysisView, TurnValueView

    cases = []
    plan = [("quads", (16, 15, 14), 12), ("classic", (16, 14, 13), 12),
            ("advanced", (15, 14), 8), ("quads", (9, 8, 7, 5, 3, 1), 18),
            ("classic", (10, 8, 6, 4, 2), 15), ("advanced", (9, 7, 5, 3), 12),
            ("lines:color,height:declare", (8, 6, 4, 2), 10),
            ("lines+squares:top", (7, 5, 3), 8)]
    for name, empties_list, count in plan:
        rules = Rules.parse(name)
        for index in range(count):
            empties = empties_list[index % len(empties_list)]
            position = random_position(rules, rng, empties, hand=index % 4 != 3 or empties == 16)
            result, source = analyse_with_book(position, rules, seconds=SEARCH_SECONDS,
                                               threads=1)
            assert result.complete
            view = AnalysisView(
                position=position.to_string(), rules=rules.name, value=result.value.value,
                plies=result.plies, source=source, complete=result.complete,  # type: ignore[arg-type]
                moves=[TurnValueView(
                    place=None if m.turn.place is None else cell_name(m.turn.place),
                    give=None if m.turn.give is None else piece_name(m.turn.give),
                    value=m.value.value, plies=m.plies) for m in result.moves])
            cases.append({"rules": name, "position": position.to_string(),
                          "view": view.model_dump(mode="json")})
    return {"cases": cases}


# -- games: hints and reviews ------------------------------------------------------


def random_game(rules: Any, rng: random.Random, placements: int, *, start: Any = None,
                call: float = 0.5, step: str = "place") -> Any:
    """A game of random legal actions until ``placements`` pieces are placed and a
    piece must be placed (``step`` "place") or handed over ("give"), or it ends; a win
    that may be declared is declared with chance ``call`` (else missed: under
    ``declare`` the opponent may then claim it, and does with chance ``call``)."""
    from quads.game import Claim, Declare, Game, Place

    game = Game(rules) if start is None else Game(rules, start)
    placed = 0
    while not game.is_over() and (placed < placements or game.step.value != step):
        legal = game.legal_actions()
        calls = [a for a in legal if isinstance(a, (Declare, Claim))]
        if calls and rng.random() < call:
            action = calls[0]
        else:
            plain = [a for a in legal if not isinstance(a, (Declare, Claim))] or legal
            action = rng.choice(plain)
        game.apply(action)
        placed += isinstance(action, Place)
    return game


def game_json(game: Any) -> dict[str, Any]:
    return {"rules": game.rules.name, "start": game.states[0].position.to_string(),
            "actions": [str(a) for a in game.actions]}


HINT_RULES = ("quads", "classic", "advanced", "lines:color,height:declare",
              "lines+squares:shape,top")


HINT_KEYS = ("hint.declare", "hint.claim", "hint.win_now", "hint.forced_win", "hint.losing",
             "hint.draw", "hint.only_safe")


def hints_cases(rng: random.Random) -> dict[str, Any]:
    """Hints on random games: from the book, from search, and at the moments to call
    or to claim a win; every reason at least twice."""
    from collections import Counter

    from quads.game import Give
    from quads.players.hints import hint
    from quads.rules import Rules
    from quads.web.views import hint_view

    cases = []
    seen: Counter[str] = Counter()

    def one(rules: Any, reach: int) -> None:
        game = random_game(rules, rng, rng.randrange(0, 16), call=0.3,
                           step="give" if rng.random() < 0.3 else "place")
        gives = [a for a in game.legal_actions() if isinstance(a, Give)]
        if game.state.declarable and gives and rng.random() < 0.5:
            game.apply(rng.choice(gives))  # the call missed: the opponent may claim
        if game.is_over():
            return
        empties = game.position.empty_count
        moment = bool(game.state.declarable or game.state.claimable)
        if not (moment or empties >= reach or empties <= 10):
            return
        view = hint_view(hint(game, seconds=SEARCH_SECONDS), "en").model_dump(mode="json")
        del view["reason"]
        seen[view["reason_key"]] += 1
        cases.append({"game": game_json(game), "view": view})

    for index in range(1000):
        if index >= 24 * len(HINT_RULES) and all(seen[key] >= 3 for key in HINT_KEYS):
            break
        rules = Rules.parse(HINT_RULES[index % len(HINT_RULES)])
        book = page_book(rules)
        one(rules, 17 if book is None else book.header.min_empty)
    return {"cases": cases}


REVIEW_GAMES = (("quads", 2, 0), ("classic", 3, 0), ("advanced", 1, 0), ("quads", 2, 11),
                ("advanced", 2, 10), ("lines:color,height:declare", 3, 9),
                ("lines+squares:top", 3, 10))
"""Rule sets, games and the empty cells of their start (0: the empty board)."""


def review_cases(rng: random.Random) -> dict[str, Any]:
    """Reviews of random finished games: won, drawn, resigned, with calls missed."""
    from quads.game import Resign
    from quads.outcome import Player
    from quads.review import review
    from quads.rules import Rules
    from quads.web.views import review_view

    cases = []
    for name, count, empties in REVIEW_GAMES:
        rules = Rules.parse(name)
        for index in range(count):
            start = None if not empties else random_position(rules, rng, empties)
            if index == 1:  # resigned halfway
                game = random_game(rules, rng, rng.randrange(4, 10), start=start)
                if not game.is_over():
                    game.apply(Resign(rng.choice([Player.FIRST, Player.SECOND])))
            else:
                game = random_game(rules, rng, 16, start=start, call=0.7)
            assert game.is_over()
            view = review_view(review(game, seconds=SEARCH_SECONDS)).model_dump(mode="json")
            cases.append({"game": game_json(game), "view": view})
    return {"cases": cases}


MISTAKE_GAMES = (("quads", 4, 0), ("classic", 3, 0), ("advanced", 2, 0), ("quads", 2, 10),
                 ("lines:color,height:declare", 2, 9), ("lines+squares:top", 2, 10))
"""Rule sets, games and the empty cells of their start (0: the empty board)."""


def mistakes_cases(rng: random.Random) -> dict[str, Any]:
    """The exercises of random finished games (played at random: many mistakes), for
    one side or both, as quads.mistakes finds them; both kinds among them."""
    from quads.mistakes import exercises
    from quads.outcome import Player
    from quads.rules import Rules

    cases = []
    for name, count, empties in MISTAKE_GAMES:
        rules = Rules.parse(name)
        for index in range(count):
            start = None if not empties else random_position(rules, rng, empties)
            game = random_game(rules, rng, 16, start=start, call=0.7)
            side = (None, Player.FIRST, Player.SECOND)[index % 3]
            found = exercises(game, side, seconds=SEARCH_SECONDS)
            named = None if side is None else side.name.lower()
            cases.append({"game": game_json(game), "side": named,
                          "exercises": [{
                              "ply": e.ply, "player": e.player.name.lower(), "rules": e.rules.name,
                              "position": e.position.to_string(), "kind": e.kind,
                              "keep": e.keep, "played": e.played.text,
                              "answers": [t.text for t in e.right]} for e in found]})
    return {"cases": cases}


# -- the daily puzzle ----------------------------------------------------------------

PUZZLE_DATES = tuple(datetime.date(2025, 6, 2) + datetime.timedelta(days=d)
                     for d in (0, 1, 2, 4, 5, 6, 8, 11, 14))


def puzzle_cases(rng: random.Random) -> dict[str, Any]:
    """Verdicts on the puzzles of several dates: the solution's turns, placements alone,
    wrong turns, and refused requests."""
    from quads.bits import iter_bits
    from quads.errors import QuadsError
    from quads.puzzles import position_after, puzzle_for
    from quads.turn import Turn
    from quads.web.errors import library_code
    from quads.web.puzzle_views import check, puzzle_view

    def attempt(puzzle: Any, played: list[str], turn: str) -> dict[str, Any]:
        try:
            return {"played": played, "turn": turn,
                    "view": check(puzzle, played, turn).model_dump(mode="json")}
        except QuadsError as exc:
            return {"played": played, "turn": turn,
                    "error": {"class": type(exc).__name__, "code": library_code(exc),
                              "message": str(exc), "reason": exc.reason,
                              "params": dict(exc.params)}}

    cases = []
    for date in PUZZLE_DATES:
        puzzle = puzzle_for(date)
        checks = []
        line = [turn.text for turn in puzzle.solution]
        for step in range(0, len(line), 2):
            played = line[:step]
            checks.append(attempt(puzzle, played, line[step]))
            place = Turn.parse(line[step]).place
            if place is not None:
                checks.append(attempt(puzzle, played, Turn(place, None).text))
            # a wrong (or another right) turn where the player is to move
            position = position_after(puzzle, [Turn.parse(t) for t in played])
            turns = list(position.legal_turns(puzzle.rules))
            for turn in rng.sample(turns, min(3, len(turns))):
                checks.append(attempt(puzzle, played, turn.text))
        if len(line) > 1:
            checks.append(attempt(puzzle, line[:1], line[1]))  # the defender's turn
        taken = next(c for c in range(16) if puzzle.position.occupied >> c & 1)
        checks.append(attempt(puzzle, [], Turn(taken, None).text))
        checks.append(attempt(puzzle, [], "E1"))
        checks.append(attempt(puzzle, line, line[0]))  # after the end
        # turns refused before any search: a hand-over before the placement, a piece
        # not in the supply, a placement alone among the turns played, unreadable turns
        position = puzzle.position
        assert position.hand is not None
        empty = next(c for c in range(16) if not position.occupied >> c & 1)
        on_board = position.piece_at(taken)
        assert on_board is not None
        checks.append(attempt(puzzle, [], Turn(None, next(iter_bits(position.supply))).text))
        checks.append(attempt(puzzle, [], Turn(empty, on_board).text))
        checks.append(attempt(puzzle, [Turn(empty, None).text, line[0]], line[0]))
        checks.append(attempt(puzzle, [*line, line[0]], line[0]))  # a turn after the end
        checks.extend(attempt(puzzle, [], text) for text in ("A1G", "A1F0", "", "G"))
        cases.append({"date": date.isoformat(),
                      "puzzle": puzzle_view(puzzle, date).model_dump(mode="json"),
                      "checks": checks})
    return {"cases": cases}


# -- level 5 against a perfect opponent -----------------------------------------------

LEVEL_LINES = (("quads", 1, 16), ("quads", 3, 11), ("classic", 1, 16), ("classic", 3, 10),
               ("advanced", 1, 16), ("advanced", 2, 9), ("lines:color,height:declare", 2, 9),
               ("lines+squares:shape,top", 2, 10))
"""Rule sets, games and the empty cells where the random opening ends: near the empty
board a drawn position (the book's reach, and one cell past it), later one that is won
(or lost): level 5 then plays for the fastest win and the longest resistance."""


def levels_cases(rng: random.Random) -> dict[str, Any]:
    """Games from random openings played on by Python's level 5 on both sides: every
    position, Python's turn, whether it drew at random, and the values before and after."""
    from quads.book import solve_with_book
    from quads.players import Perfect
    from quads.rules import Rules
    from quads.solver import Value

    def value(position: Any, rules: Any) -> list[Any]:
        solution, _ = solve_with_book(position, rules, seconds=SEARCH_SECONDS, threads=1)
        return [solution.value.value, solution.plies]

    cases = []
    for name, count, opening in LEVEL_LINES:
        rules = Rules.parse(name)
        for _ in range(count):
            if opening == 16:
                position = random_position(rules, rng, 16 - rng.randrange(0, 3))
            else:
                position = random_position(rules, rng, opening)
                while (position.winning_cells(position.hand, rules)
                       or value(position, rules)[0] == Value.DRAW.value):
                    position = random_position(rules, rng, opening)
            turns = []
            while position.hand is not None and position.empty_count:
                player = Perfect(rng.randrange(1 << 30), book=page_book(rules))
                state = player.random.getstate()
                turn = player.choose_turn(position, rules)
                drew = player.random.getstate() != state
                before = value(position, rules)
                after = None
                if turn.give is not None:
                    won = position.winning_cells(position.hand, rules) >> turn.place & 1
                    after = None if won else value(position.play(turn), rules)
                turns.append({"position": position.to_string(), "turn": turn.text,
                              "random": drew, "before": before, "after": after})
                if turn.give is None or after is None:
                    break
                position = position.play(turn)
            assert all(t["before"][0] != Value.UNKNOWN.value for t in turns)
            cases.append({"rules": rules.name, "turns": turns})
    return {"cases": cases}


SECTIONS: dict[str, Callable[[random.Random], dict[str, Any]]] = {
    "books": books_cases,
    "solve": solve_cases,
    "analysis": analysis_cases,
    "hints": hints_cases,
    "review": review_cases,
    "mistakes": mistakes_cases,
    "puzzles": puzzle_cases,
    "levels": levels_cases,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=sorted(SECTIONS), help="sections to write")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args(argv)
    took = {}
    for name, make in SECTIONS.items():
        if args.only and name not in args.only:
            continue
        start = time.perf_counter()
        data = make(random.Random(f"{args.seed}-{name}"))
        write(f"engine-{name}.json", data)
        took[name] = f"{len(data['cases'])} in {time.perf_counter() - start:.1f} s"
    print(f"wrote {OUT}: engine cases {json.dumps(took)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
