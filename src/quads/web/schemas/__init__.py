"""The JSON bodies of the API as pydantic models, so that ``/openapi.json`` shows
them: one module per domain, which each route imports.

Request models check everything a schema can say (:mod:`quads.web.fields`): a body
that does not fit is refused with ``400`` before any route runs.  What only the rules
of the game can judge (an impossible record, an illegal move) is left to the library,
whose refusals carry their own codes.

* :mod:`~quads.web.schemas.new_games`: starting a game (new, from a record, uploaded);
* :mod:`~quads.web.schemas.game_actions`: changing one (actions, undo, claims, joins);
* :mod:`~quads.web.schemas.game_views`: a game's view, summary, invitation and hint;
* :mod:`~quads.web.schemas.live`: the live socket's messages;
* :mod:`~quads.web.schemas.lobby`: seeks, pairing, names and bots;
* :mod:`~quads.web.schemas.puzzles`: the daily puzzle;
* :mod:`~quads.web.schemas.analysis`: analyses and reviews;
* :mod:`~quads.web.schemas.refusals`: a refusal.
"""
