"""The games list, a game per two lines that fit 80 columns, rendered a game at a time.

```
    #1  kitchen-2026-11-28-01  2026-11-28  normal
        standard · 12 tricks · Re 151  Anna +2  Ben -2  Clara +2  Dirk -2
```

The first line names the game (its number, id, day and type; a status the row carries, such as
a voided deal, at its end); the second is the result: rules, tricks, card points and each
player's score, or only the players while the game has none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.text import Text

from doko_ledger.cli.words import day
from doko_ledger.doppelkopf.nights.place import deal_marks
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.games import DOPPELKOPF, DOUDIZHU, Game, game_named
from doko_ledger.i18n import msg, plural, render

NUMBER_WIDTH = 6
INDENT = " " * (NUMBER_WIDTH + 2)


def game_parts(number: int, row: dict[str, Any]) -> list[tuple[str, str]]:
    """One game of either kind as its two lines, in pieces of text and their style."""
    kind, rules, tricks, points = _cells(row)
    parts = [(f"#{number}".rjust(NUMBER_WIDTH) + "  ", ""), (str(row["game_id"]), "bold")]
    if row["played_on"]:
        parts.append((f"  {day(row['played_on'])}", ""))
    parts.append((f"  {kind}", ""))
    marks = deal_marks(row.get("status"), row.get("corrected_by"), row.get("replaces"))
    if marks:
        parts.append((f"  {render(marks)}", "yellow"))
    parts.append(("\n" + INDENT + " · ".join(filter(None, (rules, tricks, points))), ""))
    score: dict[str, int] | None = row.get("score")
    for player in row["players"]:
        parts.append((f"  {player}", ""))
        if score is not None and player in score:
            delta = score[player]
            parts.append((f" {delta:+d}", "green" if delta > 0 else "red" if delta < 0 else ""))
    return parts


def game_lines(number: int, row: dict[str, Any]) -> Text:
    """One game of either kind as its two lines."""
    return Text.assemble(*game_parts(number, row))


def header() -> Text:
    first, second = render(msg("game  played on  type")), render(msg("rules · tricks · points  result"))
    return Text("#".rjust(NUMBER_WIDTH) + f"  {first}\n" + INDENT + second, style="dim")


def page(games: Iterable[tuple[int, dict[str, Any]]]) -> Text:
    """Several games' lines as one text (printed at once: a page of a streamed list)."""
    return Text("\n").join(game_lines(number, row) for number, row in games)


def plain_page(games: Iterable[tuple[int, dict[str, Any]]]) -> str:
    """`page` as plain text, without styles (for output that is not a terminal)."""
    return "\n".join("".join(text for text, _ in game_parts(number, row)) for number, row in games)


def _cells(row: dict[str, Any]) -> tuple[str, str, str, str]:
    """Type, rules, tricks and card points (or stake) of one game of any game."""
    return _CELLS[game_named(row["game"])](row)


def _doudizhu_cells(row: dict[str, Any]) -> tuple[str, str, str, str]:
    kind = render(msg("Dou Dizhu (landlord {player})", player=row["landlord"]) if row["landlord"] else "Dou Dizhu")
    if row["phase"] == "abandoned":
        return render(msg("{kind}, redealt", kind=kind)), "doudizhu", _tricks(0), render(msg("nobody bid"))
    summarized = row.get("summarized")  # a deal recorded by its facts
    tricks = render(msg("summary")) if summarized else _tricks(row["tricks"], row["phase"] == "over")
    stake = msg("stake {stake}", stake=row["stake"])
    won = render(msg("{side} win, {stake}", side=row["winner"], stake=stake) if row["winner"] else stake)
    return kind, "doudizhu", tricks, won


def _tricks(count: int, done: bool = True) -> str:
    """`9 tricks`, `3 tricks (unfinished)`."""
    if done:
        return render(plural("{count} trick", "{count} tricks", count))
    return render(plural("{count} trick (unfinished)", "{count} tricks (unfinished)", count))


def _doppelkopf_cells(row: dict[str, Any]) -> tuple[str, str, str, str]:
    if row["abandoned"]:
        kind = render(msg("thrown in"))
    else:
        kind = render(GameType(row["game_type"]).word if row["game_type"] else msg("reservations open"))
    if row["declarer"]:
        kind += f" ({row['declarer']})"
    if row["summarized"]:
        tricks = render(msg("summary"))
    else:
        tricks = _tricks(row["tricks_played"], bool(row["finished"] or row["abandoned"]))
    if row["re_points"] is not None:
        points = f"Re {row['re_points']}"
    else:
        each = " ".join(str(p) for p in row["points"])
        points = render(msg("points {each}", each=each)) if row["tricks_played"] else ""
    return kind, row["rules"], tricks, points


_CELLS: dict[Game[Any], Callable[[dict[str, Any]], tuple[str, str, str, str]]] = {
    DOPPELKOPF: _doppelkopf_cells,
    DOUDIZHU: _doudizhu_cells,
}
"""Each game's cells of a line of the list."""
