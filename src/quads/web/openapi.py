"""The API's OpenAPI document, completed where FastAPI leaves it loose.

FastAPI writes each route's parameters, bodies and answers from the route's
types (:mod:`quads.web.fields`, :mod:`quads.web.schemas`).  This module adds
what the routes share and FastAPI cannot see:

* every refusal the middleware or the handlers may answer on any route
  (``401``, ``413``, ``415``, ``503``), always as JSON, even on a route whose
  success is a file (the record, the QR code);
* ``links`` from every answer that shows a game (``GameView``) to every route
  that takes a game's id, filling in the id and the revision, so that a client,
  or a stateful fuzzer, can follow a game from its creation to its end.

It also makes routing agree with the document where a fixed address could be
read as a template's (``/api/games/import`` is no game's id): any other method
there is ``405 Method Not Allowed``.
"""

from __future__ import annotations

import re
from typing import Any, get_args

from fastapi import FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema
from starlette.exceptions import HTTPException
from starlette.routing import Route

from quads.web.schemas.live import ClientMessage, ServerMessage
from quads.web.schemas.refusals import ErrorView

__all__ = ["documented_methods", "install", "live_schemas", "refusals"]

_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorView"}}}

_SHARED: dict[str, str] = {
    "400": "The request does not fit this schema",
    "401": "A bearer token that this server did not issue",
    "503": "The database cannot be reached now: nothing changed, try again (Retry-After)",
}
_WITH_BODY: dict[str, str] = {
    "413": "The request body is larger than 64 KiB",
    "415": "The request body is not JSON",
}

_GAME_VIEW = "#/components/schemas/GameView"



def _members(union: Any) -> tuple[type[BaseModel], ...]:
    """The models of an annotated union such as ``ServerMessage``."""
    return get_args(get_args(union)[0])


_EXTRA_MODELS: tuple[type[BaseModel], ...] = (
    ErrorView, *_members(ServerMessage), *_members(ClientMessage))
"""Models no route names but the document describes: the refusals, and the messages
of the live sockets (which OpenAPI has no operations for)."""

_REFUSALS = {
    403: "An online game in which the caller holds no seat, a wrong invitation, or a hint "
         "asked in an online game (`hint_online`)",
    404: "No game with this id that the caller may see",
    409: "The game's state does not allow it now: a stale revision, not the caller's turn, "
         "the game over or not over, a seat taken, nothing to undo",
    422: "Understood, but the rules refuse it: an illegal action, a record that cannot be "
         "replayed, an impossible position",
    429: "Too much at once: too many of these from the caller's address (`rate_limited`), "
         "or the engine is busy with this client's or everyone's work (`engine_busy`); "
         "nothing changed, try again after `Retry-After` seconds",
}


def refusals(*statuses: int, **descriptions: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may refuse with ``statuses`` (besides the
    refusals every route shares); ``descriptions`` (``s404="..."``) replace the usual
    description of a status."""
    return {status: {"description": descriptions.get(f"s{status}", _REFUSALS[status])}
            for status in statuses}


def _shows_a_game(operation: dict[str, Any]) -> str | None:
    """The status of the operation's answer that is a ``GameView``, if any."""
    for status, response in operation.get("responses", {}).items():
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        if status.startswith("2") and schema.get("$ref") == _GAME_VIEW:
            return str(status)
    return None


def _takes_a_game(operation: dict[str, Any]) -> bool:
    return any(p.get("name") == "game_id" and p.get("in") == "path"
               for p in operation.get("parameters", []))


def _has_revision(document: dict[str, Any], operation: dict[str, Any]) -> bool:
    """Whether the operation's body carries the game's ``revision``."""
    schema = (operation.get("requestBody", {}).get("content", {})
              .get("application/json", {}).get("schema", {}))
    refs = [schema.get("$ref")] + [s.get("$ref") for s in schema.get("oneOf", [])]
    components = document["components"]["schemas"]
    return any(ref and "revision" in components[ref.rsplit("/", 1)[1]].get("properties", {})
               for ref in refs)


def complete(document: dict[str, Any]) -> dict[str, Any]:
    """Add the shared refusals and the links to ``document`` (changed in place)."""
    operations = [operation for path, item in document["paths"].items()
                  for operation in item.values() if path.startswith("/api/")]
    targets = [operation for operation in operations if _takes_a_game(operation)]
    for operation in operations:
        responses = operation.setdefault("responses", {})
        if responses.get("422", {}).get("description") == "Validation Error":
            del responses["422"]  # FastAPI's own; this API refuses such requests with 400
        shared = dict(_SHARED)
        if "requestBody" in operation:
            shared.update(_WITH_BODY)
        for status, description in shared.items():
            responses.setdefault(status, {"description": description})
        for status, response in responses.items():
            if status[0] in "45":
                response["content"] = _ERROR
        responses["503"].setdefault("headers", {"Retry-After": {
            "description": "Seconds to wait before trying again",
            "schema": {"type": "integer"}}})
        if "429" in responses:
            responses["429"].setdefault("headers", {"Retry-After": {
                "description": "Seconds until the rate frees a slot",
                "schema": {"type": "integer"}}})
        shown = _shows_a_game(operation)
        if shown is None:
            continue
        links = {}
        for target in targets:
            link: dict[str, Any] = {
                "operationId": target["operationId"],
                "parameters": {"path.game_id": "$response.body#/id"},
                "description": f"{target['operationId']} on the game shown",
            }
            if _has_revision(document, target):
                link["requestBody"] = {"revision": "$response.body#/revision"}
            links[target["operationId"]] = link
        responses[shown]["links"] = links
    _, defs = models_json_schema([(model, "serialization") for model in _EXTRA_MODELS],
                                 ref_template="#/components/schemas/{model}")
    schemas = document["components"]["schemas"]
    schemas.update(defs["$defs"])
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    return document


_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")


def _not_allowed(request: Request) -> None:
    raise HTTPException(status_code=405)


def _guard_fixed_paths(app: FastAPI) -> None:
    """Answer ``405`` at every fixed ``/api/`` address for the methods it lacks, before
    a template (``/api/games/{game_id}``) could take them.  The addresses and methods
    are the document's, read from the routes themselves (the document is built when
    first asked for: building it for every app made would take half a second)."""
    documented: dict[str, set[str]] = {}
    for route in iter_route_contexts(app.routes):
        if (isinstance(route.original_route, APIRoute) and route.include_in_schema
                and route.path is not None):
            documented.setdefault(route.path, set()).update(route.methods or ())
    guards = []
    for path, methods in documented.items():
        if path.startswith("/api/") and "{" not in path:
            others = [m for m in _METHODS if m not in methods]
            guards.append(Route(path, _not_allowed, methods=others, include_in_schema=False))
    app.router.routes[:0] = guards


def documented_methods(app: FastAPI, path: str) -> list[str] | None:
    """The methods the document lists at the address ``path``: those of the matching
    template with the fewest parameters (as routing reads ``/api/games/import``), or
    ``None`` if no template matches."""
    found: tuple[int, list[str]] | None = None
    for template, item in app.openapi()["paths"].items():
        parts = re.split(r"\{[^}]+\}", template)
        if re.fullmatch("[^/]+".join(map(re.escape, parts)), path):
            candidate = (len(parts) - 1, [method.upper() for method in item])
            found = candidate if found is None or candidate[0] < found[0] else found
    return None if found is None else found[1]


def _no_route(request: Request) -> None:
    known = documented_methods(request.app, request.url.path) is not None
    raise HTTPException(status_code=405 if known else 404)


def live_schemas() -> dict[str, Any]:
    """The JSON Schema of the messages on a live socket (``ServerMessage`` and
    ``ClientMessage``), whose game views refer to ``/openapi.json``."""
    adapters: dict[str, TypeAdapter[Any]] = {"ServerMessage": TypeAdapter(ServerMessage),
                                              "ClientMessage": TypeAdapter(ClientMessage)}
    schemas = {}
    for name, adapter in adapters.items():
        schema = adapter.json_schema(ref_template="/openapi.json#/components/schemas/{model}")
        schema.pop("$defs", None)  # each message model is in the document's components
        schemas[name] = schema
    return schemas


def install(app: FastAPI) -> None:
    """Serve the completed document at ``/openapi.json`` (built once, when first asked
    for), and guard the fixed addresses.  Call it once every route is in place."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(get_openapi(
                title=app.title, version=app.version, description=app.description,
                routes=app.routes))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    _guard_fixed_paths(app)
    # Whatever no route under /api/ took: 405 at a known address, else 404 (never a
    # file of the page, which is mounted after the API).
    app.router.routes.append(Route("/api/{rest:path}", _no_route, methods=list(_METHODS),
                                   include_in_schema=False))
