"""The double-dummy solver against brute force: every legal line of a short ending played out
with the rules core's own `legal_plays` and `best_index`, for every game type and the options
that change who wins a trick; and positions worked out by hand. Every test runs twice: with
the search in pure Python and with the compiled one (test_native.py compares the two)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf.analysis import native
from doko_ledger.doppelkopf.analysis.native import build
from doko_ledger.doppelkopf.analysis.position import Position, Tables, position, tables
from doko_ledger.doppelkopf.analysis.solver import Solver
from doko_ledger.doppelkopf.cards import Card, deck, parse_cards
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import CardOrder, card_order, game_card_order
from doko_ledger.doppelkopf.rules.play import best_index, legal_plays, second_dulle_wins
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset


@pytest.fixture
def native_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled search switched on; it must be built wherever a C compiler is (`make native`)."""
    if native.library() is None:
        if build.compiler() is None:
            pytest.skip("no C compiler here: the solver's compiled search cannot be built")
        pytest.fail("the solver's compiled search is not built (or stale): run `make native`")
    monkeypatch.setenv("DOKO_PURE_PYTHON", "0")


@pytest.fixture(autouse=True, params=["python", "native"])
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The search every `Solver` of the test uses."""
    if request.param == "native":
        request.getfixturevalue("native_library")
    monkeypatch.setenv("DOKO_PURE_PYTHON", "1" if request.param == "python" else "0")
    return str(request.param)


RULES = {
    "standard": preset("standard"),
    "second dulle": RuleSet(second_dulle_beats_first=True),
    "second dulle, first in the last trick": RuleSet(second_dulle_beats_first=True, second_dulle_last_trick=False),
    "no Dullen": RuleSet(dullen=False),
    "Schweinchen": RuleSet(schweinchen=True),
    "Hyperschweinchen": RuleSet(schweinchen=True, hyperschweinchen=True),
    "without nines": preset("bistro"),
}


def order_of(game_type: GameType, rules: RuleSet, pigs: bool) -> CardOrder:
    if pigs:
        return game_card_order(game_type, rules, True, rules.hyperschweinchen)
    return game_card_order(game_type, rules, False) if not rules.dullen else card_order(game_type)


def tables_of(order: CardOrder, rules: RuleSet) -> Tables:
    return tables(
        order,
        rules,
        second_dulle_wins(rules, False, order.schweinchen),
        second_dulle_wins(rules, True, order.schweinchen),
    )


def brute(
    hands: list[list[Card]], leader: int, trick: list[Card], re: Sequence[bool], order: CardOrder, rules: RuleSet
) -> int:
    """Re's card points from the trick on the table and the tricks to come, every line tried."""
    seat = (leader + len(trick)) % 4
    if len(trick) == 4:
        last = not any(hands)
        winner = (leader + best_index(trick, order.keys, second_dulle_wins(rules, last, order.schweinchen))) % 4
        gain = sum(c.points for c in trick) if re[winner] else 0
        return gain if last else gain + brute(hands, winner, [], re, order, rules)
    values = []
    for card in legal_plays(hands[seat], trick, order):
        hands[seat].remove(card)
        values.append(brute(hands, leader, [*trick, card], re, order, rules))
        hands[seat].append(card)
    return max(values) if re[seat] else min(values)


def ending(seed: int, tricks: int, with_nines: bool) -> tuple[list[list[Card]], int, list[bool]]:
    """Random hands of `tricks` cards each, a leader and the parties (two Re, or a soloist)."""
    rng = random.Random(seed)
    cards = list(deck(with_nines).elements())
    rng.shuffle(cards)
    hands = [cards[i * tricks : (i + 1) * tricks] for i in range(4)]
    re = [False] * 4
    for seat in rng.sample(range(4), rng.choice((1, 2))):
        re[seat] = True
    return hands, rng.randrange(4), re


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    tricks=st.integers(1, 3),
    on_table=st.integers(0, 3),
    game_type=st.sampled_from(list(GameType)),
    rules_name=st.sampled_from(sorted(RULES)),
    pigs=st.booleans(),
)
def test_the_solver_finds_what_every_line_played_out_finds(
    seed: int, tricks: int, on_table: int, game_type: GameType, rules_name: str, pigs: bool
) -> None:
    rules = RULES[rules_name]
    order = order_of(game_type, rules, pigs)
    t = tables_of(order, rules)
    hands, leader, re = ending(seed, tricks, rules.with_nines)
    rng = random.Random(seed)
    trick: list[Card] = []
    for i in range(on_table):  # a few cards of the first trick already on the table
        seat = (leader + i) % 4
        card = rng.choice(legal_plays(hands[seat], trick, order))
        hands[seat].remove(card)
        trick.append(card)
    expected = brute([list(h) for h in hands], leader, list(trick), re, order, rules)
    pos = position(t, hands, leader, trick, re)
    for plain in (False, True):
        solver = Solver(t, pos.re, plain=plain)
        assert solver.value(pos) == expected
        assert solver.reaches(pos, expected)
        assert not solver.reaches(pos, expected + 1)


@pytest.mark.parametrize("game_type", [GameType.NORMAL, GameType.HEART_SOLO, GameType.JACK_SOLO, GameType.ACE_SOLO])
def test_four_tricks_from_the_end_every_line_agrees(game_type: GameType) -> None:
    rules = RULES["second dulle"]
    order = order_of(game_type, rules, False)
    t = tables_of(order, rules)
    for seed in range(3):
        hands, leader, re = ending(seed, 4, True)
        expected = brute([list(h) for h in hands], leader, [], re, order, rules)
        pos = position(t, hands, leader, (), re)
        assert Solver(t, pos.re).value(pos) == expected


@pytest.mark.parametrize("game_type", [GameType.NORMAL, GameType.DIAMOND_SOLO, GameType.QUEEN_SOLO])
def test_the_table_ordering_and_equivalence_change_no_value(game_type: GameType) -> None:
    """Five tricks from the end, too many to play every line: the plain search is the witness."""
    rules = RULES["standard"]
    t = tables_of(order_of(game_type, rules, False), rules)
    for seed in range(4):
        hands, leader, re = ending(100 + seed, 5, True)
        pos = position(t, hands, leader, (), re)
        fast = Solver(t, pos.re)
        assert fast.value(pos) == Solver(t, pos.re, plain=True).value(pos)
        assert fast.stored() > 0


def _hand_made(hands: Sequence[str], leader: int, trick: str = "", re: str = "RKRK") -> tuple[Solver, Position]:
    rules = RULES["standard"]
    t = tables_of(card_order(GameType.NORMAL), rules)
    pos = position(
        t, [parse_cards(h.split()) for h in hands], leader, parse_cards(trick.split()), [p == "R" for p in re]
    )
    return Solver(t, pos.re), pos


def _after(solver: Solver, pos: Position, card: str) -> int:
    return solver.value_after(pos, solver.tables.number[parse_cards([card])[0]])


def test_a_dulle_that_must_be_kept() -> None:
    """Anna (Re) trumps the SA with the D9, not her H10: the H10 takes the last trick with the DK and HQ."""
    solver, pos = _hand_made(["H10 D9", "DK", "C9", "HQ"], leader=1, trick="SA S10 SK")
    assert _after(solver, pos, "D9") == 25 + 17
    assert _after(solver, pos, "H10") == 35
    assert solver.value(pos) == 42


def test_a_fox_that_must_be_saved() -> None:
    """Anna (Re) cannot beat Ben's HQ: she keeps her DA for the SA trick she will trump."""
    solver, pos = _hand_made(["DA D9", "SA", "S9", "SK"], leader=1, trick="HQ C9 DJ", re="RKRK")
    assert _after(solver, pos, "D9") == 26
    assert _after(solver, pos, "DA") == 15
    assert solver.value(pos) == 26


def test_a_schwarz_that_can_be_forced() -> None:
    """Re leads the H10 and the CQ: Kontra takes no trick, Re every point still out."""
    solver, pos = _hand_made(["H10 CQ", "SQ D9", "HA HK", "DJ DK"], leader=0)
    assert solver.value(pos) == 10 + 3 + 3 + 0 + 11 + 4 + 2 + 4
    assert solver.reaches(pos, 37)
    assert [solver.tables.cards[g[0]] for g in solver.classes(pos)] == list(parse_cards(["H10", "CQ"]))


def _classes(solver: Solver, pos: Position) -> list[list[str]]:
    return [[str(solver.tables.cards[c]) for c in group] for group in solver.classes(pos)]


def test_cards_alike_are_tried_once_and_unlike_ones_each() -> None:
    """Cards of one suit and the same points, with no card between them (nor their other
    copies) in another hand, make one class; a card between, or the other copy of one of
    them elsewhere, keeps them apart."""
    solver, pos = _hand_made(["CQ HQ HJ DJ", "SQ C9 C9 S9", "CJ SA SA S10", "H9 H9 HK HK"], leader=0)
    assert _classes(solver, pos) == [["CQ"], ["HQ"], ["HJ", "DJ"]]
    solver, pos = _hand_made(["CQ SQ HJ DJ", "DJ C9 C9 S9", "CJ SA SA S10", "H9 H9 HK HK"], leader=0)
    assert _classes(solver, pos) == [["CQ", "SQ"], ["HJ"], ["DJ"]]
    solver, pos = _hand_made(["CQ SQ HJ DJ", "DJ C9 C9 S9", "CJ SA SA S10", "H9 H9 HK HK"], leader=0)
    plain = Solver(solver.tables, pos.re, plain=True)
    assert _classes(plain, pos) == [["CQ"], ["SQ"], ["HJ"], ["DJ"]]
