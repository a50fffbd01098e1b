"""Rich renderables for Dou Dizhu: a deal trick by trick, its stake and payments, its audit,
a session's standings. Rendering only: every figure comes from the library's views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.render_scores import checks, signed
from doko_ledger.cli.user_text import escaped, user_text
from doko_ledger.doudizhu.book import DouDizhuStandings
from doko_ledger.doudizhu.projection import DouDizhuAudit
from doko_ledger.numbers import counted


def _cards(cards: list[str]) -> Text:
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card, style="bold red" if card == "RJ" else "bold" if card == "BJ" else "")
    return text


def header(view: Mapping[str, Any]) -> Text:
    head = Text.assemble((escaped(view["game_id"]), "bold"), f"  Dou Dizhu, {len(view['players'])} players")
    head.append(escaped(f"  ·  dealer {view['dealer']}  ·  {view['opener']} opens the bidding"))
    if view["played_on"]:
        head.append(escaped(f"  ·  {view['played_on']}"))
    return head


def deal(view: Mapping[str, Any]) -> RenderableType:
    """The deal: hands and kitty when recorded, the bidding, every trick, the result."""
    parts: list[RenderableType] = [header(view)]
    if view["hands_dealt"] is not None:
        hands = Table(box=None, show_header=False)
        hands.add_column()
        hands.add_column()
        for player, cards in view["hands_dealt"].items():
            hands.add_row(player, _cards(cards))
        hands.add_row("kitty", _cards(view["kitty"] or []))
        parts.append(hands)
    summary = view["summary"]
    if summary is not None:
        parts.append(user_text(summary_line(summary), style="dim"))
    else:
        calls = ", ".join(f"{c['player']} {c['bid']}" for c in view["bidding"]) or "none yet"
        parts.append(user_text(f"bidding: {calls}"))
    if view["phase"] == "abandoned":
        parts.append(Text("nobody bid: the deal is thrown in and the cards are redealt", style="yellow"))
    elif view["landlord"]:
        parts.append(Text.assemble("landlord: ", (escaped(view["landlord"]), "bold"), f" at {view['bid']}"))
    if view["tricks"]:
        table = Table(title="tricks", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("moves")
        table.add_column("won by")
        for trick in view["tricks"]:
            moves = Text()
            for i, move in enumerate(trick["moves"]):
                if i:
                    moves.append("  ·  ")
                moves.append(escaped(f"{move['player']}: "))
                if move.get("passed"):
                    moves.append("pass", style="dim")
                else:
                    moves.append_text(_cards(move["cards"]))
                    moves.append(f" ({move['combination']})", style="dim")
            table.add_row(str(trick["number"]), moves, trick["winner"])
        parts.append(table)
    if view["cards_left"] is not None:
        left = "  ".join(f"{p} {n}" for p, n in view["cards_left"].items())
        parts.append(user_text(f"cards left: {left}", style="dim"))
    if view["out_first"]:
        side = "the landlord wins" if view["winner"] == "landlord" else "the farmers win"
        parts.append(user_text(f"{view['out_first']} went out first: {side}", style="bold"))
    if view["payments"] is not None:
        parts.append(score(view))
    from doko_ledger.cli.render_frames import local_minute  # with Doppelkopf's cards: not for the standings

    for note in view["notes"]:
        parts.append(user_text(f"note by {note['author']} ({local_minute(note['at'])}): {note['text']}", style="cyan"))
    return Group(*parts)


def summary_line(summary: Mapping[str, Any]) -> str:
    """The facts of a deal recorded by them alone, in one line."""
    counts = counted(summary["bombs"], "bomb")
    if summary["big_bombs"] is not None:
        counts += f", {summary['big_bombs']} of six or more cards"
    counts += ", " + counted(summary["rockets"], "rocket")
    return f"recorded by its facts (no bidding or tricks): bid {summary['bid']}, {counts} played"


def score(view: Mapping[str, Any]) -> RenderableType:
    """The stake line by line, and who pays whom."""
    table = Table(title=Text.assemble("stake of ", (view["game_id"], "bold")), title_justify="left")
    table.add_column("item")
    table.add_column("", justify="right")
    table.add_column("stake", justify="right")
    amount = view["bid"]
    table.add_row("the bid", str(view["bid"]), str(amount))
    for d in view["doublings"]:
        amount *= 2
        if d["move"] is None:
            item = user_text(f"{d['combination']} (counted)")
        else:
            item = Text.assemble(
                escaped(f"{d['combination']} by {d['player']} (play {d['move']}): "), _cards(d["cards"])
            )
        table.add_row(item, "×2", str(amount))
    parts: list[RenderableType] = [table]
    if view["payments"] is None:
        parts.append(Text("no payments: the deal is not over", style="dim"))
    else:
        payments = Table(box=None)
        payments.add_column("player")
        payments.add_column("points", justify="right")
        for player, points in view["payments"].items():
            payments.add_row(player + (" (landlord)" if player == view["landlord"] else ""), signed(points))
        parts.append(payments)
    return Group(*parts)


def audit(report: DouDizhuAudit, view: Mapping[str, Any]) -> RenderableType:
    parts = checks(report.game_id, report.checks)
    parts += [Text(""), score(view)]
    if report.claimed is not None:
        table = Table(title="claimed against computed", title_justify="left", box=None)
        for name in ("player", "claimed", "computed", "difference"):
            table.add_column(name, justify="right" if name != "player" else "left")
        for player, difference in report.difference.items():
            claimed = report.claimed.get(player, 0)
            table.add_row(player, f"{claimed:+d}", f"{claimed - difference:+d}", signed(difference))
        parts += [Text(""), table]
        if not any(report.difference.values()):
            parts.append(Text("the claim matches the computed payments", style="green"))
        parts += [user_text(line, style="cyan") for line in report.explanations]
    return Group(*parts)


def standings(table: DouDizhuStandings) -> RenderableType:
    out = Table(
        title=f"Dou Dizhu session {table.session_id}" + ("" if table.closed else " (open)"), title_justify="left"
    )
    out.add_column("#", justify="right")
    out.add_column("game")
    out.add_column("landlord")
    out.add_column("stake", justify="right")
    out.add_column("won by")
    for player in table.players:
        out.add_column(player, justify="right")
    for i, row in enumerate(table.rows, 1):
        out.add_row(
            str(i),
            row.game_id,
            row.landlord or "—",
            str(row.stake) if row.landlord else "redeal",
            row.winner or "",
            *(Text.assemble(signed(row.payments.get(p, 0)), f" ({row.totals[p]:+d})", style="") for p in table.players),
        )
    totals = user_text("totals: " + "  ".join(f"{p} {t:+d}" for p, t in table.totals.items()), style="bold")
    return Group(out, totals)


def sessions_table(sessions: list[DouDizhuStandings]) -> Table:
    table = Table(title="Dou Dizhu sessions", title_justify="left")
    for name in ("session", "played on", "players", "deals", "totals", "closed"):
        table.add_column(name)
    for s in sessions:
        totals = "  ".join(f"{p} {t:+d}" for p, t in s.totals.items())
        table.add_row(
            s.session_id, s.played_on or "", ", ".join(s.players), str(len(s.rows)), totals, "yes" if s.closed else "no"
        )
    return table
