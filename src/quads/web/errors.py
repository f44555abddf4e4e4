"""Refusals as JSON: ``{"error": {"code": ..., "message": ...}}`` with a 4xx status.

``message`` is English, for developers.  A page words a refusal in its reader's
language from ``code`` and, where the refusal says more, from ``reason`` (what
exactly is wrong, e.g. ``already_won``) and ``params`` (the values it speaks of,
e.g. ``{"shape": "row1"}``): the library's exceptions carry both
(:class:`quads.errors.QuadsError`), and so may an :class:`ApiError`.

The library's exceptions, the store's and the request validator's are mapped
to the codes of ``docs/web-api.md`` by the handlers that :func:`install`
adds to an app; the web layer's own refusals are :class:`ApiError`.

A request that does not fit the API's schema is refused with ``400`` by the
validator, before any route runs; the library sees only values that fit, so
its refusals (an impossible position, an unreadable record, an illegal move)
are ``422``: the request was understood, and the rules refuse it.
"""

from __future__ import annotations

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
from quads.storage import GameNotFoundError, StaleGameError, StorageUnavailableError
from quads.web.openapi import documented_methods

__all__ = ["ApiError", "error_response", "install", "library_code"]

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


class ApiError(Exception):
    """A refusal of the web layer itself: ``stale``, ``not_your_turn``, ``game_over`` ..."""

    def __init__(self, status: int, code: str, message: str, reason: str = "",
                 /, **params: str | int) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason
        self.params: Params = dict(params)

    @classmethod
    def stale(cls, revision: int, current: int) -> ApiError:
        """The client's ``revision`` is not the game's."""
        return cls(409, "stale",
                   f"revision {revision} is stale: the game is at revision {current}",
                   "", revision=revision, current=current)

    @classmethod
    def not_your_turn(cls, message: str) -> ApiError:
        """A person acts on the computer's turn, or the computer is asked on a person's."""
        return cls(409, "not_your_turn", message)

    @classmethod
    def game_over(cls) -> ApiError:
        """An action after the end of the game."""
        return cls(409, "game_over", "the game is over")

    @classmethod
    def not_found(cls, message: str) -> ApiError:
        """Nothing under this address."""
        return cls(404, "not_found", message)


def error_response(status: int, code: str, message: str, reason: str = "",
                   params: Params | None = None) -> JSONResponse:
    """The JSON answer of a refusal; ``reason`` and ``params`` only when given."""
    error: dict[str, object] = {"code": code, "message": message}
    if reason:
        error["reason"] = reason
    if params:
        error["params"] = dict(params)
    return JSONResponse({"error": error}, status_code=status)


def _validation_message(exc: RequestValidationError) -> str:
    problems = []
    for error in exc.errors():
        if error.get("type") == "json_invalid":
            return f"malformed JSON: {error.get('ctx', {}).get('error', 'cannot be read')}"
        location = [str(part) for part in error.get("loc", ())]
        where = ".".join(location[1:] if location[:1] == ["body"] and location[1:]
                         else location)
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems) or "the request cannot be read"


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, exc.reason, exc.params)


def library_code(exc: QuadsError) -> str:
    """The code of a refusal of the library (``invalid_cell``, ``illegal_action`` ...)."""
    return next(code for kind, code in _LIBRARY_CODES if isinstance(exc, kind))


async def _library_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, QuadsError)
    return error_response(422, library_code(exc), str(exc), exc.reason, exc.params)


async def _not_found(request: Request, exc: Exception) -> JSONResponse:
    return error_response(404, "not_found", str(exc))


async def _stale(request: Request, exc: Exception) -> JSONResponse:
    return error_response(409, "stale", f"{exc}; reload the game")


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    response = error_response(503, "unavailable",
                              "the database cannot be reached now; try again in a moment")
    response.headers["Retry-After"] = "2"
    return response


def _validation_code(exc: RequestValidationError) -> str:
    fields = {str(part) for error in exc.errors() if error.get("type") != "missing"
              for part in error.get("loc", ())}
    codes = {code for field, code in _FIELD_CODES.items() if field in fields}
    return codes.pop() if len(codes) == 1 else "bad_request"


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(400, _validation_code(exc), _validation_message(exc))


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
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(QuadsError, _library_error)
    app.add_exception_handler(GameNotFoundError, _not_found)
    app.add_exception_handler(StaleGameError, _stale)
    app.add_exception_handler(StorageUnavailableError, _unavailable)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(HTTPException, _http)
