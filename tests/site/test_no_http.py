"""The site's domains are used without a web server: importing every module of
:mod:`quads.site` loads no FastAPI, no Starlette and nothing of :mod:`quads.web`."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import quads.site


def _site_modules() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(quads.site.__path__, "quads.site."))


def test_the_site_loads_no_web_framework() -> None:
    modules = _site_modules()
    assert {"quads.site.games.service", "quads.site.lobby.pairing"} <= set(modules)
    program = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('fastapi', 'starlette', 'uvicorn') or m.startswith('quads.web'))))\n"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", program], check=True,
                                       capture_output=True, text=True).stdout)
    assert loaded == []
