"""The command answers in the language of its locale, or of `--lang`."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from doko_ledger.cli.app import app
from doko_ledger.i18n import current

ROOT = Path(__file__).resolve().parents[2]
ENV = {"COLUMNS": "200", "NO_COLOR": "1", "DOKO_USER": "tester", "TERM": "dumb", "LC_MESSAGES": ""}


def _bad_game(tmp_path: Path) -> Path:
    path = tmp_path / "bad.yaml"
    text = (ROOT / "sample_games" / "01-normal.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("CQ", "Xylophon", 1), encoding="utf-8")
    return path


def _import(tmp_path: Path, *options: str, env: dict[str, str]) -> str:
    result = CliRunner().invoke(
        app, [*options, "--db", str(tmp_path / "l.sqlite"), "import", str(_bad_game(tmp_path))], env=ENV | env
    )
    assert result.exit_code == 2, result.output
    return result.stderr.splitlines()[0]


def test_a_refusal_is_worded_in_the_locales_language(tmp_path: Path) -> None:
    assert "unbekannte Karte 'Xylophon'" in _import(tmp_path, env={"LANG": "de_DE.UTF-8"})
    assert "carte inconnue 'Xylophon'" in _import(tmp_path, env={"LANG": "fr_BE.UTF-8"})
    assert "unknown card 'Xylophon'" in _import(tmp_path, env={"LANG": "C.UTF-8"})


def test_lang_overrides_the_locale(tmp_path: Path) -> None:
    assert "carte inconnue 'Xylophon'" in _import(tmp_path, "--lang", "fr", env={"LANG": "de_DE.UTF-8"})
    assert "unknown card 'Xylophon'" in _import(tmp_path, "--lang", "en", env={"LC_ALL": "de_DE.UTF-8"})


def test_an_unknown_language_is_refused_in_one_line() -> None:
    result = CliRunner().invoke(app, ["--lang", "it", "games"], env=ENV)
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: Invalid value for '--lang': 'it' is not one of en, de, fr"


def test_the_language_of_a_command_ends_with_it(tmp_path: Path) -> None:
    assert "unbekannte Karte" in _import(tmp_path, "--lang", "de", env={})
    assert current() == "en"
    assert "unknown card" in _import(tmp_path, env={"LANG": "en_GB.UTF-8"})
