"""Read models of Doppelkopf games: one row per game, one row per trick.

Tables (rebuilt by `doko rebuild`, explorable with `sqlite3` or Datasette):

- `games`: game_id, stream, played_on, players (JSON list by seat), dealer,
  rules preset, game_type, declarer, hands_recorded, tricks_played, finished,
  points (JSON list of card points by seat), tricks_won (JSON list), events,
  last_position.
- `tricks`: game_id, number, leader, cards (text, in play order), winner,
  points.
- `parties`: game_id, seat, player, party (the truth as far as the record
  shows), public_in_trick and public_cause (when and why the table learnt it).
- `announcements`: game_id, number, party, announcement, player, played (the
  caller's cards played), trick, implied (a skipped level or the solo rule),
  cause.
- `scores`: game_id, rules (preset), winner (re, kontra or null), value (what
  each winner gets; Re's net when nobody wins), lone, note, and one column per
  seat: seat0..seat3 with the player's name in player0..player3.
- `score_lines`: game_id, number, item, party, points, factor, special, cause.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlite_utils import Database

from doko_ledger.events.store import StreamEvents
from doko_ledger.game.facts import NotScorable
from doko_ledger.game.parties import announced, is_lone, true_parties
from doko_ledger.game.state import GameState
from doko_ledger.game.undo import in_force
from doko_ledger.projections.parties import Revelation, fold_revealing
from doko_ledger.projections.score import GameScore, score_game
from doko_ledger.rules.announcements import Party

GAME_STREAM_PREFIX = "game/"
TABLES = ("games", "tricks", "parties", "announcements", "scores", "score_lines")


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
                hands_recorded INTEGER NOT NULL, abandoned TEXT, re_players TEXT NOT NULL, lone INTEGER NOT NULL,
                summarized INTEGER NOT NULL, re_points INTEGER,
                tricks_played INTEGER NOT NULL, finished INTEGER NOT NULL,
                points TEXT NOT NULL, tricks_won TEXT NOT NULL, events INTEGER NOT NULL,
                first_position INTEGER NOT NULL, last_position INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS tricks (
                game_id TEXT NOT NULL, number INTEGER NOT NULL, leader TEXT NOT NULL, cards TEXT NOT NULL,
                winner TEXT, points INTEGER NOT NULL, PRIMARY KEY (game_id, number)
            );
            CREATE TABLE IF NOT EXISTS parties (
                game_id TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, party TEXT,
                public_in_trick INTEGER, public_cause TEXT, PRIMARY KEY (game_id, seat)
            );
            CREATE TABLE IF NOT EXISTS announcements (
                game_id TEXT NOT NULL, number INTEGER NOT NULL, party TEXT NOT NULL, announcement TEXT NOT NULL,
                player TEXT, played INTEGER, trick INTEGER, implied INTEGER NOT NULL, cause TEXT NOT NULL,
                PRIMARY KEY (game_id, number)
            );
            CREATE TABLE IF NOT EXISTS scores (
                game_id TEXT PRIMARY KEY, rules TEXT NOT NULL, winner TEXT, value INTEGER NOT NULL,
                lone INTEGER NOT NULL, note TEXT NOT NULL,
                player0 TEXT NOT NULL, seat0 INTEGER NOT NULL, player1 TEXT NOT NULL, seat1 INTEGER NOT NULL,
                player2 TEXT NOT NULL, seat2 INTEGER NOT NULL, player3 TEXT NOT NULL, seat3 INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS score_lines (
                game_id TEXT NOT NULL, number INTEGER NOT NULL, item TEXT NOT NULL, party TEXT,
                points INTEGER NOT NULL, factor INTEGER NOT NULL, special INTEGER NOT NULL, cause TEXT NOT NULL,
                PRIMARY KEY (game_id, number)
            );
            """
        )

    def drop(self, db: Database) -> None:
        db.executescript("".join(f"DROP TABLE IF EXISTS {table};" for table in TABLES))

    def write(self, db: Database, streams: Sequence[StreamEvents]) -> None:
        rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
        for stream in streams:
            state, revealed = fold_revealing(in_force(stream.events))
            rows["games"].append(game_row(state, stream))
            rows["tricks"].extend(trick_rows(state))
            rows["parties"].extend(party_rows(state, revealed))
            rows["announcements"].extend(announcement_rows(state))
            if state.finished or state.abandoned is not None:
                try:
                    result = score_game(state)
                except NotScorable:
                    continue
                rows["scores"].append(score_row(result))
                rows["score_lines"].extend(score_line_rows(result))
        if not rows["games"]:
            return
        ids = [g["game_id"] for g in rows["games"]]
        marks = ", ".join("?" * len(ids))
        for table in TABLES:
            db.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", ids)
            _insert(db, table, rows[table])


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
        "abandoned": state.abandoned,
        "re_players": json.dumps([players[s] for s, p in enumerate(true_parties(state)) if p is Party.RE]),
        "lone": is_lone(state),
        "summarized": state.summary is not None,
        "re_points": _re_points(state),
        "tricks_played": len(state.tricks),
        "finished": state.finished,
        "points": json.dumps(list(state.points_won())),
        "tricks_won": json.dumps(list(state.tricks_won())),
        "events": len(stream.events),
        "first_position": stream.first_position,
        "last_position": stream.last_position,
    }


def _re_points(state: GameState) -> int | None:
    """Re's card points: from the summary, or from the tricks once every party is known."""
    if state.summary is not None:
        return state.summary.re_points
    parties = true_parties(state)
    if None in parties or state.game_type is None:
        return None
    won = state.points_won()
    return sum(won[s] for s, p in enumerate(parties) if p is Party.RE)


def party_rows(state: GameState, revealed: Sequence[Revelation]) -> list[dict[str, Any]]:
    public = {r.seat: r for r in revealed}
    return [
        {
            "game_id": state.game_id,
            "seat": seat,
            "player": state.players[seat],
            "party": None if party is None else party.value,
            "public_in_trick": public[seat].trick if seat in public else None,
            "public_cause": public[seat].cause if seat in public else None,
        }
        for seat, party in enumerate(true_parties(state))
    ]


def announcement_rows(state: GameState) -> list[dict[str, Any]]:
    return [
        {
            "game_id": state.game_id,
            "number": number,
            "party": a.party.value,
            "announcement": a.announcement.value,
            "player": None if a.seat is None else state.players[a.seat],
            "played": a.played,
            "trick": a.trick,
            "implied": a.implied,
            "cause": a.cause,
        }
        for number, a in enumerate(announced(state), 1)
    ]


def score_row(result: GameScore) -> dict[str, Any]:
    score = result.score
    row: dict[str, Any] = {
        "game_id": result.game_id,
        "rules": result.rules.preset,
        "winner": None if score is None or score.winner is None else score.winner.value,
        "value": 0 if score is None else score.value,
        "lone": score is not None and score.lone,
        "note": result.note,
    }
    for seat, (player, delta) in enumerate(zip(result.players, result.deltas, strict=True)):
        row[f"player{seat}"], row[f"seat{seat}"] = player, delta
    return row


def score_line_rows(result: GameScore) -> list[dict[str, Any]]:
    lines = () if result.score is None else result.score.lines
    return [
        {
            "game_id": result.game_id,
            "number": number,
            "item": line.item,
            "party": None if line.party is None else line.party.value,
            "points": line.points,
            "factor": line.factor,
            "special": line.special,
            "cause": line.cause,
        }
        for number, line in enumerate(lines, 1)
    ]


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
