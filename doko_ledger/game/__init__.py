"""A Doppelkopf game as decide/evolve over its events."""

from doko_ledger.game.decide import (
    Command,
    DealCards,
    IllegalMove,
    PlayCard,
    SetGameType,
    ShowSchweinchen,
    StartGame,
    decide,
)
from doko_ledger.game.evolve import evolve, fold
from doko_ledger.game.state import GameState, Trick

__all__ = [
    "Command",
    "DealCards",
    "GameState",
    "IllegalMove",
    "PlayCard",
    "SetGameType",
    "ShowSchweinchen",
    "StartGame",
    "Trick",
    "decide",
    "evolve",
    "fold",
]
