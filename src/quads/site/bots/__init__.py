"""Bots: players that are programs.

* :mod:`~quads.site.bots.service`: :class:`~quads.site.bots.service.Bots`, what makes a
  player a bot for good, and the free seat of a game offered to a bot, taken or
  declined;
* :mod:`~quads.site.bots.tokens`: a bot's token replaced or revoked, by the bot or its
  owner;
* :mod:`~quads.site.bots.events`: what a bot's event stream tells, look after look
  (seats offered, games begun and ended).

A bot plays through the same operations as a person (:mod:`quads.site.games`,
:mod:`quads.site.lobby`), under the same limits.
"""
