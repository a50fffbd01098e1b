"""The `doko` command: the Typer app, joined from one module per command group (each command
parses its arguments, calls the library and hands the result to a renderer)."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from doko_ledger.cli import analysis, ddz, games, log, nights, rules, serve, stats, table
from doko_ledger.cli.common import DbOption, Typer, wait_for_writers
from doko_ledger.cli.help_texts import helped
from doko_ledger.i18n import LANGUAGES, from_environ, msg, render
from doko_ledger.i18n.languages import choose

app = Typer(
    help=helped("doko_ledger: record, replay and audit Doppelkopf (and Dou Dizhu) games in an append-only ledger."),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import version

        typer.echo(f"doko {version('doko-ledger')}")
        raise typer.Exit()


def _language(wanted: str | None) -> str:
    """The language of the command: `--lang`, else the locale's (LC_ALL, LC_MESSAGES, LANG)."""
    if wanted is None:
        return choose(from_environ(os.environ))
    if wanted not in LANGUAGES:
        raise typer.BadParameter(
            render(msg("{text} is not one of {languages}", text=repr(wanted), languages=", ".join(LANGUAGES)))
        )
    return choose(wanted)


@app.callback()
def main_options(
    ctx: typer.Context,
    db: DbOption = "doko.sqlite",
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="en|de|fr",
            is_eager=True,
            callback=_language,
            help=helped("The language to answer in (English, Deutsch, Français); by default the locale's (LANG)."),
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_print_version, help=helped("Print the version and exit.")),
    ] = False,
) -> None:
    """Options shared by every command."""
    ctx.obj = {"db": db}
    wait_for_writers()


games.register(app)  # import, export, games, replay, annotate, notes, score, audit
analysis.register(app)  # analyze
log.register(app)  # log, verify, head, copy, rebuild
app.add_typer(rules.rules_app, name="rules")
app.add_typer(nights.session_app, name="session")
app.command()(table.record)
app.command()(table.undo)
app.command()(table.penalty)
app.command()(table.correct)
app.command()(nights.standings)
app.command("settle")(nights.settle_up)
app.command()(nights.bock)
app.command()(table.deal)
app.command()(table.play)
app.add_typer(ddz.ddz_app, name="ddz")
stats.register(app)
serve.register(app)


def main() -> None:
    app.only(sys.argv[1:])(prog_name="doko")
