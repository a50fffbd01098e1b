"""Dou Dizhu refusals that explain themselves (RULES-doudizhu.md §4): a kicker sharing a rank,
two cards that are no pair, and a declared combination no cards have."""

from __future__ import annotations

import pytest

from doko_ledger.doudizhu.cards import parse_card, parse_cards
from doko_ledger.doudizhu.combinations import Combination, Kind, describe, no_reading_reason, readings
from doko_ledger.doudizhu.decide import choose_reading
from doko_ledger.doudizhu.errors import IllegalPlay

SHARED = "kickers would share a rank (kickers may share a rank neither with the body nor with each other)"


@pytest.mark.parametrize(
    ("text", "players", "kind"),
    [
        ("3 3 3 4 4 4 5 5", 3, "an airplane with singles"),  # the two single kickers are both 5s
        ("3 3 3 4 4 4 3 5", 3, "an airplane with singles"),  # a kicker 3 beside the trio of 3s
        ("6 6 6 6 3 3", 3, "a four with two singles"),
        ("3 3 3 4 4 4 5 5 5 5", 3, "an airplane with pairs"),  # the two pair kickers are both 5s
        ("3 3 3 4 4 4 5 5 5 5", 4, "an airplane with pairs"),
    ],
)
def test_a_kicker_sharing_a_rank_says_so(text: str, players: int, kind: str) -> None:
    cards = parse_cards(text)
    assert readings(cards, players) == ()
    assert str(no_reading_reason(cards, players)).endswith(f"is no combination: as {kind} its {SHARED}")


@pytest.mark.parametrize(
    ("text", "players", "reason"),
    [
        ("BJ RJ", 4, "BJ RJ is no combination (the four-player game's rocket is all four jokers, BJ BJ RJ RJ)"),
        ("10 2", 3, "10 2 is no combination (a pair is two cards of one rank)"),
        ("10 2", 4, "10 2 is no combination (a pair is two cards of one rank)"),
        ("K BJ", 3, "K BJ is no combination (a pair is two cards of one rank)"),
    ],
)
def test_two_cards_that_are_no_pair_are_not_blamed_on_sequences(text: str, players: int, reason: str) -> None:
    assert str(no_reading_reason(parse_cards(text), players)) == reason


def test_sequences_are_still_blamed_where_the_cards_could_be_one() -> None:
    assert "(sequences use only 3 to A" in str(no_reading_reason(parse_cards("Q Q K K A A 2 2"), 3))


def test_a_declared_airplane_no_cards_have_names_its_rank() -> None:
    cards = parse_cards("3 3 3 4 4 4 5 5 5 6 6 6")
    declared = Combination(Kind.AIRPLANE, parse_card("3"), 12)
    assert describe(declared) == "airplane of 12 cards up to 3"
    with pytest.raises(IllegalPlay) as refused:
        choose_reading(cards, readings(cards, 3), declared)
    assert str(refused.value) == "3 3 3 4 4 4 5 5 5 6 6 6 is an airplane 3 to 6, not an airplane of 12 cards up to 3"
    assert "?" not in str(refused.value)
