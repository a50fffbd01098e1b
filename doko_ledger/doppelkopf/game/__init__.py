"""A Doppelkopf game as decide/evolve over its events.

The fold (`evolve`, `fold`, the state) is loaded with the package; the commands and `decide`
on first use, so that what only reads and scores games (`doko score`) does not wait for them.
"""

import sys
import types
from typing import TYPE_CHECKING, Any

from doko_ledger.doppelkopf.game.evolve import evolve, fold
from doko_ledger.doppelkopf.game.state import GameState, Trick

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.game.commands import (
        AbandonDeal,
        Announce,
        AnswerPoverty,
        Command,
        DealCards,
        DeclareReservation,
        IllegalMove,
        NameReservation,
        PassPovertyCards,
        PlayCard,
        ReturnPovertyCards,
        ShowHyperschweinchen,
        ShowSchweinchen,
        StartGame,
    )
    from doko_ledger.doppelkopf.game.decide import decide

__all__ = [
    "AbandonDeal",
    "Announce",
    "AnswerPoverty",
    "Command",
    "DealCards",
    "DeclareReservation",
    "GameState",
    "IllegalMove",
    "NameReservation",
    "PassPovertyCards",
    "PlayCard",
    "ReturnPovertyCards",
    "ShowHyperschweinchen",
    "ShowSchweinchen",
    "StartGame",
    "Trick",
    "decide",
    "evolve",
    "fold",
]


def __getattr__(name: str) -> Any:
    """A command class or `decide`, imported when first asked for."""
    if name == "decide":
        from doko_ledger.doppelkopf.game.decide import decide as value
    elif name in __all__:
        from doko_ledger.doppelkopf.game import commands

        value = getattr(commands, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


class _Package(types.ModuleType):
    """Importing the submodule `game.decide` sets the package's `decide` to that module; the
    package's `decide` stays the function, as when it was imported with the package."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "decide" and isinstance(value, types.ModuleType):
            value = value.decide
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
