"""The list of games, from each game's read model of its games (`ListedGames`), streamed.

A game's number (`#N` in `doko games`) is its place among all games in the order they were
first recorded: every game's table is read in `first_position` order (each through its index)
and merged, so the list, its numbers and a look-up of one number never scan the log.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from doko_ledger.store.database import Database


@dataclass(frozen=True, slots=True)
class ListedGames:
    """One game's table of games, as the list reads it: the table (its games in
    `first_position` order through the index `index` makes), the SELECT of its rows (the table
    as `g`), and how one row becomes the list's plain data."""

    table: str
    index: str
    select: str
    row: Callable[[dict[str, Any]], dict[str, Any]]

    def rows(self, cursor: Any) -> Iterator[dict[str, Any]]:
        columns = [c[0] for c in cursor.description]
        for values in cursor:
            yield self.row(dict(zip(columns, values, strict=True)))


def _listed() -> list[ListedGames]:
    """Every game's table of games (`games.Game.game_list`)."""
    from doko_ledger.games import GAMES

    return [game.listed_games() for game in GAMES]


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


def _present(db: Database) -> list[ListedGames]:
    names = set(db.table_names())
    return [listed for listed in _listed() if listed.table in names]


def _tables(db: Database) -> list[str]:
    return [listed.table for listed in _present(db)]


def count(db: Database) -> int:
    """How many games the read models hold."""
    return sum(int(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in _tables(db))


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
    order = "DESC" if descending else "ASC"
    streams = [listed.rows(db.stream(f"{listed.select} ORDER BY g.first_position {order}")) for listed in _present(db)]
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
    present = _present(db)
    tables = [listed.table for listed in present]
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for listed in present:
            found += listed.rows(db.execute(f"{listed.select} WHERE g.game_id IN ({marks})", chunk))
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
