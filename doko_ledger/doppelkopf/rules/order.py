"""Card order per game type: which cards are trump and how cards rank (docs/rules.md §2)."""

from __future__ import annotations

from functools import cache

from doko_ledger.doppelkopf.cards import ALL_CARDS, DULLE, FUCHS, Card, Rank, Suit
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.frozen import frozen

TRUMP = "T"
"""The suit key of trumps: they form one suit for following (docs/rules.md §2)."""

_PLAIN_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
_SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


@frozen
class CardOrder:
    """How the cards of one game type rank. `keys[card]` is (suit key, strength); higher wins."""

    game_type: GameType
    schweinchen: bool
    trumps: tuple[Card, ...]
    keys: dict[Card, tuple[str, int]]
    hearts: frozenset[Card]
    """The cards that follow hearts (the hearts that are not trumps): four make a heart trick."""
    hyperschweinchen: bool = False

    def suit_of(self, card: Card) -> str:
        """The suit a card belongs to for following: `TRUMP` or the suit letter."""
        return self.keys[card][0]

    def is_trump(self, card: Card) -> bool:
        return self.keys[card][0] == TRUMP

    def strength(self, card: Card) -> int:
        """Rank within its suit key; only comparable between cards of one suit key."""
        return self.keys[card][1]

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Display order: trumps first, then clubs, spades, hearts, diamonds; high to low."""
        suit, strength = self.keys[card]
        group = 0 if suit == TRUMP else 1 + "CSHD".index(suit)
        return (group, -strength)

    def sorted(self, cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
        return tuple(sorted(cards, key=self.sort_key))


PICTURE_TRUMPS: dict[GameType, tuple[Rank, ...]] = {
    GameType.KING_SOLO: (Rank.KING,),
    GameType.QUEEN_JACK_SOLO: (Rank.QUEEN, Rank.JACK),
    GameType.KING_JACK_SOLO: (Rank.KING, Rank.JACK),
    GameType.KING_QUEEN_SOLO: (Rank.KING, Rank.QUEEN),
    GameType.KOEHLER_SOLO: (Rank.KING, Rank.QUEEN, Rank.JACK),
}
"""The further picture solos: the ranks that are trump, highest first (docs/rules.md §2)."""


def _picture_trumps(game_type: GameType) -> tuple[Card, ...]:
    """Trumps high to low: rank by rank, each rank clubs, spades, hearts, diamonds; no H10."""
    return tuple(Card(suit, rank) for rank in PICTURE_TRUMPS[game_type] for suit in _SUIT_ORDER)


def _trumps(game_type: GameType, schweinchen: bool) -> tuple[Card, ...]:
    """Trumps high to low."""
    if game_type is GameType.QUEEN_SOLO:
        return tuple(Card(s, Rank.QUEEN) for s in _SUIT_ORDER)
    if game_type is GameType.JACK_SOLO:
        return tuple(Card(s, Rank.JACK) for s in _SUIT_ORDER)
    if game_type is GameType.ACE_SOLO:
        return ()
    if game_type in PICTURE_TRUMPS:
        return _picture_trumps(game_type)
    suit = game_type.trump_suit
    assert suit is not None
    if game_type.is_pure_suit_solo:
        return tuple(Card(suit, r) for r in _PLAIN_RANKS)
    top = [FUCHS, DULLE] if schweinchen else [DULLE]
    top += [Card(s, Rank.QUEEN) for s in _SUIT_ORDER]
    top += [Card(s, Rank.JACK) for s in _SUIT_ORDER]
    plain = [Card(suit, r) for r in (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE)]
    return tuple(top + [c for c in plain if c not in top])


@cache
def card_order(game_type: GameType, schweinchen: bool = False) -> CardOrder:
    """The card order of a game type. `schweinchen`: both DA above H10 (normal and marriage only)."""
    schweinchen = schweinchen and game_type in (GameType.NORMAL, GameType.MARRIAGE)
    return _order(game_type, schweinchen, _trumps(game_type, schweinchen))


def _order(game_type: GameType, schweinchen: bool, trumps: tuple[Card, ...], hyper: bool = False) -> CardOrder:
    """The card order with these trumps (high to low); every other card in its plain suit."""
    keys: dict[Card, tuple[str, int]] = {card: (TRUMP, len(trumps) - i) for i, card in enumerate(trumps)}
    for suit in _SUIT_ORDER:
        plain = [c for c in (Card(suit, r) for r in _PLAIN_RANKS) if c not in keys]
        for i, card in enumerate(plain):
            keys[card] = (suit.value, len(plain) - i)
    assert set(keys) == set(ALL_CARDS)
    hearts = frozenset(card for card, (suit, _) in keys.items() if suit == Suit.HEARTS.value)
    return CardOrder(game_type, schweinchen, trumps, keys, hearts, hyper)


def plain_hearts(game_type: GameType, with_nines: bool = True) -> int:
    """How many cards of the deck are hearts that are not trumps in a game of `game_type`:
    a trick of four of them is a heart trick (a bock trigger, docs/rules.md §9)."""
    order = card_order(game_type)
    hearts = [c for c in ALL_CARDS if order.suit_of(c) == Suit.HEARTS.value]
    return 2 * sum(1 for c in hearts if with_nines or c.rank is not Rank.NINE)


def is_heart_trick(cards: tuple[Card, ...], order: CardOrder) -> bool:
    """Four hearts that are not trumps in the game (docs/rules.md §9)."""
    return len(cards) == 4 and order.hearts.issuperset(cards)


# -- the Dullen and the Schweinchen under the rules' options (docs/rules.md §2) --------------


def schweinchen_card(game_type: GameType) -> Card | None:
    """The card two of which make the Schweinchen: the ace of the trump suit, in the games that
    rank queens and jacks above the trump suit (DA in a normal game, CA in a club solo)."""
    suit = game_type.trump_suit
    if suit is None or not game_type.normal_order:
        return None
    return Card(suit, Rank.ACE)


def has_schweinchen(game_type: GameType, rules: RuleSet) -> bool:
    """Whether the rules give Schweinchen in a game of `game_type`: normal games and marriages
    under `schweinchen`; a poverty with `schweinchen_in_poverty`; the club, spade, heart and
    diamond solo with `schweinchen_in_solo`; a silent solo, which the table plays as a normal
    game, where the Schweinchen are called (`schweinchen_shown` other than `automatic`)."""
    if not rules.schweinchen or schweinchen_card(game_type) is None:
        return False
    if game_type in (GameType.NORMAL, GameType.MARRIAGE):
        return True
    if game_type is GameType.POVERTY:
        return rules.schweinchen_in_poverty
    if game_type is GameType.SILENT_SOLO:
        return rules.schweinchen_shown != "automatic"
    return rules.schweinchen_in_solo


def hyperschweinchen_card(game_type: GameType, with_nines: bool) -> Card | None:
    """The card two of which make the Hyperschweinchen: the nine of the trump suit, or its king
    in a game without nines."""
    suit = game_type.trump_suit
    if suit is None or not game_type.normal_order:
        return None
    return Card(suit, Rank.NINE if with_nines else Rank.KING)


def has_hyperschweinchen(game_type: GameType, rules: RuleSet) -> bool:
    """Whether the rules give Hyperschweinchen in a game of `game_type`: under `hyperschweinchen`,
    in every game that has Schweinchen."""
    return rules.hyperschweinchen and has_schweinchen(game_type, rules)


def game_card_order(game_type: GameType, rules: RuleSet, schweinchen: bool, hyper: bool = False) -> CardOrder:
    """The card order of a game under `rules`; `schweinchen`, `hyper`: somebody has them (shown,
    or known from the deal). Without `dullen` the H10 is an ordinary heart (in a heart solo the
    trump ten below the HA). Hyperschweinchen rank above the Schweinchen, and only beside them."""
    schweinchen = schweinchen and has_schweinchen(game_type, rules)
    hyper_card = hyperschweinchen_card(game_type, rules.with_nines) if hyper and schweinchen else None
    if hyper_card is not None and not has_hyperschweinchen(game_type, rules):
        hyper_card = None
    if rules.dullen and hyper_card is None and (not schweinchen or game_type in (GameType.NORMAL, GameType.MARRIAGE)):
        return card_order(game_type, schweinchen)
    return _rearranged_order(game_type, schweinchen, rules.dullen, hyper_card)


@cache
def _rearranged_order(game_type: GameType, schweinchen: bool, dullen: bool, hyper: Card | None = None) -> CardOrder:
    trumps = list(_trumps(game_type, False))
    if not dullen and game_type.normal_order:
        trumps.remove(DULLE)
        if game_type.trump_suit is Suit.HEARTS:
            trumps.insert(trumps.index(Card(Suit.HEARTS, Rank.ACE)) + 1, DULLE)
    pig = schweinchen_card(game_type)
    for top in (pig if schweinchen else None, hyper):
        if top is not None:
            trumps.remove(top)
            trumps.insert(0, top)
    return _order(game_type, schweinchen, tuple(trumps), hyper is not None)
