"""The daily puzzle as the site keeps it: which puzzles exist, and each player's
results and streak.

* :mod:`~quads.site.puzzles.days`: the dates that have a puzzle, and the puzzles
  generated;
* :mod:`~quads.site.puzzles.results`: :class:`~quads.site.puzzles.results.PuzzleResults`,
  a player's attempts, what counts as solved, and the streak.

The puzzles themselves (their goal, what wins, the defender's reply, the streak's
rule) are the library's, :mod:`quads.puzzles`.
"""
