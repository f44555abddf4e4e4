"""Benchmark of what a refused try to sign in costs the server: its CPU time a request.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/refusal_cost.py [--requests 3000] [--json]

The script starts its own ``quads serve`` on a free port of 127.0.0.1 over a new
SQLite file, trusting 127.0.0.1 as a proxy (``forwarded_allow_ips``), and spends
the tries a minute of two client addresses.  It then sends ``--requests`` tries to
sign in from each, one at a time on a kept connection, and reads the server
process's CPU time (``/proc``) before and after:

- from 127.0.0.2, a client of its own: refused ``429`` at the edge, from the
  request line (``quads.web.middleware.connections``);
- from 127.0.0.1 with ``X-Forwarded-For``, as a proxy's client: its address is in a
  header, so the same refusal comes from the gate's middleware, after uvicorn's
  parsing and the outer ASGI layers (what every refusal cost before the edge);
- for scale, ``GET /api/messages/en``, a small answer of the whole stack.

Only 127.0.0.x is contacted; each phase is bounded by ``--requests``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_flood import start_server

TRY = {"name": "nobody-here", "password": "not the right one"}
# edge_hold 0: every try is answered at once (what a refusal costs, not a hold).
STRICT = ('\nrate_signins_per_address = "2/hour"\nrate_signins = "2/hour"\n'
          'forwarded_allow_ips = ["127.0.0.1"]\nedge_hold = 0.0\n')


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time of the process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def phase(url: str, pid: int, requests: int, method: str, path: str, source: str,
          headers: dict[str, str], expected: int) -> dict[str, float]:
    """``requests`` requests on one kept connection: the server's CPU and the wall
    time a request, in ms."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=url, transport=transport, headers=headers,
                      timeout=10) as client:
        body = TRY if method == "POST" else None
        for _ in range(3):  # the address's tries, then the warm-up
            client.request(method, path, json=body)
        used, started = cpu_seconds(pid), time.perf_counter()
        for _ in range(requests):
            answer = client.request(method, path, json=body)
            if answer.status_code != expected:
                raise SystemExit(f"{path} from {source}: {answer.status_code} {answer.text}")
        wall = time.perf_counter() - started
        used = cpu_seconds(pid) - used
    return {"cpu_ms": round(used / requests * 1000, 3),
            "wall_ms": round(wall / requests * 1000, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_server(Path(directory), STRICT)
        try:
            figures = {
                "refused at the edge": phase(url, process.pid, args.requests, "POST",
                                             "/api/session", "127.0.0.2", {}, 429),
                "refused by the middleware": phase(
                    url, process.pid, args.requests, "POST", "/api/session", "127.0.0.1",
                    {"X-Forwarded-For": "203.0.113.9"}, 429),
                "GET /api/messages/en": phase(url, process.pid, args.requests, "GET",
                                              "/api/messages/en", "127.0.0.3", {}, 200),
            }
        finally:
            process.kill()
            process.wait(timeout=10)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{args.requests} requests a line, one at a time on a kept connection")
    print(f"{'':28s}{'server CPU ms':>14s}{'wall ms':>10s}")
    for name, figure in figures.items():
        print(f"{name:28s}{figure['cpu_ms']:14.3f}{figure['wall_ms']:10.3f}")
    edge, middle = figures["refused at the edge"], figures["refused by the middleware"]
    print(f"the edge's refusal costs {edge['cpu_ms'] / middle['cpu_ms']:.2f} of the "
          "middleware's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
