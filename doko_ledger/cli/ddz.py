"""`doko ddz start`, `record`, `close`: a Dou Dizhu session kept from the command line, its deals
recorded by their facts as a score sheet holds them. Its standings are `doko standings --session`."""

from __future__ import annotations

from typing import Annotated

import typer

from doko_ledger.cli import games, nights
from doko_ledger.cli.common import ByOption, JsonOption, Typer, echo_json, ledger_path, now, out, recorder
from doko_ledger.cli.help_texts import described, helped
from doko_ledger.games import DOUDIZHU
from doko_ledger.i18n import msg, render

games.GAME_COMMANDS[DOUDIZHU] = "doko_ledger.cli.doudizhu"  # `doko replay/score/audit/export` on a Dou Dizhu game
nights.GAME_SESSIONS[DOUDIZHU] = "doko_ledger.cli.doudizhu"  # `doko session list`, `doko standings --session`

ddz_app = Typer(
    help=helped("Dou Dizhu sessions: start one, record a deal by its facts, close it."), no_args_is_help=True
)

NightOption = Annotated[
    str | None,
    typer.Option("--session", help=helped("The Dou Dizhu session (default: the open one)."), show_default=False),
]


@ddz_app.command("start")
@described("Start a Dou Dizhu session (only one may be open).")
def start(
    ctx: typer.Context,
    session_id: Annotated[str, typer.Argument(help=helped("The session's id, e.g. 2026-11-29-dorm."))],
    players: Annotated[
        str, typer.Option("--players", help=helped("3 or 4 players, counter-clockwise: Li,Wang,Zhang."))
    ],
    date: Annotated[str | None, typer.Option("--date", help=helped("When it is played (YYYY-MM-DD)."))] = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.ledger import Ledger

    names = quick_entry.names(players, "--players")
    with Ledger.open(ledger_path(ctx), create=True) as ledger:
        ledger.book_of(DOUDIZHU).start_session(session_id, names, played_on=date, by=recorder(by), at=now())
    out().print(
        render(msg("Dou Dizhu session {session} started: {players}", session=session_id, players=", ".join(names)))
    )


@ddz_app.command("record")
@described(
    "Record the session's next deal by its facts, as a score sheet holds them; shows the stake and the payments."
)
def record(
    ctx: typer.Context,
    landlord: Annotated[str, typer.Option("--landlord", help=helped("Who was the landlord."))],
    bid: Annotated[int, typer.Option("--bid", help=helped("The landlord's bid: 1, 2 or 3."))],
    out_first: Annotated[str, typer.Option("--out-first", help=helped("Who went out first."))],
    bombs: Annotated[int, typer.Option("--bombs", help=helped("Bombs played (all of them)."))] = 0,
    rockets: Annotated[int, typer.Option("--rockets", help=helped("Rockets played: 0 or 1."))] = 0,
    big_bombs: Annotated[
        int, typer.Option("--big-bombs", help=helped("Four players: how many of the bombs had six or more cards."))
    ] = 0,
    dealer: Annotated[
        str | None, typer.Option("--dealer", help=helped("Who dealt (default: the next after the last deal's dealer)."))
    ] = None,
    opener: Annotated[str | None, typer.Option("--opener", help=helped("Who bid first (default: the dealer)."))] = None,
    session: NightOption = None,
    by: ByOption = None,
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.cli import render_doudizhu
    from doko_ledger.doudizhu.files import DouDizhuSummary
    from doko_ledger.doudizhu.projection import deal_view
    from doko_ledger.ledger import Ledger

    facts = DouDizhuSummary(landlord, bid, out_first, bombs, rockets, big_bombs)
    with Ledger.open(ledger_path(ctx)) as ledger:
        session_id = ledger.book_of(DOUDIZHU).session_for(session)
        done = ledger.book_of(DOUDIZHU).record_summary(
            session_id, facts, dealer=dealer, opener=opener, by=recorder(by), at=now()
        )
        ledger.refresh()
    view = deal_view(done.state)
    if as_json:
        shown = ("game_id", "summary", "landlord", "bid", "doublings", "stake", "out_first", "winner", "payments")
        echo_json({"session": session_id, "version": done.version} | {k: view[k] for k in shown})
        return
    console = out()
    console.print(
        render(msg("deal {game} recorded in Dou Dizhu session {session}", game=done.game_id, session=session_id))
    )
    console.print(render_doudizhu.score(view))


@ddz_app.command("close")
@described("Close a Dou Dizhu session: it takes no more deals.")
def close(ctx: typer.Context, session: NightOption = None, by: ByOption = None) -> None:
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        session_id = ledger.book_of(DOUDIZHU).session_for(session)
        ledger.book_of(DOUDIZHU).close_session(session_id, by=recorder(by), at=now())
    out().print(render(msg("Dou Dizhu session {session} closed", session=session_id)))
