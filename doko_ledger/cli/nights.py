"""`doko session start`, `list`, `close`, `join`, `leave`, `rules`, `doko bock`, `standings`,
`settle`: card nights (and the standings of a Dou Dizhu session)."""

from __future__ import annotations

import csv
import importlib
import io
from typing import Annotated, Any

import typer

from doko_ledger.cli.common import ByOption, JsonOption, Typer, echo_json, ledger_path, now, out, recorder
from doko_ledger.cli.help_texts import described, helped
from doko_ledger.cli.user_text import spreadsheet_cell
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.games import GAMES, Game
from doko_ledger.i18n import msg, render

ShownNightOption = Annotated[
    str | None,
    typer.Option(
        "--session",
        help=helped("The card night (default: the open one, else the one closed last)."),
        show_default=False,
    ),
]

OpenNightOption = Annotated[
    str | None, typer.Option("--session", help=helped("The card night (default: the open one)."), show_default=False)
]

session_app = Typer(
    help=helped("Card nights: start, list, close; players join and leave, the rules change."), no_args_is_help=True
)


@session_app.command("start")
@described("Start a card night (only one may be open).")
def session_start(
    ctx: typer.Context,
    session_id: Annotated[str, typer.Argument(help=helped("The night's id, e.g. 2026-11-28-kitchen."))],
    players: Annotated[
        str, typer.Option("--players", help=helped("4 to 7 players in seat order: Anna,Ben,Clara,Dirk."))
    ],
    dealer: Annotated[
        str | None, typer.Option("--dealer", help=helped("The first dealer (default the first player)."))
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", help=helped("A preset, saved house rules or a rule file."))
    ] = "standard",
    match: Annotated[int, typer.Option("--match", help=helped("Deals per match."))] = 8,
    rate: Annotated[str | None, typer.Option("--rate", help=helped("Money per point, e.g. 0.05."))] = None,
    date: Annotated[str | None, typer.Option("--date", help=helped("When it is played."))] = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.cli.rules import rules_called
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.nights.decide import StartNight
    from doko_ledger.doppelkopf.nights.night import Night
    from doko_ledger.ledger import Ledger
    from doko_ledger.names import find_player

    names = quick_entry.names(players, "--players")
    first = (find_player(dealer, names) or dealer) if dealer is not None else names[0]
    if first not in names:
        raise quick_entry.EntryError(
            msg(
                "--dealer: {player} is not one of the players ({players})", player=repr(first), players=", ".join(names)
            )
        )
    named = rules_called(ctx, rules)
    command = StartNight(session_id, names, names.index(first), named.rules, match, date, rate, rules_name=named.name)
    Night().start(command)  # refuse a bad night before a ledger file is created for it
    with Ledger.open(ledger_path(ctx), create=True) as ledger:
        card_nights(ledger).start(command, by=recorder(by), at=now())
    started = msg(
        "card night {night} started: {players}; {dealer} deals first",
        night=session_id,
        players=", ".join(names),
        dealer=first,
    )
    out().print(render(started))


@session_app.command("join")
@described("A player joins the night from the next deal, at a seat after a named player (4 to 7 at the table).")
def session_join(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help=helped("Who sits down."))],
    after: Annotated[
        str | None,
        typer.Option(
            "--after", help=helped("The seat after this player (default: after the last seat)."), show_default=False
        ),
    ] = None,
    session: OpenNightOption = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        nights = card_nights(ledger)
        done = nights.join(nights.resolve(session), player, after=after, by=recorder(by), at=now())
        ledger.refresh()
    out().print(render(done.words), markup=False, highlight=False, soft_wrap=True)


@session_app.command("leave")
@described("A player leaves the night from the next deal (their deals so far keep counting; 4 stay at least).")
def session_leave(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help=helped("Who leaves the table."))],
    session: OpenNightOption = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        nights = card_nights(ledger)
        done = nights.leave(nights.resolve(session), player, by=recorder(by), at=now())
        ledger.refresh()
    out().print(render(done.words), markup=False, highlight=False, soft_wrap=True)


@session_app.command("rules")
@described("Change the night's rules from the next deal on (earlier deals keep theirs); `doko undo` takes it back.")
def session_rules(
    ctx: typer.Context,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help=helped("A preset, saved house rules or a rule file (default: the rules in force)."),
            show_default=False,
        ),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set", metavar="OPTION=VALUE", help=helped("Change one option, e.g. counting=winners_only (repeatable).")
        ),
    ] = None,
    session: OpenNightOption = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.cli.rules import rules_called
    from doko_ledger.doppelkopf.files.quick_entry import EntryError
    from doko_ledger.doppelkopf.house_rules import NamedRules
    from doko_ledger.doppelkopf.rules.options import parse_setting
    from doko_ledger.ledger import Ledger

    if rules is None and not settings:
        raise EntryError(msg("give --rules PRESET|FILE and/or --set option=value: what changes"))
    typed = dict(parse_setting(s) for s in settings or ())
    with Ledger.open(ledger_path(ctx)) as ledger:
        nights = card_nights(ledger)
        sid = nights.resolve(session)
        base = NamedRules(nights.state(sid).rules) if rules is None else rules_called(ctx, rules, ledger)
        changed = base.changed(typed)
        done = nights.change_rules(sid, changed.rules, name=changed.name, by=recorder(by), at=now())
        ledger.refresh()
    out().print(render(done.words), markup=False, highlight=False, soft_wrap=True)


@described("Declare bock by hand (the bock button): rounds queued like a trigger's (docs/rules.md §9).")
def bock(
    ctx: typer.Context,
    rounds: Annotated[int, typer.Option("--rounds", help=helped("Bock rounds declared at once (1 to 3)."))] = 1,
    declared_by: Annotated[
        str | None,
        typer.Option(
            "--by",
            help=helped("Who declares it, a player at the table (default $DOKO_USER or your login); also who records."),
            show_default=False,
        ),
    ] = None,
    reason: Annotated[str, typer.Option("--reason", help=helped("Why, e.g. Hochzeit."))] = "",
    with_deal: Annotated[
        int | None,
        typer.Option(
            "--with-deal",
            min=1,
            help=helped(
                "The deal just recorded, which it comes with (taking that deal back takes it too);"
                " default: from the next deal."
            ),
            show_default=False,
        ),
    ] = None,
    session: OpenNightOption = None,
) -> None:
    from doko_ledger.ledger import Ledger

    who = recorder(declared_by)
    with Ledger.open(ledger_path(ctx)) as ledger:
        nights = card_nights(ledger)
        done = nights.declare_bock(
            nights.resolve(session),
            declared_by=who,
            reason=reason,
            rounds=rounds,
            with_deal=with_deal,
            by=who,
            at=now(),
        )
        ledger.refresh()
    out().print(render(done.words), markup=False, highlight=False, soft_wrap=True)


GAME_SESSIONS: dict[Game[Any], str] = {}
"""The module that shows the sessions of a game whose sessions are not card nights (its
`sessions_table` and `standings`), loaded only when such a session is shown: each game's
command module registers it (`cli/ddz.py`)."""


@session_app.command("list")
@described("The card nights in the ledger.")
def session_list(ctx: typer.Context, as_json: JsonOption = False) -> None:
    from doko_ledger.cli import render_nights
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        listed = [(game, _sessions(ledger.book_of(game))) for game in GAMES]
    if as_json:
        echo_json(
            [
                {"session": s.session_id, "players": list(s.players), "deals": len(s.rows), "closed": s.closed}
                | {"game": game.name}
                for game, sessions in listed
                for s in sessions
            ]
        )
        return
    for game, sessions in listed:
        own = GAME_SESSIONS.get(game)
        if own is None:
            out().print(render_nights.sessions_table(sessions))
        elif sessions:
            out().print(importlib.import_module(own).sessions_table(sessions))


def _sessions(book: Any) -> list[Any]:
    """Each session of a game's book, as its standings."""
    return [book.standings(session_id) for session_id in book.session_ids()]


@session_app.command("close")
@described("Close a card night: nothing more is added.")
def session_close(
    ctx: typer.Context,
    session: Annotated[str | None, typer.Argument(help=helped("The card night (default: the open one)."))] = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        session_id = card_nights(ledger).resolve(session)
        card_nights(ledger).close(session_id, by=recorder(by), at=now())
    out().print(render(msg("card night {night} closed", night=session_id)))


@described("The running table of a card night (or a Dou Dizhu session) after every deal, with a chart of the totals.")
def standings(
    ctx: typer.Context,
    session: ShownNightOption = None,
    as_json: JsonOption = False,
    as_csv: Annotated[bool, typer.Option("--csv", help=helped("Print the running table as CSV."))] = False,
) -> None:
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        for game, own in GAME_SESSIONS.items():
            found = None if session is None else game.session_named(ledger.store, session)
            if found is not None:
                shown = ledger.book_of(game).standings(found)
                return importlib.import_module(own).standings(shown, as_json, as_csv, ledger.head())  # type: ignore[no-any-return]
        session_id = card_nights(ledger).resolve(session, latest=True)
        table = card_nights(ledger).standings(session_id)
        played_on = None if as_json or as_csv else card_nights(ledger).state(session_id).played_on
        head = ledger.head()
    if as_json:
        from doko_ledger.doppelkopf.views import anchored_standings_view

        echo_json(anchored_standings_view(table, head))
    elif as_csv:
        rows: list[list[object]] = [
            [
                r.number,
                r.game_id,
                r.dealer,
                r.match,
                r.round,
                r.multiplier,
                *(r.sheet.get(p, "") for p in table.players),
                *(r.totals.get(p, "") for p in table.players),
            ]
            for r in table.rows
        ]
        header = ["deal", "game", "dealer", "match", "round", "multiplier"]  # points: each deal's sheet row
        echo_csv([*header, *(f"{p} points" for p in table.players), *(f"{p} total" for p in table.players)], rows)
    else:
        from doko_ledger.cli import render_nights
        from doko_ledger.cli.render_scores import head_line

        out().print(render_nights.standings(table, played_on))
        out().print(head_line(head), markup=False, soft_wrap=True)


def echo_csv(header: list[str], rows: list[list[object]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(map(spreadsheet_cell, header))
    writer.writerows(map(spreadsheet_cell, row) for row in rows)
    typer.echo(buffer.getvalue(), nl=False)


@described("Who pays whom, in the fewest payments (in money when the night has a rate, else in points).")
def settle_up(ctx: typer.Context, session: ShownNightOption = None, as_json: JsonOption = False) -> None:
    from doko_ledger.cli import render_nights, render_scores
    from doko_ledger.doppelkopf.nights.standings import payments
    from doko_ledger.doppelkopf.views import settle_view
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        table = card_nights(ledger).standings(card_nights(ledger).resolve(session, latest=True))
        head = ledger.head()
    if as_json:
        echo_json(settle_view(table, head))
    else:
        out().print(render_nights.payments(payments(table), table.rate))
        out().print(render_scores.head_line(head), markup=False, soft_wrap=True)
