"""A device as its owner recognises it in the list of their sessions: the browser and
the system from the ``User-Agent`` header (``Chrome Mobile on Android``), read by
``ua-parser``."""

from __future__ import annotations

import ua_parser

__all__ = ["describe"]

_MAX = 80


def describe(user_agent: str) -> str:
    """A short description of the device that sent ``user_agent``."""
    if not user_agent:
        return "unknown device"
    found = ua_parser.parse(user_agent[:512])
    browser = found.user_agent.family if found.user_agent else None
    system = found.os.family if found.os else None
    if browser and system and browser != "Other" and system != "Other":
        return f"{browser} on {system}"[:_MAX]
    if browser and browser != "Other":
        return browser[:_MAX]
    return user_agent[:40]
