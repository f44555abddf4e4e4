"""Quads as an engine for other programs, and other programs as Quads players.

``quads engine`` speaks a line protocol modelled on UGI (UCI for any game) on
its standard input and output: :mod:`quads.engine.protocol` reads its lines,
:mod:`quads.engine.session` acts on them, :mod:`quads.engine.choice` chooses the
turn.  :mod:`quads.engine.client` runs any program that speaks the protocol as a
player of :func:`quads.players.match.play_match`.  The protocol is written up in
``docs/engine-protocol.md``.
"""

from quads.engine.choice import Limits, Thought, think
from quads.engine.protocol import ProtocolError
from quads.engine.session import Session

__all__ = ["Limits", "ProtocolError", "Session", "Thought", "think"]
