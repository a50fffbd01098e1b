"""Dou Dizhu's games as the game list reads them (`projections.game_list.ListedGames`)."""

from __future__ import annotations

import json
from typing import Any

from doko_ledger.projections.game_list import ListedGames

DOUDIZHU_TABLE = "doudizhu_games"


def _row(item: dict[str, Any]) -> dict[str, Any]:
    item["players"] = json.loads(item["players"])
    item["payments"] = None if item["payments"] is None else json.loads(item["payments"])
    item["hands_recorded"] = bool(item["hands_recorded"])
    item["summarized"] = bool(item["summarized"])
    item["score"] = item["payments"]
    return {"game": "doudizhu"} | item


LISTED = ListedGames(
    table=DOUDIZHU_TABLE,
    index=f"CREATE INDEX IF NOT EXISTS doudizhu_games_first_position ON {DOUDIZHU_TABLE} (first_position)",
    select=f"SELECT g.* FROM {DOUDIZHU_TABLE} g",
    row=_row,
)
