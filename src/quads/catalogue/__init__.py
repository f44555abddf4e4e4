"""The message catalogue: every text shown to players, in English and German.

The catalogue is one flat JSON object per language (``en.json``,
``de.json``) mapping keys to texts with ``{name}`` placeholders.  The library
(hints, outcomes), the server and the web page (which fetches it from
``GET /api/messages/{lang}``) all read these files, so they say the same things
in the same words.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Literal, get_args

__all__ = ["LANGUAGES", "Language", "catalogue", "message"]

Language = Literal["en", "de"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
"""The languages with a catalogue; English is the fallback."""


@cache
def _load(language: str) -> dict[str, str]:
    text = resources.files(__package__).joinpath(f"{language}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"the {language} catalogue is not a JSON object")
    return {str(key): str(value) for key, value in data.items()}


def catalogue(language: str) -> dict[str, str]:
    """The whole catalogue of ``language``, key to text (a new dict).

    :raises KeyError: if there is no catalogue for ``language``.
    """
    if language not in LANGUAGES:
        raise KeyError(f"no message catalogue for {language!r}: expected one of "
                       f"{', '.join(LANGUAGES)}")
    return dict(_load(language))


def message(language: str, key: str, /, **params: object) -> str:
    """The text of ``key`` in ``language``, each ``{name}`` replaced by ``params[name]``.

    A key missing in ``language`` (or an unknown language) falls back to
    English.

    :raises KeyError: if not even the English catalogue has ``key``.
    """
    texts = _load(language) if language in LANGUAGES else {}
    text = texts[key] if key in texts else _load("en")[key]
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", str(value))
    return text
