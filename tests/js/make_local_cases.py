"""Write the cases that prove the page's games on the device equal to the server's.

Run ``python tests/js/make_local_cases.py`` (``.ci/run`` does, before
``node --test tests/js/``); it writes ``tests/js/cases/local.json``, which
``tests/js/local.test.mjs`` checks ``src/quads/web/static/js/local/`` against
(``view.js``, ``history.js``, ``device-game.js``).

Each case is a random game on one device or against the computer, under a
preset or a custom rule set, played as the server plays it (the functions of
:mod:`quads.site.games.play` that its routes call, undo and redo by whole turns, a
resignation, the computer's turns) with refusals along the way, and after every
step the server's own ``GameView`` and ``GameSummary`` of it
(:mod:`quads.web.views`), or the refusal (its code, message, reason and params).
The game's id is its device id, as a device game has; the times are left to the
node test.  Everything is seeded, so the same library writes the same cases.
:func:`cases` gives them to the Python tests too
(``tests/web/test_api_device_views.py``).  Importing this module writes nothing.
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "cases"

RULE_SETS = (
    "quads",
    "classic",
    "advanced",
    "lines:color:auto",
    "lines+squares:height,top:declare",
    "lines:height,color:declare",
    "lines+squares:shape:auto",
    "classic:forfeit-calls",
    "advanced:losing-calls",
)
"""The presets and custom rule sets the cases run under (false calls of each kind)."""

GAMES_PER_RULE_SET = 16
STEPS = 70
"""The most steps a case takes (a finished game stops earlier, now and then)."""
CREATED = "2026-11-30T09:12:03.120000+00:00"


def _error(exc: Exception) -> dict[str, Any]:
    """A refusal as a case expects it: what the server's API sends of it, its code,
    message, reason and params (``""`` and ``{}`` where it gives none)."""
    from quads.errors import IllegalActionError
    from quads.site.errors import SiteError
    from quads.web.errors import library_code

    if isinstance(exc, SiteError):
        return {"code": exc.code, "message": exc.message, "reason": exc.reason,
                "params": dict(exc.params)}
    assert isinstance(exc, IllegalActionError), exc
    return {"code": library_code(exc), "message": str(exc), "reason": exc.reason,
            "params": dict(exc.params)}


def _summary(stored: Any) -> Any:
    """The list's line of ``stored``, as the store reads it back."""
    from quads.storage import GameSummary

    return GameSummary(
        id=stored.id, rules=stored.game.rules.name, mode=stored.mode, level=stored.level,
        human=stored.human, ply=stored.ply, status=stored.status,
        to_move=stored.game.to_move, created=stored.created, updated=stored.updated,
        owner=stored.owner, resigned=stored.resigned, revision=stored.revision,
        device=stored.device,
        result=None if stored.game.outcome is None else stored.game.outcome.result)


def _views(stored: Any) -> dict[str, Any]:
    from quads.web.views import game_view, summary_view

    return {"view": game_view(stored, stored.owner).model_dump(mode="json"),
            "summary": summary_view(_summary(stored), stored.owner).model_dump(mode="json")}


def _computer_turn(rng: random.Random, game: Any, person: Any) -> list[Any]:
    """A random whole turn of the computer (it always calls a win it can)."""
    from quads.game import Claim, Declare

    probe = game.copy()
    actions = []
    while not probe.is_over() and probe.to_move is not person:
        legal = probe.legal_actions()
        calls = [a for a in legal if isinstance(a, Declare | Claim)]
        action = calls[0] if calls else rng.choice(legal)
        probe.apply(action)
        actions.append(action)
    return actions


def _all_actions() -> list[Any]:
    from quads.game import Claim, Declare, Decline, Give, Place

    return [*(Give(p) for p in range(16)), *(Place(c) for c in range(16)), Declare(), Claim(),
            Decline()]


def _step(rng: random.Random, stored: Any) -> dict[str, Any]:
    """Choose the next step of a case and play it as the server would."""
    from quads.errors import IllegalActionError
    from quads.game import Claim, Declare
    from quads.site.errors import SiteError
    from quads.site.games import play

    game = stored.game
    person = play.person(stored)
    computer_turn = person is not None and not game.is_over() and game.to_move is not person
    roll = rng.random()
    step: dict[str, Any]
    try:
        if roll < 0.12:
            step = {"op": "undo"}
            play.undo(stored)
        elif roll < 0.2:
            step = {"op": "redo"}
            play.redo(stored)
        elif roll < 0.23:
            step = {"op": "resign"}
            side = person if person is not None else game.to_move
            if side is None:
                raise SiteError.game_over()
            play.resign(stored, side)
        elif roll < 0.3:
            # A wrong action: illegal now, or on the computer's turn, or after the end.
            action = rng.choice([a for a in _all_actions() if a not in game.legal_actions()]
                                or _all_actions())
            step = {"op": "act", "action": str(action)}
            play.apply_action(stored, action)
        elif computer_turn and roll < 0.33:
            # A computer turn the rules refuse: judged on a copy, nothing changes.
            action = rng.choice([a for a in _all_actions() if a not in game.legal_actions()])
            step = {"op": "computer", "actions": [str(action)]}
            game.copy().apply(action)
            raise AssertionError(f"{action} was legal")  # pragma: no cover
        elif computer_turn or roll < 0.34:
            # The computer's turn, or asked for on a person's turn (or with no computer).
            step = {"op": "computer", "actions": []}
            play.require_computer_turn(stored)
            actions = _computer_turn(rng, game, person)
            step["actions"] = [str(a) for a in actions]
            for action in actions:
                game.apply(action)
        else:
            legal = game.legal_actions() if not game.is_over() else _all_actions()
            calls = [a for a in legal if isinstance(a, Declare | Claim)]
            action = calls[0] if calls and rng.random() < 0.5 else rng.choice(legal)
            step = {"op": "act", "action": str(action)}
            play.apply_action(stored, action)
    except (SiteError, IllegalActionError) as exc:
        step["error"] = _error(exc)
        return step
    stored.revision += 1
    return step


def _new(rng: random.Random, rules: str) -> Any:
    from datetime import datetime

    from quads.game import Game
    from quads.outcome import Player
    from quads.rules import Rules
    from quads.storage import StoredGame

    device = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    computer = rng.random() < 0.6
    created = datetime.fromisoformat(CREATED)
    return StoredGame(
        id=device, mode="computer" if computer else "local",
        level=rng.randint(1, 5) if computer else None,
        human=rng.choice(list(Player)) if computer else None, seed=0,
        game=Game(Rules.parse(rules), headers={"Date": "2026.11.30"}),
        created=created, updated=created, owner="owner", device=device)


def cases(seed: int = 21, per_rule_set: int = GAMES_PER_RULE_SET) -> list[dict[str, Any]]:
    """The cases: for each, the game's settings and every step with the views after it."""
    from quads.storage.stored import redo_trail

    rng = random.Random(seed)
    found = []
    for rules in RULE_SETS:
        for _ in range(per_rule_set):
            stored = _new(rng, rules)
            case: dict[str, Any] = {
                "id": stored.id, "rules": rules, "mode": stored.mode, "level": stored.level,
                "human": None if stored.human is None else stored.human.identifier,
                "start": _views(stored), "steps": []}
            for _ in range(STEPS):
                step = _step(rng, stored)
                if "error" not in step:
                    step.update(_views(stored))
                    step["game"] = {"actions": [str(a) for a in stored.game.actions],
                                    "redo": [str(a) for a in redo_trail(stored.game)]}
                case["steps"].append(step)
                if stored.is_over() and rng.random() < 0.3:
                    break
            found.append(case)
    return found


def main() -> None:
    """Write the case file."""
    sys.path.insert(0, str(HERE.parent.parent / "src"))
    OUT.mkdir(exist_ok=True)
    found = cases()
    (OUT / "local.json").write_text(json.dumps({"games": found}), encoding="utf-8")
    steps = sum(len(case["steps"]) for case in found)
    print(f"wrote {OUT / 'local.json'}: {len(found)} games, {steps} steps")


if __name__ == "__main__":
    main()
