"""The `doko` command: the Typer app, joined from one module per command group (each command
parses its arguments, calls the library and hands the result to a renderer)."""

from __future__ import annotations

import copy
import gc
import importlib
import os
import sys
from types import ModuleType
from typing import Annotated

import typer

from doko_ledger.cli.common import DbOption, Typer, _command_named, wait_for_writers
from doko_ledger.cli.help_texts import helped
from doko_ledger.i18n import LANGUAGES, from_environ, msg, render
from doko_ledger.i18n.languages import choose

whole = Typer(
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
        choose(from_environ(os.environ))  # the refusal in the locale's language
        raise typer.BadParameter(
            render(msg("{text} is not one of {languages}", text=repr(wanted), languages=", ".join(LANGUAGES)))
        )
    return choose(wanted)


@whole.callback()
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
    if not gc.isenabled():  # `main` held the collector through start-up: what it made stays, unscanned
        gc.freeze()
        gc.enable()
    ctx.obj = {"db": db}
    wait_for_writers()


COMMAND_MODULES = {
    **dict.fromkeys(("import", "export", "games", "replay", "annotate", "notes", "score", "audit"), "games"),
    "analyze": "analysis",
    **dict.fromkeys(("log", "verify", "head", "copy", "rebuild"), "log"),
    "rules": "rules",
    **dict.fromkeys(("session", "standings", "settle", "bock"), "nights"),
    **dict.fromkeys(("record", "undo", "penalty", "correct", "deal", "play"), "table"),
    "ddz": "ddz",
    "stats": "stats",
    "serve": "serve",
}
"""The module of `cli/` that declares each command and command group: a command runs with its
own module loaded (and `ddz`, which tells the games' commands and sessions of Dou Dizhu), not
every command's."""


def _add_commands(to: Typer, modules: frozenset[str] | None = None) -> Typer:
    """The commands of `modules` (every command when None) added to the app `to`, in the order
    `doko --help` lists them."""

    def load(name: str) -> ModuleType | None:
        wanted = modules is None or name in modules
        return importlib.import_module(f"doko_ledger.cli.{name}") if wanted else None

    if games := load("games"):
        games.register(to)  # import, export, games, replay, annotate, notes, score, audit
    if analysis := load("analysis"):
        analysis.register(to)  # analyze
    if log := load("log"):
        log.register(to)  # log, verify, head, copy, rebuild
    if rules := load("rules"):
        to.add_typer(rules.rules_app, name="rules")
    nights, table = load("nights"), load("table")
    if nights:
        to.add_typer(nights.session_app, name="session")
    if table:
        for command in (table.record, table.undo, table.penalty, table.correct):
            to.command()(command)
    if nights:
        to.command()(nights.standings)
        to.command("settle")(nights.settle_up)
        to.command()(nights.bock)
    if table:
        to.command()(table.deal)
        to.command()(table.play)
    if ddz := load("ddz"):
        to.add_typer(ddz.ddz_app, name="ddz")
    if stats := load("stats"):
        stats.register(to)
    if serve := load("serve"):
        serve.register(to)
    return to


def __getattr__(name: str) -> Typer:
    """`app`: the whole `doko` app, every command added (made when first asked for)."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    made = globals()["app"] = _add_commands(whole)
    return made


def main() -> None:
    """`doko`: the app with the command that the arguments name (and its module's others), else
    every command (help, a misspelt command, shell completion)."""
    gc.disable()  # until the command runs (`main_options`): start-up makes many objects and frees few
    args = sys.argv[1:]
    module = COMMAND_MODULES.get(_command_named(args) or "")
    if module is None or "_DOKO_COMPLETE" in os.environ or "app" in globals():
        built = __getattr__("app")
    else:
        built = copy.copy(whole)
        built.registered_commands, built.registered_groups = [], []
        _add_commands(built, frozenset((module, "ddz")))
    built.only(args)(prog_name="doko")
