"""Doppelkopf's games as the game list reads them (`projections.game_list.ListedGames`), and the
look-ups of a deal's card night and place in the read models."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from doko_ledger.projections.game_list import ListedGames

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.nights.place import DealPlace
    from doko_ledger.store.database import Database

DOPPELKOPF_TABLE = "games"

_SCORE_COLUMNS = ("player0", "seat0", "player1", "seat1", "player2", "seat2", "player3", "seat3")


def _row(item: dict[str, Any]) -> dict[str, Any]:
    loads = json.loads
    scored = [item.pop(c) for c in _SCORE_COLUMNS]
    for key in ("players", "points", "tricks_won", "re_players"):
        item[key] = loads(item[key])
    for key in ("hands_recorded", "finished", "lone", "summarized"):
        item[key] = bool(item[key])
    item["score"] = None if scored[0] is None else dict(zip(scored[0::2], scored[1::2], strict=True))
    return {"game": "doppelkopf"} | item


LISTED = ListedGames(
    table=DOPPELKOPF_TABLE,
    index=f"CREATE INDEX IF NOT EXISTS games_first_position ON {DOPPELKOPF_TABLE} (first_position)",
    select=(
        "SELECT g.*, s.player0, s.seat0, s.player1, s.seat1, s.player2, s.seat2, s.player3, s.seat3"
        f" FROM {DOPPELKOPF_TABLE} g LEFT JOIN scores s ON s.game_id = g.game_id"
    ),
    row=_row,
)


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
    columns = ("night", "deal", "status", "corrected_by", "replaces", "multiplier", "bock", "bock_extra")
    row = db.execute(
        f"SELECT g.night, g.deal, g.status, g.corrected_by, g.replaces, s.multiplier, s.bock, s.bock_extra"
        f" FROM {DOPPELKOPF_TABLE} g JOIN scores s ON s.game_id = g.game_id WHERE g.game_id = ?",
        [game_id],
    ).fetchone()
    if row is None:
        return None
    from doko_ledger.doppelkopf.nights.place import stored_place

    return stored_place(dict(zip(columns, row, strict=True)))
