"""What people played from a position (``GET /api/explorer``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from quads.site.explorer.service import Explored

__all__ = ["ExplorerTurnView", "ExplorerView", "explorer_view"]


class ExplorerTurnView(BaseModel):
    """A turn people played from the position, and how those games ended."""

    turn: str = Field(description="The turn, e.g. `B43` (a hand-over alone: `3`)")
    same: list[str] = Field(description="The other turns of the position that lead to the "
                                        "same position up to symmetry (counted as one)")
    games: int = Field(ge=1, description="Games in which it was played")
    first: int = Field(ge=0, description="Of those, games the first player won")
    second: int = Field(ge=0, description="Games the second player won")
    draws: int = Field(ge=0, description="Games drawn")


class ExplorerView(BaseModel):
    """What people played on this site from a position, counted up to symmetry, the
    most played first; each turn's exact value is the analysis's (``GET
    /api/analysis``)."""

    rules: str
    position: str
    games: int = Field(ge=0, description="Games counted through the position")
    turns: list[ExplorerTurnView]


def explorer_view(explored: Explored) -> ExplorerView:
    """``explored`` as the API shows it."""
    return ExplorerView(
        rules=explored.rules.name, position=explored.position.to_string(),
        games=explored.games,
        turns=[ExplorerTurnView(turn=found.turn.text, same=[t.text for t in found.same],
                                games=found.counts.games, first=found.counts.first,
                                second=found.counts.second, draws=found.counts.draws)
               for found in explored.turns])
