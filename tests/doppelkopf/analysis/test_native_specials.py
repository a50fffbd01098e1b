"""The compiled special points' search (native/specials.c) against the pure-Python one: the same
values and the same yes-or-no answers on random endings of the sample games (a normal game
under the standard rules and every extra point option, a poverty, a lone marriage whose special
points stop counting, a marriage, Schweinchen), with the card points' table bounding the class
and without it; an error in the rules core raised, not lost; the node limit; and the cards it
counts as one earning the same special points, and the special points it bounds from the cards
left earning no more."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_analysis_specials import EXTRAS, dealt_anew, past_of
from test_solver import native_library

from doko_ledger.doppelkopf.analysis.analyze import deal_of
from doko_ledger.doppelkopf.analysis.position import Position, position
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.analysis.specials import WEIGHT, Past, SpecialsSearch
from doko_ledger.doppelkopf.files.game_file import read_file
from doko_ledger.doppelkopf.game.facts import DOPPELKOPF_POINTS, Weight, special_cards, special_weights
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.ruleset import RuleSet

pytestmark = pytest.mark.usefixtures(native_library.__name__)

SAMPLES = Path(__file__).resolve().parents[3] / "sample_games"
GAMES = {
    "normal": ("29-fox-and-karlchen.yaml", None),
    "normal, every extra point": ("29-fox-and-karlchen.yaml", EXTRAS),
    "normal, Karlchen caught": ("01-normal.yaml", RuleSet(karlchen_capture=True)),
    "poverty": ("18-poverty.yaml", None),
    "lone marriage": ("16-lone-marriage.yaml", RuleSet(lone_marriage_specials=True)),
    "marriage": ("15-marriage-third-trick.yaml", None),
    "Schweinchen": ("12-bistro-schweinchen.yaml", None),
}


def ending(name: str, seed: int) -> tuple[GameState, Position, Past]:
    """The game's last two to four tricks dealt anew at random among the four hands, the parties
    drawn anew, up to three cards on the table; the tricks before as played."""
    file, rules = GAMES[name]
    state = read_file(SAMPLES / file).state
    state = state if rules is None else state.but(rules=rules)
    rng = random.Random(seed)
    done, hands, re, leader, trick = dealt_anew(state, rng, 2 + seed % 3, rng.choice((1, 2, 2, 3)), 4)
    past = past_of(state, done, re)
    return state, position(deal_of(state, state.game_id).tables, hands, leader, trick, re), past


def search(state: GameState, pos: Position, compiled: bool, cards: Solver | None = None) -> SpecialsSearch:
    deal = deal_of(state, state.game_id)
    found = SpecialsSearch(
        state, deal.tables, pos.re, deal.game_type, deal.lone, deal.levels, native=compiled, cards=cards
    )
    assert (found._native is not None) == compiled
    return found


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("name", list(GAMES))
def test_the_compiled_search_values_every_ending_as_the_python_one(name: str, seed: int) -> None:
    state, pos, past = ending(name, seed)
    expected = search(state, pos, False).outcome(pos, past).value
    rng = random.Random(seed)
    compiled = search(state, pos, True)
    assert compiled.value(pos, past, WEIGHT * rng.randrange(-3, 4)) == expected
    for target in (expected - WEIGHT, expected - 1, expected, expected + 1, expected + WEIGHT):
        found = compiled.bound(pos, past, target - 1, target)
        assert (found >= target) == (expected >= target), target
        assert expected <= found if found < target else expected >= found  # fail-soft: a bound on its side
    # the card points' table, filled by the questions a threshold analysis asks, bounds the class
    solver = Solver(compiled.tables, pos.re)
    solver.value(pos)
    bounded = search(state, pos, True, cards=solver)
    assert bounded.value(pos, past, expected + rng.choice((-WEIGHT, 0, WEIGHT))) == expected


def test_an_error_of_the_rules_core_is_raised_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    state, pos, past = ending("normal", 3)
    compiled = search(state, pos, True)

    def broken(*args: object) -> None:
        raise RuntimeError("the rules core failed")

    monkeypatch.setattr(compiled, "trick_line", broken)
    with pytest.raises(RuntimeError, match="the rules core failed"):
        compiled.bound(pos, past, -1, 0)


def test_the_compiled_search_stops_at_its_node_limit() -> None:
    state, pos, past = ending("normal", 2)
    deal = deal_of(state, state.game_id)
    compiled = SpecialsSearch(state, deal.tables, pos.re, deal.game_type, deal.lone, deal.levels, limit=5, native=True)
    with pytest.raises(SearchLimit, match="stopped after 5 positions"):
        compiled.bound(pos, past, -1, 0)
    assert compiled.nodes == 6


def test_without_the_library_the_questions_are_asked_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    state, pos, past = ending("poverty", 5)
    monkeypatch.setenv("DOKO_PURE_PYTHON", "1")
    python = search(state, pos, False)
    deal = deal_of(state, state.game_id)
    asked = SpecialsSearch(state, deal.tables, pos.re, deal.game_type, deal.lone, deal.levels, native=True)
    assert asked._native is None
    assert asked.value(pos, past, 0) == python.outcome(pos, past).value


@pytest.mark.parametrize("name", list(GAMES))
def test_cards_alike_in_rank_earn_the_same_special_points_unless_one_is_named(name: str) -> None:
    """What lets the compiled search count two cards as one: in any trick, a card next in rank
    to another of its suit with the same points, neither named by a special point
    (`special_cards`), earns the same special points in its place."""
    state, pos, _ = ending(name, 0)
    found = search(state, pos, False)
    t = found.tables
    named = special_cards(state)
    pairs = [
        (x, x + 1)
        for x in range(len(t.cards) - 1)
        if t.suit[x] == t.suit[x + 1]
        and t.points[x] == t.points[x + 1]
        and t.equal_ok[x]
        and t.equal_ok[x + 1]
        and t.cards[x] not in named
        and t.cards[x + 1] not in named
    ]
    assert pairs
    rng = random.Random(name)
    for _ in range(400):
        x, y = rng.choice(pairs)
        cards = [rng.randrange(len(t.cards)) for _ in range(4)]
        at = rng.randrange(4)
        cards[at] = x
        if y in cards or cards.count(x) > 1:
            continue  # as the search: not while another copy of either is out, which may rank apart
        swapped = list(cards)
        swapped[at] = y
        number = rng.choice((1, state.hand_size))
        leader = rng.randrange(4)
        kinds = [
            sorted((s.kind.value, s.party.value) for s in found.trick_line(number, leader, tuple(trick)))
            for trick in (cards, swapped)
        ]
        assert kinds[0] == kinds[1], (t.cards[x], t.cards[y], [t.cards[c] for c in cards])


@pytest.mark.parametrize("name", list(GAMES))
def test_no_trick_earns_a_party_more_special_points_than_its_cards_weigh(name: str) -> None:
    """What lets the compiled search stop where the special points still to earn cannot bring
    the value into its window: a trick earns the party that took it at most the `own` weights
    (`special_weights`) of the cards its players played and the `other` weights of the rest,
    plus one where it holds DOPPELKOPF_POINTS or more; the other party nothing."""
    state, pos, _ = ending(name, 0)
    found = search(state, pos, False)
    t = found.tables
    weights = special_weights(state)
    weighed = [c for c, card in enumerate(t.cards) if card in weights]
    rng = random.Random(name)
    earning = 0
    for _ in range(3000):  # half the cards among the weighed ones, half the tricks the last
        cards = tuple(rng.choice(weighed) if rng.random() < 0.5 else rng.randrange(len(t.cards)) for _ in range(4))
        number, leader = rng.choice((1, state.hand_size)), rng.randrange(4)
        took = found.re[(leader + found.best_of(number, cards)) % 4]
        most = sum(t.points[c] for c in cards) >= DOPPELKOPF_POINTS
        for i, c in enumerate(cards):
            weight = weights.get(t.cards[c], Weight(0, 0))
            most += weight.own if found.re[(leader + i) % 4] == took else weight.other
        line = found.trick_line(number, leader, cards)
        assert len(line) <= most, ([t.cards[c] for c in cards], number, line)
        assert found.re_specials(line) * (1 if took else -1) in range(most + 1)
        earning += len(line) == most > 0
    assert earning  # the bound is reached, not only kept
