"""What every `doko` command shares: the app, its error handling, options, consoles, clock."""

from __future__ import annotations

import getpass
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from doko_ledger.cli.user_text import escaped, is_text, json_escaped
from doko_ledger.errors import DokoError

try:  # typer 0.2x vendors click; older typers use click itself
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException  # type: ignore[assignment]


class _Group(TyperGroup):
    """Turns every `DokoError`, and every usage error, into one line on stderr and its exit
    code: the one place that does."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        given = kwargs.get("args", args[0] if args else None)
        undecodable = next((a for a in (sys.argv[1:] if given is None else given) if not is_text(a)), None)
        if undecodable is not None:
            err_console().print(f"error: {undecodable!r} is not UTF-8 text", soft_wrap=True)
            sys.exit(2)
        try:
            result = super().main(*args, **kwargs)
        except ClickException as exc:
            err_console().print(f"error: {exc.format_message()}", markup=False, highlight=False, soft_wrap=True)
            sys.exit(exc.exit_code)
        except (typer.Abort, EOFError, KeyboardInterrupt):
            err_console().print("error: aborted", markup=False)
            sys.exit(1)
        if isinstance(result, int):  # typer.Exit(n) comes back as n when not standalone
            sys.exit(result)
        return result

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except DokoError as exc:
            err_console().print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(exc.exit_code) from None


app = typer.Typer(
    cls=_Group,
    help="doko_ledger: record, replay and audit Doppelkopf games in an append-only ledger.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

ByOption = Annotated[str | None, typer.Option("--by", help="Who records (default $DOKO_USER or your login).")]
DbOption = Annotated[
    Path,
    typer.Option("--db", envvar="DOKO_DB", help="The ledger file (or $DOKO_DB).", show_default=True),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]
GameArg = Annotated[str, typer.Argument(help="A game id, a unique prefix of one, or #N from `doko games`.")]


class _TextConsole(Console):
    """A console that prints every plain string as text: no markup, no emoji codes, control
    characters escaped (`cli.user_text`), whoever wrote the string."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(escaped(text), **(options | {"markup": False, "emoji": False}))


def out() -> Console:
    return _TextConsole(highlight=False, markup=False, emoji=False)


def err_console() -> Console:
    return _TextConsole(stderr=True, highlight=False, markup=False, emoji=False)


def interactive() -> bool:
    """A person at the keyboard (input is a terminal): prompts and stepping make sense."""
    return sys.stdin.isatty()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def recorder(by: str | None) -> str:
    who = by or os.environ.get("DOKO_USER") or getpass.getuser()
    if not is_text(who):
        raise typer.BadParameter(f"{who!r} is not UTF-8 text", param_hint="--by or $DOKO_USER")
    return who


def ledger_path(ctx: typer.Context) -> Path:
    path: Path = ctx.obj["db"]
    return path


def echo_json(data: Any) -> None:
    typer.echo(json_escaped(json.dumps(data, indent=2, ensure_ascii=False)))
