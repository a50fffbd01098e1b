"""The pure rules core: no I/O, no clock, no globals. All of docs/rules.md lives here."""

from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import TRUMP, CardOrder, card_order
from doko_ledger.doppelkopf.rules.play import legal_plays, next_seat, winning_index
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, RuleSetError, preset, rules_from_mapping

__all__ = [
    "TRUMP",
    "CardOrder",
    "GameType",
    "RuleSet",
    "RuleSetError",
    "card_order",
    "legal_plays",
    "next_seat",
    "preset",
    "rules_from_mapping",
    "winning_index",
]
