"""Who may see what of a game while it is a card night's deal being played: no hand, no card
still to come and no party before it is public, except that a player of the deal may see it as
they saw it (their own hand and what the table knew); everything once the deal is over
(finished, thrown in, voided, recorded by its facts, taken back or corrected)."""

from __future__ import annotations

from typing import Any

from doko_ledger.doppelkopf.rules.game_types import GameType


def as_the_table_knows(game_type: GameType | None, declarer: str | None) -> tuple[GameType | None, str | None]:
    """The game type and declarer everyone at the table knows: a silent solo looks like a
    normal game with no declarer (docs/rules.md §4)."""
    if game_type is GameType.SILENT_SOLO:
        return GameType.NORMAL, None
    return game_type, declarer


SECRET_COLUMNS = ("re_players", "lone", "re_points")
"""A game list row's columns that tell the parties: empty while the deal is being played."""


def public_row(row: dict[str, Any], playing: object | None) -> dict[str, Any]:
    """A game list row as anyone may see it: the row of an ended game as it is; a deal being
    played marked `being_played`, with no party and no secret solo (the cards played so far
    are public)."""
    if playing is None:
        return row
    kind = None if row.get("game_type") is None else GameType(row["game_type"])
    shown, declarer = as_the_table_knows(kind, row.get("declarer"))
    hidden = dict.fromkeys(SECRET_COLUMNS) | {"game_type": None if shown is None else shown.value}
    return row | hidden | {"declarer": declarer, "being_played": True}
