"""Levels 4 and 5: players that solve the position once they can.

Both ask the exact solver for the value of the position within a node
budget (nodes rather than seconds, so that a seeded game replays exactly),
and fall back on the club player's squeeze while it cannot answer, early in
the game.  The expert's budget is small, so it becomes exact only in the
endgame, later in harder rule sets.  The perfect player's budget is large:
from a won or lost position it plays the solver's turn (the fastest win, the
longest resistance).  From a drawn one it lets the solver compare the drawing
turns by the opponent's non-losing replies once that is affordable; before
that it weighs its tightest squeezes that the solver confirms still draw, and
picks the one where the replies a squeezing opponent would choose most often
lose.  Near the empty board, where the solver is slow, the perfect player
plays from the opening book of the rule set (:mod:`quads.book`) when one is
shipped, or from the book it is given: every turn's value is known there, so
it never gives a value away from the first turn.  One cell past the book's
reach the book still holds the position's own value: from a draw the player
then only confirms its tightest squeezes one by one instead of solving the
position first.
"""

from __future__ import annotations

from typing import ClassVar

from quads.book import Book, book_for, game_name
from quads.players.club import Club, rank_turns
from quads.position import Position
from quads.rules import Rules
from quads.solver import Analysis, Solution, Value, solve
from quads.turn import Turn

__all__ = ["Expert", "Perfect"]


class _Solving(Club):
    """Solve within a node budget once few cells are empty; before that, squeeze."""

    SOLVE_FROM: ClassVar[int]
    """Try solving positions with at most this many empty cells."""
    NODES: ClassVar[int]
    """Node budget of one turn's solving."""
    REFINE_FROM: ClassVar[int] = 0
    """From this many empty cells down, ask the solver to compare drawing turns
    (fewest non-losing replies for the opponent)."""

    def choose_turn(self, position: Position, rules: Rules) -> Turn:
        """The solver's choice if it answers within the budget, else the club player's."""
        if position.empty_count <= self.SOLVE_FROM:
            refine = position.empty_count <= self.REFINE_FROM
            solution = solve(position, rules, nodes=self.NODES, threads=1, refine=refine)
            if solution.value is not Value.UNKNOWN and solution.best is not None:
                return self.among_solved(position, rules, solution)
        return super().choose_turn(position, rules)

    def among_solved(self, position: Position, rules: Rules, solution: Solution) -> Turn:
        """The turn to play once the position is solved: the solver's best."""
        assert solution.best is not None
        return solution.best


class Expert(_Solving):
    """Level 4: exact in the endgame, a squeezer before it."""

    level = 4
    name = "expert"
    SOLVE_FROM = 12
    NODES = 100


class Perfect(_Solving):
    """Level 5: never worsens a solved value; from a draw, sets the likeliest traps."""

    level = 5
    name = "perfect"
    SOLVE_FROM = 13
    REFINE_FROM = 10
    NODES = 8_000_000
    TRAPS = 6
    """How many of the tightest squeezes to weigh from a drawn position."""
    LIKELY = 4
    """How many of the opponent's likeliest replies to check for each."""
    TRAP_NODES = 500_000
    """Node budget of weighing them once the position is solved."""

    LOOK_AHEAD_FROM = 14
    """With this many empty cells the position is too big to solve, but each turn's
    result (one cell fewer) is not: the player checks its tightest squeezes one by one."""
    LOOK_AHEAD_TRAPS = 4
    LOOK_AHEAD_NODES = 6_000_000
    EDGE_NODES = 500_000
    """Node budget of weighing the squeezes of a drawn position one cell past the
    book's reach (the book holds its value, so it need not be solved)."""

    def __init__(self, seed: int | None = None, *, book: Book | None = None) -> None:
        """``book``, if given, is played from instead of the shipped book in games
        of the game it was built for (any other game keeps its shipped book)."""
        super().__init__(seed)
        self.book = book

    def book_for(self, rules: Rules) -> Book | None:
        """The book this player plays ``rules`` from, if any."""
        if self.book is not None and self.book.header.game == game_name(rules):
            return self.book
        return book_for(rules)

    def choose_turn(self, position: Position, rules: Rules) -> Turn:
        """From the book where it judges every turn; else as the other solving
        levels, and one cell before it can solve the position, it tries its tightest
        squeezes one by one with the solver."""
        book = self.book_for(rules)
        if book is not None and book.covers(position):
            analysis = book.analysis(position, rules)
            if analysis is not None:
                return self._from_book(position, rules, analysis, book)
        if book is not None and book.score(position, rules) == 0:
            turn, _, _ = self._trap(position, rules, self.EDGE_NODES, reserve=self.NODES)
            if turn is not None:
                return turn
        if position.empty_count == self.LOOK_AHEAD_FROM and position.hand is not None:
            turn, _, _ = self._trap(position, rules, self.LOOK_AHEAD_NODES,
                                    traps=self.LOOK_AHEAD_TRAPS, win_at_once=True)
            if turn is not None:
                return turn
        return super().choose_turn(position, rules)

    def _from_book(self, position: Position, rules: Rules, analysis: Analysis,
                   book: Book) -> Turn:
        """The book's best value; among the turns that keep it, from a draw, the
        tight squeeze whose likely replies lose most often (as far as the book
        judges them), else the tightest."""
        top = analysis.moves[0]
        keeping = {m.turn for m in analysis.moves if (m.value, m.plies) == (top.value, top.plies)}
        if top.value is not Value.DRAW:
            return top.turn
        squeezes = [turn for _, turn in rank_turns(position, rules) if turn in keeping]
        if not squeezes:
            return top.turn
        best, best_chance = squeezes[0], -1.0
        for turn in squeezes[: self.TRAPS]:
            received = position.play(turn)
            if not book.covers(received):
                break
            replies = book.analysis(received, rules)
            if replies is None:
                break
            losing = {m.turn for m in replies.moves if m.value is Value.LOSS}
            ranked = rank_turns(received, rules)
            likely = [t for score, t in ranked if score == ranked[0][0]][: self.LIKELY]
            chance = sum(t in losing for t in likely) / len(likely) if likely else 0.0
            if chance > best_chance:
                best, best_chance = turn, chance
        return best

    def among_solved(self, position: Position, rules: Rules, solution: Solution) -> Turn:
        """From a draw, the drawing squeeze whose likely replies lose most often."""
        assert solution.best is not None
        if solution.value is not Value.DRAW or (
            solution.complete and position.empty_count <= self.REFINE_FROM
        ):
            return solution.best
        budget = min(self.TRAP_NODES, self.NODES - solution.nodes)
        turn, _, _ = self._trap(position, rules, budget)
        return solution.best if turn is None else turn

    def _trap(self, position: Position, rules: Rules, budget: int, *, traps: int | None = None,
              win_at_once: bool = False, reserve: int = 0) -> tuple[Turn | None, float, int]:
        """Among the tightest squeezes, the one the solver confirms does not lose and
        whose likely replies lose most often: the turn (``None`` if none was confirmed),
        that share, and the budget left.  With ``win_at_once`` a squeeze that the solver
        shows to win is played at once.  With a ``reserve`` of nodes, to be spent only
        while no squeeze is confirmed, looser turns are tried too, in order, until one is."""
        choice: Turn | None = None
        best_chance = -1.0
        for index, (_, turn) in enumerate(rank_turns(position, rules)):
            allowed = budget if choice is not None else budget + reserve
            past_limit = index >= (traps or self.TRAPS)
            searching_on = choice is None and reserve > 0
            if turn.give is None or allowed <= 0 or (past_limit and not searching_on):
                break
            received = position.play(turn)
            reply = solve(received, rules, nodes=allowed, threads=1, distance=False)
            budget -= reply.nodes
            if win_at_once and reply.value is Value.LOSS:
                return turn, 1.0, budget
            if reply.value is not Value.DRAW:
                continue
            chance, budget = self._chance_of_error(received, rules, budget)
            if chance > best_chance:
                choice, best_chance = turn, chance
        return choice, best_chance, budget

    def _chance_of_error(self, received: Position, rules: Rules, budget: int) -> tuple[
        float, int
    ]:
        """The share of a squeezing opponent's favourite replies in ``received`` that lose,
        and the node budget left."""
        ranked = rank_turns(received, rules)
        likely = [turn for score, turn in ranked if score == ranked[0][0]][: self.LIKELY]
        errors = checked = 0
        for turn in likely:
            if turn.give is None or budget <= 0:
                break
            ours = solve(received.play(turn), rules, nodes=budget, threads=1, distance=False)
            budget -= ours.nodes
            if ours.value is Value.UNKNOWN:
                break
            checked += 1
            errors += ours.value is Value.WIN
        return (errors / checked if checked else 0.0), budget
