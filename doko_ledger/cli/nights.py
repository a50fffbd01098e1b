"""`doko session start`, `list`, `close`, `standings`, `settle`: card nights (and the standings
of a Dou Dizhu session)."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the commands import what they use: `doko` starts faster
    from doko_ledger.doudizhu.book import DouDizhuStandings
    from doko_ledger.store.base import Head

from doko_ledger.cli.common import ByOption, JsonOption, Typer, echo_json, ledger_path, now, out, recorder
from doko_ledger.cli.user_text import spreadsheet_cell

ShownSessionOption = Annotated[
    str | None,
    typer.Option(
        "--session", help="The card night (default: the open one, else the one closed last).", show_default=False
    ),
]

session_app = Typer(help="Card nights: start, list, close.", no_args_is_help=True)


@session_app.command("start")
def session_start(
    ctx: typer.Context,
    session_id: Annotated[str, typer.Argument(help="The night's id, e.g. 2026-11-28-kitchen.")],
    players: Annotated[str, typer.Option("--players", help="4 to 7 players in seat order: Anna,Ben,Clara,Dirk.")],
    dealer: Annotated[str | None, typer.Option("--dealer", help="The first dealer (default the first player).")] = None,
    rules: Annotated[str, typer.Option("--rules", help="A preset or a house-rule file.")] = "standard",
    match: Annotated[int, typer.Option("--match", help="Deals per match.")] = 8,
    rate: Annotated[str | None, typer.Option("--rate", help="Money per point, e.g. 0.05.")] = None,
    date: Annotated[str | None, typer.Option("--date", help="When it is played.")] = None,
    by: ByOption = None,
) -> None:
    """Start a card night (only one may be open)."""
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.files.rules_file import rules_named
    from doko_ledger.doppelkopf.nights.decide import StartSession
    from doko_ledger.doppelkopf.nights.night import Night
    from doko_ledger.ledger import Ledger
    from doko_ledger.names import find_player

    names = quick_entry.names(players, "--players")
    first = (find_player(dealer, names) or dealer) if dealer is not None else names[0]
    if first not in names:
        raise quick_entry.EntryError(f"--dealer: {first!r} is not one of the players ({', '.join(names)})")
    command = StartSession(session_id, names, names.index(first), rules_named(rules), match, date, rate)
    Night().start(command)  # refuse a bad night before a ledger file is created for it
    with Ledger.open(ledger_path(ctx), create=True) as ledger:
        ledger.nights.start(command, by=recorder(by), at=now())
    out().print(f"card night {session_id} started: {', '.join(names)}; {first} deals first")


@session_app.command("list")
def session_list(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The card nights in the ledger."""
    from doko_ledger.cli import render_doudizhu, render_nights
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        rows = [ledger.nights.standings(sid) for sid in ledger.nights.session_ids()]
        others = [ledger.doudizhu.standings(sid) for sid in ledger.doudizhu.session_ids()]
    if as_json:
        echo_json(
            [
                {"session": s.session_id, "players": list(s.players), "deals": len(s.rows), "closed": s.closed}
                | {"game": game}
                for game, sessions in (("doppelkopf", rows), ("doudizhu", others))
                for s in sessions
            ]
        )
    else:
        out().print(render_nights.sessions_table(rows))
        if others:
            out().print(render_doudizhu.sessions_table(others))


@session_app.command("close")
def session_close(
    ctx: typer.Context,
    session: Annotated[str | None, typer.Argument(help="The card night (default: the open one).")] = None,
    by: ByOption = None,
) -> None:
    """Close a card night: nothing more is added."""
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        session_id = ledger.nights.resolve(session)
        ledger.nights.close(session_id, by=recorder(by), at=now())
    out().print(f"card night {session_id} closed")


def standings(
    ctx: typer.Context,
    session: ShownSessionOption = None,
    as_json: JsonOption = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the running table as CSV.")] = False,
) -> None:
    """The running table of a card night (or a Dou Dizhu session) after every deal, with a chart
    of the totals."""
    from doko_ledger.cli import render, render_nights
    from doko_ledger.doppelkopf.views import anchored_standings_view
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        doudizhu_session = None if session is None else ledger.doudizhu.resolve_session(session)
        if doudizhu_session is not None:
            night = ledger.doudizhu.standings(doudizhu_session)
            return _doudizhu_standings(night, as_json, as_csv, ledger.head())
        table = ledger.nights.standings(ledger.nights.resolve(session, latest=True))
        head = ledger.head()
    if as_json:
        echo_json(anchored_standings_view(table, head))
    elif as_csv:
        rows = [
            [
                r.number,
                r.game_id,
                r.dealer,
                r.match,
                r.round,
                r.multiplier,
                *(r.deltas[p] for p in table.players),
                *(r.totals[p] for p in table.players),
            ]
            for r in table.rows
        ]
        header = ["deal", "game", "dealer", "match", "round", "multiplier"]
        _echo_csv([*header, *(f"{p} points" for p in table.players), *(f"{p} total" for p in table.players)], rows)
    else:
        out().print(render_nights.standings(table))
        out().print(render.head_line(head), markup=False, soft_wrap=True)


def _echo_csv(header: list[str], rows: list[list[object]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(map(spreadsheet_cell, header))
    writer.writerows(map(spreadsheet_cell, row) for row in rows)
    typer.echo(buffer.getvalue(), nl=False)


def _doudizhu_standings(table: DouDizhuStandings, as_json: bool, as_csv: bool, head: Head) -> None:
    from doko_ledger.cli import render, render_doudizhu
    from doko_ledger.doppelkopf.views import head_view
    from doko_ledger.doudizhu.book import standings_view as doudizhu_standings_view

    if as_json:
        echo_json(doudizhu_standings_view(table) | {"ledger_head": head_view(head)})
    elif as_csv:
        rows = [
            [n, r.game_id, r.landlord or "", r.stake, *(r.totals[p] for p in table.players)]
            for n, r in enumerate(table.rows, 1)
        ]
        _echo_csv(["deal", "game", "landlord", "stake", *table.players], rows)
    else:
        out().print(render_doudizhu.standings(table))
        out().print(render.head_line(head), markup=False, soft_wrap=True)


def settle_up(ctx: typer.Context, session: ShownSessionOption = None, as_json: JsonOption = False) -> None:
    """Who pays whom, in the fewest payments (in money when the night has a rate, else in points)."""
    from doko_ledger.cli import render, render_nights
    from doko_ledger.doppelkopf.nights.standings import payments
    from doko_ledger.doppelkopf.views import settle_view
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        table = ledger.nights.standings(ledger.nights.resolve(session, latest=True))
        head = ledger.head()
    if as_json:
        echo_json(settle_view(table, head))
    else:
        out().print(render_nights.payments(payments(table), table.rate))
        out().print(render.head_line(head), markup=False, soft_wrap=True)
