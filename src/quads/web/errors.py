"""Refusals as JSON: ``{"error": {"code": ..., "message": ...}}`` with a 4xx status.

``message`` is English, for developers.  A page words a refusal in its reader's
language from ``code`` and, where the refusal says more, from ``reason`` (what
exactly is wrong, e.g. ``already_won``) and ``params`` (the values it speaks of,
e.g. ``{"shape": "row1"}``): the library's exceptions carry both
(:class:`quads.errors.QuadsError`), and so may the site's
(:class:`quads.site.errors.SiteError`).

The library's exceptions, the store's and the request validator's are mapped
to the codes of ``docs/web-api.md`` by the handlers that :func:`install`
adds to an app; the site's refusals have their status from :data:`STATUSES`, the one
table of them.

A request that does not fit the API's schema is refused with ``400`` by the
validator, before any route runs; the library sees only values that fit, so
its refusals (an impossible position, an unreadable record, an illegal move)
are ``422``: the request was understood, and the rules refuse it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from quads.errors import (
    IllegalActionError,
    InvalidCellError,
    InvalidDateError,
    InvalidPieceError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRulesError,
    Params,
    QuadsError,
)
from quads.site.errors import SiteError
from quads.storage import GameNotFoundError, StaleGameError, StorageUnavailableError
from quads.web.openapi import documented_methods

__all__ = ["STATUSES", "Refusal", "error_body", "error_response", "install", "invalid",
           "library_code", "refusal", "status_of"]

_LIBRARY_CODES: tuple[tuple[type[QuadsError], str], ...] = (
    (InvalidRulesError, "invalid_rules"),
    (InvalidCellError, "invalid_cell"),
    (InvalidPieceError, "invalid_piece"),
    (InvalidPositionError, "invalid_position"),
    (InvalidRecordError, "invalid_record"),
    (InvalidDateError, "invalid_date"),
    (IllegalActionError, "illegal_action"),
    (QuadsError, "unprocessable"),
)
"""The code of each library exception (all ``422``); the first matching class wins."""

_FIELD_CODES = {
    "rules": "invalid_rules", "cell": "invalid_cell", "piece": "invalid_piece",
    "position": "invalid_position", "record": "invalid_record", "day": "invalid_date",
}
"""The code of a request that does not fit the schema, by the field that does not fit;
any other field: ``bad_request``."""


STATUSES: dict[str, int] = {
    # Not signed in as the account asked, or not at all.
    "bad_credentials": 401, "bad_link_code": 401, "not_signed_in": 401,
    # Nothing of that name, or nothing the caller may see.
    "not_found": 404,
    # The caller may not do this here, whoever's turn it is.
    "account_needed": 403, "bad_invite": 403, "bad_owner_key": 403, "hint_online": 403,
    "not_enough_rated_games": 403,
    "not_a_bot": 403, "not_your_game": 403, "not_your_seek": 403, "private_game": 403,
    # Not now: the state of the game, the seek or the bot forbids it.
    "already_bot": 409, "clock_no_undo": 409, "device_mismatch": 409, "game_over": 409,
    "in_play": 409, "no_abandonment": 409, "no_invitation": 409, "no_undo_request": 409,
    "not_abandoned": 409, "not_over": 409, "not_solved": 409, "not_your_turn": 409,
    "nothing_to_redo": 409, "nothing_to_undo": 409, "on_device": 409, "out_of_time": 409,
    "account_exists": 409, "account_named": 409, "last_credential": 409, "name_taken": 409,
    "own_bot": 409,
    "out_of_range": 409, "own_seek": 409, "seat_taken": 409, "seek_gone": 409, "stale": 409,
    "stream_open": 409, "too_many_seeks": 409, "undo_requested": 409,
    "waiting_for_opponent": 409, "draw_offered": 409, "no_draw_offer": 409, "not_online": 409,
    "too_many_draw_offers": 409, "too_many_undo_requests": 409,
    "tournament_over": 409, "not_in_tournament": 409,
    # A value of the right form that names nothing usable.
    "bad_passkey": 422, "cannot_be_rated": 422, "invalid_cursor": 422, "invalid_name": 422,
    "invalid_clock": 422, "invalid_tournament": 422,
    "no_credential": 422, "no_such_bot": 422, "not_a_preset": 422, "weak_password": 422,
    # Too much at once: try again later.
    "busy": 429, "engine_busy": 429, "rate_limited": 429, "streams_full": 429,
}
"""The one table from the site's refusal codes (:class:`~quads.site.errors.SiteError`)
to HTTP statuses."""


def status_of(error: SiteError) -> int:
    """The HTTP status of a refusal of the site.

    :raises KeyError: for a code the table lacks (a fault: the tests look for one).
    """
    return STATUSES[error.code]


def error_body(code: str, message: str, reason: str = "",
               params: Params | None = None) -> dict[str, object]:
    """The ``error`` object of a refusal; ``reason`` and ``params`` only when given."""
    error: dict[str, object] = {"code": code, "message": message}
    if reason:
        error["reason"] = reason
    if params:
        error["params"] = dict(params)
    return error


def error_response(status: int, code: str, message: str, reason: str = "",
                   params: Params | None = None) -> JSONResponse:
    """The JSON answer of a refusal; ``reason`` and ``params`` only when given."""
    return JSONResponse({"error": error_body(code, message, reason, params)},
                        status_code=status)


@dataclass(frozen=True)
class Refusal:
    """A refusal as the API words it, whichever way it is sent (an HTTP answer, a
    message on a live socket)."""

    status: int
    code: str
    message: str
    reason: str = ""
    params: Params = field(default_factory=dict)
    retry_after: int | None = None
    """Seconds after which to try again (an HTTP answer's ``Retry-After``)."""

    def body(self) -> dict[str, object]:
        """The ``error`` object."""
        return error_body(self.code, self.message, self.reason, self.params)

    def response(self) -> JSONResponse:
        """The HTTP answer, with ``Retry-After`` when the refusal names one."""
        response = error_response(self.status, self.code, self.message, self.reason,
                                  self.params)
        if self.retry_after is not None:
            response.headers["Retry-After"] = str(self.retry_after)
        return response


def refusal(exc: Exception) -> Refusal | None:
    """The refusal that ``exc`` stands for: a refusal of the web layer
    (:class:`~quads.site.errors.SiteError`), of the library or of the store; ``None`` for any other
    exception (a fault, not a refusal)."""
    if isinstance(exc, SiteError):
        wait = exc.params.get("retry_after")
        return Refusal(status_of(exc), exc.code, exc.message, exc.reason, exc.params,
                       retry_after=wait if isinstance(wait, int) else None)
    if isinstance(exc, QuadsError):
        return Refusal(422, library_code(exc), str(exc), exc.reason, exc.params)
    if isinstance(exc, GameNotFoundError):
        return Refusal(404, "not_found", str(exc))
    if isinstance(exc, StaleGameError):
        return Refusal(409, "stale", f"{exc}; reload the game")
    if isinstance(exc, StorageUnavailableError):
        return Refusal(503, "unavailable",
                       "the database cannot be reached now; try again in a moment",
                       retry_after=2)
    return None


def _validation_message(errors: Sequence[Any]) -> str:
    problems = []
    for error in errors:
        if error.get("type") == "json_invalid":
            return f"malformed JSON: {error.get('ctx', {}).get('error', 'cannot be read')}"
        location = [str(part) for part in error.get("loc", ())]
        where = ".".join(location[1:] if location[:1] == ["body"] and location[1:]
                         else location)
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems) or "the request cannot be read"


def library_code(exc: QuadsError) -> str:
    """The code of a refusal of the library (``invalid_cell``, ``illegal_action`` ...)."""
    return next(code for kind, code in _LIBRARY_CODES if isinstance(exc, kind))


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    refused = refusal(exc)
    assert refused is not None
    return refused.response()


def _validation_code(errors: Sequence[Any]) -> str:
    fields = {str(part) for error in errors if error.get("type") != "missing"
              for part in error.get("loc", ())}
    codes = {code for name, code in _FIELD_CODES.items() if name in fields}
    return codes.pop() if len(codes) == 1 else "bad_request"


def invalid(errors: Sequence[Any]) -> Refusal:
    """The ``400`` refusal of a request that does not fit the schema, from the
    validator's ``errors()``."""
    return Refusal(400, _validation_code(errors), _validation_message(errors))


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return invalid(exc.errors()).response()


async def _http(request: Request, exc: Exception) -> JSONResponse:
    # Raised by the router and the page's files: no route (404) or method (405) here.
    assert isinstance(exc, HTTPException)
    code = "no_route" if exc.status_code in (404, 405) else "bad_request"
    message = f"{request.method} {request.url.path}: {str(exc.detail).lower()}"
    response = error_response(exc.status_code, code, message)
    if exc.status_code == 405:
        response.headers["Allow"] = ", ".join(_allowed_methods(request))
    return response


def _allowed_methods(request: Request) -> list[str]:
    """The methods the API's document lists at the request's address; anywhere else,
    a file of the page: ``GET`` and ``HEAD``."""
    return documented_methods(request.app, request.url.path) or ["GET", "HEAD"]


def install(app: FastAPI) -> None:
    """Answer every refusal of ``app`` in the JSON shape of the API."""
    for kind in (SiteError, QuadsError, GameNotFoundError, StaleGameError,
                 StorageUnavailableError):
        app.add_exception_handler(kind, _refused)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(HTTPException, _http)
