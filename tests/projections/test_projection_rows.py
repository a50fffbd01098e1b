"""The games projection's fast path gives the rows of the plain definitions.

`_add_rows` folds a stream once (`fold_revealing`, with its runs of cards and its checks
of the CQs without the state at each card), and computes the true parties, card points
and tricks won once for the `games` row, the `parties` rows and the score. Here every
table's rows are also computed the slow way, from `reduce(evolve)`, the revelations
checked after every event (`reference_revealing`), and each row function and
`score_game` left to compute everything themselves; the two must be equal, on the sample
games and on random ones, with and without recorded hands, with penalties and undos.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from functools import reduce
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_fold_runs import reference_revealing, sample_events, under, without_hands

from doko_ledger.doppelkopf import projection as games
from doko_ledger.doppelkopf.events import CardPlayed, PenaltyImposed
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.game.parties import true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.doppelkopf.rules.ruleset import preset, rules_from_mapping
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.events.voiding import EventVoided, in_force
from doko_ledger.store.base import StreamEvents

if TYPE_CHECKING:
    from conftest import RandomGame

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "sample_games").glob("*.yaml"))


def fast_rows(events: Sequence[Any]) -> dict[str, list[games.Row]]:
    rows: dict[str, list[games.Row]] = {table: [] for table in games.TABLES}
    games._add_rows(rows, StreamEvents("game/x", list(events), 1, len(events)))
    return rows


def plain_rows(events: Sequence[Any]) -> dict[str, list[games.Row]]:
    """Every table's rows by the definitions, nothing computed once for several tables."""
    stream = StreamEvents("game/x", list(events), 1, len(events))
    kept = in_force(events)
    state = reduce(evolve, kept, GameState())
    _, revealed = reference_revealing(kept)
    rows: dict[str, list[games.Row]] = {
        "games": [games.game_row(state, stream)],
        "tricks": games.trick_rows(state),
        "parties": games.party_rows(state, revealed),
        "announcements": games.announcement_rows(state),
        "scores": [],
        "score_lines": [],
    }
    if state.finished or state.abandoned is not None:
        try:
            result = score_game(state)
        except NotScorable:
            return rows
        rows["scores"].append(games.score_row(result))
        rows["score_lines"].extend(games.score_line_rows(result))
    return rows


def check(events: Sequence[Any]) -> None:
    assert fast_rows(events) == plain_rows(events)


def with_penalty(events: Sequence[Any], severe: bool) -> list[Any]:
    return [*events, PenaltyImposed(seat=1, severe=severe, harms_soloist=False, denials=0, reason="test")]


def with_undo(events: Sequence[Any]) -> list[Any]:
    """The last card taken back, when there is one."""
    last = max((v for v, e in enumerate(events, 1) if isinstance(e, CardPlayed)), default=None)
    return list(events) if last is None else [*events, EventVoided(last)]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
@pytest.mark.parametrize("variant", ["as recorded", "without hands", "under duel rules", "penalty", "undo"])
def test_the_rows_match_the_definitions_on_the_samples(path: Path, variant: str) -> None:
    events = sample_events(path)
    if variant == "without hands":
        events = without_hands(events)
    elif variant == "under duel rules":
        events = under(events, preset("duel"))
    elif variant == "penalty":
        events = with_penalty(events, severe=False)
    elif variant == "undo":
        events = with_undo(events)
    check(events)


RULES = [
    preset("standard"),
    preset("ddv"),
    rules_from_mapping({"preset": "standard", "schweinchen": True, "soloist_leads": True}),
    rules_from_mapping({"preset": "standard", "with_nines": False, "announcement_scoring": "doubling"}),
]


@pytest.mark.parametrize("seed", range(16))
def test_the_rows_match_the_definitions_on_random_games(make_game: Callable[..., RandomGame], seed: int) -> None:
    rules = RULES[seed % len(RULES)]
    game = make_game(seed, rules=rules, game_type=GameType.NORMAL if seed % 4 == 0 else None)
    for events in (game.events, without_hands(game.events), with_penalty(game.events, severe=seed % 2 == 0)):
        check(events)
    partial = make_game(seed, rules=rules, tricks=seed % 9)
    check(partial.events)
    check(without_hands(partial.events))


def test_the_score_takes_the_parties_and_points_it_is_given(make_game: Callable[..., RandomGame]) -> None:
    """`score_game` with the parties, card points and tricks the caller has is `score_game` alone."""
    for seed in range(8):
        state = make_game(seed).final
        known = {"parties": true_parties(state), "won": state.points_won(), "tricks": state.tricks_won()}
        assert score_game(state, **known) == score_game(state)
        assert score_game(state, preset("ddv"), **known) == score_game(state, preset("ddv"))


@pytest.mark.parametrize("seed", range(6))
def test_a_games_tricks_row_holds_each_trick_as_json_writes_it(make_game: Callable[..., RandomGame], seed: int) -> None:
    """One `tricks` row a game, each column a list by trick: the leaders, the cards in play
    order, the winners (null for the trick on the table) and the card points."""
    players = ("Jörg", 'Ann "A." B', "Clara", "Zoë")
    state = make_game(seed, players=players, tricks=None if seed % 2 else 3 + seed).final
    if seed % 2 == 0:  # a card led to the next trick: the trick on the table has no winner yet
        seat = state.to_play
        assert seat is not None and state.hands is not None
        state = evolve(state, CardPlayed(seat, legal_plays(state.hands[seat], (), state.order)[0]))
    tricks = state.all_tricks
    assert (tricks[-1].winner is None) is (seed % 2 == 0)
    assert games.trick_rows(state) == [
        (
            state.game_id,
            json.dumps([players[t.leader] for t in tricks], ensure_ascii=False),
            json.dumps([" ".join(str(c) for c in t.cards) for t in tricks]),
            json.dumps([None if t.winner is None else players[t.winner] for t in tricks], ensure_ascii=False),
            json.dumps([sum(c.points for c in t.cards) for t in tricks]),
        )
    ]


def test_a_game_before_its_first_card_has_no_tricks_row(make_game: Callable[..., RandomGame]) -> None:
    assert games.trick_rows(make_game(1, tricks=0).final) == []


def _lines_as_json_writes_them(result: GameScore) -> list[tuple[Any, ...]]:
    """The game's `score_lines` row by the definition: each line's fields, `json.dumps`'d."""
    lines = () if result.score is None else result.score.lines
    if not lines:
        return []
    return [
        (
            result.game_id,
            json.dumps([line.item for line in lines], ensure_ascii=False),
            json.dumps([None if line.party is None else line.party.value for line in lines]),
            json.dumps([line.points for line in lines]),
            json.dumps([line.factor for line in lines]),
            json.dumps([line.special for line in lines]),
            json.dumps([line.cause for line in lines], ensure_ascii=False),
        )
    ]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_a_games_score_lines_row_holds_each_line_as_json_writes_it(path: Path) -> None:
    """One `score_lines` row a scored game (none for a game not scored), each column a list by
    line of the derivation: the items, the parties (null for neither), the points, the factors,
    whether special, and the causes."""
    events = sample_events(path)
    state = reduce(evolve, in_force(events), GameState())
    expected: list[tuple[Any, ...]] = []
    if state.finished or state.abandoned is not None:
        with contextlib.suppress(NotScorable):
            expected = _lines_as_json_writes_them(score_game(state))
    assert fast_rows(events)["score_lines"] == expected


def test_the_samples_score_lines_have_both_kinds_of_line() -> None:
    """The samples above show both kinds of line (a special point and not) and both parties."""
    rows = [row for path in SAMPLES for row in fast_rows(sample_events(path))["score_lines"]]
    assert {special for row in rows for special in json.loads(row[5])} == {True, False}
    assert {party for row in rows for party in json.loads(row[2])} == {"re", "kontra"}


@pytest.mark.parametrize("seed", range(8))
def test_score_lines_quote_the_players_names_as_json_does(make_game: Callable[..., RandomGame], seed: int) -> None:
    players = ("Jörg", 'Ann "A." B', "Cla\\ra", "Zoë")
    result = score_game(make_game(seed, players=players).final)
    (row,) = games.score_line_rows(result)
    assert [row] == _lines_as_json_writes_them(result)
    assert len({len(json.loads(cells)) for cells in row[1:]}) == 1  # a line in each list
