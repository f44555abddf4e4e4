"""The shipped site set-up as an operator runs it, for the tests: Debian's nginx
with ``deploy/nginx.conf`` in front of ``quads serve --workers 2`` on PostgreSQL
(:func:`proxied_site`), and :class:`Target`, the address a test's browser uses:
straight to ``quads serve`` or through the proxy, so that one test runs both ways.

The site's file is the shipped one with its ports, certificate and paths put in
for the test, and its two client timeouts shortened from 10 s and 30 s to 5 s so
that the tests wait less (and not to 2 s: a busy test machine may take that long
between a socket's TLS handshake and its request, which nginx answers by closing
the connection with no answer at all).
"""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as websocket

from e2e.quads_server import free_port
from edge_server import EdgeServer
from postgres_server import PostgresServer
from quads.web.settings import Settings, settings_toml

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
NGINX = Path("/usr/sbin/nginx")
SITE = "quads.example.org"
WORKERS = 2


@dataclass
class Site:
    """The proxy's HTTPS address, its certificate and the server behind it."""

    port: int
    http_port: int
    tls: ssl.SSLContext
    server: EdgeServer
    prefix: Path
    postgres: PostgresServer

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def database(self) -> str:
        """The URL of the site's database."""
        return str(self.server.db)

    def client(self, source: str = "127.0.0.1") -> httpx.Client:
        """A browser of the site, from the loopback address ``source``."""
        transport = httpx.HTTPTransport(verify=self.tls, local_address=source)
        return httpx.Client(base_url=self.base, transport=transport, trust_env=False,
                            headers={"Host": SITE}, timeout=15)

    @property
    def socket_tls(self) -> ssl.SSLContext:
        """The TLS of a live socket's client: the site's certificate, TLS 1.2 at most.

        The tests' WebSocket client (``websockets.sync``) reads the connection in a
        thread of its own while the caller writes it, and Python's TLS sockets are not
        safe for that: under TLS 1.3 the proxy's session tickets arrive just after the
        handshake, as the opening request is written, and about one opening in three
        hundred lost its request (the proxy waited for it, then closed the connection
        without a word).  TLS 1.2 sends its tickets within the handshake, before the
        client's thread starts.  Browsers, and the HTTP tests, keep TLS 1.3."""
        context = ssl.create_default_context(cafile=str(self.prefix / "cert.pem"))
        context.maximum_version = ssl.TLSVersion.TLSv1_2
        return context

    def raw(self, source: str = "127.0.0.1") -> ssl.SSLSocket:
        """A TLS connection to the proxy from ``source``, its handshake done."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10,
                                        source_address=(source, 0))
        return self.tls.wrap_socket(sock, server_hostname=SITE)


def _substitute(text: str, changes: dict[str, str]) -> str:
    for old, new in changes.items():
        assert old in text, f"deploy/nginx.conf no longer holds {old!r}"
        text = text.replace(old, new)
    return text


def _certificate(prefix: Path) -> tuple[Path, Path]:
    cert, key = prefix / "cert.pem", prefix / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={SITE}",
         "-addext", f"subjectAltName=DNS:{SITE},IP:127.0.0.1"],
        check=True, capture_output=True, timeout=30)
    return cert, key


def nginx_config(prefix: Path, upstream: int, port: int, http_port: int) -> Path:
    """``deploy/nginx.conf`` for this test's ports and paths, in a main file of its own."""
    cert, key = _certificate(prefix)
    site = _substitute((DEPLOY / "nginx.conf").read_text(encoding="utf-8"), {
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{upstream};",
        "    listen [::]:80;\n": "",
        "    listen [::]:443 ssl http2;\n": "",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{port} ssl http2;",
        f"/etc/letsencrypt/live/{SITE}/fullchain.pem": str(cert),
        f"/etc/letsencrypt/live/{SITE}/privkey.pem": str(key),
        "root /var/www/letsencrypt;": f"root {prefix};",
        "client_header_timeout 10s;": "client_header_timeout 5s;",
        "client_body_timeout 30s;": "client_body_timeout 5s;",
    })
    (prefix / "site.conf").write_text(site, encoding="utf-8")
    temp = {name: prefix / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    main = f"""\
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {prefix}/access.log;
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    include {prefix}/site.conf;
}}
"""
    (prefix / "nginx.conf").write_text(main, encoding="utf-8")
    return prefix / "nginx.conf"


@contextmanager
def proxied_site(postgres: PostgresServer, prefix: Path, settings: Settings,
                 proxy: bool = True) -> Iterator[Site]:
    """nginx in front of ``quads serve --workers 2`` with ``settings``, on a database of
    its own (dropped afterwards); stopped on leaving.  Without ``proxy``, the server
    alone (its :class:`Target` ``direct`` only)."""
    assert NGINX.exists() or not proxy, "CI must install nginx (.ci/run does)"
    postgres.start()
    database = postgres.create_database("site")
    upstream, port, http_port = free_port(), free_port(), free_port()
    (prefix / "quads.toml").write_text(settings_toml(settings), encoding="utf-8")
    server = EdgeServer(postgres.url(database), upstream, prefix / "quads.log", [
        "--workers", str(WORKERS), "--forwarded-allow-ips", "127.0.0.1", "--allowed-host",
        SITE, "--allowed-host", "127.0.0.1", "--config", str(prefix / "quads.toml")])
    nginx = None
    try:
        server.start()
        config = nginx_config(prefix, upstream, port, http_port)
        tls = ssl.create_default_context(cafile=str(prefix / "cert.pem"))
        here = Site(port, http_port, tls, server, prefix, postgres)
        if not proxy:
            yield here
            return
        nginx = subprocess.Popen([str(NGINX), "-p", str(prefix), "-c", str(config),
                                  "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                                 stderr=(prefix / "nginx.out").open("wb"))
        deadline = time.monotonic() + 20
        while True:
            assert nginx.poll() is None, (prefix / "nginx.out").read_text()
            try:
                with here.client() as client:
                    if client.get("/api/messages/en").status_code == 200:
                        break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (prefix / "error.log").read_text()
            time.sleep(0.2)
        yield here
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        server.stop()
        postgres.start()
        postgres.drop_database(database)


@dataclass(frozen=True)
class Target:
    """Where a test's browser sends its requests: ``direct`` to ``quads serve`` (no
    proxy), or through the ``proxy``.  Its clients come from 127.0.``block``.x, so that
    the two ways never share a client address (and so a limit) on one server."""

    name: str
    site: Site
    block: int

    @property
    def proxied(self) -> bool:
        return self.name == "proxy"

    @property
    def port(self) -> int:
        return self.site.port if self.proxied else self.site.server.port

    @property
    def base(self) -> str:
        """The page's own address, which is also its ``Origin``."""
        scheme = "https" if self.proxied else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return self.base

    @property
    def tls(self) -> ssl.SSLContext | None:
        return self.site.tls if self.proxied else None

    def source(self, n: int) -> str:
        """The ``n``-th client address of this way (1 to 254)."""
        assert 1 <= n <= 254
        return f"127.0.{self.block}.{n}"

    def client(self, n: int, **headers: str) -> httpx.Client:
        """A browser from :meth:`source` ``n``, with its own cookies."""
        transport = httpx.HTTPTransport(verify=self.tls or True, local_address=self.source(n))
        return httpx.Client(base_url=self.base, transport=transport, trust_env=False,
                            headers=headers, timeout=15)

    def live(self, game_id: str, n: int, cookie: str | None = None,
             **kwargs: Any) -> ClientConnection:
        """A live socket on ``game_id`` from :meth:`source` ``n``, as the page opens it."""
        return self.socket(f"/api/games/{game_id}/live", n, cookie, **kwargs)

    def socket(self, path: str, n: int, cookie: str | None = None,
               **kwargs: Any) -> ClientConnection:
        """A WebSocket on ``path`` (a game's live socket, the lobby's) from :meth:`source`
        ``n``, as the page opens it."""
        scheme = "wss" if self.proxied else "ws"
        headers = {"Cookie": cookie} if cookie else {}
        return websocket(f"{scheme}://127.0.0.1:{self.port}{path}",
                         ssl=self.site.socket_tls if self.proxied else None,
                         server_hostname=SITE if self.proxied else None,
                         source_address=(self.source(n), 0), open_timeout=10,
                         origin=self.origin,  # type: ignore[arg-type]
                         additional_headers=headers, **kwargs)
