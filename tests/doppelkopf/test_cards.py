"""Cards, their notation and the deck (docs/rules.md §1)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from doko_ledger.doppelkopf.cards import (
    ALL_CARDS,
    ALTE,
    DULLE,
    FUCHS,
    KARLCHEN,
    Card,
    CardError,
    Rank,
    Suit,
    card_points,
    deck,
    parse_card,
    parse_cards,
)
from doko_ledger.errors import DokoError

CANONICAL = [s + r for s in "CSHD" for r in ("A", "10", "K", "Q", "J", "9")]


# --- canonical form ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_parses_and_prints_back(text: str) -> None:
    card = parse_card(text)

    assert str(card) == text
    assert parse_card(str(card)) == card


def test_there_are_24_distinct_cards_each_with_its_own_text() -> None:
    assert len(ALL_CARDS) == 24
    assert sorted(str(c) for c in ALL_CARDS) == sorted(CANONICAL)


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_str_round_trips_for_every_card(card: Card) -> None:
    assert re.fullmatch(r"[CSHD](A|10|K|Q|J|9)", str(card))
    assert parse_card(str(card)) == card


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_pretty_form_parses_back_to_the_card(card: Card) -> None:
    assert parse_card(card.pretty) == card


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("CQ", Suit.CLUBS, Rank.QUEEN),
        ("H10", Suit.HEARTS, Rank.TEN),
        ("DA", Suit.DIAMONDS, Rank.ACE),
        ("SK", Suit.SPADES, Rank.KING),
        ("C9", Suit.CLUBS, Rank.NINE),
        ("HJ", Suit.HEARTS, Rank.JACK),
    ],
)
def test_canonical_text_names_suit_and_rank(text: str, suit: Suit, rank: Rank) -> None:
    assert parse_card(text) == Card(suit, rank)


def test_cards_are_values() -> None:
    assert parse_card("CQ") == Card(Suit.CLUBS, Rank.QUEEN)
    assert hash(parse_card("CQ")) == hash(Card(Suit.CLUBS, Rank.QUEEN))
    assert parse_card("CQ") != parse_card("SQ")
    with pytest.raises(AttributeError):
        parse_card("CQ").rank = Rank.KING  # type: ignore[misc]


def test_named_cards() -> None:
    assert str(DULLE) == "H10"
    assert str(ALTE) == "CQ"
    assert str(FUCHS) == "DA"
    assert str(KARLCHEN) == "CJ"


# --- aliases -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # case and surrounding space
        ("cq", "CQ"),
        ("h10", "H10"),
        (" SA ", "SA"),
        # suit symbols, before or after the rank
        ("♥10", "H10"),
        ("10♥", "H10"),
        ("♣Q", "CQ"),
        ("Q♣", "CQ"),
        ("♠A", "SA"),
        ("♦9", "D9"),
        ("♦K", "DK"),
        ("♡K", "HK"),
        ("♥\ufe0f10", "H10"),  # emoji presentation selector
        ("♥ 10", "H10"),
        # German names
        ("Kreuz Dame", "CQ"),
        ("KREUZ DAME", "CQ"),
        ("kreuz dame", "CQ"),
        ("Kreuz-Dame", "CQ"),
        ("KrD", "CQ"),
        ("KrB", "CJ"),
        ("Herz 10", "H10"),
        ("Herz  10", "H10"),
        ("Herz Zehn", "H10"),
        ("Karo As", "DA"),
        ("Karo Ass", "DA"),
        ("KaA", "DA"),
        ("Karo Neun", "D9"),
        ("Kreuz Bube", "CJ"),
        ("Pik König", "SK"),
        ("Pik Ko\u0308nig", "SK"),  # decomposed umlaut
        ("Pik Koenig", "SK"),
        ("PiD", "SQ"),
        ("He10", "H10"),
        ("Kreuz-Dame", "CQ"),
        ("dame de trèfle", "CQ"),
        ("Dame de Trèfle", "CQ"),
        ("valet de carreau", "DJ"),
        ("as de pique", "SA"),
        ("dix de cœur", "H10"),
        ("roi de coeur", "HK"),
        ("neuf de carreau", "D9"),
        ("queen of clubs", "CQ"),
        ("ten of hearts", "H10"),
        ("♣D", "CQ"),
        ("♦B", "DJ"),
        ("♠R", "SK"),
    ],
)
def test_aliases_parse_to_the_canonical_card(text: str, expected: str) -> None:
    card = parse_card(text)

    assert str(card) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "X1",
        "C1",
        "H11",
        "CQQ",
        "QQ",
        "10",
        "♥",
        "1♥",
        "Kreuz",
        "Dame",
        "Kreuz Kreuz",
        "Dame Bube",
        "Herz Dame Karo",
        "H 1 0",
        "Kreuz Elf",
        "dame de dame",
        "dame du trèfle pique",
        "de dame trèfle",
    ],
)
def test_bad_text_raises_card_error_quoting_the_input(text: str) -> None:
    with pytest.raises(CardError) as raised:
        parse_card(text)

    assert repr(text) in str(raised.value)


@pytest.mark.parametrize("value", [12, None, ("C", "Q")])
def test_non_text_raises_card_error(value: object) -> None:
    with pytest.raises(CardError) as raised:
        parse_card(value)  # type: ignore[arg-type]

    assert repr(value) in str(raised.value)


def test_card_error_is_a_value_error_and_a_doko_error() -> None:
    with pytest.raises(ValueError):
        parse_card("ZZ")
    assert issubclass(CardError, DokoError)


def test_parse_cards_reads_several_in_order() -> None:
    assert parse_cards(["♥10", "Kreuz Dame", "DA"]) == (DULLE, ALTE, FUCHS)


def test_parse_cards_quotes_the_first_bad_card() -> None:
    with pytest.raises(CardError, match="'XX'"):
        parse_cards(["CQ", "XX", "YY"])


# --- deck and points ---------------------------------------------------------------------------


def test_deck_has_48_cards_two_of_each() -> None:
    full = deck()

    assert isinstance(full, Counter)
    assert full.total() == 48
    assert len(full) == 24
    assert set(full.values()) == {2}
    assert set(full) == set(ALL_CARDS)


def test_deck_without_nines_has_40_cards_two_of_each() -> None:
    short = deck(with_nines=False)

    assert short.total() == 40
    assert len(short) == 20
    assert set(short.values()) == {2}
    assert all(c.rank is not Rank.NINE for c in short)
    assert set(deck()) - set(short) == {parse_card(s + "9") for s in "CSHD"}


@pytest.mark.parametrize(
    ("rank", "points"),
    [("A", 11), ("10", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)],
)
def test_card_points_per_rank(rank: str, points: int) -> None:
    for suit in "CSHD":
        assert parse_card(suit + rank).points == points


@pytest.mark.parametrize("with_nines", [True, False])
def test_the_deck_holds_240_card_points(with_nines: bool) -> None:
    assert card_points(deck(with_nines).elements()) == 240


def test_card_points_of_a_trick() -> None:
    assert card_points(parse_cards(["DA", "H10", "CQ", "C9"])) == 24
    assert card_points([]) == 0


@pytest.mark.parametrize(
    ("text", "english", "german", "french"),
    [
        ("CQ", "♣Q", "♣D", "♣D"),
        ("DJ", "♦J", "♦B", "♦V"),
        ("SK", "♠K", "♠K", "♠R"),
        ("H10", "♥10", "♥10", "♥10"),
        ("DA", "♦A", "♦A", "♦A"),
    ],
)
def test_a_card_is_lettered_as_each_language_letters_it(text: str, english: str, german: str, french: str) -> None:
    card = parse_card(text)
    assert (card.localized("en"), card.localized("de"), card.localized("fr")) == (english, german, french)
    assert {parse_card(card.localized(language)) for language in ("en", "de", "fr")} == {card}
