"""The games projection folds only Doppelkopf games: a `game/` stream that starts with another
event (another card game's, like Dou Dizhu's) gets no rows, on a rebuild or a catch-up."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from doko_ledger.doppelkopf.cards import ALTE
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.nights.events import SessionStarted
from doko_ledger.doppelkopf.projection import TABLES, GamesProjection
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.projections import runner
from doko_ledger.store.base import EventStore
from doko_ledger.store.open import open_store
from doko_ledger.streams import game_stream

if TYPE_CHECKING:
    from conftest import RandomGame

AT = "2026-11-30T20:00:00+00:00"
NOTE = AnnotationAdded(None, None, "not a Doppelkopf game", "Tester", AT)

# first events of streams that are not Doppelkopf games: a registered event of another
# kind (a card night's start stands in for another game's), and a Doppelkopf event that is
# not a game's start
OTHER_STARTS = {
    "another game's start": SessionStarted("night", ("Wang", "Li", "Zhang", "Zhao"), 0, preset("standard")),
    "a card without a start": CardPlayed(0, ALTE),
}


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    return open_store(tmp_path / "kinds.sqlite", create=True)


def append(store: EventStore, stream: str, events: list[Any]) -> None:
    version = store.stream_version(stream)
    store.append(stream, events, expected_version=version, recorded_by="t", recorded_at=AT)


def rows(store: EventStore) -> dict[str, set[str]]:
    """The game ids in each table of the games projection."""
    return {t: {r[0] for r in store.db.execute(f"SELECT game_id FROM {t}")} for t in TABLES}


@pytest.mark.parametrize("first", OTHER_STARTS.values(), ids=OTHER_STARTS.keys())
def test_catch_up_and_rebuild_skip_streams_of_other_games(
    store: EventStore, make_game: Callable[..., RandomGame], first: Any
) -> None:
    game = make_game(7, game_id="doko-1")
    append(store, game_stream("other-1"), [first, NOTE])
    append(store, game_stream("doko-1"), list(game.events))
    projection = GamesProjection()

    assert runner.catch_up(store, projection) == 1
    caught_up = rows(store)
    assert caught_up["games"] == caught_up["tricks"] == caught_up["parties"] == {"doko-1"}
    assert all("other-1" not in ids and "" not in ids for ids in caught_up.values())

    append(store, game_stream("other-1"), [NOTE])  # the other game goes on: still nothing to fold
    assert runner.catch_up(store, projection) == 0
    assert runner.position(store.db, projection) == store.last_position()

    assert runner.rebuild(store, projection) == 1
    assert rows(store) == caught_up


def test_write_itself_leaves_other_games_alone(store: EventStore, make_game: Callable[..., RandomGame]) -> None:
    """Given every stream of `game/` (no `first_events` filter), `write` still folds only Doppelkopf."""
    append(store, game_stream("other-1"), [OTHER_STARTS["another game's start"]])
    append(store, game_stream("doko-1"), list(make_game(3, game_id="doko-1").events))
    projection = GamesProjection()
    with store.transaction():
        projection.create(store.db)
        projection.write(store.db, list(store.iter_stream_events(projection.stream_prefix)))
    assert rows(store)["games"] == {"doko-1"}


def test_a_refold_replaces_the_rows_of_a_game_that_has_them(
    store: EventStore, make_game: Callable[..., RandomGame]
) -> None:
    """A catch-up after more events of a game already projected replaces its rows, never adds."""
    game = make_game(11, game_id="doko-1", tricks=5)
    cut = len(game.events) - 3
    append(store, game_stream("doko-1"), list(game.events[:cut]))
    projection = GamesProjection()
    runner.catch_up(store, projection)
    append(store, game_stream("doko-1"), list(game.events[cut:]))
    assert runner.catch_up(store, projection) == 1
    (tricks,) = store.db.execute("SELECT cards FROM tricks").fetchall()  # one row, every trick in it
    assert len(json.loads(tricks[0])) == len(game.final.all_tricks)
    assert store.db.execute("SELECT count(*) FROM games").fetchone()[0] == 1
