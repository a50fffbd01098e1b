"""`doko log`, `verify`, `head`, `copy`, `rebuild`: the log itself, its hash chain and its
read models."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from doko_ledger.cli.common import GameArg, JsonOption, echo_json, ledger_path, out
from doko_ledger.cli.help_texts import described, helped
from doko_ledger.i18n import msg, plural, render
from doko_ledger.ledger import Ledger
from doko_ledger.store.location import is_url, shown


@described("Print a game's raw events with their positions, versions and hashes.")
def log(ctx: typer.Context, game: GameArg, as_json: JsonOption = False) -> None:
    from doko_ledger.cli import render
    from doko_ledger.doppelkopf.views import event_view
    from doko_ledger.events.codec import dumps_canonical

    with Ledger.open(ledger_path(ctx)) as ledger:
        recorded = ledger.events(ledger.resolve(game))
    views = [event_view(r) for r in recorded]
    if as_json:
        echo_json(views)
    else:
        out().print(render.log_table(recorded, [dumps_canonical(v["payload"]) for v in views]))


@described(
    "Recompute the hash chain over every position; name the first event that does not match. Then check "
    "that the read models are exactly what folding the log gives (not with --quick). With --expect, also "
    "check that the log extends a head noted earlier."
)
def verify(
    ctx: typer.Context,
    expect: Annotated[
        str | None,
        typer.Option(
            "--expect",
            metavar="HEAD",
            help=helped("A head noted earlier (`doko head`): exit 4 unless the log still extends it."),
        ),
    ] = None,
    quick: Annotated[
        bool,
        typer.Option("--quick", help=helped("Check the hash chain only; do not compare the read models with the log.")),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.cli import render
    from doko_ledger.doppelkopf.views import verify_view

    with Ledger.open(ledger_path(ctx)) as ledger:
        report = ledger.verify(expect, quick=quick)
    if as_json:
        echo_json(verify_view(report))
    else:
        out().print(render.verify_report(report))
    if not report.ok:
        raise typer.Exit(4)


@described(
    "Print the ledger's head: the hash of the newest event, which covers every event before it. Note it "
    "outside the file (a group chat, the score sheet); `doko verify --expect HEAD` checks the log still "
    "extends it."
)
def head(ctx: typer.Context, as_json: JsonOption = False) -> None:
    from doko_ledger.cli import render_scores
    from doko_ledger.doppelkopf.views import head_view

    with Ledger.open(ledger_path(ctx)) as ledger:
        found = ledger.head()
    if as_json:
        echo_json(head_view(found))
    else:
        out().print(render_scores.head_line(found), markup=False, soft_wrap=True)


@described(
    "Copy the whole ledger, event by event, into a new one (SQLite to PostgreSQL or back): the copy has the "
    "same head, and its read models are built. Refused when the ledger does not verify or the target holds "
    "events already."
)
def copy(
    ctx: typer.Context,
    to: Annotated[
        str,
        typer.Option(
            "--to",
            metavar="PATH|URL",
            help=helped("The new ledger: an SQLite file, or a PostgreSQL database as postgresql://user@host/dbname."),
        ),
    ],
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.cli import render_scores
    from doko_ledger.doppelkopf.views import copy_view

    target = to if is_url(to) else Path(to)
    with Ledger.open(ledger_path(ctx)) as ledger:
        copied = ledger.copy_to(target)
    source, copy_ = shown(ledger_path(ctx)), shown(target)
    if as_json:
        echo_json(copy_view(copied, source, copy_))
    else:
        events = plural("{count} event", "{count} events", copied.head.events)
        streams = plural("{count} stream", "{count} streams", copied.streams)
        done = msg(
            "copied {events} in {streams} from {source} to {copy}",
            events=events,
            streams=streams,
            source=source,
            copy=copy_,
        )
        out().print(render(done))
        out().print(render_scores.head_line(copied.head), markup=False, soft_wrap=True)


@described("Drop every read model and fold the whole log again.")
def rebuild(ctx: typer.Context) -> None:
    with Ledger.open(ledger_path(ctx)) as ledger:
        count = ledger.rebuild()
    games = plural("{count} game", "{count} games", count)
    out().print(render(msg("rebuilt the read models from {games}", games=games)))


def register(app: typer.Typer) -> None:
    """Add the commands on the log to the `doko` app."""
    app.command()(log)
    app.command()(verify)
    app.command()(head)
    app.command()(copy)
    app.command()(rebuild)
