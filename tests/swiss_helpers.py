"""The tournament report (TRF) of a Swiss history, written with the pairing library's
own writer, which its checker then re-pairs round by round (the Swiss tests'
reference)."""

from __future__ import annotations

from caissify_pairings.trf import TRFWriter

from quads.site.tournaments.swiss import Entrant, Outcome, Round

__all__ = ["trf_report"]


def trf_report(players: list[Entrant], history: list[Round]) -> str:
    """The tournament report (TRF) of ``history``, written with the library's writer."""
    numbers = {entrant.player: n for n, entrant in enumerate(
        sorted(players, key=lambda entrant: -entrant.rating), start=1)}
    table = {entrant.player: {"starting_number": numbers[entrant.player],
                              "name": entrant.player, "rating": entrant.rating, "score": 0.0,
                              "results": {}} for entrant in players}
    for number, played in enumerate(history, start=1):
        for game in played.games:
            first = {Outcome.FIRST_WINS: "1", Outcome.DRAW: "=", Outcome.SECOND_WINS: "0"}
            second = {Outcome.FIRST_WINS: "0", Outcome.DRAW: "=", Outcome.SECOND_WINS: "1"}
            table[game.first]["results"][number] = {
                "opponent": numbers[game.second], "color": "w", "result": first[game.outcome]}
            table[game.second]["results"][number] = {
                "opponent": numbers[game.first], "color": "b", "result": second[game.outcome]}
        if played.bye is not None:
            table[played.bye]["results"][number] = {"opponent": None, "result": "U"}
    return TRFWriter({"name": "Test"}, list(table.values()), len(history)).write()
