"""What a recorder can ask of a game, and the error a refused command raises."""

from __future__ import annotations

from doko_ledger.doppelkopf.cards import Card, Cards
from doko_ledger.doppelkopf.events import AbandonReason, SummaryCall, SummarySpecial
from doko_ledger.doppelkopf.game.illegal import IllegalMove as IllegalMove  # raised by every command
from doko_ledger.doppelkopf.game.state import GameState, Hand
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, Throw
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.frozen import frozen
from doko_ledger.i18n import msg, render


@frozen
class StartGame:
    game_id: str
    players: tuple[str, ...]
    dealer: int
    rules: RuleSet
    played_on: str | None = None
    note: str | None = None
    solo_owed_by: tuple[str, ...] = ()
    dealt_by: str | None = None
    """Who dealt, when they sit the deal out (a card night of five or more)."""


@frozen
class DealCards:
    hands: tuple[Hand, ...]


@frozen
class DeclareReservation:
    """Say healthy (`healthy=True`) or reservation, in turn from the dealer's left."""

    seat: int
    healthy: bool


@frozen
class NameReservation:
    """Say what the reservation is; `solo` is the solo type for a solo, `throw` why a throw throws."""

    seat: int
    kind: ReservationKind
    solo: GameType | None = None
    throw: Throw | None = None


@frozen
class PassPovertyCards:
    seat: int
    cards: tuple[Card, ...] | None = None


@frozen
class AnswerPoverty:
    seat: int
    accepted: bool


@frozen
class ReturnPovertyCards:
    seat: int
    cards: tuple[Card, ...] | None = None


@frozen
class AbandonDeal:
    reason: AbandonReason = AbandonReason.MISDEAL


@frozen
class Announce:
    """An announcement; `party` is needed only where the record cannot tell the player's party."""

    seat: int
    announcement: Announcement
    party: Party | None = None


@frozen
class SummarizeDeal:
    """Record a deal by its facts; `re_seats` is the soloist alone or the two Re players."""

    game_type: GameType
    re_seats: tuple[int, ...]
    re_points: int
    re_tricks: int | None = None
    kontra_tricks: int | None = None
    announcements: tuple[SummaryCall, ...] = ()
    specials: tuple[SummarySpecial, ...] = ()
    heart_trick: bool = False


@frozen
class EnterValue:
    """Record a deal by its value (docs/rules.md §7): the winners' seats or the losers' (or
    both, when they make up the table), the simple value before bock, and the solo mark."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    value: int
    solo: bool = False


@frozen
class ImposePenalty:
    """A rule violation (docs/rules.md §9); `denials` None: counted from the record."""

    seat: int
    severe: bool
    harms_soloist: bool = False
    denials: int | None = None
    reason: str = ""


@frozen
class ShowSchweinchen:
    seat: int


@frozen
class ShowHyperschweinchen:
    seat: int


@frozen
class PlayCard:
    seat: int
    card: Card


Command = (
    StartGame
    | DealCards
    | DeclareReservation
    | NameReservation
    | PassPovertyCards
    | AnswerPoverty
    | ReturnPovertyCards
    | AbandonDeal
    | Announce
    | SummarizeDeal
    | EnterValue
    | ImposePenalty
    | ShowSchweinchen
    | ShowHyperschweinchen
    | PlayCard
)


def seat_name(state: GameState, seat: int) -> str:
    """The player's name at a seat, for messages (a seat nobody sits at, in the reader's words)."""
    return state.players[seat] if 0 <= seat < len(state.players) else render(msg("seat {seat}", seat=seat))


def cards_text(cards: tuple[Card, ...] | list[Card]) -> Cards:
    """The cards as a message's parameter: the notation in English, the language's letters
    in German and French."""
    return Cards(cards)
