"""Where every event type the ledger can hold is defined: the modules each game lists in the
registry (`games`), and the generic ones. The codec imports them when it meets a type it does
not know yet, so a command that never touches a game need not load it, and any stored row can
still be read."""

from __future__ import annotations

import importlib


def load_all() -> None:
    """Import (and so register) every event module: each game's and the generic ones
    (`games.event_modules`)."""
    from doko_ledger.games import event_modules

    for name in event_modules():
        importlib.import_module(name)
