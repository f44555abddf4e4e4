"""The operator's settings: a TOML file read exactly, and refused with a clear
message when a key or value is wrong."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from quads.web.settings import Settings, SettingsError, client_address


def test_a_file_sets_the_fields_it_names(tmp_path: Path) -> None:
    path = tmp_path / "quads.toml"
    path.write_text('allowed_hosts = ["quads.example"]\n'
                    '[limits]\nrate_games = "5/minute"\nheader_timeout = 3\n')
    settings = Settings.from_file(path)
    assert settings.rate_games == "5/minute"
    assert settings.header_timeout == 3
    assert settings.allowed_hosts == ("quads.example",)
    assert settings.engine_queue == Settings().engine_queue


@pytest.mark.parametrize(("text", "words"), [
    ("nonsense = 1", "unknown setting 'nonsense'"),
    ('header_timeout = "soon"', "header_timeout: expected float"),
    ("engine_queue = 2.5", "engine_queue: expected int"),
    ("engine_queue = true", "engine_queue: expected int"),
    ('rate_games = "many"', "rate_games: cannot read the rate"),
    ("keep_alive = -1", "keep_alive: must not be negative"),
    ("allowed_hosts = [1]", "allowed_hosts: expected a list of texts"),
    ("[limits", "cannot read"),
])
def test_wrong_settings_are_refused(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "quads.toml"
    path.write_text(text + "\n")
    with pytest.raises(SettingsError, match=words):
        Settings.from_file(path)


def test_a_setting_given_up_is_read_and_ignored_with_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "quads.toml"
    path.write_text("[limits]\nbot_poll = 1.0\nbot_heartbeat = 5\n")
    with caplog.at_level(logging.WARNING, logger="quads.web.settings"):
        settings = Settings.from_file(path)
    assert settings == Settings(bot_heartbeat=5)
    assert "'bot_poll' is no longer used" in caplog.text
    assert "bot_sweep" in caplog.text


def test_serve_refuses_a_wrong_file_before_it_starts(tmp_path: Path) -> None:
    path = tmp_path / "quads.toml"
    path.write_text("rate_games = 3\n")
    result = subprocess.run(
        [sys.executable, "-m", "quads.cli.main", "serve", "--config", str(path),
         "--db", str(tmp_path / "games.sqlite3")],
        capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "rate_games: expected str" in result.stderr


def test_client_addresses_group_ipv6_by_network() -> None:
    assert client_address({"client": ("203.0.113.7", 5000)}) == "203.0.113.7"
    assert client_address({"client": ("2001:db8:1:2::9", 1)}) == "2001:db8:1:2::/64"
    assert client_address({"client": ("2001:db8:1:2:ffff::1", 1)}) == "2001:db8:1:2::/64"
    assert client_address({}) == "unknown"
