"""A whole game under any rule set, step by step, with undo and redo.

A game is a sequence of *actions*: :class:`Give` a piece, :class:`Place` the
piece in hand, and under ``declare`` calling :class:`Declare` a shape just
completed, :class:`Claim` a shape the opponent missed, or :class:`Decline` to
declare after the sixteenth piece.  What a call with nothing to call does is the
rule set's :class:`~quads.rules.FalseCalls`: refused (free), the caller's next
call forfeited, or the game lost.  Either player may :class:`Resign` at any
moment of a game that goes on; a game with a clock may also end by a
:class:`Timeout`, an :class:`Abandon`, an :class:`Agree` (a draw agreed) or an
:class:`Abort` (the *endings*,
which are no move on the board).  :class:`GameState` applies one action and
returns the next state without changing itself; :class:`Game` keeps the list
of states, so undo and redo are exact.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from quads.cells import Cell, cell_name
from quads.errors import IllegalActionError
from quads.outcome import Outcome, Player, Termination
from quads.pieces import Piece, Trait, piece_name
from quads.position import EMPTY, Position
from quads.rules import QUADS, FalseCalls, Rules
from quads.shapes import Shape
from quads.turn import Turn

__all__ = [
    "ENDINGS",
    "Abandon",
    "Abort",
    "Action",
    "Agree",
    "Claim",
    "Declare",
    "Decline",
    "Ending",
    "Forfeit",
    "Game",
    "GameState",
    "Give",
    "Place",
    "Resign",
    "Step",
    "Timeout",
]


@dataclass(frozen=True, slots=True)
class Give:
    """Hand ``piece`` to the opponent.

    :raises InvalidPieceError: if ``piece`` is not 0-15.
    """

    piece: Piece

    def __post_init__(self) -> None:
        piece_name(self.piece)  # validates: raises InvalidPieceError unless 0-15

    def __str__(self) -> str:
        return f"give {piece_name(self.piece)}"


@dataclass(frozen=True, slots=True)
class Place:
    """Place the piece in hand on ``cell``.

    :raises InvalidCellError: if ``cell`` is not 0-15.
    """

    cell: Cell

    def __post_init__(self) -> None:
        cell_name(self.cell)  # validates: raises InvalidCellError unless 0-15

    def __str__(self) -> str:
        return f"place {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare ("Quarto!") the winning shape that one's own placement just completed."""

    def __str__(self) -> str:
        return "declare"


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim, before placing, a winning shape whose declaration the opponent missed."""

    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True, slots=True)
class Decline:
    """End the game without declaring after the sixteenth piece (a draw)."""

    def __str__(self) -> str:
        return "decline"


def _check_player(player: object, what: str) -> None:
    if not isinstance(player, Player):
        raise TypeError(f"{what} names a Player, not {player!r}")


@dataclass(frozen=True, slots=True)
class Resign:
    """``player`` gives up, whoever is to move: the other player wins.

    :raises TypeError: if ``player`` is not a :class:`Player`.
    """

    player: Player

    def __post_init__(self) -> None:
        _check_player(self.player, "a resignation")

    def __str__(self) -> str:
        return f"resign {self.player.identifier}"


@dataclass(frozen=True, slots=True)
class Timeout:
    """``player``'s clock ran out: the other player wins (:attr:`Termination.TIME`).

    :raises TypeError: if ``player`` is not a :class:`Player`.
    """

    player: Player

    def __post_init__(self) -> None:
        _check_player(self.player, "a timeout")

    def __str__(self) -> str:
        return f"timeout {self.player.identifier}"


@dataclass(frozen=True, slots=True)
class Abandon:
    """``player`` left the game during their turn and the other player claimed the win,
    or with ``draw`` a draw (:attr:`Termination.ABANDONMENT`).

    :raises TypeError: if ``player`` is not a :class:`Player`.
    """

    player: Player
    draw: bool = False

    def __post_init__(self) -> None:
        _check_player(self.player, "an abandonment")

    def __str__(self) -> str:
        return f"abandon {self.player.identifier}" + (" draw" if self.draw else "")


@dataclass(frozen=True, slots=True)
class Agree:
    """The players agreed to a draw: one offered it and the other accepted
    (:attr:`Termination.AGREEMENT`)."""

    def __str__(self) -> str:
        return "agree"


@dataclass(frozen=True, slots=True)
class Abort:
    """A side did not make its first move in time: the game ends with no result
    (:attr:`Termination.ABORTED`)."""

    def __str__(self) -> str:
        return "abort"


Ending = Resign | Timeout | Abandon | Agree | Abort
"""An action that ends a game from outside the board: it has no record token (a
record says it in its ``Termination`` header) and is no turn."""

ENDINGS = (Resign, Timeout, Abandon, Agree, Abort)
"""The classes of :data:`Ending`, for ``isinstance``."""

Action = (Give | Place | Declare | Claim | Decline | Resign | Timeout | Abandon | Agree
          | Abort)


class Step(enum.Enum):
    """What the player to move must do now."""

    GIVE = "give"
    """Hand over a piece (and, under ``declare``, the moment to declare)."""
    PLACE = "place"
    """Place the piece in hand (and, under ``declare``, the moment to claim)."""
    OVER = "over"
    """The game has ended."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Under forfeited false calls, ``player`` made one and may not call until their
    next action of the step ``until`` (:attr:`Step.GIVE` after a false claim: this
    turn's declaration is lost; :attr:`Step.PLACE` after a false declaration: their
    next claim is)."""

    player: Player
    until: Step


def _shared(position: Position, shapes: tuple[Shape, ...], rules: Rules) -> tuple[
    tuple[Trait, bool], ...
]:
    values: set[tuple[int, bool]] = set()
    for shape in shapes:
        values.update(position.shared_values(shape, rules))
    return tuple((Trait(b), v) for b, v in sorted(values, key=lambda bv: (-bv[0], not bv[1])))


def _ending(action: Ending) -> Outcome:
    """How ``action`` ends a game."""
    if isinstance(action, Resign):
        return Outcome(Termination.RESIGNATION, action.player.other)
    if isinstance(action, Timeout):
        return Outcome(Termination.TIME, action.player.other)
    if isinstance(action, Abandon):
        return Outcome(Termination.ABANDONMENT, None if action.draw else action.player.other)
    if isinstance(action, Agree):
        return Outcome(Termination.AGREEMENT, None)
    return Outcome(Termination.ABORTED, None)


@dataclass(frozen=True, slots=True)
class GameState:
    """One moment of a game.  Immutable: :meth:`apply` returns a new state."""

    position: Position
    to_move: Player
    declarable: tuple[Shape, ...] = ()
    """Winning shapes that the player to move has just completed and may declare."""
    claimable: tuple[Shape, ...] = ()
    """Winning shapes the opponent completed but did not declare: the player to move may claim."""
    outcome: Outcome | None = None
    moment: bool = False
    """Under ``declare`` calling, whether the player to move stands where a call is
    made: right after their own placement (a declaration), or before placing a piece
    handed over right after the opponent's placement (a claim); whether or not the
    call would win."""
    forfeit: Forfeit | None = None
    """Who may not call now or soon, after a false call (forfeited false calls)."""

    @property
    def step(self) -> Step:
        """What the player to move must do now."""
        if self.outcome is not None:
            return Step.OVER
        return Step.GIVE if self.position.hand is None else Step.PLACE

    def legal_actions(self, rules: Rules | None = None) -> list[Action]:
        """Every action allowed now, in a fixed order.

        A resignation, open to either player while the game goes on, is not
        listed: it is no move of the game.  Given ``rules`` whose false calls cost
        something, a call at a calling moment (:attr:`moment`) is listed whether or
        not it would win, for a false call is then a move of the game; otherwise
        only a call that wins.
        """
        step = self.step
        costly = rules is not None and not rules.free_calls
        actions: list[Action] = []
        if step is Step.GIVE:
            if not self.silenced and (self.declarable or (costly and self.moment)):
                actions.append(Declare())
            if self.declarable and not self.position.supply:
                actions.append(Decline())
            actions.extend(Give(p) for p in self.position.legal_handovers())
        elif step is Step.PLACE:
            if not self.silenced and (self.claimable or (costly and self.moment)):
                actions.append(Claim())
            actions.extend(Place(c) for c in self.position.legal_placements())
        return actions

    @property
    def silenced(self) -> bool:
        """Whether the player to move forfeited their calls for now (a false call
        under forfeited false calls)."""
        return self.forfeit is not None and self.forfeit.player is self.to_move

    def apply(self, action: Action, rules: Rules) -> GameState:
        """Return the state after ``action``.

        :raises IllegalActionError: if the action is not allowed now; the
            message says why.
        """
        step = self.step
        if step is Step.OVER:
            raise IllegalActionError(f"cannot {action}: the game is over", "game_over")
        if isinstance(action, Give):
            return self._give(action.piece, rules)
        if isinstance(action, Place):
            return self._place(action.cell, rules)
        if isinstance(action, Declare):
            return self._declare(rules)
        if isinstance(action, Claim):
            return self._claim(rules)
        if isinstance(action, Decline):
            return self._decline()
        if isinstance(action, ENDINGS):
            return GameState(self.position, self.to_move, (), (), _ending(action))
        raise IllegalActionError(f"unknown action {action!r}", "unknown_action")

    def _give(self, piece: Piece, rules: Rules) -> GameState:
        if self.step is not Step.GIVE:
            assert self.position.hand is not None
            raise IllegalActionError(
                f"cannot give {piece_name(piece)}: piece {piece_name(self.position.hand)} "
                "must be placed first", "place_first", piece=piece_name(piece),
                hand=piece_name(self.position.hand)
            )
        if not self.position.supply >> piece & 1:
            raise IllegalActionError(
                f"cannot give {piece_name(piece)}: it is not in the supply",
                "not_in_supply", piece=piece_name(piece)
            )
        # Handing over without declaring misses the declaration; the opponent may claim.
        return GameState(self.position.give(piece), self.to_move.other, (), self.declarable,
                         moment=rules.declare and self.moment,
                         forfeit=self._forfeit_after(Step.GIVE))

    def _place(self, cell: Cell, rules: Rules) -> GameState:
        if self.step is not Step.PLACE:
            raise IllegalActionError(
                f"cannot place on {cell_name(cell)}: a piece must be handed over first",
                "give_first", cell=cell_name(cell)
            )
        if self.position.occupied >> cell & 1:
            raise IllegalActionError(f"cannot place on {cell_name(cell)}: the cell is taken",
                                     "cell_taken", cell=cell_name(cell))
        after = self.position.place(cell)
        completed = after.winning_shapes_through(cell, rules)
        if completed and not rules.declare:
            outcome = Outcome(Termination.WIN, self.to_move, completed,
                              _shared(after, completed, rules))
            return GameState(after, self.to_move, (), (), outcome)
        if not completed and not after.supply:
            return GameState(after, self.to_move, (), (), Outcome(Termination.FULL_BOARD, None))
        # The claim window closes with this placement; the shapes missed die for good.
        return GameState(after, self.to_move, completed, (), moment=rules.declare,
                         forfeit=self._forfeit_after(Step.PLACE))

    def _forfeit_after(self, step: Step) -> Forfeit | None:
        """The forfeit that outlasts an action of ``step`` by the player to move."""
        forfeit = self.forfeit
        if forfeit is not None and forfeit.player is self.to_move and forfeit.until is step:
            return None
        return forfeit

    def _declare(self, rules: Rules) -> GameState:
        if self.step is Step.PLACE:
            raise IllegalActionError(
                "cannot declare: a placement must come first, and only its own shapes can "
                "be declared", "nothing_to_declare")
        self._check_not_silenced("declare")
        if not self.declarable:
            if rules.free_calls or not self.moment:
                raise IllegalActionError(
                    "cannot declare: the last placement completed no winning shape"
                    if self.moment or rules.free_calls else
                    "cannot declare: no placement was just made", "nothing_to_declare")
            return self._false_call(rules, Step.PLACE)
        outcome = Outcome(Termination.DECLARATION, self.to_move, self.declarable,
                          _shared(self.position, self.declarable, rules))
        return GameState(self.position, self.to_move, (), (), outcome)

    def _claim(self, rules: Rules) -> GameState:
        if self.step is Step.GIVE:
            raise IllegalActionError(
                "cannot claim: a claim is made before placing the piece one was handed",
                "nothing_to_claim")
        self._check_not_silenced("claim")
        if not self.claimable:
            if rules.free_calls or not self.moment:
                raise IllegalActionError(
                    "cannot claim: the opponent missed no declaration on the last placement"
                    if self.moment or rules.free_calls else
                    "cannot claim: the opponent made no placement just before",
                    "nothing_to_claim")
            return self._false_call(rules, Step.GIVE)
        outcome = Outcome(Termination.CLAIM, self.to_move, self.claimable,
                          _shared(self.position, self.claimable, rules))
        return GameState(self.position, self.to_move, (), (), outcome)

    def _check_not_silenced(self, call: str) -> None:
        if self.silenced:
            raise IllegalActionError(
                f"cannot {call}: a false call forfeited this chance to call",
                "calls_forfeited")

    def _false_call(self, rules: Rules, until: Step) -> GameState:
        """A call with nothing to call, under false calls that cost something: the
        game lost, or the caller's next chance to call (until their next action of
        the step ``until``)."""
        if rules.false_calls is FalseCalls.LOSING:
            return GameState(self.position, self.to_move, (), (),
                             Outcome(Termination.FALSE_CALL, self.to_move.other))
        return GameState(self.position, self.to_move, (), (), moment=self.moment,
                         forfeit=Forfeit(self.to_move, until))

    def _decline(self) -> GameState:
        if not (self.step is Step.GIVE and self.declarable and not self.position.supply):
            raise IllegalActionError(
                "cannot decline: that is only possible after the sixteenth piece "
                "completes a shape", "nothing_to_decline"
            )
        return GameState(self.position, self.to_move, (), (), Outcome(Termination.FULL_BOARD, None))


class Game:
    """A game in progress: the rule set, the actions so far, undo and redo.

    >>> game = Game()
    >>> game.give(7)
    >>> game.position.to_string()
    '..../..../..../.... 7'
    """

    def __init__(self, rules: Rules = QUADS, start: Position = EMPTY,
                 headers: dict[str, str] | None = None) -> None:
        """Start a game under ``rules`` from ``start`` (the empty board by default).

        The player to move at ``start`` is :attr:`Player.FIRST`.  A full board
        leaves nothing to play: the game is over at once, as a draw.

        :raises InvalidPositionError: if ``start`` cannot arise under ``rules``.
        """
        start.check(rules)
        self.rules = rules
        self.start = start
        self.headers: dict[str, str] = dict(headers or {})
        outcome = None if start.empty_count else Outcome(Termination.FULL_BOARD, None)
        self._states: list[GameState] = [GameState(start, Player.FIRST, outcome=outcome)]
        self._actions: list[Action] = []
        self._redo: list[Action] = []

    # -- state ----------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def states(self) -> tuple[GameState, ...]:
        """Every state from the start to now (one more than :attr:`actions`)."""
        return tuple(self._states)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions played so far, in order."""
        return tuple(self._actions)

    @property
    def position(self) -> Position:
        """The current position, as the player to move sees it."""
        return self.state.position

    @property
    def to_move(self) -> Player | None:
        """The player to act now, or ``None`` once the game is over."""
        return None if self.state.outcome is not None else self.state.to_move

    @property
    def step(self) -> Step:
        """What the player to move must do now."""
        return self.state.step

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self.state.outcome

    @property
    def resigned(self) -> Player | None:
        """The player who resigned, if the game ended so."""
        outcome = self.state.outcome
        if outcome is None or outcome.termination is not Termination.RESIGNATION:
            return None
        assert outcome.winner is not None
        return outcome.winner.other

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.outcome is not None

    def can_declare(self) -> bool:
        """Whether the player to move would win by declaring now (a page must not tell
        a player this before they call: see :meth:`is_declare_moment`)."""
        state = self.state
        return self.step is Step.GIVE and bool(state.declarable) and not state.silenced

    def can_claim(self) -> bool:
        """Whether the player to move would win by claiming now (see
        :meth:`is_claim_moment`)."""
        state = self.state
        return self.step is Step.PLACE and bool(state.claimable) and not state.silenced

    def is_declare_moment(self) -> bool:
        """Whether the player to move stands where a declaration could be made: under
        ``declare`` calling, right after their own placement, before handing over
        (and they did not forfeit their calls by a false one).

        True whether or not the placement completed a shape: noticing a win is part of
        the game, so a page offers the call here and the rules judge it
        (:meth:`can_declare` says whether it would win).
        """
        state = self.state
        return (self.rules.declare and self.step is Step.GIVE and state.moment
                and not state.silenced)

    def is_claim_moment(self) -> bool:
        """Whether the player to move stands where a claim could be made: under
        ``declare`` calling, before placing the piece the opponent handed over right
        after a placement of theirs (and they did not forfeit their calls).

        True whether or not the opponent missed a declaration (:meth:`can_claim` says
        whether a claim would win), as for :meth:`is_declare_moment`.
        """
        state = self.state
        return (self.rules.declare and self.step is Step.PLACE and state.moment
                and not state.silenced)

    def legal_actions(self) -> list[Action]:
        """Every action allowed now (a resignation is always allowed and not listed);
        under false calls that cost something, a call at every calling moment."""
        return self.state.legal_actions(self.rules)

    # -- acting ----------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action``.

        :raises IllegalActionError: if it is not allowed now; the game is unchanged.
        """
        new = self.state.apply(action, self.rules)
        self._states.append(new)
        self._actions.append(action)
        if self._redo and self._redo[-1] == action:
            self._redo.pop()
        else:
            self._redo.clear()

    def give(self, piece: Piece) -> None:
        """Hand ``piece`` to the opponent (see :meth:`apply`)."""
        self.apply(Give(piece))

    def place(self, cell: Cell) -> None:
        """Place the piece in hand on ``cell`` (see :meth:`apply`)."""
        self.apply(Place(cell))

    def declare(self) -> None:
        """Declare the shape just completed (see :meth:`apply`)."""
        self.apply(Declare())

    def claim(self) -> None:
        """Claim the shape the opponent missed (see :meth:`apply`)."""
        self.apply(Claim())

    def decline(self) -> None:
        """Decline to declare after the sixteenth piece (see :meth:`apply`)."""
        self.apply(Decline())

    def resign(self, player: Player) -> None:
        """``player`` gives up, whether or not it is their turn: the other player wins.

        The game ends with :attr:`Termination.RESIGNATION`; like any action it
        can be undone.

        :raises IllegalActionError: if the game is over already.
        :raises TypeError: if ``player`` is not a :class:`Player`.
        """
        self.apply(Resign(player))

    def play(self, turn: Turn) -> None:
        """Play a whole turn: its placement, then its hand-over.

        The turn is checked as a whole: if any part is illegal, nothing changes.

        :raises IllegalActionError: if the turn is not legal now.
        """
        state = self.state
        actions: list[Action] = []
        if turn.place is not None:
            actions.append(Place(turn.place))
        if turn.give is not None:
            actions.append(Give(turn.give))
        for action in actions:
            state = state.apply(action, self.rules)
        for action in actions:
            self.apply(action)

    # -- undo and redo ---------------------------------------------------------

    def can_undo(self) -> bool:
        """Whether there is an action to take back."""
        return bool(self._actions)

    def can_redo(self) -> bool:
        """Whether there is an undone action to play again."""
        return bool(self._redo)

    def undo(self) -> Action:
        """Take back the last action and return it.

        :raises IllegalActionError: if no action has been played.
        """
        if not self._actions:
            raise IllegalActionError("cannot undo: no action has been played", "nothing_to_undo")
        self._states.pop()
        action = self._actions.pop()
        self._redo.append(action)
        return action

    def redo(self) -> Action:
        """Play again the last action taken back and return it.

        :raises IllegalActionError: if there is nothing to redo.
        """
        if not self._redo:
            raise IllegalActionError("cannot redo: nothing has been undone", "nothing_to_redo")
        action = self._redo[-1]
        self.apply(action)
        return action

    def copy(self) -> Game:
        """Return an independent copy (states are immutable and shared)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.start = self.start
        other.headers = dict(self.headers)
        other._states = list(self._states)
        other._actions = list(self._actions)
        other._redo = list(self._redo)
        return other

    def __repr__(self) -> str:
        return f"<Game {self.rules.name} {self.position.to_string()!r} {self.step.value}>"
