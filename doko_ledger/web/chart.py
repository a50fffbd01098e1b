"""The running totals of a card night as a line chart: plain geometry for the SVG template."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 360, 200, 34, 70, 10, 20


def running_totals(view: Mapping[str, Any]) -> dict[str, Any]:
    """Each player's polyline from the night's standings view (`views.standings_view`): one
    point per deal, starting at zero before the first (a player who joined later is at zero
    until then)."""
    players: list[str] = view["players"]
    deals = view["deals"]
    series = {p: [0] + [d["totals"].get(p, 0) for d in deals] for p in players}
    values = [v for points in series.values() for v in points]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    steps = max(len(deals), 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(float(LEFT + inner_w * i / steps), 1)

    def y(v: int) -> float:
        return round(float(TOP + inner_h * (high - v) / (high - low)), 1)

    lines = []
    for index, player in enumerate(players):
        points = series[player]
        lines.append(
            {
                "player": player,
                "colour": index,
                "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(points)),
                "end_x": x(len(points) - 1),
                "end_y": y(points[-1]),
                "total": points[-1],
            }
        )
    _spread_labels(lines)
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "zero": y(0),
        "low": low,
        "high": high,
        "low_y": y(low),
        "high_y": y(high),
        "deals": len(deals),
        "lines": lines,
    }


def _spread_labels(lines: list[dict[str, Any]], gap: float = 11.0) -> None:
    """The name at each line's end, moved apart so that no two labels overlap."""
    ordered = sorted(lines, key=lambda line: line["end_y"])
    last = -1e9
    for line in ordered:
        line["label_y"] = max(line["end_y"] + 4, last + gap)
        last = line["label_y"]
