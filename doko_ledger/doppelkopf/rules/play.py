"""Following suit and winning tricks (docs/rules.md §2-§3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from doko_ledger.doppelkopf.cards import DULLE, Card
from doko_ledger.doppelkopf.rules.order import TRUMP, CardOrder
from doko_ledger.doppelkopf.rules.ruleset import RuleSet

SEATS = 4


def next_seat(seat: int) -> int:
    """The seat to the left: play goes clockwise (docs/rules.md §1)."""
    return (seat + 1) % SEATS


def winning_index(
    cards: Sequence[Card],
    order: CardOrder,
    *,
    second_dulle_beats_first: bool = False,
    last_trick: bool = False,
) -> int:
    """Index (in play order) of the card that wins the trick.

    The highest trump, else the highest card of the led suit; of two identical
    cards the first wins, except the second H10 under `second_dulle_beats_first`
    when this is not the last trick.
    """
    return best_index(cards, order.keys, second_dulle_beats_first and not last_trick)


def second_dulle_wins(rules: RuleSet, last_trick: bool, schweinchen: bool) -> bool:
    """Whether of two H10 in a trick the second wins (docs/rules.md §2): `second_dulle_beats_first`
    before the last trick, `second_dulle_last_trick` in it; never once Schweinchen are in the
    game under `first_dulle_with_schweinchen`."""
    if schweinchen and rules.first_dulle_with_schweinchen:
        return False
    return rules.second_dulle_last_trick if last_trick else rules.second_dulle_beats_first


def best_index(cards: Sequence[Card], keys: Mapping[Card, tuple[str, int]], second_dulle_wins: bool) -> int:
    """`winning_index` with the order's keys, and whether a second H10 beats the first in this
    trick, given: the fold's hot path."""
    if len(cards) == 4 and not second_dulle_wins:  # a complete trick, the usual rule: unrolled
        best_suit, best_strength = keys[cards[0]]
        best = 0
        suit, strength = keys[cards[1]]
        if (suit == best_suit and strength > best_strength) or (suit == TRUMP and best_suit != TRUMP):
            best, best_suit, best_strength = 1, suit, strength
        suit, strength = keys[cards[2]]
        if (suit == best_suit and strength > best_strength) or (suit == TRUMP and best_suit != TRUMP):
            best, best_suit, best_strength = 2, suit, strength
        suit, strength = keys[cards[3]]
        if (suit == best_suit and strength > best_strength) or (suit == TRUMP and best_suit != TRUMP):
            best = 3
        return best
    best = 0
    best_suit, best_strength = keys[cards[0]]
    for i in range(1, len(cards)):
        suit, strength = keys[cards[i]]
        if suit == best_suit:
            if strength > best_strength or (second_dulle_wins and cards[i] == DULLE == cards[best]):
                best, best_strength = i, strength
        elif suit == TRUMP:  # the best card so far is of the led plain suit
            best, best_suit, best_strength = i, suit, strength
    return best


def must_follow(led: Card, hand: Sequence[Card], order: CardOrder) -> tuple[Card, ...]:
    """The cards of `hand` that follow the led card's suit (trumps are one suit)."""
    suit = order.suit_of(led)
    return tuple(c for c in hand if order.suit_of(c) == suit)


def legal_plays(hand: Sequence[Card], trick: Sequence[Card], order: CardOrder) -> tuple[Card, ...]:
    """The distinct cards of `hand` that may be played to the trick so far (docs/rules.md §3)."""
    if trick:
        following = must_follow(trick[0], hand, order)
        if following:
            return tuple(dict.fromkeys(following))
    return tuple(dict.fromkeys(hand))


def is_revoke(card: Card, hand: Sequence[Card], trick: Sequence[Card], order: CardOrder) -> bool:
    """True when playing `card` from `hand` fails to follow a suit the hand could follow."""
    if not trick:
        return False
    suit = order.suit_of(trick[0])
    return order.suit_of(card) != suit and any(order.suit_of(c) == suit for c in hand)


def proven_revokes(tricks: Sequence[Sequence[tuple[int, Card]]], order: CardOrder) -> list[tuple[int, int, int, Card]]:
    """Revokes that later cards prove, where hands were not recorded (docs/rules.md §3).

    `tricks` are the plays (seat, card) of each trick in order. A player who did not
    follow the led suit of trick t, and later plays a card of that suit, held it in
    trick t. Returns (seat, trick t, later trick, the later card), 1-based tricks.
    """
    found = []
    for t, trick in enumerate(tricks):
        if not trick:
            continue
        led = order.suit_of(trick[0][1])
        for seat, card in trick[1:]:
            if order.suit_of(card) == led:
                continue
            for later in range(t + 1, len(tricks)):
                shown = next((c for s, c in tricks[later] if s == seat and order.suit_of(c) == led), None)
                if shown is not None:
                    found.append((seat, t + 1, later + 1, shown))
                    break
    return found
