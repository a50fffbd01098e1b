"""Reservations (*Vorbehalt*): who is asked when, and which one sets the game (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from doko_ledger.doppelkopf.cards import ALTE, Card
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.frozen import quick_init

POVERTY_MAX_TRUMPS = 3
POVERTY_CARDS = 3


class ReservationKind(Enum):
    """What a reservation turns out to be, in rising precedence."""

    MARRIAGE = "marriage"
    POVERTY = "poverty"
    SOLO = "solo"


_PRECEDENCE = {ReservationKind.MARRIAGE: 1, ReservationKind.POVERTY: 2, ReservationKind.SOLO: 3}


@quick_init
@dataclass(frozen=True, slots=True)
class Contract:
    """The game the reservations decided: its type and the declarer (soloist, marriage or poor player)."""

    game_type: GameType
    declarer: int | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Named:
    """A reservation's kind, said by its player; `solo` is the solo type."""

    seat: int
    kind: ReservationKind
    solo: GameType | None = None


def asking_order(dealer: int) -> tuple[int, ...]:
    """Seats in the order they are asked: from the dealer's left, clockwise (docs/rules.md §4)."""
    return tuple((dealer + i) % SEATS for i in range(1, SEATS + 1))


def next_to_declare(dealer: int, declared: Sequence[tuple[int, bool]]) -> int | None:
    """The seat that says healthy or reservation next, or None when all four have."""
    order = asking_order(dealer)
    return order[len(declared)] if len(declared) < SEATS else None


def next_to_name(dealer: int, declared: Sequence[tuple[int, bool]], named: Sequence[Named]) -> int | None:
    """The reserving seat that must name its reservation next, or None when the game is decided.

    Reserving players name their kind in asking order; the first solo ends the asking,
    since no later reservation can beat it (solo > poverty > marriage, then seat order).
    """
    if len(declared) < SEATS or any(n.kind is ReservationKind.SOLO for n in named):
        return None
    reserving = [seat for seat, healthy in declared if not healthy]
    if len(named) >= len(reserving):
        return None
    if len(reserving) > 1:
        reserving.sort(key=asking_order(dealer).index)  # stable: as if the declarations were sorted first
    return reserving[len(named)]


def resolve(dealer: int, declared: Sequence[tuple[int, bool]], named: Sequence[Named]) -> Contract | None:
    """The contract once every needed reservation is said, else None.

    No reservation makes a normal game (a silent solo is found from the cards, see
    `silent_soloist`). Otherwise the highest kind wins, the earlier seat between equals.
    """
    if len(declared) < SEATS or next_to_name(dealer, declared, named) is not None:
        return None
    if not named:
        return Contract(GameType.NORMAL)
    order = asking_order(dealer)
    best = max(named, key=lambda n: (_PRECEDENCE[n.kind], -order.index(n.seat)))
    if best.kind is ReservationKind.SOLO:
        assert best.solo is not None
        return Contract(best.solo, best.seat)
    kind = GameType.MARRIAGE if best.kind is ReservationKind.MARRIAGE else GameType.POVERTY
    return Contract(kind, best.seat)


def trump_count(hand: Sequence[Card]) -> int:
    """Trumps in a hand by the normal card order (what poverty is measured in)."""
    order = card_order(GameType.NORMAL)
    return sum(1 for c in hand if order.is_trump(c))


def silent_soloist(hands: Sequence[Sequence[Card]]) -> int | None:
    """The seat holding both CQ, who plays a silent solo if they said healthy (docs/rules.md §4)."""
    for seat, hand in enumerate(hands):
        if hand.count(ALTE) == 2:
            return seat
    return None


def marriage_partner(
    tricks: Sequence[tuple[Card, int]], declarer: int, clarification: str, trump: set[Card] | frozenset[Card]
) -> tuple[int | None, int | None]:
    """(partner, clarifying trick) of a marriage from its first tricks as (led card, winner).

    The first of tricks 1-3 that counts (option `marriage_clarification`: `any`, `trump`
    led, `plain` led) and is won by another player makes that player the partner. After
    trick 3 without one the marriage player is alone, and trick 3 clarifies (docs/rules.md §4-§5).
    Returns (None, None) while still open.
    """
    for number, (led, winner) in enumerate(tricks[:3], 1):
        counts = clarification == "any" or (clarification == "trump") == (led in trump)
        if counts and winner != declarer:
            return winner, number
    if len(tricks) >= 3:
        return None, 3
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
