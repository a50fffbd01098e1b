"""Players' names, as every game and session checks them."""

from __future__ import annotations

import unicodedata


def name_problem(name: str) -> str | None:
    """Why a player's name cannot be used, or None: names are written in files and tables."""
    if not name.strip():
        return "is empty"
    if name != name.strip():
        return "starts or ends with white space"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        return "holds a control character or line break"
    return None
