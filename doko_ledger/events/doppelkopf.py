"""The events of a Doppelkopf game, named in the past tense. Payload fields only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from doko_ledger.cards import Card, parse_card
from doko_ledger.events.codec import event_type, register_value
from doko_ledger.rules.game_types import GameType
from doko_ledger.rules.ruleset import RuleSet, rules_from_snapshot

register_value(Card, str, parse_card)
register_value(RuleSet, RuleSet.to_dict, rules_from_snapshot)

Hand = tuple[Card, ...]


@event_type("GameStarted", version=1)
@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game began: players by seat (clockwise), the dealer's seat, the rules in force."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    game_id: str
    players: tuple[str, ...]
    dealer: int
    rules: RuleSet
    played_on: str | None = None


@event_type("CardsDealt", version=1)
@dataclass(frozen=True, slots=True)
class CardsDealt:
    """The four hands as dealt, by seat. Optional: many tables never record hands."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    hands: tuple[Hand, ...]


@event_type("GameTypeSet", version=1)
@dataclass(frozen=True, slots=True)
class GameTypeSet:
    """The game type, given directly; `declarer` is the soloist of a solo."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    game_type: GameType
    declarer: int | None = None


@event_type("SchweinchenShown", version=1)
@dataclass(frozen=True, slots=True)
class SchweinchenShown:
    """A player showed both DA (*Schweinchen*), recorded where hands were not (RULES.md §2)."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int


@event_type("CardPlayed", version=1)
@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A player put a card on the table."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    card: Card


DoppelkopfEvent = GameStarted | CardsDealt | GameTypeSet | SchweinchenShown | CardPlayed
