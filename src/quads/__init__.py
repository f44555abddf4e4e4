"""Quads: play, study and solve Quarto-family games.

The core is small immutable values over plain integers:

* :mod:`quads.pieces`, :mod:`quads.cells`, :mod:`quads.shapes`: the material;
* :mod:`quads.rules`: rule sets (:data:`QUADS`, :data:`CLASSIC`, :data:`ADVANCED`, custom);
* :mod:`quads.position`: an immutable position and its text form;
* :mod:`quads.game`: a whole game with declarations, claims, undo and redo;
* :mod:`quads.record`: game records, read and written;
* :mod:`quads.clock`: real-time and correspondence clocks.

>>> from quads import Game, Position, QUADS
>>> Position.from_string("F..0/..A./..../.3.. 7").empty_count
12
"""

from quads.cells import Cell, cell_name, parse_cell
from quads.clock import Clock, Correspondence, RealTime, TimeControl, parse_time_control
from quads.errors import (
    IllegalActionError,
    InvalidCellError,
    InvalidPieceError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidTimeControlError,
    QuadsError,
)
from quads.game import (
    Abandon,
    Abort,
    Action,
    Agree,
    Claim,
    Declare,
    Decline,
    Forfeit,
    Game,
    GameState,
    Give,
    Place,
    Resign,
    Step,
    Timeout,
)
from quads.outcome import Outcome, Player, Termination
from quads.pieces import Piece, Trait, describe_piece, parse_piece, piece_name
from quads.position import EMPTY, Position
from quads.record import read_record, write_record
from quads.rules import ADVANCED, CLASSIC, PRESETS, QUADS, Calling, FalseCalls, Rules, ShapeSet
from quads.shapes import SHAPES, Shape
from quads.turn import Turn

__version__ = "0.1.0"

__all__ = [
    "ADVANCED",
    "CLASSIC",
    "EMPTY",
    "PRESETS",
    "QUADS",
    "SHAPES",
    "Abandon",
    "Abort",
    "Action",
    "Agree",
    "Calling",
    "Cell",
    "Claim",
    "Clock",
    "Correspondence",
    "Declare",
    "Decline",
    "FalseCalls",
    "Forfeit",
    "Game",
    "GameState",
    "Give",
    "IllegalActionError",
    "InvalidCellError",
    "InvalidPieceError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidTimeControlError",
    "Outcome",
    "Piece",
    "Place",
    "Player",
    "Position",
    "QuadsError",
    "RealTime",
    "Resign",
    "Rules",
    "Shape",
    "ShapeSet",
    "Step",
    "Termination",
    "TimeControl",
    "Timeout",
    "Trait",
    "Turn",
    "__version__",
    "cell_name",
    "describe_piece",
    "parse_cell",
    "parse_piece",
    "parse_time_control",
    "piece_name",
    "read_record",
    "write_record",
]
