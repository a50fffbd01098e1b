"""Rich renderables for the CLI. Rendering only: every figure comes from the library."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cards import Card
from doko_ledger.events.envelope import Recorded
from doko_ledger.events.store import VerifyReport
from doko_ledger.game.state import GameState
from doko_ledger.projections.views import running_points


def card_text(card: Card, *, winner: bool = False) -> Text:
    """A card with its suit symbol, red suits in red."""
    style = "red" if card.suit.is_red else ""
    if winner:
        style += " bold underline"
    return Text(card.pretty, style=style.strip())


def cards_text(cards: Sequence[Card]) -> Text:
    return Text(" ").join(card_text(c) for c in cards)


def game_header(state: GameState) -> Text:
    players = state.players
    kind = state.game_type.value.replace("_", " ") if state.game_type else "game type not set"
    if state.declarer is not None:
        kind += f" by {players[state.declarer]}"
    head = Text.assemble(
        (state.game_id, "bold"),
        f"  {kind}  ·  dealer {players[state.dealer]}  ·  rules {state.rules.preset}",
    )
    changed = state.rules.changed_from_preset()
    if changed:
        head.append("  (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")", style="dim")
    if state.played_on:
        head.append(f"  ·  {state.played_on}")
    return head


def tricks_table(state: GameState) -> Table:
    """Every trick: who led, each player's card (winner marked), winner, points, running totals."""
    players = state.players
    table = Table(title=game_header(state), title_justify="left", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("lead")
    for name in players:
        table.add_column(name, justify="center")
    table.add_column("won by")
    table.add_column("pts", justify="right")
    table.add_column("running", justify="right", style="dim")
    running = running_points(state)
    for i, trick in enumerate(state.all_tricks):
        by_seat: dict[int, Text] = {}
        for index, (seat, card) in enumerate(trick.plays):
            text = card_text(card, winner=trick.winner == seat)
            if index == 0:
                text = Text("›", style="dim") + text
            by_seat[seat] = text
        totals = " ".join(str(p) for p in running[i]) if i < len(running) else ""
        table.add_row(
            str(trick.number),
            players[trick.leader],
            *(by_seat.get(s, Text("")) for s in range(len(players))),
            players[trick.winner] if trick.winner is not None else "…",
            str(trick.points),
            totals,
        )
    return table


def totals_table(state: GameState) -> Table:
    table = Table(show_header=True, box=None)
    table.add_column("player")
    table.add_column("card points", justify="right")
    table.add_column("tricks", justify="right")
    for name, points, tricks in zip(state.players, state.points_won(), state.tricks_won(), strict=True):
        table.add_row(name, str(points), str(tricks))
    table.add_row(Text("total", style="bold"), str(sum(state.points_won())), str(len(state.tricks)))
    return table


def replay(state: GameState) -> RenderableType:
    return Group(tricks_table(state), Text(""), totals_table(state))


def position(state: GameState, number: int) -> RenderableType:
    """The game before trick `number`: every hand as it stood, tricks so far."""
    players = state.players
    table = Table(title=Text.assemble(game_header(state), f"  ·  before trick {number}"), title_justify="left")
    table.add_column("player")
    table.add_column("hand")
    table.add_column("card points", justify="right")
    points = state.points_won()
    leader = state.to_play
    for seat, name in enumerate(players):
        hand: RenderableType = (
            cards_text(state.order.sorted(state.hands[seat])) if state.hands is not None else Text("(not recorded)")
        )
        label = Text(name, style="bold") if seat == leader else Text(name)
        if seat == leader:
            label.append(" leads", style="dim")
        table.add_row(label, hand, str(points[seat]))
    parts: list[RenderableType] = [table]
    if state.hands is None:
        parts.append(Text(f"played so far: {len(state.cards_played)} cards", style="dim"))
    return Group(*parts)


def games_table(rows: Sequence[dict[str, Any]]) -> Table:
    table = Table(title="games", title_justify="left")
    for name, justify in (
        ("#", "right"),
        ("game", "left"),
        ("played on", "left"),
        ("players", "left"),
        ("type", "left"),
        ("rules", "left"),
        ("tricks", "right"),
        ("card points", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for i, row in enumerate(rows, 1):
        kind = row["game_type"] or "?"
        if row["declarer"]:
            kind += f" ({row['declarer']})"
        table.add_row(
            str(i),
            row["game_id"],
            row["played_on"] or "",
            ", ".join(row["players"]),
            kind,
            row["rules"],
            str(row["tricks_played"]) + ("" if row["finished"] else " (unfinished)"),
            " ".join(str(p) for p in row["points"]),
        )
    return table


def log_table(recorded: Sequence[Recorded], payloads: Sequence[str]) -> Table:
    table = Table(title=recorded[0].envelope.stream if recorded else "log", title_justify="left")
    for name in ("pos", "ver", "event", "payload", "recorded", "by", "hash"):
        table.add_column(name, overflow="fold")
    for r, payload in zip(recorded, payloads, strict=True):
        e = r.envelope
        table.add_row(
            str(e.position),
            str(e.version),
            f"{e.event_type} v{e.schema_version}",
            payload,
            e.recorded_at,
            e.recorded_by,
            e.hash[:12],
        )
    return table


def verify_report(report: VerifyReport) -> RenderableType:
    if report.ok:
        return Text.assemble(
            ("ledger verified: ", "green bold"),
            f"{report.events} events in {report.streams} streams; every hash chain matches. head {report.head}",
        )
    lines = [Text(f"ledger NOT verified: {len(report.problems)} problem(s)", style="red bold")]
    lines += [Text(f"  {p}") for p in report.problems]
    return Group(*lines)
