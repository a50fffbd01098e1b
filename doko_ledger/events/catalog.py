"""Where every event type the ledger can hold is defined. The codec imports these modules
when it meets a type it does not know yet, so a command that never touches Dou Dizhu need
not load it, and any stored row can still be read."""

from __future__ import annotations

import importlib

EVENT_MODULES = (
    "doko_ledger.doppelkopf.events",
    "doko_ledger.doppelkopf.nights.events",
    "doko_ledger.events.annotations",
    "doko_ledger.events.voiding",
    "doko_ledger.doudizhu.events",
)


def load_all() -> None:
    """Import (and so register) every event module."""
    for name in EVENT_MODULES:
        importlib.import_module(name)
