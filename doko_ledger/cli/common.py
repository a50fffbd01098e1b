"""What every `doko` command shares: its error handling, options, consoles, clock."""

from __future__ import annotations

import contextlib
import contextvars
import copy
import inspect
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from doko_ledger.cli.help_texts import helped
from doko_ledger.cli.user_text import escaped, is_text, json_escaped
from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message, current, msg, render
from doko_ledger.store.location import is_url

try:  # typer 0.2x vendors click; older typers use click itself
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException  # type: ignore[assignment]


OPTION_METAVARS = {
    "--db": "PATH|URL",
    "--by": "NAME",
    "--as": "PLAYER",
    "--output": "FILE",
    "--rules": "NAME|FILE",
    "--claimed": "PLAYER=POINTS,...",
    "--session": "ID",
    "--players": "A,B,C,D",
    "--dealer": "PLAYER",
    "--player": "PLAYER",
    "--rate": "MONEY",
    "--re": "PLAYERS",
    "--tricks": "RE:KONTRA",
    "--call": "PLAYER=CALL",
    "--special": "PARTY:KIND[:FROM]",
    "--reason": "TEXT",
    "--seed": "TEXT",
    "--date": "DATE",
}
"""How an option's value is shown in help where its declaration names no metavar; a number
is `N`, a choice its values, anything else the option's name in capitals."""
ARGUMENT_METAVARS = {"files": "FILE...", "tokens": "TOKEN...", "game_id": "GAME", "spec": "NAME|FILE"}
"""How an argument is shown in help where its declaration names no metavar (else its name
in capitals)."""


def _metavar(param: TyperOption | TyperArgument) -> str:
    if isinstance(param, TyperArgument):
        return ARGUMENT_METAVARS.get(param.name or "", (param.name or "").upper().replace("_ID", ""))
    # Typer 0.2x describes a parameter's type by `type_descriptor`, older ones by a click `type`.
    described = getattr(param, "type_descriptor", None) or getattr(param, "type", None)
    choices = getattr(described, "choices", None)
    if choices:
        return "|".join(str(getattr(c, "value", c)) for c in choices)
    long = next((o for o in param.opts if o.startswith("--")), param.opts[0])
    if long in OPTION_METAVARS:
        return OPTION_METAVARS[long]
    annotation = getattr(described, "annotation", None)
    if annotation in (int, int | None) or getattr(described, "name", "") in ("integer", "integer range"):
        return "N"
    return long.lstrip("-").replace("-", "_").upper()


class _Argument(TyperArgument):
    """An argument shown by its metavar alone: `GAME`, `FILE...`, `[SESSION]`; no Python type."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = self.metavar or (self.name or "").upper()
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return [name if self.required else f"[{name}]"]


class _Option(TyperOption):
    """An option shown with its metavar (`--db PATH`, `--trick N`); a flag shows none."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.is_flag else self.metavar


def _tidy(param: Any) -> None:
    """Typer builds a command's parameters itself, with no say in their classes: each is given
    the subclass above that draws it as a tool's help does, and a metavar where it has none."""
    if type(param) is TyperArgument:
        param.__class__ = _Argument
    elif type(param) is TyperOption:
        param.__class__ = _Option
    else:
        return
    if param.metavar is None and not (isinstance(param, TyperOption) and param.is_flag):
        param.metavar = _metavar(param)


def _paragraphs(text: str | None) -> str | None:
    """Help text with each paragraph on one line, so the terminal wraps it (a `\\b`
    paragraph keeps its lines)."""
    if text is None:
        return None
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n"))


class _Help:
    """What every `doko` command's help shares: metavars like `GAME` and `FILE...` instead of
    Python types, flags without one, paragraphs the terminal wraps, and every text in the
    language of the command (`cli.help_texts`)."""

    help: str | None

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            _tidy(param)
        return params

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=render(msg("Usage:")) + " ")

    def format_help(self, ctx: Any, formatter: Any) -> None:
        if current() == "en":
            super().format_help(ctx, formatter)  # type: ignore[misc]
            return
        with _in_language(self, ctx):
            super().format_help(ctx, formatter)  # type: ignore[misc]


def _translated(text: str | None) -> str | None:
    """A help text of the code in the command's language (as it is without a translation)."""
    return None if not text else _paragraphs(render(Message(inspect.cleandoc(text))))


@contextlib.contextmanager
def _in_language(command: Any, ctx: Any) -> Iterator[None]:
    """The command's help, its parameters' and its commands' (a group's), and the headings of
    Typer's help panels, in the command's language while its help is drawn."""
    from typer import rich_utils

    command.help = _translated(command.help)
    for param in command.get_params(ctx):
        own = _TYPERS_OPTIONS.get(param.name)
        param.help = render(own) if own is not None else _translated(param.help)
    for sub in getattr(command, "commands", {}).values():
        sub.help, sub.short_help = _translated(sub.help), _translated(sub.short_help)
    headings = {name: getattr(rich_utils, name) for name in _PANELS}
    for name, heading in _PANELS.items():
        setattr(rich_utils, name, render(heading))
    try:
        yield
    finally:
        for name, heading in headings.items():
            setattr(rich_utils, name, heading)


_TYPERS_OPTIONS = {
    "help": msg("Show this message and exit."),
    "install_completion": msg("Install completion for the current shell."),
    "show_completion": msg("Show completion for the current shell, to copy it or customize the installation."),
}
"""The options Typer gives every command (or the app), by name, and their help as messages."""
_PANELS = {
    "ARGUMENTS_PANEL_TITLE": msg("Arguments"),
    "OPTIONS_PANEL_TITLE": msg("Options"),
    "COMMANDS_PANEL_TITLE": msg("Commands"),
    "DEFAULT_STRING": msg("[default: {}]"),
    "ENVVAR_STRING": msg("[env var: {}]"),
    "REQUIRED_LONG_STRING": msg("[required]"),
}
"""Typer's words in its help panels, each as a message."""


class Command(_Help, TyperCommand):
    """A `doko` command (see `_Help`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = _paragraphs(self.help)


class _Group(_Help, TyperGroup):
    """Turns every `DokoError`, and every usage error, into one line on stderr and its exit
    code: the one place that does. Its help is drawn as `_Help` says."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = _paragraphs(self.help)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        _show_notes()
        given = kwargs.get("args", args[0] if args else None)
        undecodable = next((a for a in (sys.argv[1:] if given is None else given) if not is_text(a)), None)
        if undecodable is not None:
            problem = msg("{text} is not UTF-8 text", text=repr(undecodable))
            err_console().print(render(msg("error: {reason}", reason=problem)), soft_wrap=True)
            sys.exit(2)
        command = contextvars.copy_context()  # a context of its own: the language it chose is the command's alone
        try:
            result = command.run(super().main, *args, **kwargs)
        except ClickException as exc:  # said in the language the command chose
            reason = exc.format_message()
            if reason:  # (none when a group's help was shown for want of a command)
                shown = command.run(_refusal, reason)
                err_console().print(shown, markup=False, highlight=False, soft_wrap=True)
            sys.exit(exc.exit_code)
        except (typer.Abort, EOFError, KeyboardInterrupt):
            aborted = command.run(render, msg("error: {reason}", reason=msg("aborted")))
            err_console().print(aborted, markup=False)
            sys.exit(1)
        if isinstance(result, int):  # typer.Exit(n) comes back as n when not standalone
            sys.exit(result)
        return result

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except DokoError as exc:
            shown = render(msg("error: {reason}", reason=str(exc)))
            err_console().print(shown, markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(exc.exit_code) from None


def _refusal(reason: str) -> str:
    """A usage error's line in the command's language: Click's English, in another language
    said as `usage` says it."""
    if current() == "en":
        return render(msg("error: {reason}", reason=reason))
    from doko_ledger.cli.usage import said

    return render(msg("error: {reason}", reason=said(reason)))


class _Notes(logging.Handler):
    """The library's warnings (the `doko_ledger` logger) as `note: ...` lines on stderr: what a
    command that succeeded wants said (the read models left to catch up on the next read)."""

    def emit(self, record: logging.LogRecord) -> None:
        shown = render(msg("note: {note}", note=record.getMessage()))
        err_console().print(shown, markup=False, highlight=False, soft_wrap=True)


def _show_notes() -> None:
    logger = logging.getLogger("doko_ledger")
    if not any(isinstance(handler, _Notes) for handler in logger.handlers):
        logger.addHandler(_Notes(logging.WARNING))


BUSY_TIMEOUT = "DOKO_BUSY_TIMEOUT"
"""The environment variable that sets how long a write waits for another writer's lock (seconds)."""


def wait_for_writers() -> None:
    """Set how long a write waits for another writer's lock from `$DOKO_BUSY_TIMEOUT`, when it
    is set (the store's default otherwise)."""
    from doko_ledger.store.base import EventStore

    text = os.environ.get(BUSY_TIMEOUT)
    if text is None:
        return
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600:
        problem = render(msg("{text} is not a number of seconds from 0 to 3600", text=repr(text[:40])))
        raise typer.BadParameter(problem, param_hint=f"${BUSY_TIMEOUT}")
    EventStore.busy_timeout_ms = round(seconds * 1000)


class Typer(typer.Typer):
    """A Typer app whose commands and command groups have `doko`'s help (`Command`, `_Group`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", _Group)
        super().__init__(**kwargs)

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[Any], Any]:
        kwargs["cls"] = kwargs.get("cls") or Command
        return super().command(name, **kwargs)

    def only(self, args: list[str]) -> Typer:
        """This app with only the command (or command group) that `args` run, when they name one
        after the app's own options: Typer builds every command's options from its signature
        before it runs one (~30 ms for `doko`'s commands), and a command runs the same without
        the others. The whole app for anything else: no command, help, a misspelt command
        (whose error suggests the others), an option it does not know, shell completion."""
        name = None if "_DOKO_COMPLETE" in os.environ else _command_named(args)
        if name is None:
            return self
        commands = [c for c in self.registered_commands if _name_of(c) == name]
        groups = [g for g in self.registered_groups if g.name == name]
        if not commands and not groups:
            return self
        one = copy.copy(self)
        one.registered_commands, one.registered_groups = commands, groups
        return one


def _name_of(command: Any) -> str | None:
    """A registered command's name, as Typer gives it (`get_command_from_info`)."""
    from typer.main import get_command_name

    name: str | None = command.name
    if name is None and command.callback is not None:
        name = get_command_name(command.callback.__name__)
    return name


def _command_named(args: list[str]) -> str | None:
    """The first argument after the app's own options (`--db X`), or None when an argument
    before it is another option (`--help`, `--version`, one that is misspelt)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--db":
            i += 2
        elif arg.startswith("--db="):
            i += 1
        elif arg.startswith("-"):
            return None
        else:
            return arg
    return None


ByOption = Annotated[str | None, typer.Option("--by", help=helped("Who records (default $DOKO_USER or your login)."))]
DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="DOKO_DB",
        help=helped(
            "The ledger: an SQLite file, or a PostgreSQL database as postgresql://user@host/dbname (or $DOKO_DB)."
        ),
        show_default=True,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help=helped("Print JSON for scripts instead of tables."))]
GameArg = Annotated[
    str,
    typer.Argument(help=helped("A game id, a unique prefix of one, its number N (or #N) in `doko games`, or last.")),
]


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
    import getpass  # only a command that records asks who records

    who = by or os.environ.get("DOKO_USER") or getpass.getuser()
    if not is_text(who):
        raise typer.BadParameter(
            render(msg("{text} is not UTF-8 text", text=repr(who))), param_hint="--by or $DOKO_USER"
        )
    return who


def ledger_path(ctx: typer.Context) -> str | Path:
    """The ledger `--db` names: a `postgresql://` URL as it is, else the path of a file."""
    db: str = ctx.obj["db"]
    return db if is_url(db) else Path(db)


def echo_json(data: Any) -> None:
    typer.echo(json_escaped(json.dumps(data, indent=2, ensure_ascii=False)))
