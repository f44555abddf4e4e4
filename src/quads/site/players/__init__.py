"""Players: who plays, as others see them.

* :mod:`~quads.site.players.names`: the names made up for players who chose none.
"""
