"""What `doko score GAME` does before it reads the game: the app builds only the command it
runs, and reading and scoring a game loads no command of the game (`decide`, the commands)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CLI_ENV
from typer.testing import CliRunner

from doko_ledger.cli.app import app

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "01-normal.yaml"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "cold.sqlite"
    result = CliRunner().invoke(app, ["--db", str(path), "import", str(SAMPLE)], env=CLI_ENV)
    assert result.exit_code == 0, result.output
    return path


def _names(typer_app: object) -> list[str]:
    import typer.main

    return sorted(typer.main.get_command(typer_app).commands)  # type: ignore[arg-type, attr-defined]


def test_only_the_command_named_is_built(db: Path) -> None:
    assert _names(app.only(["--db", str(db), "score", "x"])) == ["score"]
    assert _names(app.only([f"--db={db}", "games"])) == ["games"]
    assert _names(app.only(["session", "list"])) == ["session"]
    everything = _names(app)
    assert len(everything) > 20
    for args in (["--help"], [], ["--version"], ["scroe", "x"], ["--verbose", "score"], ["--db"]):
        assert _names(app.only(args)) == everything, args


def test_completion_builds_every_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_DOKO_COMPLETE", "complete_bash")
    assert len(_names(app.only(["score"]))) > 20


@pytest.mark.parametrize(
    "args",
    [
        ["score", "last"],
        ["score", "last", "--json"],
        ["score", "--help"],
        ["score"],
        ["score", "no-such-game"],
        ["score", "last", "--no-such-option"],
        ["games", "--all"],
        ["session", "--help"],
        ["scroe", "last"],
        ["--help"],
    ],
)
def test_a_command_runs_alike_in_the_app_built_for_it(db: Path, args: list[str]) -> None:
    argv = ["--db", str(db), *args]
    whole = CliRunner().invoke(app, argv, env=CLI_ENV, prog_name="doko")
    built = CliRunner().invoke(app.only(argv), argv, env=CLI_ENV, prog_name="doko")
    assert (built.exit_code, built.stdout, built.stderr) == (whole.exit_code, whole.stdout, whole.stderr)


def test_reading_and_scoring_a_game_loads_no_command(db: Path) -> None:
    code = (
        "import sys\n"
        "from doko_ledger.games import DOPPELKOPF\n"
        "from doko_ledger.ledger import Ledger\n"
        f"with Ledger.open({str(db)!r}) as ledger:\n"
        "    ledger.book_of(DOPPELKOPF).score(ledger.resolve('last'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('doko_ledger.doppelkopf.game.')))\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "doko_ledger.doppelkopf.game.evolve" in shown
    assert "doko_ledger.doppelkopf.game.commands" not in shown and "doko_ledger.doppelkopf.game.decide" not in shown


def test_the_package_gives_decide_and_the_commands_after_their_modules_are_imported() -> None:
    code = (
        "import doko_ledger.doppelkopf.game.decide, doko_ledger.doppelkopf.game.commands\n"
        "import doko_ledger.doppelkopf.game as game\n"
        "from doko_ledger.doppelkopf.game import PlayCard, decide\n"
        "print(game.decide is decide, decide.__module__, PlayCard.__module__)\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["True", "doko_ledger.doppelkopf.game.decide", "doko_ledger.doppelkopf.game.commands"]
