"""Dou Dizhu cards: ranks, their text form, the deck and a seeded deal (docs/rules.md §D1).

Suits do not matter in Dou Dizhu, so the ledger keeps ranks only: a card *is* its `Rank`.
The parser accepts a suit letter before the rank (`H7`, `S10`) for tables that like to
write it, and drops it. A hand is a sorted tuple of ranks (a multiset), never a set.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from enum import IntEnum

from doko_ledger.doudizhu.errors import CardError, PlayerCountError
from doko_ledger.i18n import Message, msg


class Rank(IntEnum):
    """The fifteen ranks, low to high; the value orders them. `str()` gives the text form."""

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    BLACK_JOKER = 16
    RED_JOKER = 17

    @property
    def text(self) -> str:
        return _TEXT[self]

    @property
    def plural(self) -> str:
        """`7s`, `Js`, `BJs`: for messages."""
        return _TEXT[self] + "s"

    @property
    def is_joker(self) -> bool:
        return self >= Rank.BLACK_JOKER

    def __str__(self) -> str:
        return _TEXT[self]

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)


Card = Rank
"""A card is known by its rank only."""

Hand = tuple[Rank, ...]
"""A sorted tuple of ranks: a multiset of cards."""

_TEXT = {r: (str(r.value) if r <= Rank.TEN else "") for r in Rank} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.TWO: "2",
    Rank.BLACK_JOKER: "BJ",
    Rank.RED_JOKER: "RJ",
}
_BY_TEXT = {text: rank for rank, text in _TEXT.items()}
_SUITS = "CSHD"

RANKS: tuple[Rank, ...] = tuple(Rank)
PLAIN_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if not r.is_joker)
SEQUENCE_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r <= Rank.ACE)
"""Sequences of any kind use only 3 to A (docs/rules.md §D4)."""

_SIZES = {3: (17, 3), 4: (25, 8)}


def parse_card(text: str) -> Rank:
    """Read one card: `3`…`10`, `J`, `Q`, `K`, `A`, `2`, `BJ`, `RJ`, any case, optionally with a
    suit letter before a plain rank (`H7`, `s10`), which is dropped.

    Raises `CardError` quoting the input when it names no card.
    """
    if not isinstance(text, str):
        raise CardError(msg("not a card: {text} (expected text such as '7', 'H7', 'BJ')", text=repr(text)))
    key = text.strip().upper()
    rank = _BY_TEXT.get(key)
    if rank is None and len(key) > 1 and key[0] in _SUITS:
        rank = _BY_TEXT.get(key[1:])
        if rank is not None and rank.is_joker:
            rank = None  # jokers have no suit
    if rank is None:
        raise CardError(
            msg(
                "unknown card {text} (write 3-10, J, Q, K, A, 2, BJ or RJ, optionally after a suit: H7)",
                text=repr(text),
            )
        )
    return rank


def parse_cards(texts: str | Iterable[str]) -> Hand:
    """Parse cards given as one text (`"7 7 BJ"`, commas allowed) or as several texts; the
    result is sorted. The first bad card raises `CardError`."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return hand(parse_card(t) for t in texts)


def hand(cards: Iterable[Rank]) -> Hand:
    """Cards as a hand: a sorted tuple."""
    return tuple(sorted(cards))


def cards_text(cards: Iterable[Rank]) -> str:
    """`3 3 10 BJ`: cards in their text form, low to high."""
    return " ".join(str(r) for r in sorted(cards))


def check_players(players: int) -> int:
    """`players` itself when it is 3 or 4; otherwise `PlayerCountError`."""
    if players not in _SIZES:
        raise PlayerCountError(msg("Dou Dizhu is played by 3 or 4 players, not {count}", count=players))
    return players


def hand_size(players: int) -> int:
    """Cards dealt to each player: 17 (three players) or 25 (four). `PlayerCountError` otherwise."""
    return _SIZES[check_players(players)][0]


def kitty_size(players: int) -> int:
    """Cards left face down for the landlord: 3 (three players) or 8 (four)."""
    return _SIZES[check_players(players)][1]


def deck(players: int) -> Counter[Rank]:
    """The deck as a multiset: 54 cards (four of 3..2, one BJ, one RJ) for three players, 108
    (eight of each, two BJ, two RJ) for four."""
    decks = check_players(players) - 2
    return Counter({r: (1 if r.is_joker else 4) * decks for r in Rank})


def deal(seed: int | str, players: int) -> tuple[tuple[Hand, ...], Hand]:
    """Shuffle the deck with `random.Random(seed)` and deal: the hands by seat, and the kitty.

    The same seed always deals the same cards; nothing else is read.
    """
    cards = sorted(deck(players).elements())
    random.Random(seed).shuffle(cards)
    size = hand_size(players)
    hands = tuple(hand(cards[i * size : (i + 1) * size]) for i in range(players))
    return hands, hand(cards[players * size :])


def not_in_deck(cards: Iterable[Rank], players: int) -> Message | None:
    """Why `cards` cannot all come from one deck (`"3 BJs; the deck has 2"`), or None."""
    full = deck(players)
    for rank, count in sorted(Counter(cards).items()):
        if count > full[rank]:
            return msg("{count} {rank}s; the deck has {full}", count=count, rank=rank, full=full[rank])
    return None
