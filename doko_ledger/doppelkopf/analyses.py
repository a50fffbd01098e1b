"""The analyses of games, kept beside the log: a cache, not a read model of the log.

A game's analysis (`doppelkopf.analysis`) is costly to compute and never changes for the same
cards and the same solver, so it is kept once computed, as the JSON `analysis_to_json` gives,
keyed by the game, the solver's version and what was asked (from which trick, how many
sampled worlds). Each row also says which version of the game's stream it analysed: a card
taken back or a note added after it makes the row stale, and it is computed again.

Nothing here is an event or part of the hash chain; `doko verify` does not compare the table
(it is no fold of the log) and `doko rebuild` drops it (`drop`): what is asked again is
computed again. The table is made when the first analysis is kept, so a ledger nobody
analysed has none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from doko_ledger.store.database import Database

TABLE = "analyses"
_CREATE = f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    game_id TEXT NOT NULL, solver_version TEXT NOT NULL, from_trick BIGINT NOT NULL, worlds BIGINT NOT NULL,
    game_version BIGINT NOT NULL, analysis TEXT NOT NULL,
    PRIMARY KEY (game_id, solver_version, from_trick, worlds)
)"""
_KEEP = (
    f"INSERT INTO {TABLE} (game_id, solver_version, from_trick, worlds, game_version, analysis)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, solver_version, from_trick, worlds)"
    " DO UPDATE SET game_version = excluded.game_version, analysis = excluded.analysis"
)


@dataclass(frozen=True, slots=True)
class AnalysisKey:
    """What one kept analysis answers: a game as its stream stood at `game_version`, analysed by
    the solver of `solver_version` from trick `from_trick` with `worlds` sampled worlds."""

    game_id: str
    solver_version: str
    from_trick: int
    worlds: int
    game_version: int


def kept(db: Database, key: AnalysisKey) -> dict[str, Any] | None:
    """The analysis kept for `key` (as `analysis_to_json` gave it), or None: never computed, or
    computed for another version of the game."""
    if TABLE not in db.table_names():
        return None
    row = db.execute(
        f"SELECT analysis FROM {TABLE} WHERE game_id = ? AND solver_version = ? AND from_trick = ? AND worlds = ?"
        " AND game_version = ?",
        [key.game_id, key.solver_version, key.from_trick, key.worlds, key.game_version],
    ).fetchone()
    if row is None:
        return None
    found: dict[str, Any] = json.loads(row[0])
    return found


def keep(db: Database, key: AnalysisKey, analysis: dict[str, Any]) -> None:
    """Keep `analysis` for `key`, in place of what was kept for an older version of the game
    (inside the caller's transaction)."""
    db.execute(_CREATE)
    text = json.dumps(analysis, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    db.execute(_KEEP, [key.game_id, key.solver_version, key.from_trick, key.worlds, key.game_version, text])


def count(db: Database) -> int:
    """How many analyses are kept."""
    if TABLE not in db.table_names():
        return 0
    return int(db.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0])


def drop(db: Database) -> None:
    """Forget every kept analysis (inside the caller's transaction)."""
    db.execute(f"DROP TABLE IF EXISTS {TABLE}")
