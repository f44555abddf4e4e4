"""The site's rules, without HTTP: who may do what online, and when.

Each package here is one domain of the site, with its model, its rules and its
refusals (:class:`~quads.site.errors.SiteError`, a code and its parameters):

* :mod:`quads.site.games`: a game between people or against the computer as the
  server keeps it: seats and invitations, actions, undo requests, rematches,
  resignation, clocks and abandonment, and games uploaded from a device;
* :mod:`quads.site.bots`: players that are programs, the seats offered to them and
  what their event streams tell;
* :mod:`quads.site.lobby`: seeks, accepting one, and whom quick pairing meets;
* :mod:`quads.site.players`: players as others see them (their names);
* :mod:`quads.site.puzzles`: the daily puzzles' dates, each player's results and
  streak;
* :mod:`quads.site.tournaments`: arenas and Swiss events: scores, pairings and
  standings.

Beside them, :mod:`quads.site.windows` keeps the moving windows of every rate (the
web layer's per player and address, the accounts' per name) in memory.

None of them imports FastAPI, Starlette or anything of :mod:`quads.web`: each can
be used and tested on a store alone.  The web layer (:mod:`quads.web`) reads a
request, calls a domain, and answers; one table there gives each refusal its status.
"""
