"""Invariants over random legal games (Hypothesis): card points, replay, round trips, rebuild."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf.cards import card_points, deck
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game.evolve import fold
from doko_ledger.doppelkopf.game.record import to_events
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.replay import state_before_trick
from doko_ledger.doppelkopf.rules.game_types import GameType, game_type_problem
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.ruleset import PICTURE_SOLOS, RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.ledger import Ledger
from doko_ledger.names import name_problem, normalized, table_problem

pytestmark = pytest.mark.slow  # Hypothesis runs of whole random games

if TYPE_CHECKING:
    from conftest import RandomGame

MakeGame = Callable[..., "RandomGame"]

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RULES = st.sampled_from(
    [
        preset("standard"),
        preset("bistro"),
        preset("ddv"),
        rules_from_mapping({"second_dulle_beats_first": True}),
        rules_from_mapping({"preset": "standard", "schweinchen": True, "soloist_leads": True}),
        rules_from_mapping({"picture_solos": list(PICTURE_SOLOS)}),
    ]
)

GAME_TYPES = st.sampled_from([t for t in GameType if t not in (GameType.MARRIAGE, GameType.POVERTY)])
AT = "2026-11-28T20:00:00+00:00"


def _game(make_game: MakeGame, seed: int, rules: RuleSet, game_type: GameType, **options: Any) -> RandomGame:
    assume(game_type_problem(game_type, rules) is None)
    if game_type is GameType.SILENT_SOLO:
        game_type = GameType.NORMAL  # becomes a silent solo when the deal allows one
    return make_game(seed, rules=rules, game_type=game_type, **options)


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=SEEDS, rules=RULES, game_type=GAME_TYPES)
def test_a_random_game_has_240_card_points_and_all_its_tricks(
    make_game: MakeGame, seed: int, rules: RuleSet, game_type: GameType
) -> None:
    state = _game(make_game, seed, rules, game_type).final
    assert state.finished
    assert len(state.tricks) == rules.hand_size == (12 if rules.with_nines else 10)
    assert sum(state.points_won()) == 240
    assert sum(t.points for t in state.tricks) == 240
    assert sum(state.tricks_won()) == rules.hand_size
    assert state.hands is not None and all(hand == () for hand in state.hands)
    assert Counter(state.cards_played) == deck(rules.with_nines)
    assert card_points(state.cards_played) == 240
    assert state.tricks[0].leader == state.first_leader
    for before, after in zip(state.tricks, state.tricks[1:], strict=False):
        assert after.leader == before.winner
    for trick in state.tricks:
        assert sorted(seat for seat, _ in trick.plays) == list(range(SEATS))
    for seat in range(SEATS):
        assert state.dealt is not None
        assert Counter(state.played_by(seat)) == Counter(state.dealt[seat])


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=SEEDS, rules=RULES, game_type=GAME_TYPES)
def test_folding_the_events_equals_the_incremental_state(
    make_game: MakeGame, seed: int, rules: RuleSet, game_type: GameType
) -> None:
    game = _game(make_game, seed, rules, game_type)
    events, states = game.events, game.states
    assert fold(events) == game.final
    for k in range(len(events)):
        assert fold(events[: k + 1]) == states[k]
    middle = len(events) // 2
    assert fold(events[middle:], states[middle - 1]) == game.final
    # the checked path (decide, then evolve) produces the same events and the same state
    checked_events, checked_state = to_events(game.record)
    assert checked_events == events
    assert checked_state == game.final
    # the game as it stood before each trick is the state after the previous trick's last card
    first_card = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed))
    for number in range(1, rules.hand_size + 1):
        before = states[first_card - 1 + (number - 1) * SEATS]
        assert state_before_trick(events, number) == before
        assert len(before.tricks) == number - 1
        assert before.current is None


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=SEEDS, rules=RULES, game_type=GAME_TYPES, tricks=st.none() | st.integers(0, 12))
def test_game_file_text_round_trips(
    make_game: MakeGame, seed: int, rules: RuleSet, game_type: GameType, tricks: int | None
) -> None:
    if tricks is not None:
        tricks = min(tricks, rules.hand_size)
    game = _game(make_game, seed, rules, game_type, tricks=tricks)
    record = game_file.loads(game.text)
    assert record == game.record
    assert game_file.dumps(record) == game.text
    loaded = game_file.read(game.text)
    assert loaded.events == game.events
    assert loaded.state == game.final


# Names a person may type: letters, digits, punctuation, symbols and plain spaces inside (no control
# characters, line breaks, other whitespace or surrounding spaces; see test_game_file for those).
NAMES = (
    st.text(
        st.characters(codec="utf-8", categories=("L", "M", "N", "P", "S"), include_characters=" "),
        min_size=1,
        max_size=12,
    )
    .map(normalized)  # names are kept in NFC
    .filter(lambda name: name.strip() == name != "" and name_problem(name) is None)
)
TABLES = st.lists(NAMES, min_size=4, max_size=4, unique=True).filter(lambda names: table_problem(names) is None)
"""Four names a table can tell apart (not only in case or look-alike letters)."""


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=SEEDS, players=TABLES, played_on=st.none() | NAMES)
def test_game_file_round_trips_any_player_names(
    make_game: MakeGame, seed: int, players: list[str], played_on: str | None
) -> None:
    game = make_game(seed, players=players, played_on=played_on, tricks=seed % 13)
    record = game_file.loads(game.text)
    assert record == game.record
    assert record.players == tuple(players)
    assert game_file.dumps(record) == game.text


def _rows(ledger: Ledger) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    db = ledger.store.db
    games = [tuple(r) for r in db.execute("SELECT * FROM games ORDER BY game_id")]
    tricks = [tuple(r) for r in db.execute("SELECT * FROM tricks ORDER BY game_id")]
    return games, tricks


@settings(max_examples=50, deadline=None, derandomize=True)
@given(
    seeds=st.lists(SEEDS, min_size=1, max_size=4, unique=True),
    cut=st.integers(0, 4),
    unfinished=st.none() | st.integers(0, 11),
)
def test_rebuild_gives_the_same_rows_as_incremental_catch_up(
    make_game: MakeGame, seeds: list[int], cut: int, unfinished: int | None
) -> None:
    games = [make_game(seed, game_id=f"g{i}") for i, seed in enumerate(seeds)]
    if unfinished is not None:
        games.append(make_game(seeds[0] + 1, game_id="unfinished", tricks=unfinished))
    loaded = [(g.record.id, game_file.read(g.text)) for g in games]
    with tempfile.TemporaryDirectory() as tmp, Ledger.open(Path(tmp) / "ledger.sqlite", create=True) as ledger:
        # two imports, so that the second catch-up starts from the position the first one left
        ledger.import_games(loaded[:cut], recorded_by="a", recorded_at=AT)
        ledger.refresh()
        ledger.import_games(loaded[cut:], recorded_by="b", recorded_at=AT)
        ledger.refresh()
        incremental = _rows(ledger)
        assert ledger.rebuild() == len(games)
        assert _rows(ledger) == incremental
        rows = {row["game_id"]: row for row in ledger.games()}
        assert set(rows) == {g.record.id for g in games}
        for g in games:
            state: GameState = g.final
            row = rows[g.record.id]
            assert row["points"] == list(state.points_won())
            assert row["tricks_played"] == len(state.tricks)
            assert row["finished"] == state.finished
            assert row["events"] == len(g.events)
        games_rows, trick_rows = incremental
        assert len(games_rows) == len(games)
        assert len(trick_rows) == sum(1 for g in games if g.final.all_tricks)  # a row per game with a card
        assert sum(len(json.loads(row[2])) for row in trick_rows) == sum(len(g.final.all_tricks) for g in games)
        assert ledger.verify().ok


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=SEEDS, rules=RULES, game_type=GAME_TYPES, other=st.sampled_from(["standard", "ddv", "bistro"]))
def test_the_score_is_the_same_after_an_export_import_round_trip(
    make_game: MakeGame, seed: int, rules: RuleSet, game_type: GameType, other: str
) -> None:
    game = _game(make_game, seed, rules, game_type)
    _, again = to_events(game_file.loads(game_file.dumps(game_file.loads(game.text))))
    assert again == game.final
    for scoring in (None, preset(other)):
        before, after = score_game(game.final, scoring), score_game(again, scoring)
        assert after.deltas == before.deltas
        assert sum(after.deltas) == 0
        assert after.score == before.score
