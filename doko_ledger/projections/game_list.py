"""The list of games, from the read models (`games`, `scores`, `doudizhu_games`), streamed.

A game's number (`#N` in `doko games`) is its place among all games in the order they were
first recorded: both games' tables are read in `first_position` order (each through its index)
and merged, so the list, its numbers and a look-up of one number never scan the log.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.nights.place import DealPlace
    from doko_ledger.store.database import Database

DOPPELKOPF_TABLE = "games"
DOUDIZHU_TABLE = "doudizhu_games"

INDEXES = {
    DOPPELKOPF_TABLE: f"CREATE INDEX IF NOT EXISTS games_first_position ON {DOPPELKOPF_TABLE} (first_position)",
    DOUDIZHU_TABLE: f"CREATE INDEX IF NOT EXISTS doudizhu_games_first_position ON {DOUDIZHU_TABLE} (first_position)",
}
"""The index on `first_position` each games table is created with (by its projection)."""

_DOPPELKOPF_SELECT = (
    "SELECT g.*, s.player0, s.seat0, s.player1, s.seat1, s.player2, s.seat2, s.player3, s.seat3"
    f" FROM {DOPPELKOPF_TABLE} g LEFT JOIN scores s ON s.game_id = g.game_id"
)
_SCORE_COLUMNS = ("player0", "seat0", "player1", "seat1", "player2", "seat2", "player3", "seat3")


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games to list: all of them, or only those of a night, of a player (named without
    regard to case), played on or after a day."""

    game_ids: Collection[str] | None = None
    player: str | None = None
    since: str | None = None

    def __call__(self, row: dict[str, Any]) -> bool:
        if self.game_ids is not None and row["game_id"] not in self.game_ids:
            return False
        if self.player is not None and self.player.casefold() not in (p.casefold() for p in row["players"]):
            return False
        return self.since is None or (row["played_on"] is not None and row["played_on"] >= self.since)


def _tables(db: Database) -> list[str]:
    names = set(db.table_names())
    return [t for t in (DOPPELKOPF_TABLE, DOUDIZHU_TABLE) if t in names]


def count(db: Database) -> int:
    """How many games the read models hold."""
    return sum(int(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in _tables(db))


def night_of(db: Database, game_id: str) -> str | None:
    """The card night a Doppelkopf game is a deal of (as projected), or None: one primary-key look-up."""
    if DOPPELKOPF_TABLE not in db.table_names():
        return None
    row = db.execute(f"SELECT night FROM {DOPPELKOPF_TABLE} WHERE game_id = ?", [game_id]).fetchone()
    return None if row is None else row[0]


def place_of(db: Database, game_id: str) -> DealPlace | None:
    """A scored card-night deal's place as the read models hold it (deal number, voided or
    corrected, bock round), or None for a game of no night or a deal not scored (which the
    read models keep no bock round for): one look-up by primary key in `games` and `scores`."""
    if DOPPELKOPF_TABLE not in db.table_names():
        return None
    columns = ("night", "deal", "status", "corrected_by", "replaces", "multiplier", "bock")
    row = db.execute(
        f"SELECT g.night, g.deal, g.status, g.corrected_by, g.replaces, s.multiplier, s.bock"
        f" FROM {DOPPELKOPF_TABLE} g JOIN scores s ON s.game_id = g.game_id WHERE g.game_id = ?",
        [game_id],
    ).fetchone()
    if row is None:
        return None
    from doko_ledger.doppelkopf.nights.place import stored_place

    return stored_place(dict(zip(columns, row, strict=True)))


def numbered(db: Database, number: int) -> str | None:
    """The id of game `#number` (1 the first recorded; -1 the last, -2 the one before), or None."""
    tables = _tables(db)
    if not tables or number == 0:
        return None
    order = "ASC" if number > 0 else "DESC"
    union = " UNION ALL ".join(f"SELECT first_position, game_id FROM {t}" for t in tables)
    # ORDER BY on the compound itself: SQLite merges the two index scans instead of sorting
    row = db.execute(f"{union} ORDER BY 1 {order} LIMIT 1 OFFSET ?", [abs(number) - 1]).fetchone()
    return None if row is None else str(row[1])


def rows(
    db: Database, *, descending: bool = False, keep: Callable[[dict[str, Any]], bool] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """`(number, row)` of every game kept by `keep`, in recorded order (or newest first), one
    row at a time: plain data for a listing or JSON."""
    tables = _tables(db)
    order = "DESC" if descending else "ASC"
    streams = []
    if DOPPELKOPF_TABLE in tables:
        cursor = db.stream(f"{_DOPPELKOPF_SELECT} ORDER BY g.first_position {order}")
        streams.append(_doppelkopf_rows(cursor))
    if DOUDIZHU_TABLE in tables:
        cursor = db.stream(f"SELECT * FROM {DOUDIZHU_TABLE} ORDER BY first_position {order}")
        streams.append(_doudizhu_rows(cursor))
    merged = heapq.merge(*streams, key=lambda r: r["first_position"], reverse=descending)
    number, step = (count(db), -1) if descending else (1, 1)
    for row in merged:
        if keep is None or keep(row):
            yield number, {"number": number} | row
        number += step


def rows_of(
    db: Database,
    game_ids: Collection[str],
    *,
    descending: bool = False,
    keep: Callable[[dict[str, Any]], bool] | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """`rows` of the games `game_ids` only (say, a night's), read by their ids: each number is
    counted on the `first_position` index (the games before the first of them, then the games
    between one and the next), so a night costs the same in a ledger of any size."""
    ids = sorted(set(game_ids))
    found: list[dict[str, Any]] = []
    tables = _tables(db)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        if DOPPELKOPF_TABLE in tables:
            found += _doppelkopf_rows(db.execute(f"{_DOPPELKOPF_SELECT} WHERE g.game_id IN ({marks})", chunk))
        if DOUDIZHU_TABLE in tables:
            found += _doudizhu_rows(db.execute(f"SELECT * FROM {DOUDIZHU_TABLE} WHERE game_id IN ({marks})", chunk))
    found.sort(key=lambda r: r["first_position"])
    numbered, number, since = [], 1, None
    for row in found:
        number += _count(db, tables, since, row["first_position"])
        since = row["first_position"]
        if keep is None or keep(row):
            numbered.append((number, {"number": number} | row))
    return reversed(numbered) if descending else iter(numbered)


def _count(db: Database, tables: list[str], low: int | None, high: int) -> int:
    """How many games were first recorded at or after position `low` and before `high`."""
    where, args = (
        ("first_position < ?", [high]) if low is None else ("first_position >= ? AND first_position < ?", [low, high])
    )
    return sum(int(db.execute(f"SELECT count(*) FROM {t} WHERE {where}", args).fetchone()[0]) for t in tables)


def _doppelkopf_rows(cursor: Any) -> Iterator[dict[str, Any]]:
    columns = [c[0] for c in cursor.description]
    loads = json.loads
    for values in cursor:
        item = dict(zip(columns, values, strict=True))
        scored = [item.pop(c) for c in _SCORE_COLUMNS]
        for key in ("players", "points", "tricks_won", "re_players"):
            item[key] = loads(item[key])
        for key in ("hands_recorded", "finished", "lone", "summarized"):
            item[key] = bool(item[key])
        item["score"] = None if scored[0] is None else dict(zip(scored[0::2], scored[1::2], strict=True))
        yield {"game": "doppelkopf"} | item


def _doudizhu_rows(cursor: Any) -> Iterator[dict[str, Any]]:
    columns = [c[0] for c in cursor.description]
    for values in cursor:
        item = dict(zip(columns, values, strict=True))
        item["players"] = json.loads(item["players"])
        item["payments"] = None if item["payments"] is None else json.loads(item["payments"])
        item["hands_recorded"] = bool(item["hands_recorded"])
        item["summarized"] = bool(item["summarized"])
        item["score"] = item["payments"]
        yield {"game": "doudizhu"} | item
