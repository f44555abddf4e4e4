"""Tournaments: arenas and Swiss events, their scores, pairings and standings.

* :mod:`~quads.site.tournaments.arena`: an arena's scoring (streaks on fire,
  no-shows that pause) and the pairing of the players free at a moment;
* :mod:`~quads.site.tournaments.swiss`: the rounds of a Swiss event, paired by the
  FIDE Dutch system, byes, late entries and withdrawals, and its standings with
  their tie-breaks.

Both are pure: they take what happened and answer what comes next, and keep
nothing; the store and the clock are the caller's.  :mod:`~.service` (arenas made,
joined, paused, ticked), :mod:`~.swiss_run` (a Swiss event's rounds at run time) and
:mod:`~.schedule` (the site's own arenas) run them on the store.
"""
