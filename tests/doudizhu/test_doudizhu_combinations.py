"""Combinations and what beats what (docs/rules.md §D4): rule tables."""

from __future__ import annotations

import pytest

from doko_ledger.doudizhu.cards import parse_card, parse_cards
from doko_ledger.doudizhu.combinations import (
    Combination,
    Kind,
    beats,
    describe,
    no_reading_reason,
    readings,
    why_not_beats,
)
from doko_ledger.doudizhu.errors import PlayerCountError

AIRPLANE_OR_WINGS = "3 3 3 4 4 4 5 5 5 6 6 6"

# (cards, players, expected readings as (kind, main rank)); [] means no combination.
CLASSIFICATION: list[tuple[str, int, list[tuple[str, str]]]] = [
    # single
    ("3", 3, [("single", "3")]),
    ("RJ", 3, [("single", "RJ")]),
    ("BJ", 4, [("single", "BJ")]),
    ("2", 4, [("single", "2")]),
    # pair; the two jokers are never a pair in 3p, BJ BJ / RJ RJ are pairs in 4p
    ("7 7", 3, [("pair", "7")]),
    ("2 2", 3, [("pair", "2")]),
    ("BJ RJ", 3, [("rocket", "RJ")]),
    ("BJ BJ", 4, [("pair", "BJ")]),
    ("RJ RJ", 4, [("pair", "RJ")]),
    ("BJ BJ", 3, []),
    ("BJ RJ", 4, []),
    ("7 8", 3, []),
    # trio
    ("K K K", 3, [("trio", "K")]),
    ("2 2 2", 4, [("trio", "2")]),
    # trio + single: 3p only
    ("3 3 3 4", 3, [("trio_single", "3")]),
    ("3 3 3 4", 4, []),
    ("9 9 9 RJ", 3, [("trio_single", "9")]),
    ("2 2 2 A", 3, [("trio_single", "2")]),
    ("9 9 9 4", 3, [("trio_single", "9")]),
    ("3 3 3 3", 3, [("bomb", "3")]),
    # trio + pair
    ("3 3 3 4 4", 3, [("trio_pair", "3")]),
    ("3 3 3 4 4", 4, [("trio_pair", "3")]),
    ("Q Q Q BJ BJ", 4, [("trio_pair", "Q")]),
    ("Q Q Q BJ RJ", 3, []),
    ("Q Q Q BJ RJ", 4, []),
    ("3 3 3 4 4 5", 3, []),
    # sequence: at least 5, 3..A only, no wrap-around
    ("3 4 5 6 7", 3, [("sequence", "7")]),
    ("10 J Q K A", 3, [("sequence", "A")]),
    ("3 4 5 6 7 8 9 10 J Q K A", 3, [("sequence", "A")]),
    ("6 7 8 9 10", 4, [("sequence", "10")]),
    ("J Q K A 2", 3, []),
    ("Q K A 2 3", 3, []),
    ("K A 2 3 4", 3, []),
    ("10 J Q K BJ", 3, []),
    ("3 4 5 6", 3, []),
    ("3 4 5 6 8", 3, []),
    ("7 8 9 J Q", 3, []),
    # pair sequence: at least 3 pairs
    ("3 3 4 4 5 5", 3, [("pair_sequence", "5")]),
    ("Q Q K K A A", 4, [("pair_sequence", "A")]),
    ("3 3 4 4 5 5 6 6 7 7 8 8 9 9 10 10 J J Q Q", 3, [("pair_sequence", "Q")]),
    ("3 3 4 4", 3, []),
    ("K K A A 2 2", 3, []),
    ("3 3 4 4 6 6", 3, []),
    # airplane (trio sequence)
    ("3 3 3 4 4 4", 3, [("airplane", "4")]),
    ("K K K A A A", 4, [("airplane", "A")]),
    ("A A A 2 2 2", 3, []),
    ("3 3 3 5 5 5", 3, []),
    (AIRPLANE_OR_WINGS, 3, [("airplane", "6")]),
    (AIRPLANE_OR_WINGS, 4, [("airplane", "6")]),
    # airplane + singles: 3p only; kickers distinct, not the body's rank, not both jokers
    ("3 3 3 4 4 4 5 6", 3, [("airplane_singles", "4")]),
    ("3 3 3 4 4 4 5 6", 4, []),
    ("3 3 3 4 4 4 2 RJ", 3, [("airplane_singles", "4")]),
    ("7 7 7 8 8 8 9 9 9 3 4 5", 3, [("airplane_singles", "9")]),
    ("3 3 3 4 4 4 5 5 5 6 7 8", 3, [("airplane_singles", "5")]),
    ("3 3 3 4 4 4 5 5 5 6 6 6 7 8 9 10", 3, [("airplane_singles", "6")]),
    ("3 3 3 4 4 4 BJ RJ", 3, []),
    ("3 3 3 4 4 4 5 5", 3, []),
    ("3 3 3 4 4 4 4 5", 3, []),
    ("3 3 3 4 4 4 5 5 5 6", 3, []),
    ("3 3 3 5 5 5 7 8", 3, []),
    # airplane + pairs
    ("3 3 3 4 4 4 5 5 6 6", 3, [("airplane_pairs", "4")]),
    ("3 3 3 4 4 4 5 5 6 6", 4, [("airplane_pairs", "4")]),
    ("3 3 3 4 4 4 5 5 5 6 6 7 7 8 8", 3, [("airplane_pairs", "5")]),
    ("3 3 3 4 4 4 BJ BJ 2 2", 4, [("airplane_pairs", "4")]),
    ("3 3 3 4 4 4 BJ BJ RJ RJ", 4, []),
    ("3 3 3 4 4 4 5 5 5 5", 4, []),
    ("3 3 3 4 4 4 4 4 5 5", 4, []),
    ("3 3 3 4 4 4 5 5", 4, []),
    # bombs: 4 of a rank in 3p; 4 to 8 of a rank in 4p
    ("8 8 8 8", 3, [("bomb", "8")]),
    ("2 2 2 2", 3, [("bomb", "2")]),
    ("8 8 8 8", 4, [("bomb", "8")]),
    ("3 3 3 3 3", 4, [("bomb", "3")]),
    ("3 3 3 3 3 3", 4, [("bomb", "3")]),
    ("A A A A A A A", 4, [("bomb", "A")]),
    ("2 2 2 2 2 2 2 2", 4, [("bomb", "2")]),
    ("5 5 5 5 5", 3, []),
    # rocket: both jokers (3p), all four jokers (4p)
    ("BJ BJ RJ RJ", 4, [("rocket", "RJ")]),
    ("BJ BJ RJ RJ", 3, []),
    ("BJ RJ RJ", 4, []),
    # four + two: 3p only
    ("6 6 6 6 3 K", 3, [("four_two_singles", "6")]),
    ("6 6 6 6 2 BJ", 3, [("four_two_singles", "6")]),
    ("6 6 6 6 3 K", 4, []),
    ("6 6 6 6 BJ RJ", 3, []),
    ("6 6 6 6 3 3", 3, []),
    ("6 6 6 6 3 3 K K", 3, [("four_two_pairs", "6")]),
    ("2 2 2 2 A A K K", 3, [("four_two_pairs", "2")]),
    ("6 6 6 6 3 3 K K", 4, []),
    ("6 6 6 6 3 3 3 3", 3, []),
    ("6 6 6 6 3", 3, []),
    ("", 3, []),
]


@pytest.mark.parametrize(("text", "players", "expected"), CLASSIFICATION)
def test_readings_table(text: str, players: int, expected: list[tuple[str, str]]) -> None:
    cards = parse_cards(text)
    found = readings(cards, players)
    assert [(c.kind.value, str(c.rank)) for c in found] == expected
    assert all(c.size == len(cards) for c in found)


def test_the_table_covers_every_kind_and_both_variants() -> None:
    kinds = {kind for _, _, expected in CLASSIFICATION for kind, _ in expected}
    assert kinds == {k.value for k in Kind}
    assert len(CLASSIFICATION) >= 70
    assert {p for _, p, _ in CLASSIFICATION} == {3, 4}


def test_four_trios_read_only_as_an_airplane_not_three_trios_with_wings() -> None:
    """docs/rules.md §D3 mentions 666 as wings, but §4 forbids kickers sharing a rank with each other."""
    assert readings(parse_cards(AIRPLANE_OR_WINGS), 3) == (Combination(Kind.AIRPLANE, parse_card("6"), 12),)


def test_readings_refuses_other_player_counts() -> None:
    with pytest.raises(PlayerCountError):
        readings(parse_cards("3"), 5)


@pytest.mark.parametrize(
    ("text", "players", "reason"),
    [
        ("3 3 3 4", 4, "3 3 3 4 is no combination (the four-player game has no trio with a single)"),
        ("3 3 3 4 4 4 5 6", 4, "(the four-player game has no airplane with singles)"),
        ("6 6 6 6 3 K", 4, "(the four-player game has no four with two singles)"),
        ("6 6 6 6 3 3 K K", 4, "(the four-player game has no four with two pairs)"),
        ("7 8 9 J Q", 3, "7 8 9 J Q is no combination"),
        ("J Q K A 2", 3, "(sequences use only 3 to A, without 2s or jokers)"),
        ("3 4 5 6", 3, "(a sequence needs at least 5 cards)"),
        ("3 3 4 4", 3, "(a pair sequence needs at least 3 pairs)"),
        ("3 3 3 4 4 4 BJ RJ", 3, "(both jokers may not be kickers in one combination)"),
        ("3 3 3 4 4 4 BJ BJ RJ RJ", 4, "(both jokers may not be kickers in one combination)"),
    ],
)
def test_no_reading_reason_explains(text: str, players: int, reason: str) -> None:
    assert reason in str(no_reading_reason(parse_cards(text), players))


@pytest.mark.parametrize(
    ("text", "players", "words"),
    [
        ("7", 3, "single 7"),
        ("7 7", 3, "pair of 7s"),
        ("7 7 7", 3, "trio of 7s"),
        ("7 7 7 3", 3, "trio of 7s with a single"),
        ("7 7 7 3 3", 3, "trio of 7s with a pair"),
        ("3 4 5 6 7", 3, "sequence 3 to 7"),
        ("3 3 4 4 5 5", 3, "pair sequence 3 to 5"),
        ("3 3 3 4 4 4", 3, "airplane 3 to 4"),
        ("3 3 3 4 4 4 8 9", 3, "airplane with singles 3 to 4"),
        ("3 3 3 4 4 4 8 8 9 9", 3, "airplane with pairs 3 to 4"),
        ("3 3 3 3 3", 4, "bomb of five 3s"),
        ("BJ RJ", 3, "rocket"),
        ("6 6 6 6 3 K", 3, "four 6s with two singles"),
        ("6 6 6 6 3 3 K K", 3, "four 6s with two pairs"),
    ],
)
def test_describe(text: str, players: int, words: str) -> None:
    (combination,) = readings(parse_cards(text), players)
    assert describe(combination) == words == str(combination)


def the(text: str, players: int) -> Combination:
    """The one reading of the cards."""
    (combination,) = readings(parse_cards(text), players)
    return combination


# (new, old, players, new beats old)
COMPARISON: list[tuple[str, str, int, bool]] = [
    # singles and pairs: rank decides, equal never beats
    ("4", "3", 3, True),
    ("3", "4", 3, False),
    ("7", "7", 3, False),
    ("2", "A", 3, True),
    ("BJ", "2", 3, True),
    ("RJ", "BJ", 3, True),
    ("BJ", "RJ", 3, False),
    ("8 8", "7 7", 3, True),
    ("7 7", "7 7", 4, False),
    ("BJ BJ", "2 2", 4, True),
    ("RJ RJ", "BJ BJ", 4, True),
    # different kinds never beat (bombs and rockets aside)
    ("8 8", "7", 3, False),
    ("8", "7 7", 3, False),
    ("9 9 9 3", "8 8 8 4 4", 3, False),
    ("9 9 9", "8 8 8 4", 3, False),
    ("5 5", "3 3 4 4 5 5", 3, False),
    ("4 4 4 5 5 5 3 9", "3 3 3 4 4 4", 3, False),
    ("Q Q Q Q 3 K", "3 3 3 3", 3, False),
    # kickers never count
    ("9 9 9", "8 8 8", 3, True),
    ("9 9 9 3", "8 8 8 A", 3, True),
    ("7 7 7 A", "8 8 8 3", 3, False),
    ("9 9 9 3 3", "8 8 8 A A", 3, True),
    ("9 9 9 3 3", "9 9 9 A A", 4, False),
    ("4 4 4 5 5 5 3 9", "3 3 3 4 4 4 A 2", 3, True),
    ("4 4 4 5 5 5 3 3 9 9", "3 3 3 4 4 4 A A 2 2", 4, True),
    ("Q Q Q Q 3 3 4 4", "J J J J A A 2 2", 3, True),
    ("Q Q Q Q 3 K", "K K K K 4 5", 3, False),
    # sequences: same length, higher top
    ("4 5 6 7 8", "3 4 5 6 7", 3, True),
    ("4 5 6 7 8", "4 5 6 7 8", 3, False),
    ("3 4 5 6 7 8", "3 4 5 6 7", 3, False),
    ("10 J Q K A", "3 4 5 6 7 8", 3, False),
    ("4 4 5 5 6 6", "3 3 4 4 5 5", 3, True),
    ("4 4 5 5 6 6 7 7", "3 3 4 4 5 5", 3, False),
    ("4 4 4 5 5 5", "3 3 3 4 4 4", 3, True),
    ("4 4 4 5 5 5 6 6 6", "3 3 3 4 4 4", 3, False),
    # a bomb beats any non-bomb
    ("3 3 3 3", "2", 3, True),
    ("3 3 3 3", "10 J Q K A", 3, True),
    ("3 3 3 3", "Q Q Q Q 3 K", 3, True),
    ("3 3 3 3", "BJ BJ", 4, True),
    # bomb on bomb, 3p: by rank
    ("4 4 4 4", "3 3 3 3", 3, True),
    ("3 3 3 3", "4 4 4 4", 3, False),
    ("2 2 2 2", "A A A A", 3, True),
    ("7 7 7 7", "7 7 7 7", 4, False),
    # bomb on bomb, 4p: more cards first, then rank
    ("3 3 3 3 3", "7 7 7 7", 4, True),
    ("7 7 7 7", "3 3 3 3 3", 4, False),
    ("3 3 3 3 3 3", "2 2 2 2 2", 4, True),
    ("4 4 4 4 4", "3 3 3 3 3", 4, True),
    ("3 3 3 3 3", "4 4 4 4 4", 4, False),
    ("3 3 3 3", "4 4 4 4", 4, False),
    ("3 3 3 3 3 3 3 3", "2 2 2 2 2 2 2", 4, True),
    # the rocket beats everything; nothing beats the rocket
    ("BJ RJ", "3", 3, True),
    ("BJ RJ", "2 2 2 2", 3, True),
    ("BJ BJ RJ RJ", "2 2 2 2 2 2 2 2", 4, True),
    ("2 2 2 2", "BJ RJ", 3, False),
    ("2 2 2 2 2 2 2 2", "BJ BJ RJ RJ", 4, False),
    ("RJ", "BJ RJ", 3, False),
    ("BJ RJ", "BJ RJ", 3, False),
]


@pytest.mark.parametrize(("new", "old", "players", "expected"), COMPARISON)
def test_beats_table(new: str, old: str, players: int, expected: bool) -> None:
    a, b = the(new, players), the(old, players)
    assert beats(a, b, players) is expected
    assert (why_not_beats(a, b, players) is None) is expected


def test_the_comparison_table_is_large_enough() -> None:
    assert len(COMPARISON) >= 45


@pytest.mark.parametrize(
    ("new", "old", "players", "reason"),
    [
        ("2 2 2 2", "BJ RJ", 3, "nothing beats the rocket"),
        ("7", "7", 3, "7 is not higher than 7: equal ranks never beat"),
        ("3", "4", 3, "3 is lower than 4"),
        ("8 8", "7", 3, "a pair does not beat a single: play a higher single, a bomb or the rocket"),
        ("3 4 5 6 7 8", "3 4 5 6 7", 3, "a sequence of 6 cards does not beat one of 5: the length must be the same"),
        (
            "3 3 4 4 5 5",
            "3 4 5 6 7",
            3,
            "a pair sequence does not beat a sequence: play a higher sequence of the same length, a bomb or the rocket",
        ),
        ("2", "3 3 3 3", 3, "only a higher bomb or the rocket beats a bomb"),
        ("3 3 3 3", "4 4 4 4", 3, "a lower bomb does not beat a higher one"),
        ("4 4 4 4", "4 4 4 4", 3, "equal bombs do not beat each other"),
        ("7 7 7 7", "3 3 3 3 3", 4, "a bomb of fewer cards does not beat one of more cards"),
    ],
)
def test_why_not_beats_says_why(new: str, old: str, players: int, reason: str) -> None:
    assert str(why_not_beats(the(new, players), the(old, players), players)) == reason
