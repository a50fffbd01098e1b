"""Reservations (*Vorbehalt*): who is asked when, and which one sets the game (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum

from doko_ledger.doppelkopf.cards import ALTE, FUCHS, Card, Cards, Rank, Suit
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, plural, render

DEFAULT_RULES = RuleSet()
POVERTY_MAX_TRUMPS = 3
POVERTY_CARDS = 3


class ReservationKind(Enum):
    """What a reservation turns out to be, in rising precedence (a throw goes before a
    marriage or a poverty, and with `throws_before_solo` before a solo too)."""

    MARRIAGE = "marriage"
    POVERTY = "poverty"
    SOLO = "solo"
    THROW = "throw"

    @property
    def word(self) -> Message:
        """The reservation in the reader's language (Hochzeit, Armut; mariage, pauvreté)."""
        return _KIND_WORDS[self]

    def localized(self, language: str) -> str:
        return render(self.word, language)


class Throw(Enum):
    """Why a hand may throw the deal in (docs/rules.md §4): so many nines, kings, nines and kings
    together, so many card points, or the DA as the hand's highest trump."""

    NINES = "nines"
    KINGS = "kings"
    NINES_AND_KINGS = "nines_and_kings"
    RICHNESS = "richness"
    FOX_HIGHEST_TRUMP = "fox_highest_trump"

    @property
    def word(self) -> Message:
        """The reason in the reader's language."""
        return _THROW_WORDS[self]

    def localized(self, language: str) -> str:
        return render(self.word, language)


_KIND_WORDS = {
    ReservationKind.MARRIAGE: msg("marriage"),
    ReservationKind.POVERTY: msg("poverty"),
    ReservationKind.SOLO: msg("solo"),
    ReservationKind.THROW: msg("deal thrown in"),
}
_THROW_WORDS = {
    Throw.NINES: msg("thrown in for nines"),
    Throw.KINGS: msg("thrown in for kings"),
    Throw.NINES_AND_KINGS: msg("thrown in for nines and kings"),
    Throw.RICHNESS: msg("thrown in for a rich hand"),
    Throw.FOX_HIGHEST_TRUMP: msg("thrown in: the DA is the highest trump"),
}


Hands = Sequence[Sequence[Card]] | None


def _precedence(kind: ReservationKind, rules: RuleSet, throws: bool = False) -> int:
    """A reservation kind's rank: the higher wins (docs/rules.md §4). `throws`: a poverty that
    throws the deal in, which goes before a solo under `throws_before_solo`."""
    if kind is ReservationKind.THROW or (throws and rules.throws_before_solo):
        return 5 if rules.throws_before_solo else 3
    if kind is ReservationKind.SOLO:
        return 4
    return 2 if (kind is ReservationKind.MARRIAGE) == rules.marriage_before_poverty else 1


def _highest(rules: RuleSet) -> int:
    return max(_precedence(kind, rules) for kind in ReservationKind)


def _rank(named: Named, rules: RuleSet, hands: Hands) -> int:
    """A named reservation's rank, a poverty's seen with the poor hand where it is recorded."""
    if named.kind is not ReservationKind.POVERTY or not rules.throws_before_solo:
        return _precedence(named.kind, rules)
    throws = poverty_throws(None if hands is None else hands[named.seat], rules)
    return _precedence(named.kind, rules, throws)


@frozen
class Contract:
    """The game the reservations decided: its type and the declarer (soloist, marriage or poor player)."""

    game_type: GameType
    declarer: int | None = None


@frozen
class Named:
    """A reservation's kind, said by its player; `solo` is the solo type."""

    seat: int
    kind: ReservationKind
    solo: GameType | None = None
    throw: Throw | None = None


def asking_order(dealer: int) -> tuple[int, ...]:
    """Seats in the order they are asked: from the dealer's left, clockwise (docs/rules.md §4)."""
    return tuple((dealer + i) % SEATS for i in range(1, SEATS + 1))


def next_to_declare(dealer: int, declared: Sequence[tuple[int, bool]]) -> int | None:
    """The seat that says healthy or reservation next, or None when all four have."""
    order = asking_order(dealer)
    return order[len(declared)] if len(declared) < SEATS else None


def next_to_name(
    dealer: int,
    declared: Sequence[tuple[int, bool]],
    named: Sequence[Named],
    rules: RuleSet = DEFAULT_RULES,
    hands: Hands = None,
) -> int | None:
    """The reserving seat that must name its reservation next, or None when the game is decided.

    Reserving players name their kind in asking order; the first reservation of the highest
    kind (a solo; a throw under `throws_before_solo`) ends the asking, since no later one can
    beat it (solo > throw > poverty > marriage by default, then seat order).
    """
    top = _highest(rules)
    if len(declared) < SEATS or any(_rank(n, rules, hands) == top for n in named):
        return None
    reserving = [seat for seat, healthy in declared if not healthy]
    if len(named) >= len(reserving):
        return None
    if len(reserving) > 1:
        reserving.sort(key=asking_order(dealer).index)  # stable: as if the declarations were sorted first
    return reserving[len(named)]


def winning(dealer: int, named: Sequence[Named], rules: RuleSet = DEFAULT_RULES, hands: Hands = None) -> Named | None:
    """The named reservation that sets the game: the highest kind, the earlier seat between equals."""
    if not named:
        return None
    order = asking_order(dealer)
    return max(named, key=lambda n: (_rank(n, rules, hands), -order.index(n.seat)))


def resolve(
    dealer: int,
    declared: Sequence[tuple[int, bool]],
    named: Sequence[Named],
    rules: RuleSet = DEFAULT_RULES,
    hands: Hands = None,
) -> Contract | None:
    """The contract once every needed reservation is said, else None.

    No reservation makes a normal game (a silent solo is found from the cards, see
    `silent_soloist`). Otherwise the highest kind wins, the earlier seat between equals; a
    throw is a normal game with the thrower as declarer, and the deal is thrown in at once.
    """
    if len(declared) < SEATS or next_to_name(dealer, declared, named, rules, hands) is not None:
        return None
    best = winning(dealer, named, rules, hands)
    if best is None:
        return Contract(GameType.NORMAL)
    if best.kind is ReservationKind.SOLO:
        assert best.solo is not None
        return Contract(best.solo, best.seat)
    if best.kind is ReservationKind.THROW:
        return Contract(GameType.NORMAL, best.seat)
    kind = GameType.MARRIAGE if best.kind is ReservationKind.MARRIAGE else GameType.POVERTY
    return Contract(kind, best.seat)


def trump_count(hand: Sequence[Card]) -> int:
    """Trumps in a hand by the normal card order (what poverty is measured in)."""
    order = card_order(GameType.NORMAL)
    return sum(1 for c in hand if order.is_trump(c))


def poverty_trumps(hand: Sequence[Card], rules: RuleSet) -> int:
    """The trumps a poverty counts: all of them, or without the DA (`poverty_fox`, docs/rules.md §4)."""
    foxes = hand.count(FUCHS) if rules.poverty_fox != "counted" else 0
    return trump_count(hand) - foxes


def poverty_cards(hand: Sequence[Card], rules: RuleSet) -> int:
    """How many cards a poverty passes, and gets back (docs/rules.md §4): three; every trump
    (`poverty_passes: trumps`); with the DA not counted, three or all the trumps if more
    (`not_counted`), or three and each DA on top (`passed_extra`)."""
    trumps = trump_count(hand)
    if rules.poverty_passes == "trumps":
        return trumps
    if rules.poverty_fox == "counted":
        return POVERTY_CARDS
    if rules.poverty_fox == "not_counted":
        return max(POVERTY_CARDS, trumps)
    return max(POVERTY_CARDS + hand.count(FUCHS), trumps)


def poverty_throws(hand: Sequence[Card] | None, rules: RuleSet) -> bool:
    """Whether a poverty throws the deal in instead of passing cards: without the exchange
    (`poverty_exchange: false`), or with one trump or none under `poverty_throw_one_trump`."""
    if not rules.poverty_exchange:
        return True
    return rules.poverty_throw_one_trump and hand is not None and trump_count(hand) <= 1


def may_throw(throw: Throw, hand: Sequence[Card] | None, rules: RuleSet) -> Message | None:
    """Why `hand` may not throw the deal in for `throw` under `rules`, or None when it may
    (docs/rules.md §4); without the hand, only whether the rules know that throw."""
    nines = kings = points = 0
    if hand is not None:
        nines = sum(1 for c in hand if c.rank is Rank.NINE)
        kings = sum(1 for c in hand if c.rank is Rank.KING)
        points = sum(c.points for c in hand)
    if throw is Throw.FOX_HIGHEST_TRUMP:
        if not rules.throw_fox_highest_trump:
            return msg("these rules throw nothing in for the DA as highest trump (option throw_fox_highest_trump)")
        order = card_order(GameType.NORMAL)
        above = [c for c in hand or () if order.is_trump(c) and order.strength(c) > order.strength(FUCHS)]
        return msg("the hand holds {card}, a trump above the DA", card=Cards(above[:1])) if above else None
    least, held = {
        Throw.NINES: (rules.throw_nines, nines),
        Throw.KINGS: (rules.throw_kings, kings),
        Throw.NINES_AND_KINGS: (rules.throw_nines_and_kings, nines + kings),
        Throw.RICHNESS: (rules.throw_richness, points),
    }[throw]
    if least == 0:
        return msg(
            "these rules throw nothing in for {what} (option {option})",
            what=_THROWN_FOR[throw],
            option=f"throw_{throw.value}",
        )
    if hand is not None and held < least:
        return msg("the hand has {held}; throwing in needs {least}", held=_HELD[throw](held), least=least)
    return None


_THROWN_FOR = {
    Throw.NINES: msg("nines"),
    Throw.KINGS: msg("kings"),
    Throw.NINES_AND_KINGS: msg("nines and kings"),
    Throw.RICHNESS: msg("card points"),
}
_HELD: dict[Throw, Callable[[int], Message]] = {
    Throw.NINES: lambda n: plural("{count} nine", "{count} nines", n),
    Throw.KINGS: lambda n: plural("{count} king", "{count} kings", n),
    Throw.NINES_AND_KINGS: lambda n: plural("{count} nine or king", "{count} nines and kings", n),
    Throw.RICHNESS: lambda n: plural("{count} card point", "{count} card points", n),
}


def silent_soloist(hands: Sequence[Sequence[Card]]) -> int | None:
    """The seat holding both CQ, who plays a silent solo if they said healthy (docs/rules.md §4)."""
    for seat, hand in enumerate(hands):
        if hand.count(ALTE) == 2:
            return seat
    return None


_SUITS = {"clubs": Suit.CLUBS, "spades": Suit.SPADES, "hearts": Suit.HEARTS}


def finds_partner(card: Card, clarification: str, trump: set[Card] | frozenset[Card]) -> bool:
    """Whether a trick led with `card` can find the marriage partner (option
    `marriage_clarification`, docs/rules.md §4); also which cards keep a chance open."""
    if clarification == "any":
        return True
    if clarification == "trump":
        return card in trump
    if card in trump:
        return False
    return clarification == "plain" or card.suit is _SUITS[clarification]


def marriage_partner(
    tricks: Sequence[tuple[Card, int]],
    declarer: int,
    clarification: str,
    trump: set[Card] | frozenset[Card],
    *,
    within: int = 3,
    first_decides: bool = False,
    exhausted: Sequence[bool] = (),
) -> tuple[int | None, int | None]:
    """(partner, clarifying trick) of a marriage from its tricks as (led card, winner).

    The first of the first `within` tricks (option `marriage_tricks`) that counts (option
    `marriage_clarification`) and is won by another player makes that player the partner.
    The marriage player is alone after trick `within` without one; also after a trick that
    counts and that they take themselves under `marriage_first_decides`, and after a trick
    once no card that could lead a counting trick is left in any hand (`exhausted[i]` says
    so after trick i + 1). The trick that makes them alone clarifies (docs/rules.md §4-§5).
    Returns (None, None) while still open.
    """
    for number, (led, winner) in enumerate(tricks[:within], 1):
        counts = finds_partner(led, clarification, trump)
        if counts and winner != declarer:
            return winner, number
        if (counts and first_decides) or number == within:
            return None, number
        if number <= len(exhausted) and exhausted[number - 1]:
            return None, number
    return None, None


def duel_marriage(
    tricks: Sequence[tuple[Card, int]], declarer: int, computers: Sequence[int]
) -> tuple[int | None, int | None, bool]:
    """(partner, clarifying trick, unscored) of a marriage under duel rules (docs/rules.md §8).

    A person's marriage is clarified by a trick a computer wins; if the other person
    wins one first, the game ends unscored; if the marriage player wins all three, it
    is a solo. A computer's marriage is clarified by a person; the other computer's
    tricks do not count; without a person's trick among the first three, it ends unscored.
    """
    person = declarer not in computers
    for number, (_, winner) in enumerate(tricks[:3], 1):
        if winner == declarer:
            continue
        if (winner in computers) == person:
            return winner, number, False
        if person:
            return None, number, True
    if len(tricks) >= 3:
        return None, 3, not person
    return None, None, False
