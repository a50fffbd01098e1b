"""Players' names, as every game and session checks them and finds them."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def name_problem(name: str) -> str | None:
    """Why a player's name cannot be used, or None: names are written in files and tables."""
    if not name.strip():
        return "is empty"
    if name != name.strip():
        return "starts or ends with white space"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        return "holds a control character or line break"
    return None


def find_player(name: str, players: Sequence[str]) -> str | None:
    """The player `name` means, matched without regard to case (`anna` is Anna), or None.
    An exact match wins; a name that fits several players only by case fits none."""
    if name in players:
        return name
    key = name.strip().casefold()
    matches = [p for p in players if p.casefold() == key]
    return matches[0] if len(matches) == 1 else None
