"""The state of one Doppelkopf game, as folded from its events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from doko_ledger.doppelkopf.cards import FUCHS, Card
from doko_ledger.doppelkopf.events import DealSummarized, PenaltyImposed
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import CardOrder, card_order, game_card_order
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.reservations import Named
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.value import ValueDeal
from doko_ledger.frozen import frozen

Hand = tuple[Card, ...]


_SEATS_FROM = tuple(tuple((leader + i) % SEATS for i in range(SEATS)) for leader in range(SEATS))


class Trick:
    """A trick: who led, the cards in play order, and (once complete) who won it.

    Never changed once built; compared, hashed and unpacked (`number, leader, cards, winner =
    trick`) by its four fields. A class with slots of its own rather than a named tuple or a
    frozen dataclass: the fold builds one for every card, and a compiled build of the game
    core can make it a native class. The values derived from it (`plays`, `points`) are kept
    once computed: every read model and the score read them, some several times.
    """

    __slots__ = ("_plays", "_points", "cards", "leader", "number", "winner")

    def __init__(self, number: int, leader: int, cards: tuple[Card, ...] = (), winner: int | None = None) -> None:
        self.number = number
        self.leader = leader
        self.cards = cards
        self.winner = winner
        self._plays: tuple[tuple[int, Card], ...] | None = None
        self._points = -1

    def __iter__(self) -> Iterator[Any]:
        return iter((self.number, self.leader, self.cards, self.winner))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trick):
            return NotImplemented
        return (self.number, self.leader, self.cards, self.winner) == (
            other.number,
            other.leader,
            other.cards,
            other.winner,
        )

    def __hash__(self) -> int:
        return hash((self.number, self.leader, self.cards, self.winner))

    def __repr__(self) -> str:
        return f"Trick(number={self.number!r}, leader={self.leader!r}, cards={self.cards!r}, winner={self.winner!r})"

    def seat_of(self, index: int) -> int:
        """The seat that played the `index`-th card of this trick."""
        return (self.leader + index) % SEATS

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) in play order."""
        plays = self._plays
        if plays is None:
            plays = self._plays = tuple(zip(_SEATS_FROM[self.leader], self.cards))  # noqa: B905 (a trick may be incomplete)
        return plays

    @property
    def points(self) -> int:
        """The card points in the trick."""
        points = self._points
        if points < 0:
            cards = self.cards
            if len(cards) == SEATS:  # a complete trick: no list to sum
                first, second, third, fourth = cards
                points = first.points + second.points + third.points + fourth.points
            else:
                points = sum([c.points for c in cards])
            self._points = points
        return points

    @property
    def complete(self) -> bool:
        return len(self.cards) == SEATS


class Call(NamedTuple):
    """An announcement as made: who, what, for which party, after how many of their own cards."""

    seat: int
    announcement: Announcement
    party: Party
    played: int
    trick: int
    tricks_before: int = 0
    """The tricks played before the one the call falls in; a call between two tricks falls in
    the trick just completed (what `deadlines_count: tricks` counts, docs/rules.md §5)."""


@frozen
class PovertyExchange:
    """The poverty so far: the poor seat, the cards passed (None: not recorded), the answers
    from the poor player's left, and the cards returned."""

    poor: int
    passed: bool = False
    passed_cards: tuple[Card, ...] | None = None
    answers: tuple[tuple[int, bool], ...] = ()
    returned: bool = False
    returned_cards: tuple[Card, ...] | None = None

    @property
    def acceptor(self) -> int | None:
        return next((seat for seat, accepted in self.answers if accepted), None)

    @property
    def next_to_answer(self) -> int | None:
        """The seat asked next (from the poor player's left), or None when answered or all declined."""
        if not self.passed or self.acceptor is not None or len(self.answers) == SEATS - 1:
            return None
        return (self.poor + 1 + len(self.answers)) % SEATS


@dataclass(frozen=True)
class GameState:
    """Everything known about a game after some of its events.

    `hands` is None when the deal was not recorded; then only the cards played are known.
    """

    game_id: str = ""
    players: tuple[str, ...] = ()
    dealer: int = 0
    rules: RuleSet = RuleSet()
    played_on: str | None = None
    note: str | None = None
    solo_owed_by: tuple[str, ...] = ()
    dealt_by: str | None = None
    """Who dealt while sitting the deal out (five or more at the table); None: the dealer seat."""
    started: bool = False
    dealt: tuple[Hand, ...] | None = None
    hands: tuple[Hand, ...] | None = None
    game_type: GameType | None = None
    declarer: int | None = None
    schweinchen_seat: int | None = None
    hyperschweinchen_seat: int | None = None
    declared: tuple[tuple[int, bool], ...] = ()
    named: tuple[Named, ...] = ()
    poverty: PovertyExchange | None = None
    abandoned: str | None = None
    calls: tuple[Call, ...] = ()
    summary: DealSummarized | None = None
    valued: ValueDeal | None = None
    """A deal entered by its value (docs/rules.md §7): who won and the value, nothing else."""
    penalties: tuple[PenaltyImposed, ...] = ()
    tricks: tuple[Trick, ...] = ()
    current: Trick | None = None

    def but(self, **changes: Any) -> GameState:
        """A copy with some fields changed: `dataclasses.replace` without its per-call overhead,
        for the fold's hot path (GameState has no `__post_init__` to skip)."""
        fields = self.__dict__.copy()  # a copy of a dict is one block copy: no item is inserted
        fields.update(changes)
        new = object.__new__(GameState)
        object.__setattr__(new, "__dict__", fields)
        return new

    @property
    def order(self) -> CardOrder:
        """The card order in force (normal order until the game type is set)."""
        game_type = self.game_type or GameType.NORMAL
        rules = self.rules
        if rules.dullen and self.schweinchen_seat is None:
            return card_order(game_type)
        return game_card_order(
            game_type, rules, self.schweinchen_seat is not None, self.hyperschweinchen_seat is not None
        )

    @property
    def hand_size(self) -> int:
        return self.rules.hand_size

    @property
    def finished(self) -> bool:
        """All tricks played, or the deal recorded by its facts or its value only."""
        return self.summary is not None or self.valued is not None or len(self.tricks) == self.hand_size

    @property
    def over(self) -> bool:
        """Nothing more is played: every trick played (or the deal recorded by its facts), the
        deal thrown in, or a severe penalty voided it."""
        return self.finished or self.abandoned is not None or self.void

    @property
    def first_leader(self) -> int:
        """Left of the dealer; the soloist of a declared solo under `soloist_leads` (docs/rules.md §3)
        or of a tournament's compulsory solo (§9)."""
        if self.game_type is not None and self.game_type.is_declared_solo and self.declarer is not None:
            compulsory = self.players[self.declarer] in self.solo_owed_by
            if self.rules.soloist_leads or compulsory:
                return self.declarer
        return (self.dealer + 1) % SEATS

    @property
    def dealer_name(self) -> str:
        """Who dealt: the dealer seat's player, or the one who dealt while sitting out."""
        return self.dealt_by if self.dealt_by is not None else self.players[self.dealer]

    @property
    def void(self) -> bool:
        """A severe penalty voided the game (docs/rules.md §9): nothing more is played."""
        return bool(self.penalties) and any(p.severe for p in self.penalties)

    @property
    def ready(self) -> bool:
        """True once the reservations (and a poverty's exchange) are done and the deal stands."""
        if self.game_type is None or self.abandoned is not None or self.void:
            return False
        return self.poverty is None or self.poverty.returned

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is, or None before play can start and after the last trick."""
        if not self.ready or self.finished:
            return None
        if self.current is not None:
            return self.current.seat_of(len(self.current.cards))
        if self.tricks:
            return self.tricks[-1].winner
        return self.first_leader

    @property
    def cards_played(self) -> tuple[Card, ...]:
        played = [c for t in self.tricks for c in t.cards]
        if self.current is not None:
            played.extend(self.current.cards)
        return tuple(played)

    def played_by(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat has played so far, in order."""
        out = [c for t in self.all_tricks for s, c in t.plays if s == seat]
        return tuple(out)

    @property
    def tricks_before(self) -> int:
        """The tricks played before the one being played; a trick just completed is still the
        one being played until the next card is led (docs/rules.md §5, `deadlines_count`)."""
        done = len(self.tricks)
        return done - 1 if done and self.current is None else done

    @property
    def all_tricks(self) -> tuple[Trick, ...]:
        """Completed tricks and the one on the table, if any."""
        return self.tricks + ((self.current,) if self.current is not None else ())

    def points_won(self) -> tuple[int, ...]:
        """Card points each seat has taken in tricks."""
        won = [0] * SEATS
        for trick in self.tricks:
            assert trick.winner is not None
            won[trick.winner] += trick.points
        return tuple(won)

    def tricks_won(self) -> tuple[int, ...]:
        won = [0] * SEATS
        for trick in self.tricks:
            assert trick.winner is not None
            won[trick.winner] += 1
        return tuple(won)

    def seat_of(self, player: str) -> int | None:
        try:
            return self.players.index(player)
        except ValueError:
            return None


def schweinchen_holder(hands: tuple[Hand, ...], card: Card = FUCHS) -> int | None:
    """The seat holding both DA (or both of another Schweinchen card), if any (docs/rules.md §2,
    option `schweinchen`)."""
    for seat, hand in enumerate(hands):
        if hand.count(card) == 2:
            return seat
    return None
