"""Every command's `--help` reads like a tool's help: metavars (`GAME`, `FILE...`), no Python
type names, help for every argument and option, paragraphs the terminal wraps; and `doko
--version`, shell completion and `doko rules list`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import pytest
import typer
from cli_helpers import as_json, ok
from conftest import CLI_ENV
from typer import completion as typer_completion
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app
from doko_ledger.doppelkopf.rules.ruleset import PRESETS, preset_descriptions
from doko_ledger.i18n import render

TYPE_NAME = re.compile(r"<(?:bool|str|int|float|path|text|list\[[^\]]*\]|[a-z]+ range)>", re.I)


def _commands() -> Iterator[tuple[tuple[str, ...], Any]]:
    root = typer.main.get_command(app)

    def walk(path: tuple[str, ...], command: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
        yield path, command
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk((*path, name), sub)

    yield from walk((), root)


COMMANDS = list(_commands())
IDS = [" ".join(path) or "doko" for path, _ in COMMANDS]


def _help(*args: str, columns: int = 80) -> Result:
    env = {**CLI_ENV, "COLUMNS": str(columns)}
    return ok(CliRunner().invoke(app, [*args, "--help"], env=env, prog_name="doko"))


def _paragraphs(doc: str | None) -> list[str]:
    import inspect

    return [" ".join(p.split()) for p in inspect.cleandoc(doc or "").split("\n\n") if p.strip()]


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_help_shows_metavars_and_no_python_types(path: tuple[str, ...], command: Any) -> None:
    out = _help(*path).stdout
    assert not TYPE_NAME.search(out), TYPE_NAME.search(out)
    (usage,) = [line.strip() for line in out.splitlines() if line.strip().startswith("Usage:")]
    assert usage.startswith(" ".join(("Usage: doko", *path)))
    assert "{" not in usage
    ctx = typer.Context(command, info_name="doko")
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            shown = param.metavar
            assert shown and shown == shown.upper(), f"argument {param.name} shown as {shown!r}"
            assert shown in usage, (shown, usage)
            assert shown in out
        elif not param.is_flag:
            assert param.metavar, param.opts
            assert param.metavar == param.metavar.upper() or "|" in param.metavar, param.opts


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_argument_and_option_has_help(path: tuple[str, ...], command: Any) -> None:
    ctx = typer.Context(command, info_name="doko")
    for param in command.get_params(ctx):
        assert (param.help or "").strip(), f"{' '.join(path) or 'doko'}: {param.name} has no help"


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_paragraphs_are_wrapped_by_the_terminal_not_by_the_docstring(path: tuple[str, ...], command: Any) -> None:
    """On a wide terminal every paragraph of a command's help is one line, on its own page and
    in its group's list of commands (where only the first paragraph is shown)."""
    lines = [" ".join(line.strip(" │").split()) for line in _help(*path, columns=400).stdout.splitlines()]
    paragraphs = _paragraphs(getattr(command.callback, "__doc__", None) if path else command.help)
    for paragraph in paragraphs:
        assert any(paragraph in line for line in lines), paragraph
    ctx = typer.Context(command, info_name="doko")
    for param in command.get_params(ctx):  # each help in one piece, nothing taken for markup
        said = " ".join((param.help or "").split())
        assert any(said in line for line in lines), said
    if path:
        parent = [" ".join(line.strip(" │").split()) for line in _help(*path[:-1], columns=400).stdout.splitlines()]
        first = _paragraphs(command.callback.__doc__ if command.callback else command.help)[0]
        assert any(line.endswith(first) and line.startswith(path[-1]) for line in parent), first


def test_version() -> None:
    result = ok(CliRunner().invoke(app, ["--version"], env=CLI_ENV, prog_name="doko"))
    assert result.stdout == f"doko {version('doko-ledger')}\n"


def test_shell_completion_is_offered_and_completes_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _help().stdout
    assert "--install-completion" in out and "--show-completion" in out
    # Typer finds the shell among the test's parent processes, which may hold none (a run in
    # the background): the script is asked for as bash's whatever started the tests
    monkeypatch.setattr(typer_completion, "_get_shell_name", lambda: "bash")
    script = ok(CliRunner().invoke(app, ["--show-completion"], env=CLI_ENV, prog_name="doko")).stdout
    assert "_DOKO_COMPLETE" in script and "complete " in script
    env = {**CLI_ENV, "_DOKO_COMPLETE": "complete_bash", "COMP_WORDS": "doko rul", "COMP_CWORD": "1"}
    completed = CliRunner().invoke(app, [], env=env, prog_name="doko")
    assert completed.stdout.split() == ["rules"]
    env |= {"COMP_WORDS": "doko rules ", "COMP_CWORD": "2"}
    assert CliRunner().invoke(app, [], env=env, prog_name="doko").stdout.split() == ["list", "show", "save"]


def test_rules_list_names_every_preset_in_one_line() -> None:
    result = ok(CliRunner().invoke(app, ["rules", "list"], env={**CLI_ENV, "COLUMNS": "300"}))
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == list(PRESETS)
    for row, name in zip(rows, PRESETS, strict=True):
        assert render(preset_descriptions()[name], "en") in row
    shown = as_json(CliRunner().invoke(app, ["rules", "list", "--json"], env=CLI_ENV))
    assert [p["name"] for p in shown] == list(PRESETS)
    assert all(p["description"] and "\n" not in p["description"] for p in shown)
    bistro = next(p for p in shown if p["name"] == "bistro")
    assert bistro["changes"]["with_nines"] is False
    assert next(p for p in shown if p["name"] == "duel")["changes"] == {"computer_seats": [1, 3]}
