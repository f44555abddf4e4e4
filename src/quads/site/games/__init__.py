"""A game as the site keeps it, from its start to its rematch.

* :mod:`~quads.site.games.service`: :class:`~quads.site.games.service.Games`, every
  operation of a caller on a game, checked, played, saved and told;
* :mod:`~quads.site.games.seats`: who may see and do what in a game;
* :mod:`~quads.site.games.play`: what each change does to a game (joins, undo
  requests, rematches, resignation, the computer's turn, hints);
* :mod:`~quads.site.games.actions`: a person's action, saved within the clock;
* :mod:`~quads.site.games.clocks`: the clocks of online games and abandonment;
* :mod:`~quads.site.games.history`: undo and redo by whole turns;
* :mod:`~quads.site.games.uploads`: games played on a device and uploaded from it.
"""
