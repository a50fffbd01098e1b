"""The solver's table answers a trick start from an entry whose hands hold other cards of the
same ranks (a suit or the trumps closed up in rank order), its bounds widened by the points
the cards differ by. Against brute force: the widened bounds hold for every game type and the
options that change who wins a trick, and one solver kept across many positions of an ending,
where other cards have fallen in each, finds every value every line played out finds. Both
searches, pure Python and compiled (the fixtures of test_solver)."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_solver import RULES, brute, core, ending, native_library, order_of, tables_of

from doko_ledger.doppelkopf.analysis.position import position
from doko_ledger.doppelkopf.analysis.solver import Solver, _run_masks, _runs, _slack, _twice, _types
from doko_ledger.doppelkopf.cards import Card, parse_cards
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import CardOrder
from doko_ledger.doppelkopf.rules.play import legal_plays

__all__ = ["core", "native_library"]  # the fixtures every test here runs under

GAMES = st.sampled_from(list(GameType))
RULE_NAMES = st.sampled_from(sorted(RULES))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), tricks=st.integers(1, 3), game_type=GAMES, rules_name=RULE_NAMES, pigs=st.booleans())
def test_other_cards_of_the_same_ranks_move_the_value_by_at_most_their_points(
    seed: int, tricks: int, game_type: GameType, rules_name: str, pigs: bool
) -> None:
    """Every copy of a card type in the hands swapped for a type of its run that no hand holds,
    with no type held between the two: the value moves by no more than the slack says."""
    rules = RULES[rules_name]
    order = order_of(game_type, rules, pigs)
    t = tables_of(order, rules)
    hands, leader, re = ending(seed, tricks, rules.with_nines)
    held = {t.number[card] for hand in hands for card in hand}
    swaps = []
    for start, end in _runs(t):
        for x in held & set(range(start, end)):
            for step in (-1, 1):
                y = x + step
                while start <= y < end and y not in held:
                    swaps.append((x, y))
                    y += step
    assume(swaps)
    x, y = random.Random(seed).choice(swaps)
    swapped = [[t.cards[y] if t.number[card] == x else card for card in hand] for hand in hands]
    before = position(t, hands, leader, (), re)
    after = position(t, swapped, leader, (), re)
    masks = _run_masks(_runs(t))
    down, up = _slack(t.points, masks, _types(list(before.hands)), _types(list(after.hands)), _twice(list(after.hands)))
    value = brute([list(h) for h in hands], leader, [], re, order, rules)
    moved = brute([list(h) for h in swapped], leader, [], re, order, rules)
    assert value - down <= moved <= value + up
    if t.points[x] == t.points[y]:
        assert moved == value and down == up == 0
    solver = Solver(t, before.re)  # the second answered from the first's entries where they cut
    assert solver.value(before) == value
    assert solver.value(after) == moved


def first_tricks(hands: list[list[Card]], leader: int, order: CardOrder) -> list[list[Card]]:
    """Every legal first trick, its cards in playing order."""
    lines: list[list[Card]] = [[]]
    for i in range(4):
        seat = (leader + i) % 4
        lines = [[*line, card] for line in lines for card in dict.fromkeys(legal_plays(hands[seat], line, order))]
    return lines


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), game_type=GAMES, rules_name=RULE_NAMES, pigs=st.booleans())
def test_one_solver_across_the_positions_after_every_first_trick_finds_every_value(
    seed: int, game_type: GameType, rules_name: str, pigs: bool
) -> None:
    """Three tricks a hand; after each legal first trick other cards have fallen, and the one
    solver's table answers the positions of one line from the entries of another."""
    rules = RULES[rules_name]
    order = order_of(game_type, rules, pigs)
    t = tables_of(order, rules)
    hands, leader, re = ending(seed, 3, rules.with_nines)
    start = position(t, hands, leader, (), re)
    solver = Solver(t, start.re)
    lines = first_tricks(hands, leader, order)
    random.Random(seed).shuffle(lines)
    for line in lines[:40]:
        pos = start
        for card in line:
            pos = solver.play(pos, t.number[card])
        expected = brute([list(t.hand(bits)) for bits in pos.hands], pos.leader, [], re, order, rules)
        assert solver.reaches(pos, expected) and not solver.reaches(pos, expected + 1)
        assert solver.value(pos) == expected


def test_both_copies_of_a_card_count_twice_in_the_slack() -> None:
    """Both DA in Re's tricks, then both D10 in their place: the table's entry for the first
    deal answers the second only within the two points the two copies lose."""
    rules = RULES["standard"]
    order = order_of(GameType.NORMAL, rules, False)
    t = tables_of(order, rules)
    re = [True, False, True, False]
    aces = position(t, [parse_cards(h.split()) for h in ("H10 H10", "DA C9", "DA C9", "S9 S9")], 0, (), re)
    tens = position(t, [parse_cards(h.split()) for h in ("H10 H10", "D10 C9", "D10 C9", "S9 S9")], 0, (), re)
    masks = _run_masks(_runs(t))
    hands = list(tens.hands)
    assert _slack(t.points, masks, _types(list(aces.hands)), _types(hands), _twice(hands)) == (2, 0)
    solver = Solver(t, aces.re)
    assert solver.value(aces) == 42
    assert solver.value(tens) == 40
