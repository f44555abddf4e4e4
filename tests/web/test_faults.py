"""A fault is answered as a refusal is: ``500 internal_error`` in JSON, with the headers
of every answer, logged with its traceback, and the connection kept open for the next
request (``quads.web.middleware.faults``).  Over real HTTP: the app served by uvicorn, as
``quads serve`` serves it, and by ``quads serve`` itself."""

from __future__ import annotations

import http.client
import json
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI, WebSocket
from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.exceptions import ConnectionClosedError, InvalidStatus
from websockets.sync.client import connect as websocket

from e2e.quads_server import free_port
from edge_server import edge_server
from quads.web.app import create_app


def faulty_app(db: Path) -> FastAPI:
    """The app, with routes that fail as no refusal does: in the route, before a live
    socket is accepted and after."""
    app = create_app(db, static_dir=None)
    routes = len(app.router.routes)

    @app.get("/api/fault")
    def fault() -> None:
        raise RuntimeError("a fault of the route")

    @app.websocket("/api/fault/live")
    async def fault_live(socket: WebSocket) -> None:
        raise RuntimeError("a fault before the socket is accepted")

    @app.websocket("/api/fault/accepted")
    async def fault_accepted(socket: WebSocket) -> None:
        await socket.accept()
        await socket.receive_text()
        raise RuntimeError("a fault after the socket is accepted")

    # before the API's own answer to an address it does not have
    app.router.routes[:0] = app.router.routes[routes:]
    del app.router.routes[-3:]
    app.add_middleware(Outermost)
    return app


class Outermost:
    """A middleware outside all of the app's own, which fails at one address."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("path") == "/api/fault/outside":
            raise RuntimeError("a fault outside the app's middleware")
        await self.app(scope, receive, send)


@contextmanager
def serving(app: FastAPI) -> Iterator[int]:
    """``app`` served over HTTP by uvicorn on a free port of 127.0.0.1, in a thread."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_config=None, lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def error_of(answer: http.client.HTTPResponse) -> dict[str, str]:
    """The error object of an answer in the JSON shape of a refusal."""
    assert answer.getheader("content-type") == "application/json"
    body = json.loads(answer.read())
    assert set(body) == {"error"}
    error: dict[str, str] = body["error"]
    assert {"code", "message"} <= set(error)
    return error


def test_a_fault_answers_json_and_keeps_the_connection(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with serving(faulty_app(tmp_path / "games.db")) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            for _ in range(2):
                with caplog.at_level(logging.ERROR, logger="quads.web"):
                    connection.request("GET", "/api/fault")
                    answer = connection.getresponse()
                    assert answer.status == 500
                    assert error_of(answer)["code"] == "internal_error"
                assert answer.getheader("cache-control") == "no-store"
                assert answer.getheader("x-content-type-options") == "nosniff"
            sock = connection.sock
            connection.request("GET", "/api/messages/en")
            answer = connection.getresponse()
            assert answer.status == 200
            answer.read()
            assert connection.sock is sock  # the same connection, never dropped
        finally:
            connection.close()
    faults = [record for record in caplog.records if record.name == "quads.web"]
    assert faults
    assert all(record.exc_info for record in faults)
    assert "a fault of the route" in caplog.text
    assert "GET /api/fault" in caplog.text


def test_a_fault_outside_the_apps_middleware_answers_json(tmp_path: Path) -> None:
    with serving(faulty_app(tmp_path / "games.db")) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", "/api/fault/outside")
            answer = connection.getresponse()
            assert answer.status == 500
            assert error_of(answer)["code"] == "internal_error"
        finally:
            connection.close()


def test_a_fault_of_a_live_socket_answers_json_or_closes_with_1011(tmp_path: Path) -> None:
    with serving(faulty_app(tmp_path / "games.db")) as port:
        with pytest.raises(InvalidStatus) as refused:
            websocket(f"ws://127.0.0.1:{port}/api/fault/live", open_timeout=10)
        response = refused.value.response
        assert response.status_code == 500
        assert response.headers["content-type"] == "application/json"
        assert json.loads(response.body)["error"]["code"] == "internal_error"
        with websocket(f"ws://127.0.0.1:{port}/api/fault/accepted", open_timeout=10) as socket:
            socket.send("hello")
            with pytest.raises(ConnectionClosedError):
                socket.recv(timeout=10)
            assert socket.close_code == 1011


def test_the_device_game_dated_before_any_calendar_is_refused_on_a_kept_connection(
        tmp_path: Path) -> None:
    # 0001-01-01T00:00+01:00 is 0000-12-31 in UTC: it answered 500 in plain text, and
    # the server dropped the connection, so the next request on it was reset.
    with edge_server(tmp_path) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            connection.request("POST", "/api/players")
            answer = connection.getresponse()
            answer.read()
            cookie = answer.getheader("set-cookie", "").split(";", 1)[0]
            sock = connection.sock
            for created in ("0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00-14:00",
                            "9999-12-31T23:59:59+14:00", "9999-12-31T23:59:59-14:00"):
                upload = {"mode": "local", "rules": "quads", "actions": ["give 7"],
                          "created": created, "device_revision": 1}
                connection.request("PUT", f"/api/games/device/{uuid.uuid4()}",
                                   body=json.dumps(upload), headers={
                                       "Content-Type": "application/json", "Cookie": cookie})
                answer = connection.getresponse()
                assert answer.status == 422, created
                assert error_of(answer)["code"] == "invalid_date"
            connection.request("GET", "/api/games", headers={"Cookie": cookie})
            answer = connection.getresponse()
            assert answer.status == 200
            assert json.loads(answer.read())["games"] == []
            assert connection.sock is sock
        finally:
            connection.close()
        assert "Traceback" not in server.log.read_text(errors="replace")

