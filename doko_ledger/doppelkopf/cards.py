"""Cards of the Doppelkopf deck: value type, canonical notation, parser (docs/rules.md §1)."""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from enum import Enum

from doko_ledger.errors import DokoError
from doko_ledger.i18n import msg


class CardError(DokoError, ValueError):
    """A text that names no card of the deck."""


class Suit(Enum):
    """The four suits, in the order clubs, spades, hearts, diamonds."""

    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(Enum):
    """The six ranks, with their card points."""

    ACE = "A"
    TEN = "10"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NINE = "9"

    @property
    def points(self) -> int:
        return _RANK_POINTS[self]


_INTERNED: dict[tuple[Suit, Rank], Card] = {}
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}
_RANK_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0}


class Card:
    """One card; the deck holds two of each. Text form: suit letter + rank (`CQ`, `H10`).

    Immutable, and interned: `Card(suit, rank)` always returns the same object for the
    same card, so equality and hashing are identity (fast in every fold step).
    """

    __slots__ = ("_text", "points", "rank", "suit")
    suit: Suit
    rank: Rank
    points: int
    _text: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        card = _INTERNED.get((suit, rank))
        if card is None:
            card = super().__new__(cls)
            object.__setattr__(card, "suit", Suit(suit))
            object.__setattr__(card, "rank", Rank(rank))
            object.__setattr__(card, "points", card.rank.points)
            object.__setattr__(card, "_text", card.suit.value + card.rank.value)
            card = _INTERNED.setdefault((card.suit, card.rank), card)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        return (Card, (self.suit, self.rank))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def pretty(self) -> str:
        """Suit symbol and rank, for display (`♥10`)."""
        return self.suit.symbol + self.rank.value

    def localized(self, language: str) -> str:
        """Suit symbol and the rank as `language` letters it (`♣Q`, `♣D` in German and
        French; `♠K`, `♠R` in French; `♦J`, `♦B` in German, `♦V` in French)."""
        return self.suit.symbol + _RANK_LETTERS[language][self.rank]


class Cards:
    """Cards as a message names them: in English in the notation a player types (`CQ H10`),
    in German and French with the suit symbol and the language's rank letter (`♣D ♥10`)."""

    __slots__ = ("cards",)

    def __init__(self, cards: Iterable[Card]) -> None:
        self.cards = tuple(cards)

    def __str__(self) -> str:
        return self.localized("en")

    def localized(self, language: str) -> str:
        if language == "en":
            return " ".join(str(card) for card in self.cards)
        return " ".join(card.localized(language) for card in self.cards)


ALL_CARDS: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in Rank)
_CANONICAL: dict[str, Card] = {str(c): c for c in ALL_CARDS}

DULLE = _CANONICAL["H10"]
ALTE = _CANONICAL["CQ"]
FUCHS = _CANONICAL["DA"]
KARLCHEN = _CANONICAL["CJ"]

_SUIT_ALIASES: dict[str, Suit] = {}
for _suit, _names in {
    Suit.CLUBS: ("c", "♣", "♧", "clubs", "club", "kreuz", "kr", "treff", "trefle", "trèfle"),
    Suit.SPADES: ("s", "♠", "♤", "spades", "spade", "pik", "pi", "pique"),
    Suit.HEARTS: ("h", "♥", "♡", "hearts", "heart", "herz", "he", "coeur", "cœur"),
    Suit.DIAMONDS: ("d", "♦", "♢", "diamonds", "diamond", "karo", "ka", "carreau"),
}.items():
    for _name in _names:
        _SUIT_ALIASES[_name] = _suit

_RANK_ALIASES: dict[str, Rank] = {}
for _rank, _names in {
    Rank.ACE: ("a", "ace", "ass", "as"),
    Rank.TEN: ("10", "zehn", "ten", "dix"),
    Rank.KING: ("k", "king", "könig", "koenig", "konig", "roi", "r"),
    Rank.QUEEN: ("q", "queen", "dame", "d"),
    Rank.JACK: ("j", "jack", "bube", "b", "valet", "v"),
    Rank.NINE: ("9", "nine", "neun", "neuf"),
}.items():
    for _name in _names:
        _RANK_ALIASES[_name] = _rank

_RANK_LETTERS = {
    "en": {rank: rank.value for rank in Rank},
    "de": {Rank.ACE: "A", Rank.TEN: "10", Rank.KING: "K", Rank.QUEEN: "D", Rank.JACK: "B", Rank.NINE: "9"},
    "fr": {Rank.ACE: "A", Rank.TEN: "10", Rank.KING: "R", Rank.QUEEN: "D", Rank.JACK: "V", Rank.NINE: "9"},
}
"""How each language letters a rank on a card."""

_LINKS = frozenset({"de", "of", "du"})
"""Words between a rank and a suit (`dame de trèfle`, `queen of clubs`)."""

_SYMBOLS = "♣♧♠♤♥♡♦♢"
_SEPARATORS = re.compile(r"[\s\-_./]+")


def parse_card(text: object) -> Card:
    """Read a card in canonical form or an alias, in English, German or French (`♥10`, `10♥`,
    `Kreuz-Dame`, `KrD`, `Karo As`, `dame de trèfle`, `queen of clubs`).

    Raises `CardError` quoting the input when it names no card.
    """
    if not isinstance(text, str):
        raise CardError(msg("not a card: {text} (expected text such as 'CQ' or 'H10')", text=repr(text)))
    fast = _CANONICAL.get(text)
    if fast is not None:
        return fast
    key = unicodedata.normalize("NFC", text).strip().replace("\ufe0f", "")
    card = _CANONICAL.get(key.upper())
    if card is None:
        card = _parse_alias(key.lower())
    if card is None:
        raise CardError(msg("unknown card {text} (write e.g. 'CQ', 'H10', '♥10' or 'Kreuz Dame')", text=repr(text)))
    return card


def _parse_alias(key: str) -> Card | None:
    words = [w for w in _SEPARATORS.split(key.replace("’", "'")) if w]
    if len(words) == 3 and words[1] in _LINKS:  # rank, link, suit
        words = [words[0], words[2]]
    if len(words) == 2:
        for suit_word, rank_word in (words, words[::-1]):
            if suit_word in _SUIT_ALIASES and rank_word in _RANK_ALIASES:
                return Card(_SUIT_ALIASES[suit_word], _RANK_ALIASES[rank_word])
        return None
    if len(words) != 1:
        return None
    word = words[0]
    if word and word[-1] in _SYMBOLS and word[:-1] in _RANK_ALIASES:
        return Card(_SUIT_ALIASES[word[-1]], _RANK_ALIASES[word[:-1]])
    for cut in range(len(word) - 1, 0, -1):
        suit_part, rank_part = word[:cut], word[cut:]
        if suit_part in _SUIT_ALIASES and rank_part in _RANK_ALIASES:
            return Card(_SUIT_ALIASES[suit_part], _RANK_ALIASES[rank_part])
    return None


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards; the first bad one raises `CardError`."""
    return tuple(parse_card(t) for t in texts)


def deck(with_nines: bool = True) -> Counter[Card]:
    """The full deck as a multiset: two of each card (nines only `with_nines`)."""
    return Counter({c: 2 for c in ALL_CARDS if with_nines or c.rank is not Rank.NINE})


def seeded_deal(seed: str, with_nines: bool = True) -> tuple[tuple[Card, ...], ...]:
    """Four hands dealt from a seed text: the same text always deals the same hands (a daily
    deal, docs/rules.md §9). The randomness is the seed's own; nothing else is read."""
    cards = sorted(deck(with_nines).elements(), key=str)
    random.Random(seed).shuffle(cards)
    size = len(cards) // 4
    return tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(4))


def card_points(cards: Iterable[Card]) -> int:
    """Sum of card points (A 11, 10 10, K 4, Q 3, J 2, 9 0)."""
    return sum([c.points for c in cards])
