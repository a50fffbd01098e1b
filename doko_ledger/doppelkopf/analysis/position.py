"""A deal as the solver sees it: cards as small integers, hands as bitmasks, and the tables of
one game's card order (docs/rules.md §2-§3) that the search reads instead of the rules.

Every table is derived from the rules core: the card order from `CardOrder`, who wins a pair
of cards from `play.best_index`, the card points from the cards. Nothing here re-encodes a rule.

Cards are numbered 0..23 in the game's own order (trumps high to low, then clubs, spades,
hearts, diamonds, each high to low), so a suit is a run of numbers and cards adjacent in rank
are adjacent numbers. A hand is an int with two bits per card (bit 2i: a first copy of card i,
bit 2i+1: a second); the search keeps only ints and tuples, so that a compiled port is mechanical.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from doko_ledger.doppelkopf.cards import ALL_CARDS, DULLE, Card
from doko_ledger.doppelkopf.rules.order import TRUMP, CardOrder
from doko_ledger.doppelkopf.rules.play import SEATS, best_index
from doko_ledger.doppelkopf.rules.ruleset import RuleSet

CARD_TYPES = len(ALL_CARDS)
"""24: every card of the deck exists twice."""

TOTAL_POINTS = 240
"""The card points of the whole deck, with or without nines."""

_SUIT_KEYS = (TRUMP, "C", "S", "H", "D")


@dataclass(frozen=True, slots=True)
class Tables:
    """The card order of one game as flat tables, indexed by card number.

    `beats[w * 24 + c]`: card c played after w (the trick's best so far) takes the lead;
    `beats_last` the same in the last trick (where a second Dulle may rank otherwise).
    `suit_bits[suit[c]]`: the bits of every card that follows the same suit as c.
    `equal_ok[c]`: c may stand for a card adjacent in rank with the same points (never a Dulle
    whose second copy beats the first: the two are not alike then).
    """

    cards: tuple[Card, ...]
    number: dict[Card, int]
    suit: tuple[int, ...]
    points: tuple[int, ...]
    suit_bits: tuple[int, ...]
    beats: tuple[bool, ...]
    beats_last: tuple[bool, ...]
    equal_ok: tuple[bool, ...]

    def bits(self, cards: Iterable[Card]) -> int:
        """A hand of cards as a bitmask (raises `ValueError` for a third copy of a card)."""
        hand = 0
        for card in cards:
            hand = add_card(hand, self.number[card])
        return hand

    def hand(self, bits: int) -> tuple[Card, ...]:
        """The cards of a bitmask, in the game's order."""
        return tuple(self.cards[b >> 1] for b in range(2 * CARD_TYPES) if bits >> b & 1)

    def hand_points(self, bits: int) -> int:
        points = self.points
        return sum(points[b >> 1] for b in range(2 * CARD_TYPES) if bits >> b & 1)


def add_card(hand: int, card: int) -> int:
    """`hand` with one more copy of card number `card`."""
    low = 1 << (2 * card)
    if not hand & low:
        return hand | low
    if hand & (low << 1):
        raise ValueError(f"a third copy of card number {card}")
    return hand | (low << 1)


def remove_card(hand: int, card: int) -> int:
    """`hand` with one copy of card number `card` less (the second copy goes first)."""
    high = 2 << (2 * card)
    if hand & high:
        return hand ^ high
    return hand ^ (high >> 1)


def tables(order: CardOrder, rules: RuleSet, second_dulle: bool, second_dulle_last: bool) -> Tables:
    """The tables of a game played with `order`; `second_dulle`, `second_dulle_last`: whether of
    two H10 in a trick the second wins (`play.second_dulle_wins`), before and in the last trick."""
    del rules  # the order carries the options that change trick winning
    cards = tuple(sorted(ALL_CARDS, key=order.sort_key))
    number = {card: i for i, card in enumerate(cards)}
    suit = tuple(_SUIT_KEYS.index(order.suit_of(card)) for card in cards)
    points = tuple(card.points for card in cards)
    suit_bits = tuple(sum(3 << (2 * i) for i in range(CARD_TYPES) if suit[i] == s) for s in range(len(_SUIT_KEYS)))
    keys = order.keys
    beats = tuple(best_index((w, c), keys, second_dulle) == 1 for w in cards for c in cards)
    beats_last = tuple(best_index((w, c), keys, second_dulle_last) == 1 for w in cards for c in cards)
    equal_ok = tuple(not (card is DULLE and (second_dulle or second_dulle_last)) for card in cards)
    return Tables(cards, number, suit, points, suit_bits, beats, beats_last, equal_ok)


@dataclass(frozen=True, slots=True)
class Position:
    """A moment of play: each seat's remaining cards (bitmasks), who led the trick on the table
    and the card numbers played to it so far. `re` says, seat by seat, who plays for Re."""

    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...]
    re: tuple[bool, bool, bool, bool]

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % SEATS

    @property
    def over(self) -> bool:
        return not self.trick and not any(self.hands)


def position(
    tables: Tables, hands: Sequence[Iterable[Card]], leader: int, trick: Sequence[Card], re: Sequence[bool]
) -> Position:
    """A position from cards: the remaining hands, the trick's leader and its cards so far."""
    masks = tuple(tables.bits(hand) for hand in hands)
    assert len(masks) == SEATS and len(re) == SEATS
    return Position(
        (masks[0], masks[1], masks[2], masks[3]),
        leader,
        tuple(tables.number[card] for card in trick),
        (bool(re[0]), bool(re[1]), bool(re[2]), bool(re[3])),
    )
