"""What `doko score GAME` does before it reads the game: the app builds only the command it
runs, and reading and scoring a game loads no command of the game (`decide`, the commands);
the standings load nothing that records; start-up runs without the garbage collector."""

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


def test_each_command_is_declared_by_the_module_main_loads_for_it() -> None:
    from doko_ledger.cli import app as cli_app
    from doko_ledger.cli.common import _name_of

    declared = {_name_of(c): c.callback.__module__ for c in cli_app.app.registered_commands if c.callback}
    for group in cli_app.app.registered_groups:
        assert group.typer_instance is not None
        modules = {c.callback.__module__ for c in group.typer_instance.registered_commands if c.callback}
        assert len(modules) == 1, group.name
        declared[group.name] = modules.pop()
    assert declared == {name: f"doko_ledger.cli.{module}" for name, module in cli_app.COMMAND_MODULES.items()}


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


NIGHT = SAMPLE.parent / "sessions" / "01-kitchen-bock.yaml"
DOUDIZHU_SESSION = SAMPLE.parent / "doudizhu" / "sessions" / "2026-11-29-dorm.yaml"


@pytest.fixture
def both(tmp_path: Path) -> Path:
    """A ledger with a card night and a Dou Dizhu session."""
    path = tmp_path / "both.sqlite"
    result = CliRunner().invoke(app, ["--db", str(path), "import", str(NIGHT), str(DOUDIZHU_SESSION)], env=CLI_ENV)
    assert result.exit_code == 0, result.output
    return path


def _run_loading(db: Path, *args: str) -> tuple[str, list[str]]:
    """What `doko --db DB ARGS...` prints, run as `doko` runs, and the modules of the package
    it loaded (the last line)."""
    code = (
        "import sys\n"
        "from doko_ledger.cli.app import main\n"
        f"sys.argv = ['doko', '--db', {str(db)!r}, *{list(args)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('doko_ledger.'))))\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=CLI_ENV)
    *printed, modules = shown.stdout.splitlines()
    return "\n".join(printed), modules.split()


RECORDING = (
    "doko_ledger.doppelkopf.game.commands",
    "doko_ledger.doppelkopf.game.decide",
    "doko_ledger.doppelkopf.game.record",
    "doko_ledger.doppelkopf.files.quick_entry",
)
"""What only recording a game or a deal needs: its commands, `decide`, the record of a deal and
the entries typed at the table."""

OTHER_COMMANDS = tuple(f"doko_ledger.cli.{module}" for module in ("analysis", "log", "serve", "stats", "table"))
"""The command modules of neither `doko score` (`games`) nor `doko standings` (`nights`), nor
`ddz`, which tells the commands of both about Dou Dizhu: not loaded to run either."""

NIGHT_CHANGES = ("doko_ledger.doppelkopf.nights.decide", "doko_ledger.doppelkopf.nights.changes")
"""What only a command that changes a card night needs: its commands and `decide`, and the
changes between deals."""

ELSEWHERE = ("doko_ledger.web", "doko_ledger.formats", "doko_ledger.doppelkopf.files.")
"""What no command that only shows a game or a night needs: the web app and the file formats."""


def test_the_standings_of_a_card_night_load_no_other_game(both: Path) -> None:
    printed, modules = _run_loading(both, "standings", "--session", "2026-11-28-kit")
    assert "Dirk" in printed and "ledger head" in printed
    assert "doko_ledger.doppelkopf.nights.standings" in modules
    assert not [m for m in modules if m.startswith("doko_ledger.doudizhu")]
    assert "doko_ledger.doppelkopf.audit" not in modules  # what only a game's own page needs
    assert not [m for m in modules if m in RECORDING or m.startswith(ELSEWHERE)]
    assert not [m for m in modules if m in OTHER_COMMANDS]
    assert not [m for m in modules if m in NIGHT_CHANGES]


def test_the_score_of_a_game_loads_no_card_night_and_nothing_that_records(both: Path) -> None:
    printed, modules = _run_loading(both, "score", "2026-11-28-kitchen-01")
    assert "Re wins" in printed or "Kontra wins" in printed
    assert "doko_ledger.doppelkopf.score" in modules
    assert not [m for m in modules if m.startswith("doko_ledger.doudizhu.") or ".nights.book" in m]
    assert not [m for m in modules if m in RECORDING or m.startswith(ELSEWHERE)]
    assert not [m for m in modules if m in OTHER_COMMANDS]


def test_the_standings_of_a_dou_dizhu_session_are_that_game_s(both: Path) -> None:
    printed, modules = _run_loading(both, "standings", "--session", "2026-11-29-d")
    assert "Zhang" in printed and "ledger head" in printed
    assert "doko_ledger.doudizhu.book" in modules
    card_nights = ("book", "schedule", "standings")  # the card nights' book and what it shows
    assert not [m for m in modules if m.rpartition(".")[2] in card_nights and ".doppelkopf.nights." in m]
    assert not [m for m in modules if m in DOUDIZHU_RECORDING or m.startswith(ELSEWHERE)]


DOUDIZHU_RECORDING = (
    "doko_ledger.doudizhu.commands",
    "doko_ledger.doudizhu.decide",
    "doko_ledger.doudizhu.files",
    "doko_ledger.doudizhu.projection",
    "doko_ledger.sight",
)
"""What only recording, auditing or showing a Dou Dizhu game needs: its commands, `decide`, its
files, its audit and views, and who sees what."""


def test_a_command_runs_with_the_collector_on_and_start_up_frozen(both: Path) -> None:
    code = (
        "import gc, sys\n"
        "from doko_ledger.cli.app import main\n"
        "from doko_ledger.ledger import Ledger\n"
        "opened, seen = Ledger.open.__func__, []\n"
        "def open(cls, *args, **kwargs):\n"
        "    seen.append((gc.isenabled(), gc.get_freeze_count() > 0))\n"
        "    return opened(cls, *args, **kwargs)\n"
        "Ledger.open = classmethod(open)\n"
        f"sys.argv = ['doko', '--db', {str(both)!r}, 'standings', '--session', '2026-11-28-kit']\n"
        "main()\n"
        "print(seen)\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=CLI_ENV)
    assert shown.stdout.splitlines()[-1] == "[(True, True)]"  # as the command opens the ledger


def test_the_app_run_by_another_program_leaves_its_collector_alone(both: Path) -> None:
    import gc

    frozen = gc.get_freeze_count()
    result = CliRunner().invoke(app, ["--db", str(both), "standings", "--session", "2026-11-28-kit"], env=CLI_ENV)
    assert result.exit_code == 0, result.output
    assert gc.isenabled() and gc.get_freeze_count() == frozen
