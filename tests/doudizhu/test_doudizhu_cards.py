"""Dou Dizhu cards: ranks, text form, parser, deck and seeded deal (docs/rules.md §D1)."""

from __future__ import annotations

from collections import Counter

import pytest

from doko_ledger.doudizhu.cards import (
    RANKS,
    Rank,
    cards_text,
    deal,
    deck,
    hand_size,
    kitty_size,
    not_in_deck,
    parse_card,
    parse_cards,
)
from doko_ledger.doudizhu.errors import CardError, PlayerCountError
from doko_ledger.errors import DokoError

TEXTS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"]


def test_ranks_run_low_to_high_in_the_order_of_the_rules() -> None:
    assert [str(r) for r in RANKS] == TEXTS
    assert list(RANKS) == sorted(RANKS)
    assert Rank.TWO > Rank.ACE > Rank.KING and Rank.RED_JOKER > Rank.BLACK_JOKER > Rank.TWO


@pytest.mark.parametrize("text", TEXTS)
def test_text_form_round_trips(text: str) -> None:
    assert str(parse_card(text)) == text
    assert f"{parse_card(text)}" == text


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("H7", Rank.SEVEN),
        ("s10", Rank.TEN),
        ("CA", Rank.ACE),
        ("D2", Rank.TWO),
        ("dj", Rank.JACK),
        ("bj", Rank.BLACK_JOKER),
        ("rj", Rank.RED_JOKER),
        (" q ", Rank.QUEEN),
    ],
)
def test_suit_letters_and_lower_case_are_accepted_and_the_suit_is_dropped(text: str, rank: Rank) -> None:
    assert parse_card(text) is rank


@pytest.mark.parametrize("text", ["", "1", "11", "X", "H", "HBJ", "SRJ", "joker", "T", "7H", "Z7"])
def test_bad_card_text_raises_a_card_error_quoting_it(text: str) -> None:
    with pytest.raises(CardError, match=repr(text).replace("\\", "\\\\")) as info:
        parse_card(text)
    assert isinstance(info.value, DokoError) and isinstance(info.value, ValueError)


def test_parse_cards_reads_a_text_or_a_list_and_sorts() -> None:
    assert parse_cards("RJ 3, h7 3") == (Rank.THREE, Rank.THREE, Rank.SEVEN, Rank.RED_JOKER)
    assert parse_cards(["K", "10"]) == (Rank.TEN, Rank.KING)
    assert cards_text(parse_cards("2 3 BJ 10")) == "3 10 2 BJ"


def test_the_three_player_deck_has_54_cards() -> None:
    full = deck(3)
    assert sum(full.values()) == 54
    assert all(full[r] == 4 for r in RANKS if not r.is_joker)
    assert full[Rank.BLACK_JOKER] == full[Rank.RED_JOKER] == 1
    assert (hand_size(3), kitty_size(3)) == (17, 3)


def test_the_four_player_deck_has_108_cards() -> None:
    full = deck(4)
    assert sum(full.values()) == 108
    assert all(full[r] == 8 for r in RANKS if not r.is_joker)
    assert full[Rank.BLACK_JOKER] == full[Rank.RED_JOKER] == 2
    assert (hand_size(4), kitty_size(4)) == (25, 8)


@pytest.mark.parametrize("players", [3, 4])
def test_a_seeded_deal_is_repeatable_sorted_and_uses_the_whole_deck(players: int) -> None:
    hands, kitty = deal("friday", players)
    assert (hands, kitty) == deal("friday", players)
    assert (hands, kitty) != deal("saturday", players)
    assert [len(h) for h in hands] == [hand_size(players)] * players
    assert len(kitty) == kitty_size(players)
    assert all(list(h) == sorted(h) for h in (*hands, kitty))
    assert Counter(c for h in (*hands, kitty) for c in h) == deck(players)


@pytest.mark.parametrize("players", [0, 2, 5])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(PlayerCountError, match=f"3 or 4 players, not {players}"):
        deck(players)


def test_not_in_deck_names_the_rank_that_is_over() -> None:
    assert not_in_deck(parse_cards("7 7 7 7 BJ"), 3) is None
    assert str(not_in_deck(parse_cards("7 7 7 7 7"), 3)) == "5 7s; the deck has 4"
    assert str(not_in_deck(parse_cards("BJ BJ"), 3)) == "2 BJs; the deck has 1"
    assert not_in_deck(parse_cards("BJ BJ"), 4) is None
