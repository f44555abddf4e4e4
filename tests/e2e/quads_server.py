"""The real Quads server in a subprocess, for the end-to-end tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``quads serve`` in a subprocess, which a test may stop and start again."""

    def __init__(self, db: Path, port: int, log: Path) -> None:
        self.db = db
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "quads.cli.main", "serve",
                   "--port", str(self.port), "--db", str(self.db)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text(errors='replace')}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/messages/en", timeout=2):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer: {self.log.read_text(errors='replace')}")

    def kill(self) -> None:
        """Stop the server at once, as a crash or a power cut would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None
