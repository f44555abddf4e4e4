"""Opening books: the exact value of every position near the empty board.

Near the empty board the solver needs seconds to minutes per position; a book
holds those values, solved once, so that every turn there is judged at once.
:func:`build_book` makes one (in parallel, resumably, on local processes or a
Dask cluster), :func:`verify_book` checks one against the solver, and
:func:`book_for` gives the book shipped with the package for a rule set, if
there is one.

>>> from quads import QUADS, Position
>>> book = book_for(QUADS)
>>> book.solution(Position.from_string("..../..../..../.... 0"), QUADS).value
<Value.DRAW: 'draw'>
"""

from quads.book.build import BuildProgress, build_book, pack_journal
from quads.book.format import BookError, BookHeader, read_book, write_book
from quads.book.positions import game_name, positions_to_solve
from quads.book.probe import (
    Book,
    analyse_with_book,
    book_for,
    load_book,
    shipped_path,
    solve_with_book,
)
from quads.book.verify import VerifyReport, verify_book

__all__ = [
    "DEFAULT_MIN_EMPTY",
    "Book",
    "BookError",
    "BookHeader",
    "BuildProgress",
    "VerifyReport",
    "analyse_with_book",
    "book_for",
    "build_book",
    "game_name",
    "load_book",
    "pack_journal",
    "positions_to_solve",
    "read_book",
    "shipped_path",
    "solve_with_book",
    "verify_book",
    "write_book",
]

DEFAULT_MIN_EMPTY = 13
"""Books judge every turn of the positions with at least this many empty cells: those
the solver needs more than 0.2 s for on one core (0.3 to 1.2 s at 13 empty cells,
about 3 s at 14, for the presets on a 2-core machine).  The book of lines and
squares (Quads and Quarto with squares, 327,533 positions, 370 kB, 64 minutes of
solving on two cores) is built so.  Classic's reaches one cell further, to 12 empty
cells, where a search of it still takes 1 to 2 s (1,856,075 positions, 1.2 MB,
about seven hours of one core)."""
