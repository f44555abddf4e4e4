"""What ``bench/fuzz.py`` adds to schemathesis's own generation and checks.

Generation: a case now and then carries one of its dates or integers at an
extreme (``extremes``): a moment of year 1 or 9999 with an offset of up to
±14:00, a day before 2000 or far after today, an integer at the edge of 32 or 64
bits, of what JSON keeps exactly, or beyond.  Such a date still fits its pattern
and an integer may still fit its range: the server must refuse what is out of
its window or range, or take what is in it, and never fail.  schemathesis judges
the case anew once it changed, so a value out of the document's range is
checked as a request that does not fit.

Checks, for every run:

- ``refusals_are_json``: every answer of 400 or more, a fault's too, is the
  API's JSON error (``{"error": {"code": ..., "message": ...}}``), whether or not
  the document lists that status for the operation (schemathesis's own check of
  the content type looks only at the statuses it lists).
- ``strangers_get_nothing``, for a stranger's runs: ``QUADS_FUZZ_FOREIGN`` maps
  the ids of another player's games to their mode.  A stranger may read an
  online game (anyone holding its link may watch it), and nothing else of
  another player's games: every other ``2xx`` fails.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import schemathesis
from hypothesis import strategies as st

FOREIGN: dict[str, str] = json.loads(os.environ.get("QUADS_FUZZ_FOREIGN", "{}"))
WATCHING = ("", "/record", "/review")
"""What a spectator reads of an online game, after ``/api/games/{game_id}``."""

MOMENTS = (
    "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00",
    "0001-01-01T00:00:00-14:00", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59+14:00",
    "9999-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00Z", "1999-12-31T23:59:59+14:00",
)
"""Moments at the ends of what ISO 8601 writes with four digits (the first two leave
the calendar once in UTC), and where a device's clock falls when it has lost the
date."""
DAYS = ("0001-01-01", "9999-12-31", "1999-12-31")
INTEGERS = (2**31, 10**30, 2**63, 2**53 - 1, -1, 0, 2**31 - 1, 2**53, 2**63 - 1, -(2**63))
"""Past the end of a 32-bit integer and far beyond, the ends of a 64-bit one and of
the integers JSON keeps exactly, and the ends of a range."""
_MOMENT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

Where = tuple[str | int, ...]
"""Where a value is in a case's body, query or path: its keys and indexes."""


def _leaves(value: Any, path: Where = ()) -> list[tuple[Where, tuple[Any, ...]]]:
    """The dates and integers in ``value`` (nested objects and lists): where each is,
    and the extremes that may stand there instead."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [(path, INTEGERS)]
    if isinstance(value, str):
        if _MOMENT.match(value):
            return [(path, MOMENTS)]
        return [(path, DAYS)] if _DAY.fullmatch(value) else []
    items = (value.items() if isinstance(value, dict)
             else enumerate(value) if isinstance(value, list) else ())
    return [leaf for key, item in items for leaf in _leaves(item, (*path, key))]


def _replaced(value: Any, path: Where, extreme: Any) -> Any:
    """A copy of ``value`` with ``extreme`` at ``path``."""
    if not path:
        return extreme
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, extreme)}
    copy = list(value)
    assert isinstance(head, int)
    copy[head] = _replaced(copy[head], rest, extreme)
    return copy


CONTAINERS = ("body", "query", "path_parameters")


@schemathesis.hook
def flatmap_case(ctx: Any, case: Any) -> Any:
    """The case as generated, or with one of its dates or integers at an extreme
    (this module's description)."""
    spots = [(container, path, extremes) for container in CONTAINERS
             for path, extremes in _leaves(getattr(case, container, None))]
    if not spots:
        return st.just(case)

    def extreme(spot: tuple[str, Where, tuple[Any, ...]]) -> Any:
        container, path, extremes = spot
        return st.sampled_from(extremes).map(lambda value: _at(case, container, path, value))

    # The changed case first: the first example hypothesis makes is the first choice.
    return st.one_of(st.sampled_from(spots).flatmap(extreme), st.just(case))


def _at(case: Any, container: str, path: Where, value: Any) -> Any:
    """A copy of ``case`` with ``value`` at ``path`` of ``container``; schemathesis
    judges it anew (it may no longer fit the document)."""
    changed = case.derive(keep_auth=True)
    setattr(changed, container, _replaced(getattr(case, container), path, value))
    return changed


@schemathesis.check
def refusals_are_json(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every answer of 400 or more is the API's JSON error."""
    if response.status_code < 400:
        return None
    kind = ";".join(response.headers.get("content-type", [""])).split(";")[0].strip()
    if kind != "application/json":
        raise AssertionError(
            f"{case.method.upper()} {case.operation.path} answered {response.status_code} "
            f"as {kind or 'no content type'}, not the API's JSON error")
    try:
        error = json.loads(response.content)["error"]
    except (ValueError, KeyError, TypeError):
        error = None
    if not (isinstance(error, dict) and isinstance(error.get("code"), str)
            and isinstance(error.get("message"), str)):
        raise AssertionError(
            f"{case.method.upper()} {case.operation.path} answered {response.status_code} "
            f"with {response.content[:200]!r}, not {{\"error\": {{\"code\", \"message\"}}}}")
    return None


@schemathesis.check
def strangers_get_nothing(ctx: Any, response: Any, case: Any) -> bool | None:
    """A stranger gets no ``2xx`` on another player's game, but watching an online one."""
    game = (case.path_parameters or {}).get("game_id")
    if game not in FOREIGN or not 200 <= response.status_code < 300:
        return None
    rest = case.operation.path.removeprefix("/api/games/{game_id}")
    if FOREIGN[game] == "online" and case.method.upper() == "GET" and rest in WATCHING:
        return None
    raise AssertionError(
        f"a stranger got {response.status_code} for {case.method.upper()} "
        f"{case.operation.path} on another player's {FOREIGN[game]} game")
