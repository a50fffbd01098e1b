"""Rich renderables for Dou Dizhu: a deal trick by trick, its stake and payments, its audit,
a session's standings. Rendering only: every figure comes from the library's views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.render_scores import checks, signed
from doko_ledger.cli.sheet import Column, Sheet
from doko_ledger.cli.user_text import escaped, user_text
from doko_ledger.cli.words import day, localized
from doko_ledger.doudizhu.book import DouDizhuStandings
from doko_ledger.i18n import msg, plural, render

if TYPE_CHECKING:
    from doko_ledger.doudizhu.projection import DouDizhuAudit


def _cards(cards: list[str]) -> Text:
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card, style="bold red" if card == "RJ" else "bold" if card == "BJ" else "")
    return text


def header(view: Mapping[str, Any]) -> Text:
    players = plural("Dou Dizhu, {count} player", "Dou Dizhu, {count} players", len(view["players"]))
    head = Text.assemble((escaped(view["game_id"]), "bold"), "  " + render(players))
    dealer = msg("dealer {player}", player=view["dealer"])
    opens = msg("{player} opens the bidding", player=view["opener"])
    head.append(escaped(f"  ·  {render(dealer)}  ·  {render(opens)}"))
    if view["played_on"]:
        head.append(escaped(f"  ·  {day(view['played_on'])}"))
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
        hands.add_row(render(msg("kitty")), _cards(view["kitty"] or []))
        parts.append(hands)
    summary = view["summary"]
    if summary is not None:
        parts.append(user_text(summary_line(summary), style="dim"))
    else:
        calls = ", ".join(f"{c['player']} {c['bid']}" for c in view["bidding"]) or render(msg("none yet"))
        parts.append(user_text(render(msg("bidding: {calls}", calls=calls))))
    if view["phase"] == "abandoned":
        redealt = msg("nobody bid: the deal is thrown in and the cards are redealt")
        parts.append(Text(render(redealt), style="yellow"))
    elif view["landlord"]:
        at = " " + render(msg("at {bid}", bid=view["bid"]))
        parts.append(Text.assemble(render(msg("landlord: ")), (escaped(view["landlord"]), "bold"), at))
    if view["tricks"]:
        table = Table(title=render(msg("tricks")), title_justify="left")
        table.add_column("#", justify="right")
        table.add_column(render(msg("moves")))
        table.add_column(render(msg("won by")))
        for trick in view["tricks"]:
            moves = Text()
            for i, move in enumerate(trick["moves"]):
                if i:
                    moves.append("  ·  ")
                moves.append(escaped(f"{move['player']}: "))
                if move.get("passed"):
                    moves.append(render(msg("pass")), style="dim")
                else:
                    moves.append_text(_cards(move["cards"]))
                    moves.append(f" ({move['combination']})", style="dim")
            table.add_row(str(trick["number"]), moves, trick["winner"])
        parts.append(table)
    if view["cards_left"] is not None:
        left = "  ".join(f"{p} {n}" for p, n in view["cards_left"].items())
        parts.append(user_text(render(msg("cards left: {left}", left=left)), style="dim"))
    if view["out_first"]:
        side = msg("the landlord wins") if view["winner"] == "landlord" else msg("the farmers win")
        went = msg("{player} went out first: {side}", player=view["out_first"], side=side)
        parts.append(user_text(render(went), style="bold"))
    if view["payments"] is not None:
        parts.append(score(view))
    from doko_ledger.cli.render_frames import local_minute  # with Doppelkopf's cards: not for the standings

    for note in view["notes"]:
        said = msg(
            "note by {author} ({at}): {text}", author=note["author"], at=local_minute(note["at"]), text=note["text"]
        )
        parts.append(user_text(render(said), style="cyan"))
    return Group(*parts)


def summary_line(summary: Mapping[str, Any]) -> str:
    """The facts of a deal recorded by them alone, in one line."""
    counts = render(plural("{count} bomb", "{count} bombs", summary["bombs"]))
    if summary["big_bombs"] is not None:
        counts += ", " + render(msg("{count} of six or more cards", count=summary["big_bombs"]))
    counts += ", " + render(plural("{count} rocket", "{count} rockets", summary["rockets"]))
    line = msg(
        "recorded by its facts (no bidding or tricks): bid {bid}, {counts} played", bid=summary["bid"], counts=counts
    )
    return render(line)


def score(view: Mapping[str, Any]) -> RenderableType:
    """The stake line by line, and who pays whom."""
    table = Table(title=Text.assemble(render(msg("stake of ")), (view["game_id"], "bold")), title_justify="left")
    table.add_column(render(msg("item")))
    table.add_column("", justify="right")
    table.add_column(render(msg("stake")), justify="right")
    amount = view["bid"]
    table.add_row(render(msg("the bid")), str(view["bid"]), str(amount))
    for d in view["doublings"]:
        amount *= 2
        kind = localized(d["combination"])
        if d["move"] is None:
            item = user_text(render(msg("{combination} (counted)", combination=kind)))
        else:
            played = msg(
                "{combination} by {player} (play {move}): ", combination=kind, player=d["player"], move=d["move"]
            )
            item = Text.assemble(escaped(render(played)), _cards(d["cards"]))
        table.add_row(item, "×2", str(amount))
    parts: list[RenderableType] = [table]
    if view["payments"] is None:
        parts.append(Text(render(msg("no payments: the deal is not over")), style="dim"))
    else:
        payments = Table(box=None)
        payments.add_column(render(msg("player")))
        payments.add_column(render(msg("points")), justify="right")
        for player, points in view["payments"].items():
            landlord = render(msg("{player} (landlord)", player=player))
            payments.add_row(landlord if player == view["landlord"] else player, signed(points))
        parts.append(payments)
    return Group(*parts)


def audit(report: DouDizhuAudit, view: Mapping[str, Any]) -> RenderableType:
    parts = checks(report.game_id, report.checks)
    parts += [Text(""), score(view)]
    if report.claimed is not None:
        table = Table(title=render(msg("claimed against computed")), title_justify="left", box=None)
        table.add_column(render(msg("player")))
        for column in (msg("claimed"), msg("computed"), msg("difference")):
            table.add_column(render(column), justify="right")
        for player, difference in report.difference.items():
            claimed = report.claimed.get(player, 0)
            table.add_row(player, f"{claimed:+d}", f"{claimed - difference:+d}", signed(difference))
        parts += [Text(""), table]
        if not any(report.difference.values()):
            parts.append(Text(render(msg("the claim matches the computed payments")), style="green"))
        parts += [user_text(localized(line), style="cyan") for line in report.explanations]
    return Group(*parts)


def standings(table: DouDizhuStandings) -> RenderableType:
    session = table.session_id
    title = msg("Dou Dizhu session {session}", session=session)
    columns = [Column("#", right=True), Column(render(msg("game")), wraps=True), Column(render(msg("landlord")))]
    columns += [Column(render(msg("stake")), right=True), Column(render(msg("won by")))]
    columns += [Column(player, right=True) for player in table.players]
    shown = title if table.closed else msg("Dou Dizhu session {session} (open)", session=session)
    out = Sheet(columns, title=render(shown))
    for i, row in enumerate(table.rows, 1):
        out.add_row(
            str(i),
            row.game_id,
            row.landlord or "—",
            str(row.stake) if row.landlord else render(msg("redeal")),
            row.winner or "",
            *(Text.assemble(signed(row.payments.get(p, 0)), f" ({row.totals[p]:+d})", style="") for p in table.players),
        )
    each = "  ".join(f"{p} {t:+d}" for p, t in table.totals.items())
    totals = user_text(render(msg("totals: {totals}", totals=each)), style="bold")
    return Group(out, totals)


def sessions_table(sessions: list[DouDizhuStandings]) -> Table:
    table = Table(title=render(msg("Dou Dizhu sessions")), title_justify="left")
    for name in (msg("session"), msg("played on"), msg("players"), msg("deals"), msg("totals"), msg("closed")):
        table.add_column(render(name))
    for s in sessions:
        totals = "  ".join(f"{p} {t:+d}" for p, t in s.totals.items())
        closed = render(msg("yes") if s.closed else msg("no"))
        played_on = day(s.played_on) if s.played_on else ""
        table.add_row(s.session_id, played_on, ", ".join(s.players), str(len(s.rows)), totals, closed)
    return table
