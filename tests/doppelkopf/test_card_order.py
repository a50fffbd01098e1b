"""Card order for every game type, written out from docs/rules.md §2 (highest first)."""

from __future__ import annotations

import pytest

from doko_ledger.doppelkopf.cards import ALL_CARDS, Card, parse_card
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import TRUMP, card_order

G = GameType

# The table of docs/rules.md §2, copied card by card. Each plain suit lists its cards high to low;
# a suit absent from the mapping has no plain cards (all of them are trump).
NORMAL_TRUMPS = "H10 CQ SQ HQ DQ CJ SJ HJ DJ DA D10 DK D9"
NORMAL_PLAIN = {"C": "CA C10 CK C9", "S": "SA S10 SK S9", "H": "HA HK H9"}

ORDERS: list[tuple[GameType, bool, str, dict[str, str]]] = [
    (G.NORMAL, False, NORMAL_TRUMPS, NORMAL_PLAIN),
    (G.MARRIAGE, False, NORMAL_TRUMPS, NORMAL_PLAIN),
    (G.POVERTY, False, NORMAL_TRUMPS, NORMAL_PLAIN),
    (G.SILENT_SOLO, False, NORMAL_TRUMPS, NORMAL_PLAIN),
    (G.DIAMOND_SOLO, False, NORMAL_TRUMPS, NORMAL_PLAIN),
    (
        G.CLUB_SOLO,
        False,
        "H10 CQ SQ HQ DQ CJ SJ HJ DJ CA C10 CK C9",
        {"S": "SA S10 SK S9", "H": "HA HK H9", "D": "DA D10 DK D9"},
    ),
    (
        G.SPADE_SOLO,
        False,
        "H10 CQ SQ HQ DQ CJ SJ HJ DJ SA S10 SK S9",
        {"C": "CA C10 CK C9", "H": "HA HK H9", "D": "DA D10 DK D9"},
    ),
    (
        G.HEART_SOLO,
        False,
        "H10 CQ SQ HQ DQ CJ SJ HJ DJ HA HK H9",
        {"C": "CA C10 CK C9", "S": "SA S10 SK S9", "D": "DA D10 DK D9"},
    ),
    (
        G.QUEEN_SOLO,
        False,
        "CQ SQ HQ DQ",
        {"C": "CA C10 CK CJ C9", "S": "SA S10 SK SJ S9", "H": "HA H10 HK HJ H9", "D": "DA D10 DK DJ D9"},
    ),
    (
        G.JACK_SOLO,
        False,
        "CJ SJ HJ DJ",
        {"C": "CA C10 CK CQ C9", "S": "SA S10 SK SQ S9", "H": "HA H10 HK HQ H9", "D": "DA D10 DK DQ D9"},
    ),
    (
        G.ACE_SOLO,
        False,
        "",
        {
            "C": "CA C10 CK CQ CJ C9",
            "S": "SA S10 SK SQ SJ S9",
            "H": "HA H10 HK HQ HJ H9",
            "D": "DA D10 DK DQ DJ D9",
        },
    ),
    (
        G.PURE_CLUB_SOLO,
        False,
        "CA C10 CK CQ CJ C9",
        {"S": "SA S10 SK SQ SJ S9", "H": "HA H10 HK HQ HJ H9", "D": "DA D10 DK DQ DJ D9"},
    ),
    (
        G.PURE_SPADE_SOLO,
        False,
        "SA S10 SK SQ SJ S9",
        {"C": "CA C10 CK CQ CJ C9", "H": "HA H10 HK HQ HJ H9", "D": "DA D10 DK DQ DJ D9"},
    ),
    (
        G.PURE_HEART_SOLO,
        False,
        "HA H10 HK HQ HJ H9",
        {"C": "CA C10 CK CQ CJ C9", "S": "SA S10 SK SQ SJ S9", "D": "DA D10 DK DQ DJ D9"},
    ),
    (
        G.PURE_DIAMOND_SOLO,
        False,
        "DA D10 DK DQ DJ D9",
        {"C": "CA C10 CK CQ CJ C9", "S": "SA S10 SK SQ SJ S9", "H": "HA H10 HK HQ HJ H9"},
    ),
    # The further picture solos (option picture_solos), as FreeDoko plays them: the picture ranks
    # are trump rank above rank, each rank C S H D; the H10 is a plain heart.
    (
        G.KING_SOLO,
        False,
        "CK SK HK DK",
        {"C": "CA C10 CQ CJ C9", "S": "SA S10 SQ SJ S9", "H": "HA H10 HQ HJ H9", "D": "DA D10 DQ DJ D9"},
    ),
    (
        G.QUEEN_JACK_SOLO,
        False,
        "CQ SQ HQ DQ CJ SJ HJ DJ",
        {"C": "CA C10 CK C9", "S": "SA S10 SK S9", "H": "HA H10 HK H9", "D": "DA D10 DK D9"},
    ),
    (
        G.KING_JACK_SOLO,
        False,
        "CK SK HK DK CJ SJ HJ DJ",
        {"C": "CA C10 CQ C9", "S": "SA S10 SQ S9", "H": "HA H10 HQ H9", "D": "DA D10 DQ D9"},
    ),
    (
        G.KING_QUEEN_SOLO,
        False,
        "CK SK HK DK CQ SQ HQ DQ",
        {"C": "CA C10 CJ C9", "S": "SA S10 SJ S9", "H": "HA H10 HJ H9", "D": "DA D10 DJ D9"},
    ),
    (
        G.KOEHLER_SOLO,
        False,
        "CK SK HK DK CQ SQ HQ DQ CJ SJ HJ DJ",
        {"C": "CA C10 C9", "S": "SA S10 S9", "H": "HA H10 H9", "D": "DA D10 D9"},
    ),
    (G.KOEHLER_SOLO, True, "CK SK HK DK CQ SQ HQ DQ CJ SJ HJ DJ", {s: f"{s}A {s}10 {s}9" for s in "CSHD"}),
    # Schweinchen: in a normal or marriage game both DA rank above H10.
    (G.NORMAL, True, "DA H10 CQ SQ HQ DQ CJ SJ HJ DJ D10 DK D9", NORMAL_PLAIN),
    (G.MARRIAGE, True, "DA H10 CQ SQ HQ DQ CJ SJ HJ DJ D10 DK D9", NORMAL_PLAIN),
    # ... and nowhere else: the flag changes nothing in other game types.
    (G.POVERTY, True, NORMAL_TRUMPS, NORMAL_PLAIN),
    (G.SILENT_SOLO, True, NORMAL_TRUMPS, NORMAL_PLAIN),
    (G.DIAMOND_SOLO, True, NORMAL_TRUMPS, NORMAL_PLAIN),
    (
        G.CLUB_SOLO,
        True,
        "H10 CQ SQ HQ DQ CJ SJ HJ DJ CA C10 CK C9",
        {"S": "SA S10 SK S9", "H": "HA HK H9", "D": "DA D10 DK D9"},
    ),
    (G.ACE_SOLO, True, "", {s: f"{s}A {s}10 {s}K {s}Q {s}J {s}9" for s in "CSHD"}),
]


def _ids(row: tuple[GameType, bool, str, dict[str, str]]) -> str:
    game_type, schweinchen, _, _ = row
    return game_type.value + ("-schweinchen" if schweinchen else "")


def _cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def test_the_table_covers_every_game_type() -> None:
    assert {row[0] for row in ORDERS} == set(GameType)


@pytest.mark.parametrize(("game_type", "schweinchen", "trumps", "plain"), ORDERS, ids=[_ids(r) for r in ORDERS])
def test_trumps_high_to_low(game_type: GameType, schweinchen: bool, trumps: str, plain: dict[str, str]) -> None:
    order = card_order(game_type, schweinchen)

    assert [str(c) for c in order.trumps] == trumps.split()


@pytest.mark.parametrize(("game_type", "schweinchen", "trumps", "plain"), ORDERS, ids=[_ids(r) for r in ORDERS])
def test_every_card_belongs_to_the_expected_suit(
    game_type: GameType, schweinchen: bool, trumps: str, plain: dict[str, str]
) -> None:
    order = card_order(game_type, schweinchen)
    expected_suit = {card: TRUMP for card in _cards(trumps)}
    for suit, cards in plain.items():
        expected_suit.update({card: suit for card in _cards(cards)})

    assert set(expected_suit) == set(ALL_CARDS)
    for card in ALL_CARDS:
        assert order.suit_of(card) == expected_suit[card], card
        assert order.is_trump(card) == (expected_suit[card] == TRUMP), card


@pytest.mark.parametrize(("game_type", "schweinchen", "trumps", "plain"), ORDERS, ids=[_ids(r) for r in ORDERS])
def test_strength_falls_strictly_along_each_suit(
    game_type: GameType, schweinchen: bool, trumps: str, plain: dict[str, str]
) -> None:
    order = card_order(game_type, schweinchen)

    for cards in [trumps, *plain.values()]:
        listed = _cards(cards)
        strengths = [order.strength(c) for c in listed]
        assert strengths == sorted(strengths, reverse=True), cards
        assert len(set(strengths)) == len(strengths), cards


@pytest.mark.parametrize(("game_type", "schweinchen", "trumps", "plain"), ORDERS, ids=[_ids(r) for r in ORDERS])
def test_plain_suit_order_high_to_low(
    game_type: GameType, schweinchen: bool, trumps: str, plain: dict[str, str]
) -> None:
    order = card_order(game_type, schweinchen)

    for suit in "CSHD":
        in_suit = [c for c in ALL_CARDS if order.suit_of(c) == suit]
        ranked = sorted(in_suit, key=order.strength, reverse=True)
        assert [str(c) for c in ranked] == plain.get(suit, "").split(), suit


@pytest.mark.parametrize(
    ("game_type", "count"),
    [
        (G.NORMAL, 26),
        (G.DIAMOND_SOLO, 26),
        (G.CLUB_SOLO, 26),
        (G.SPADE_SOLO, 26),
        (G.HEART_SOLO, 24),
        (G.QUEEN_SOLO, 8),
        (G.JACK_SOLO, 8),
        (G.ACE_SOLO, 0),
        (G.PURE_HEART_SOLO, 12),
        (G.KING_SOLO, 8),
        (G.QUEEN_JACK_SOLO, 16),
        (G.KING_JACK_SOLO, 16),
        (G.KING_QUEEN_SOLO, 16),
        (G.KOEHLER_SOLO, 24),
    ],
)
def test_number_of_trumps_in_the_full_deck(game_type: GameType, count: int) -> None:
    order = card_order(game_type)

    assert 2 * sum(order.is_trump(c) for c in ALL_CARDS) == count


def test_schweinchen_puts_both_fox_above_the_dulle() -> None:
    with_pigs = card_order(G.NORMAL, True)
    without = card_order(G.NORMAL, False)
    fox, dulle = parse_card("DA"), parse_card("H10")

    assert with_pigs.strength(fox) > with_pigs.strength(dulle)
    assert without.strength(fox) < without.strength(dulle)


def test_sort_key_puts_trumps_first_then_clubs_spades_hearts_diamonds() -> None:
    order = card_order(G.NORMAL)

    hand = _cards("H9 DA SA C9 CQ HA CA H10 S9")
    assert [str(c) for c in order.sorted(hand)] == ["H10", "CQ", "DA", "CA", "C9", "SA", "S9", "HA", "H9"]


def test_trump_key_is_t() -> None:
    assert TRUMP == "T"
    assert card_order(G.NORMAL).suit_of(parse_card("CQ")) == "T"
