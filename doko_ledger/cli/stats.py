"""`doko stats`: each player's games, wins, solos, announcements, foxes, card points and score,
over the whole ledger or one card night."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the commands import what they use: `doko` starts faster
    pass
from doko_ledger.cli.common import JsonOption, echo_json, ledger_path, out
from doko_ledger.cli.help_texts import described, helped

StatsNightOption = Annotated[
    str | None,
    typer.Option(
        "--session",
        help=helped("Only this card night's deals (its id or a unique prefix; default: every game)."),
        show_default=False,
    ),
]


@described(
    "Per player: games, wins and win rate, solos, announcements, foxes caught and lost, card points and "
    "score, with a chart; over every game or one card night (--session)."
)
def stats(ctx: typer.Context, session: StatsNightOption = None, as_json: JsonOption = False) -> None:
    from doko_ledger.cli import render_stats
    from doko_ledger.doppelkopf.stats import ledger_stats, stats_view
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        result = ledger_stats(ledger, session)
    if as_json:
        echo_json(stats_view(result))
    else:
        out().print(render_stats.stats(result))


def register(app: typer.Typer) -> None:
    """Add `doko stats` to the `doko` app."""
    app.command()(stats)
