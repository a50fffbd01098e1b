"""A Doppelkopf game as decide/evolve over its events."""

from doko_ledger.game.commands import (
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
    ShowSchweinchen,
    StartGame,
)
from doko_ledger.game.decide import decide
from doko_ledger.game.evolve import evolve, fold
from doko_ledger.game.state import GameState, Trick

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
    "ShowSchweinchen",
    "StartGame",
    "Trick",
    "decide",
    "evolve",
    "fold",
]
