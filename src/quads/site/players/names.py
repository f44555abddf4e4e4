"""Names for players who have not chosen one: friendly, and telling nothing about them."""

from __future__ import annotations

import secrets

__all__ = ["made_up_name"]

_ADJECTIVES = (
    "Amber", "Brave", "Bright", "Calm", "Clever", "Cosmic", "Curious", "Daring", "Gentle",
    "Golden", "Happy", "Hollow", "Jolly", "Keen", "Lively", "Lucky", "Merry", "Mighty",
    "Nimble", "Patient", "Proud", "Quick", "Quiet", "Round", "Silver", "Sly", "Square",
    "Steady", "Swift", "Tall", "Tiny", "Wise",
)
_ANIMALS = (
    "Badger", "Beaver", "Crane", "Dolphin", "Eagle", "Falcon", "Ferret", "Fox", "Gecko",
    "Heron", "Ibex", "Koala", "Lark", "Lemur", "Lynx", "Marten", "Moose", "Newt", "Otter",
    "Owl", "Panda", "Puffin", "Quail", "Raven", "Robin", "Seal", "Stork", "Swan", "Tapir",
    "Toucan", "Walrus", "Wren",
)


def made_up_name() -> str:
    """A random name such as ``Quiet Heron 42`` (32 x 32 x 100 of them)."""
    return (f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_ANIMALS)} "
            f"{secrets.randbelow(100)}")
