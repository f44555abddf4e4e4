"""A complete Quads bot: it offers games in the lobby and plays them at a computer level.

    python examples/bot.py http://127.0.0.1:8000 --level 3 [--token TOKEN] [--rules quads]
                           [--clock 300+5] [--games N]

Without ``--token`` it becomes a new bot (``POST /api/bot/upgrade``) and prints its
token, to be given with ``--token`` next time.  It keeps one offer open in the lobby,
follows its event stream (``GET /api/bot/stream``), takes every seat offered to it
(``POST /api/games/{id}/invite-bot``) and plays every game that starts,
following each game on its live socket and posting its actions, as a person's page
does.  Needs ``pip install 'quads[web]' httpx``.
"""

from __future__ import annotations

import argparse
import json
import threading
from typing import Any

import httpx
from websockets.sync.client import connect

from quads import Position, Rules
from quads.cells import cell_name, parse_cell
from quads.pieces import piece_name
from quads.players import make_player


def call_wins(view: dict[str, Any]) -> bool:
    """Whether the call the view offers (``declare_offered`` or ``claim_offered``) would
    win.  No view says so (a false call may lose the game): we look at the board, as a
    person would, for a winning shape through the last placement."""
    last = view["last"]
    if not (view["declare_offered"] or view["claim_offered"]) or not last or not last["place"]:
        return False
    position = Position.from_string(view["position"])
    return bool(position.winning_shapes_through(parse_cell(last["place"]),
                                                Rules.parse(view["rules"])))


def act(client: httpx.Client, game_id: str, view: dict[str, Any] | None, level: int) -> None:
    """Play our whole turn in ``view``: claim or declare a win when there is one, else
    place and hand over as the computer level chooses."""
    player = make_player(level)
    while view is not None and view["can_act"]:
        if call_wins(view):
            body: dict[str, Any] = {"action": "declare" if view["declare_offered"] else "claim"}
        else:
            turn = player.choose_turn(Position.from_string(view["position"]),
                                      Rules.parse(view["rules"]))
            if view["step"] == "place" and turn.place is not None:
                body = {"action": "place", "cell": cell_name(turn.place)}
            else:
                piece = turn.give if turn.give is not None else int(view["supply"][0], 16)
                body = {"action": "give", "piece": piece_name(piece)}
        answer = client.post(f"/api/games/{game_id}/actions",
                             json={**body, "revision": view["revision"]})
        view = answer.json() if answer.status_code == 200 else None  # else it moved on


def play(client: httpx.Client, game_id: str, level: int) -> None:
    """Follow ``game_id`` on its live socket, as a page does, and act on our turns."""
    url = str(client.base_url).replace("http", "ws", 1) + f"/api/games/{game_id}/live"
    with connect(url, additional_headers={"Authorization": client.headers["Authorization"]}) \
            as socket:
        for text in socket:
            message = json.loads(text)
            if message["type"] != "view":
                return  # the game is gone
            view = message["view"]
            if view["outcome"] is not None:
                return
            act(client, game_id, view, level)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--token")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--rules", default="quads")
    parser.add_argument("--clock", default="300+5", help="SECONDS+INCREMENT of the offer")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    args = parser.parse_args()
    client = httpx.Client(base_url=args.url, timeout=60)
    if args.token is None:
        made = client.post("/api/bot/upgrade").raise_for_status().json()
        args.token = made["token"]
        print(f"bot {made['name']} ({made['bot']}), token {args.token}", flush=True)
    client.headers["Authorization"] = f"Bearer {args.token}"
    client.cookies.clear()
    initial, increment = (int(part) for part in args.clock.split("+"))
    offer = {"rules": args.rules, "clock": {"initial": initial, "increment": increment}}
    client.post("/api/seeks", json=offer).raise_for_status()
    played = 0
    with client.stream("GET", "/api/bot/stream", timeout=None) as events:
        for line in events.iter_lines():
            if not line:
                continue  # a heartbeat
            event = json.loads(line)
            print(json.dumps(event), flush=True)
            if event["type"] == "invitation":  # a seat offered to us: take it
                client.post(f"/api/bot/invitations/{event['game']}/accept")
            elif event["type"] == "gameStart":
                threading.Thread(target=play, args=(client, event["game"], args.level),
                                 daemon=True).start()
            elif event["type"] == "gameFinish":
                played += 1
                if played == args.games:
                    return
                client.post("/api/seeks", json=offer).raise_for_status()


if __name__ == "__main__":
    main()
