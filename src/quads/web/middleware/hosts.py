"""Which ``Host`` a request may name: the defence against DNS rebinding.

A page of another site that points its own name at ``127.0.0.1`` could otherwise
talk to a local ``quads serve`` as if it were that site.  :class:`HostCheckMiddleware`
refuses a request (or a live socket) whose ``Host`` is not one of
``Settings.allowed_hosts`` with ``400 unknown_host``.  With no names set, a server
that listens on a loopback address answers only the loopback names (``localhost``,
``127.0.0.1``, ``::1``, on any port), and one that listens elsewhere answers any
name (``quads serve`` then warns that ``--allowed-host`` should be set).

A name may be given with a port (``example.org:8443``: only that port) or without
(any port); ``*.example.org`` allows the subdomains of ``example.org``; ``*`` allows
any host.

Whatever the names allowed, a ``Host`` that is not a plain ``host[:port]`` (RFC 9110,
section 7.2, and RFC 3986, section 3.2.2) is refused with ``400 invalid_host``
(:func:`well_formed`): a name of letters, digits, ``-``, ``.``, ``_`` and ``~``, an
IPv4 address or an IPv6 address in brackets, then a port of digits, if any.  Userinfo
(``127.0.0.1:80@evil.example``), a path, spaces, a second port or a second ``Host``
never reach the rules above, nor anything else that reads the ``Host``.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from quads.web.errors import error_response

__all__ = ["LOOPBACK_NAMES", "HostCheckMiddleware", "HostRule", "is_loopback", "well_formed"]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""The names a server bound to loopback answers by default."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine only."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


_NAME = re.compile(r"[A-Za-z0-9._~-]{1,253}")
"""A registered name (RFC 3986's ``reg-name``) without percent-escapes or sub-delimiters,
which no host name needs; an IPv4 address is one too."""
_PORT = re.compile(r"[0-9]{1,5}")


def well_formed(host: str) -> bool:
    """Whether ``host`` (a ``Host`` header) is a plain ``host[:port]``: a name, an IPv4
    address or a bracketed IPv6 address, and a port from 0 to 65535, if any."""
    if host.startswith("["):
        address, bracket, port = host[1:].partition("]")
        if not bracket or "%" in address:  # no zone: it means nothing to another machine
            return False
        try:
            ipaddress.IPv6Address(address)
        except ValueError:
            return False
    else:
        address, colon, port = host.partition(":")
        if not _NAME.fullmatch(address):
            return False
        port = colon + port
    if not port:
        return True
    return (port.startswith(":") and _PORT.fullmatch(port[1:]) is not None
            and int(port[1:]) <= 65_535)


def _split(host: str) -> tuple[str, str | None]:
    """``host[:port]`` (``[v6]:port`` for IPv6) as its lower-case name and port."""
    host = host.strip().lower()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest[1:] if rest.startswith(":") and rest[1:] else None
    if host.count(":") == 1:
        name, _, port = host.partition(":")
        return name, port or None
    return host, None


class HostRule:
    """The hosts allowed: names with or without a port, ``*.domain``, or ``*``."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = [_split(name) for name in names if name.strip()]
        self.any = any(name == "*" for name, _ in self.names)

    def allows(self, host: str) -> bool:
        """Whether a request whose ``Host`` header is ``host`` is answered."""
        if self.any:
            return True
        name, port = _split(host)
        for allowed, allowed_port in self.names:
            if allowed_port is not None and allowed_port != port:
                continue
            if name == allowed or (allowed.startswith("*.") and name.endswith(allowed[1:])):
                return True
        return False


class HostCheckMiddleware:
    """Refuse a ``Host`` that is not a plain ``host[:port]`` with ``400 invalid_host``,
    and an unknown one with ``400 unknown_host`` (this module's description)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        names = tuple(allowed_hosts)
        self.rule = HostRule(names) if names else None
        self.loopback = HostRule(LOOPBACK_NAMES)

    def _rule(self, scope: Scope) -> HostRule | None:
        if self.rule is not None:
            return self.rule
        server = scope.get("server")
        if server and is_loopback(str(server[0])):
            return self.loopback
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rule = self._rule(scope)
        hosts = Headers(scope=scope).getlist("host")
        host = hosts[0] if hosts else ""
        if len(hosts) > 1 or (host and not well_formed(host)):
            answer = error_response(400, "invalid_host",
                                    "the Host header is not one host name and a port")
        elif rule is None or rule.allows(host):
            await self.app(scope, receive, send)
            return
        else:
            answer = error_response(400, "unknown_host",
                                    "this server does not answer to that host name")
        if scope["type"] == "websocket":
            if "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": 1008})
                return
            await send({"type": "websocket.http.response.start", "status": 400,
                        "headers": answer.raw_headers})
            await send({"type": "websocket.http.response.body", "body": answer.body})
            return
        await answer(scope, receive, send)
