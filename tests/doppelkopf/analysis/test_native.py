"""The compiled search (native/solver.c) against the pure-Python one: the same values, the same
yes-or-no answers and the same node limit, on endings and mid-game positions of every game type
(normal, marriage, poverty, the solos) and the options that change who wins a trick; the switch
between the two; and the build that compiles it, with and without a compiler."""

from __future__ import annotations

import ctypes
import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import RULES, ending, native_library, order_of, tables_of

from doko_ledger.doppelkopf.analysis import native
from doko_ledger.doppelkopf.analysis.native import build
from doko_ledger.doppelkopf.analysis.position import Position, Tables, position
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.cards import Card, deck
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import CardOrder
from doko_ledger.doppelkopf.rules.play import legal_plays

pytestmark = pytest.mark.usefixtures(native_library.__name__)


def solvers(t: Tables, pos: Position, limit: int | None = None) -> tuple[Solver, Solver]:
    """A solver in pure Python and a compiled one, for the same deal."""
    os.environ["DOKO_PURE_PYTHON"] = "1"
    python = Solver(t, pos.re, limit=limit)
    os.environ["DOKO_PURE_PYTHON"] = "0"
    compiled = Solver(t, pos.re, limit=limit)
    assert not python.native and compiled.native
    return python, compiled


def agree(t: Tables, pos: Position, every_card: bool) -> int:
    """Both searches give the same value, the same answers around it and, with `every_card`,
    the same value after each class of cards; the value."""
    python, compiled = solvers(t, pos)
    value = python.value(pos)
    assert compiled.value(pos) == value
    for target in (value, value + 1, value // 2, value + 30):
        assert compiled.reaches(pos, target) == python.reaches(pos, target) == (value >= target)
    if every_card:
        for group in python.classes(pos):
            assert compiled.value_after(pos, group[0]) == python.value_after(pos, group[0])
        assert compiled.classes(pos) == python.classes(pos)
    return value


def played_into(hands: list[list[Card]], leader: int, cards: int, order: CardOrder) -> tuple[int, list[Card]]:
    """Plays `cards` random legal cards from the start of the deal (tricks won by the first
    card, which changes only who leads); the leader and the trick on the table then."""
    rng = random.Random(cards * 7919 + len(hands[0]))
    trick: list[Card] = []
    for _ in range(cards):
        seat = (leader + len(trick)) % 4
        card = rng.choice(legal_plays(hands[seat], trick, order))
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader, trick = (leader + rng.randrange(4)) % 4, []
    return leader, trick


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    tricks=st.integers(1, 5),
    on_table=st.integers(0, 3),
    game_type=st.sampled_from(list(GameType)),
    rules_name=st.sampled_from(sorted(RULES)),
    pigs=st.booleans(),
)
def test_endings_have_the_same_values_in_both_searches(
    seed: int, tricks: int, on_table: int, game_type: GameType, rules_name: str, pigs: bool
) -> None:
    rules = RULES[rules_name]
    order = order_of(game_type, rules, pigs)
    t = tables_of(order, rules)
    hands, leader, re = ending(seed, tricks, rules.with_nines)
    _, trick = played_into(hands, leader, on_table, order)
    agree(t, position(t, hands, leader, trick, re), every_card=True)


@pytest.mark.parametrize(
    "game_type",
    [GameType.NORMAL, GameType.MARRIAGE, GameType.POVERTY, GameType.CLUB_SOLO, GameType.QUEEN_SOLO, GameType.ACE_SOLO],
)
def test_mid_game_positions_have_the_same_values_in_both_searches(game_type: GameType) -> None:
    """Whole deals played at random to six tricks from the end, a few cards of the seventh on
    the table or none; two Re players, or one (a solo, a marriage kept alone)."""
    for name in ("standard", "second dulle"):
        rules = RULES[name]
        order = order_of(game_type, rules, False)
        t = tables_of(order, rules)
        for seed in range(3):
            rng = random.Random(seed)
            cards = list(deck(rules.with_nines).elements())
            rng.shuffle(cards)
            hands = [cards[i * 12 : (i + 1) * 12] for i in range(4)]
            soloists = 1 if game_type.is_solo or seed == 2 else 2
            re = [seat in rng.sample(range(4), soloists) for seat in range(4)]
            played = 24 + seed
            leader, trick = played_into(hands, 0, played, order)
            value = agree(t, position(t, hands, leader, trick, re), every_card=False)
            assert 0 <= value <= 240


def test_both_searches_stop_at_their_node_limit() -> None:
    rules = RULES["standard"]
    t = tables_of(order_of(GameType.NORMAL, rules, False), rules)
    hands, leader, re = ending(5, 6, True)
    pos = position(t, hands, leader, (), re)
    for solver in solvers(t, pos, limit=500):
        with pytest.raises(SearchLimit):
            solver.value(pos)
        assert solver.nodes[0] > 500
        with pytest.raises(SearchLimit):  # a solver past its limit answers nothing more
            solver.reaches(pos, 1)
    python, compiled = solvers(t, pos, limit=10**7)
    assert python.value(pos) == compiled.value(pos)
    assert 0 < compiled.nodes[0] <= 10**7


def test_the_environment_keeps_the_search_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RULES["standard"]
    t = tables_of(order_of(GameType.NORMAL, rules, False), rules)
    re = (True, False, True, False)
    monkeypatch.setenv("DOKO_PURE_PYTHON", "1")
    assert not Solver(t, re).native
    monkeypatch.setenv("DOKO_PURE_PYTHON", "0")
    assert Solver(t, re).native
    monkeypatch.delenv("DOKO_PURE_PYTHON")
    assert Solver(t, re).native


def test_the_build_compiles_a_library_that_loads(tmp_path: Path) -> None:
    library = build.build(tmp_path / "libsolver.so")
    assert library is not None and library.is_file()
    assert ctypes.CDLL(str(library)).dk_version() == native.VERSION
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.parametrize("cc", ["false", "no-such-compiler"])
def test_without_a_working_compiler_the_build_says_so_and_builds_nothing(
    cc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CC", cc)
    assert build.build(tmp_path / "libsolver.so") is None
    assert list(tmp_path.iterdir()) == []
    note = capsys.readouterr().err
    assert note.count("\n") == 1 and "runs in pure Python" in note
