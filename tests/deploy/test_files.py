"""The shipped site files say what the code does: ``deploy/quads.toml`` holds every
setting at its default, ``deploy/quads.service`` runs a command line ``quads serve``
accepts, and ``docs/deploy.md`` names every setting."""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import tomllib
from dataclasses import fields
from pathlib import Path

from quads.cli import serve
from quads.web.settings import Settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
CI = Path(__file__).resolve().parents[2] / ".ci" / "run"


def test_the_settings_file_holds_every_setting_at_its_default() -> None:
    table = tomllib.loads((DEPLOY / "quads.toml").read_text(encoding="utf-8"))["limits"]
    assert sorted(table) == sorted(item.name for item in fields(Settings))
    assert Settings.from_file(DEPLOY / "quads.toml") == Settings()


def test_the_guide_names_every_setting() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    missing = [item.name for item in fields(Settings) if f"`{item.name}`" not in guide]
    assert not missing


def test_the_service_runs_a_command_line_quads_serve_takes() -> None:
    unit = (DEPLOY / "quads.service").read_text(encoding="utf-8").replace("\\\n", " ")
    command = next(line.split("=", 1)[1] for line in unit.splitlines()
                   if line.startswith("ExecStart="))
    words = shlex.split(command)
    assert words[1] == "serve"
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    args = parser.parse_args(words[1:])
    assert args.workers == 2
    assert args.forwarded_allow_ips == ["127.0.0.1"]
    assert args.allowed_host == ["quads.example.org"]
    assert args.config == "/etc/quads.toml"


def test_ci_installs_debians_nginx() -> None:
    """CI runs the proxy's tests with Debian's ``nginx`` package (``nginx-light`` is only
    a transitional name for it), as the guide installs it."""
    script = CI.read_text(encoding="utf-8")
    assert re.search(r"\|\| packages\+=\(nginx\)", script)
    assert "nginx-light" not in script
    assert "apt-get install nginx " in DOCS.read_text(encoding="utf-8")
    assert shutil.which("openssl") is not None  # the tests' certificate
