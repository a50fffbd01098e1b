"""Read models of Doppelkopf games: one row per game, one row per trick.

Tables (rebuilt by `doko rebuild`, explorable with `sqlite3` or Datasette):

- `games`: game_id, stream, played_on, players (JSON list by seat), dealer,
  rules preset, game_type, declarer, hands_recorded, tricks_played, finished,
  points (JSON list of card points by seat), tricks_won (JSON list), events,
  last_position.
- `tricks`: game_id, number, leader, cards (text, in play order), winner,
  points.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlite_utils import Database

from doko_ledger.events.store import StreamEvents
from doko_ledger.game.evolve import fold
from doko_ledger.game.state import GameState

GAME_STREAM_PREFIX = "game/"


def game_stream(game_id: str) -> str:
    return GAME_STREAM_PREFIX + game_id


class GamesProjection:
    """Folds each game stream with the game's own `evolve` into `games` and `tricks` rows."""

    name = "games"
    stream_prefix = GAME_STREAM_PREFIX

    def create(self, db: Database) -> None:
        db.executescript(
            """
            CREATE TABLE IF NOT EXISTS games (
                game_id TEXT PRIMARY KEY, stream TEXT NOT NULL, played_on TEXT, players TEXT NOT NULL,
                dealer TEXT NOT NULL, rules TEXT NOT NULL, game_type TEXT, declarer TEXT,
                hands_recorded INTEGER NOT NULL, tricks_played INTEGER NOT NULL, finished INTEGER NOT NULL,
                points TEXT NOT NULL, tricks_won TEXT NOT NULL, events INTEGER NOT NULL,
                first_position INTEGER NOT NULL, last_position INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS tricks (
                game_id TEXT NOT NULL, number INTEGER NOT NULL, leader TEXT NOT NULL, cards TEXT NOT NULL,
                winner TEXT, points INTEGER NOT NULL, PRIMARY KEY (game_id, number)
            );
            """
        )

    def drop(self, db: Database) -> None:
        db.executescript("DROP TABLE IF EXISTS games; DROP TABLE IF EXISTS tricks;")

    def write(self, db: Database, streams: Sequence[StreamEvents]) -> None:
        games: list[dict[str, Any]] = []
        tricks: list[dict[str, Any]] = []
        for stream in streams:
            state = fold(stream.events)
            games.append(game_row(state, stream))
            tricks.extend(trick_rows(state))
        if not games:
            return
        ids = [g["game_id"] for g in games]
        marks = ", ".join("?" * len(ids))
        db.execute(f"DELETE FROM games WHERE game_id IN ({marks})", ids)
        db.execute(f"DELETE FROM tricks WHERE game_id IN ({marks})", ids)
        _insert(db, "games", games)
        _insert(db, "tricks", tricks)


def _insert(db: Database, table: str, rows: list[dict[str, Any]]) -> None:
    """Plain `executemany`: projection rows are many and uniform, and sqlite-utils'
    per-value conversion was a third of a rebuild."""
    if rows:
        columns = list(rows[0])
        names = ", ".join(columns)
        marks = ", ".join(f":{c}" for c in columns)
        db.conn.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)


def game_row(state: GameState, stream: StreamEvents) -> dict[str, Any]:
    players = state.players
    return {
        "game_id": state.game_id,
        "stream": stream.stream,
        "played_on": state.played_on,
        "players": json.dumps(list(players), ensure_ascii=False),
        "dealer": players[state.dealer],
        "rules": state.rules.preset,
        "game_type": None if state.game_type is None else state.game_type.value,
        "declarer": None if state.declarer is None else players[state.declarer],
        "hands_recorded": state.dealt is not None,
        "tricks_played": len(state.tricks),
        "finished": state.finished,
        "points": json.dumps(list(state.points_won())),
        "tricks_won": json.dumps(list(state.tricks_won())),
        "events": len(stream.events),
        "first_position": stream.first_position,
        "last_position": stream.last_position,
    }


def trick_rows(state: GameState) -> list[dict[str, Any]]:
    players = state.players
    return [
        {
            "game_id": state.game_id,
            "number": trick.number,
            "leader": players[trick.leader],
            "cards": " ".join(str(c) for c in trick.cards),
            "winner": None if trick.winner is None else players[trick.winner],
            "points": trick.points,
        }
        for trick in state.all_tricks
    ]
