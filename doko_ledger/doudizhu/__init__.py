"""Dou Dizhu (斗地主, "fight the landlord"): the second game the ledger records (docs/rules.md §D).

The rules core (`cards`, `combinations`, `candidates`, `bidding`, `payment`) is pure; the game
layer is `decide(state, command) -> events` and `evolve(state, event) -> state` over a
`DealState`. Importing this package registers the Dou Dizhu event types with the codec.
"""

from doko_ledger.doudizhu.cards import Hand, Rank, deal, parse_card, parse_cards
from doko_ledger.doudizhu.combinations import Combination, Kind, beats, readings, why_not_beats
from doko_ledger.doudizhu.commands import Bid, Command, Deal, PassBid, PassTurn, Play, TakeKitty
from doko_ledger.doudizhu.decide import decide
from doko_ledger.doudizhu.errors import CardError, IllegalBid, IllegalMove, IllegalPlay, PlayerCountError
from doko_ledger.doudizhu.evolve import evolve, fold
from doko_ledger.doudizhu.moves import legal_calls, legal_moves
from doko_ledger.doudizhu.state import DealState, Move, Phase, Side, Trick

__all__ = [
    "Bid",
    "CardError",
    "Combination",
    "Command",
    "Deal",
    "DealState",
    "Hand",
    "IllegalBid",
    "IllegalMove",
    "IllegalPlay",
    "Kind",
    "Move",
    "PassBid",
    "PassTurn",
    "Phase",
    "Play",
    "PlayerCountError",
    "Rank",
    "Side",
    "TakeKitty",
    "Trick",
    "beats",
    "deal",
    "decide",
    "evolve",
    "fold",
    "legal_calls",
    "legal_moves",
    "parse_card",
    "parse_cards",
    "readings",
    "why_not_beats",
]
