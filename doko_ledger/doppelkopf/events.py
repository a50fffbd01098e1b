"""The events of a Doppelkopf game, named in the past tense. Payload fields only."""

from __future__ import annotations

from enum import Enum
from typing import Any

from doko_ledger.doppelkopf.cards import Card, parse_card
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, Throw
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, rules_from_snapshot
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.events.codec import Event, event, register_value, upcaster
from doko_ledger.events.voiding import EventVoided as EventVoided  # re-exported: undo is every game's
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg

register_value(Card, str, parse_card)
register_value(RuleSet, RuleSet.to_dict, rules_from_snapshot, flat_object=True)

Hand = tuple[Card, ...]


class AbandonReason(Enum):
    """Why a deal was thrown in (docs/rules.md §4, §9)."""

    POVERTY_DECLINED = "poverty_declined"
    MISDEAL = "misdeal"
    POVERTY_THROWN = "poverty_thrown"
    THROWN_NINES = "thrown_nines"
    THROWN_KINGS = "thrown_kings"
    THROWN_NINES_AND_KINGS = "thrown_nines_and_kings"
    THROWN_RICHNESS = "thrown_richness"
    FOX_HIGHEST_TRUMP = "fox_highest_trump"

    @property
    def word(self) -> Message:
        """Why, in the reader's language: `misdeal`, `thrown nines`."""
        return _ABANDONED[self]

    @staticmethod
    def said(recorded: str) -> Message | str:
        """Why a deal was thrown in, by the reason its record keeps (`thrown_nines`)."""
        try:
            return AbandonReason(recorded).word
        except ValueError:
            return recorded.replace("_", " ")


_ABANDONED = {
    AbandonReason.POVERTY_DECLINED: msg("poverty declined"),
    AbandonReason.MISDEAL: msg("misdeal"),
    AbandonReason.POVERTY_THROWN: msg("poverty thrown"),
    AbandonReason.THROWN_NINES: msg("thrown nines"),
    AbandonReason.THROWN_KINGS: msg("thrown kings"),
    AbandonReason.THROWN_NINES_AND_KINGS: msg("thrown nines and kings"),
    AbandonReason.THROWN_RICHNESS: msg("thrown richness"),
    AbandonReason.FOX_HIGHEST_TRUMP: msg("fox highest trump"),
}


@event(version=3)
class GameStarted(Event):
    """A game began: players by seat (clockwise), the dealer's seat, the rules in force,
    when it was played, a note (a game file's leading comment), and in a tournament the
    players who still owe their compulsory solo (whose solo the soloist leads, docs/rules.md §9).
    Version 2 added `note` and `solo_owed_by`; version 3 `dealt_by`, who dealt while sitting
    the deal out (five or more at the table; None: the dealer's seat dealt)."""

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


@event(version=1)
class CardsDealt(Event):
    """The four hands as dealt, by seat. Optional: many tables never record hands."""

    hands: tuple[Hand, ...]


@event(version=1)
class ReservationDeclared(Event):
    """A player said healthy (*gesund*) or reservation (*Vorbehalt*), asked from the dealer's left."""

    seat: int
    healthy: bool


@event(version=2)
class ReservationNamed(Event):
    """A reserving player said what the reservation is: marriage, poverty, a solo and its type,
    or a throw and why. Version 2 added the throw."""

    seat: int
    kind: ReservationKind
    solo: GameType | None = None
    throw: Throw | None = None


@upcaster("ReservationNamed", 1)
def _reservation_named_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no throw."""
    return {**payload, "throw": None}


@event(version=1)
class PovertyCardsPassed(Event):
    """The poor player passed three cards face down; `cards` is None where they were not recorded."""

    seat: int
    cards: tuple[Card, ...] | None = None


@event(version=1)
class PovertyAnswered(Event):
    """A player, asked from the poor player's left, accepted or declined the poverty."""

    seat: int
    accepted: bool


@event(version=1)
class PovertyCardsReturned(Event):
    """The acceptor gave three cards back; `cards` is None where they were not recorded."""

    seat: int
    cards: tuple[Card, ...] | None = None


@event(version=2)
class DealAbandoned(Event):
    """The deal was thrown in and scores nothing: nobody took a poverty, a misdeal, or a hand
    thrown in by the rules (docs/rules.md §4). Version 2 added the reasons of the throws."""

    reason: AbandonReason


@upcaster("DealAbandoned", 1)
def _deal_abandoned_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had the same payload and fewer reasons."""
    return payload


@event(version=1)
class AnnouncementMade(Event):
    """A player announced (*Ansage*); `party` is the party the call speaks for."""

    seat: int
    announcement: Announcement
    party: Party


@frozen
class SummaryCall:
    """An announcement in a summarized deal: who said what, in order."""

    seat: int
    announcement: Announcement


@frozen
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


@event(version=2)
class DealSummarized(Event):
    """The facts of a deal written down without its cards: the game type, the Re players
    (the soloist alone), Re's card points, the tricks each party won where known, the
    announcements by player, the special points by party, and whether a trick of four hearts
    was played (a bock trigger, docs/rules.md §9)."""

    game_type: GameType
    re_seats: tuple[int, ...]
    re_points: int
    re_tricks: int | None = None
    kontra_tricks: int | None = None
    announcements: tuple[SummaryCall, ...] = ()
    specials: tuple[SummarySpecial, ...] = ()
    heart_trick: bool = False


@upcaster("DealSummarized", 1)
def _deal_summarized_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 did not say whether a trick of four hearts was played."""
    return {**payload, "heart_trick": False}


@event(version=1)
class DealValued(Event):
    """A deal entered by its value (docs/rules.md §7): the winners' seats, the deal's simple
    value before bock, and the solo mark (the lone player, the only winner or the only loser,
    played a solo). The table worked the value out; no card points, calls or specials are known."""

    winners: tuple[int, ...]
    value: int
    solo: bool = False


@event(version=1)
class SchweinchenShown(Event):
    """A player showed both DA (*Schweinchen*), recorded where hands were not, or called them
    where the rules have them called (option `schweinchen_shown`, docs/rules.md §2)."""

    seat: int


@event(version=1)
class HyperschweinchenShown(Event):
    """A player showed or called both nines of the trump suit (kings without nines), the
    *Hyperschweinchen* (option `hyperschweinchen`, docs/rules.md §2)."""

    seat: int


@event(version=1)
class CardPlayed(Event):
    """A player put a card on the table."""

    seat: int
    card: Card


@event(version=1)
class PenaltyImposed(Event):
    """A rule violation settled with penalty points (docs/rules.md §9): the offender, minor or
    severe, whether it could harm the soloist, the denials that count, and why."""

    seat: int
    severe: bool
    harms_soloist: bool = False
    denials: int = 0
    reason: str = ""


@frozen
class ClaimedLine:
    """A line of a claimed result's derivation as its writer worded it (`caught fox`), what it is
    in doko's derivation (`fox_caught`, `won`, `against_the_old_ones`, `game_points`,
    `doubling`), the party it counts for, and its points (for a doubling, its factor)."""

    item: str
    kind: str
    party: Party | None
    points: int


register_value(
    ClaimedLine,
    lambda c: {"item": c.item, "kind": c.kind, "party": None if c.party is None else c.party.value, "points": c.points},
    lambda d: ClaimedLine(d["item"], d["kind"], None if d["party"] is None else Party(d["party"]), d["points"]),
)


@event(version=1)
class ResultClaimed(Event):
    """A result for this game written by someone else, kept to be checked against the score
    (`doko audit`): who wrote it (`FreeDoko 0.7.13`) and where (a file, a seed), each seat's
    points plus and minus, the winning party (None: nobody), the game value, the derivation as
    they wrote it, and each seat's points as their sheet counted them (None: not given)."""

    source: str
    origin: str
    points: tuple[int, ...]
    winner: Party | None
    value: int
    lines: tuple[ClaimedLine, ...] = ()
    sheet: tuple[int, ...] | None = None


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
    | DealValued
    | SchweinchenShown
    | HyperschweinchenShown
    | CardPlayed
    | PenaltyImposed
    | ResultClaimed
    | EventVoided
)
