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
from typer.core import TyperGroup

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
GameArg = Annotated[
    str, typer.Argument(help="A game id, a unique prefix of one, its number N (or #N) in `doko games`, or last.")
]


def out() -> Console:
    return Console(highlight=False)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


def interactive() -> bool:
    """A person at the keyboard (input is a terminal): prompts and stepping make sense."""
    return sys.stdin.isatty()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def recorder(by: str | None) -> str:
    return by or os.environ.get("DOKO_USER") or getpass.getuser()


def ledger_path(ctx: typer.Context) -> Path:
    path: Path = ctx.obj["db"]
    return path


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
