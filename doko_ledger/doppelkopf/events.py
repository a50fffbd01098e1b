"""The events of a Doppelkopf game, named in the past tense. Payload fields only."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from doko_ledger.doppelkopf.cards import Card, parse_card
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import ReservationKind
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, rules_from_snapshot
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.events.codec import event_type, register_value, upcaster
from doko_ledger.events.voiding import EventVoided as EventVoided  # re-exported: undo is every game's

register_value(Card, str, parse_card)
register_value(RuleSet, RuleSet.to_dict, rules_from_snapshot)

Hand = tuple[Card, ...]


class AbandonReason(Enum):
    POVERTY_DECLINED = "poverty_declined"
    MISDEAL = "misdeal"


@event_type("GameStarted", version=3)
@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game began: players by seat (clockwise), the dealer's seat, the rules in force,
    when it was played, a note (a game file's leading comment), and in a tournament the
    players who still owe their compulsory solo (whose solo the soloist leads, docs/rules.md §9).
    Version 2 added `note` and `solo_owed_by`; version 3 `dealt_by`, who dealt while sitting
    the deal out (five or more at the table; None: the dealer's seat dealt)."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    game_id: str
    players: tuple[str, ...]
    dealer: int
    rules: RuleSet
    played_on: str | None = None
    note: str | None = None
    solo_owed_by: tuple[str, ...] = ()
    dealt_by: str | None = None


@upcaster("GameStarted", 1)
def _game_started_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no note and no tournament."""
    return {**payload, "note": None, "solo_owed_by": []}


@upcaster("GameStarted", 2)
def _game_started_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 2 did not say who dealt from outside the four."""
    return {**payload, "dealt_by": None}


@event_type("CardsDealt", version=1)
@dataclass(frozen=True, slots=True)
class CardsDealt:
    """The four hands as dealt, by seat. Optional: many tables never record hands."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    hands: tuple[Hand, ...]


@event_type("ReservationDeclared", version=1)
@dataclass(frozen=True, slots=True)
class ReservationDeclared:
    """A player said healthy (*gesund*) or reservation (*Vorbehalt*), asked from the dealer's left."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    healthy: bool


@event_type("ReservationNamed", version=1)
@dataclass(frozen=True, slots=True)
class ReservationNamed:
    """A reserving player said what the reservation is: marriage, poverty, or a solo and its type."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    kind: ReservationKind
    solo: GameType | None = None


@event_type("PovertyCardsPassed", version=1)
@dataclass(frozen=True, slots=True)
class PovertyCardsPassed:
    """The poor player passed three cards face down; `cards` is None where they were not recorded."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    cards: tuple[Card, ...] | None = None


@event_type("PovertyAnswered", version=1)
@dataclass(frozen=True, slots=True)
class PovertyAnswered:
    """A player, asked from the poor player's left, accepted or declined the poverty."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    accepted: bool


@event_type("PovertyCardsReturned", version=1)
@dataclass(frozen=True, slots=True)
class PovertyCardsReturned:
    """The acceptor gave three cards back; `cards` is None where they were not recorded."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    cards: tuple[Card, ...] | None = None


@event_type("DealAbandoned", version=1)
@dataclass(frozen=True, slots=True)
class DealAbandoned:
    """The deal was thrown in and scores nothing: nobody took a poverty, or a misdeal."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    reason: AbandonReason


@event_type("AnnouncementMade", version=1)
@dataclass(frozen=True, slots=True)
class AnnouncementMade:
    """A player announced (*Ansage*); `party` is the party the call speaks for."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    announcement: Announcement
    party: Party


@dataclass(frozen=True, slots=True)
class SummaryCall:
    """An announcement in a summarized deal: who said what, in order."""

    seat: int
    announcement: Announcement


@dataclass(frozen=True, slots=True)
class SummarySpecial:
    """A special point in a summarized deal: its kind, the party that scored it, and for a
    fox or a caught Karlchen the seat whose card was caught."""

    kind: SpecialKind
    party: Party
    caught_from: int | None = None


register_value(
    SummaryCall,
    lambda c: {"seat": c.seat, "announcement": c.announcement.value},
    lambda d: SummaryCall(d["seat"], Announcement(d["announcement"])),
)
register_value(
    SummarySpecial,
    lambda s: {"kind": s.kind.value, "party": s.party.value, "caught_from": s.caught_from},
    lambda d: SummarySpecial(SpecialKind(d["kind"]), Party(d["party"]), d.get("caught_from")),
)


@event_type("DealSummarized", version=1)
@dataclass(frozen=True, slots=True)
class DealSummarized:
    """The facts of a deal written down without its cards: the game type, the Re players
    (the soloist alone), Re's card points, the tricks each party won where known, the
    announcements by player, and the special points by party."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    game_type: GameType
    re_seats: tuple[int, ...]
    re_points: int
    re_tricks: int | None = None
    kontra_tricks: int | None = None
    announcements: tuple[SummaryCall, ...] = ()
    specials: tuple[SummarySpecial, ...] = ()


@event_type("SchweinchenShown", version=1)
@dataclass(frozen=True, slots=True)
class SchweinchenShown:
    """A player showed both DA (*Schweinchen*), recorded where hands were not (docs/rules.md §2)."""

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


@event_type("PenaltyImposed", version=1)
@dataclass(frozen=True, slots=True)
class PenaltyImposed:
    """A rule violation settled with penalty points (docs/rules.md §9): the offender, minor or
    severe, whether it could harm the soloist, the denials that count, and why."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    seat: int
    severe: bool
    harms_soloist: bool = False
    denials: int = 0
    reason: str = ""


DoppelkopfEvent = (
    GameStarted
    | CardsDealt
    | ReservationDeclared
    | ReservationNamed
    | PovertyCardsPassed
    | PovertyAnswered
    | PovertyCardsReturned
    | DealAbandoned
    | AnnouncementMade
    | DealSummarized
    | SchweinchenShown
    | CardPlayed
    | PenaltyImposed
    | EventVoided
)
