"""``quads serve`` in a subprocess with command-line options, a settings file and,
if asked, a low limit of open files: the server whose edge the tests attack."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from e2e.quads_server import Server, free_port

_LIMITED = ("import resource, runpy, sys; "
            "resource.setrlimit(resource.RLIMIT_NOFILE, ({n}, {n})); "
            "sys.argv = ['quads', *sys.argv[1:]]; "
            "runpy.run_module('quads.cli.main', run_name='__main__')")


class EdgeServer(Server):
    """:class:`Server` with more options (``args``) and a file-handle limit."""

    def __init__(self, db: Path | str, port: int, log: Path, args: Sequence[str] = (),
                 files: int | None = None) -> None:
        super().__init__(db, port, log)
        self.args = list(args)
        self.files = files

    def command(self) -> list[str]:
        command = [*super().command(), *self.args]
        if self.files is not None:
            command[1:3] = ["-c", _LIMITED.format(n=self.files)]
        return command


@contextmanager
def edge_server(tmp_path: Path, *args: str, settings: str = "", files: int | None = None,
                ) -> Iterator[EdgeServer]:
    """A started :class:`EdgeServer` over a fresh SQLite file, with ``settings`` (TOML
    lines) as its ``--config``; stopped afterwards."""
    options = list(args)
    if settings:
        config = tmp_path / "quads.toml"
        config.write_text(settings, encoding="utf-8")
        options += ["--config", str(config)]
    server = EdgeServer(tmp_path / "edge.sqlite3", free_port(), tmp_path / "server.log",
                        options, files)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def connect(port: int, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """A TCP connection to the server on ``port`` from the loopback address ``source``."""
    return socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                    source_address=(source, 0))


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """The time until the server closes ``sock`` (reading and dropping what it
    sends), or ``None`` if it is still open after ``seconds``."""
    started = time.monotonic()
    while (left := seconds - (time.monotonic() - started)) > 0:
        sock.settimeout(left)
        try:
            if not sock.recv(65536):
                return time.monotonic() - started
        except TimeoutError:
            return None
        except ConnectionError:
            return time.monotonic() - started
    return None


def get(port: int, path: str = "/api/messages/en", source: str = "127.0.0.1",
        host: str | None = None, headers: Sequence[str] = (), timeout: float = 10,
        ) -> tuple[int, bytes]:
    """A ``GET`` on a connection of its own: the status and the whole answer."""
    with connect(port, source, timeout) as sock:
        lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}",
                 "Connection: close", *headers, "", ""]
        answer = b""
        try:
            sock.sendall("\r\n".join(lines).encode())
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionError:
            pass
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, answer

