"""`--help` in the command's language: the help of every command, option and argument is
written once in English in the code and shown translated in German and French (by `--lang`
or the locale), with Typer's own words; English stays as it was."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from cli_helpers import ok
from conftest import CLI_ENV
from typer.testing import CliRunner

from doko_ledger.cli.app import app
from doko_ledger.i18n import Message, render


def _help(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(
        app, [*args, "--help"], env=CLI_ENV | {"COLUMNS": "400"} | (env or {}), prog_name="doko"
    )
    return " ".join(ok(result).stdout.split())


def _commands() -> Iterator[tuple[tuple[str, ...], Any]]:
    def walk(path: tuple[str, ...], command: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
        yield path, command
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk((*path, name), sub)

    yield from walk((), typer.main.get_command(app))


COMMANDS = list(_commands())


def test_the_help_of_doko_in_french() -> None:
    shown = _help("--lang", "fr")
    assert "Usage : doko [OPTIONS] COMMAND [ARGS]..." in shown
    assert "doko_ledger : enregistrer, rejouer et vérifier des parties de Doppelkopf" in shown
    assert "╭─ Commandes ─" in shown
    assert "--help Afficher cette aide et quitter." in shown
    assert "[défaut : doko.sqlite]" in shown
    assert "settle Qui paie qui, en le moins de paiements possible" in shown


def test_the_help_of_doko_record_in_german() -> None:
    shown = _help("--lang", "de", "record")
    assert "Aufruf: doko record [OPTIONS]" in shown
    assert "Das nächste Spiel des Doppelkopfabends nach seinen Fakten erfassen" in shown
    assert "╭─ Optionen ─" in shown
    assert "--re-points N Augen von Re, 0-240." in shown
    assert "--yes -y Anfügen, ohne nachzufragen." in shown
    assert "Add the next deal" not in shown


def test_the_locale_chooses_the_language_of_the_help() -> None:
    shown = _help("settle", env={"LANG": "de_DE.UTF-8", "LC_MESSAGES": ""})
    assert "Wer wem zahlt, in möglichst wenigen Zahlungen" in shown
    english = _help("settle")
    assert "Usage: doko settle" in english
    assert "Who pays whom, in the fewest payments" in english


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) or "doko" for p, _ in COMMANDS])
def test_every_help_text_is_shown_translated(language: str, path: tuple[str, ...], command: Any) -> None:
    shown = _help("--lang", language, *path)
    english = [command.help] + [p.help for p in command.get_params(typer.Context(command, info_name="doko"))]
    for text in filter(None, english):
        translated = render(Message(inspect.cleandoc(text)), language)
        assert translated != text, f"{' '.join(path) or 'doko'}: no {language} help for {text!r}"
        first = " ".join(translated.split("\n\n")[0].split())
        assert first in shown, first
