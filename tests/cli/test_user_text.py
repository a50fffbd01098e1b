"""What users wrote reaches the terminal as text: player names, notes and authors are never
read as Rich markup (a hidden hyperlink, a bold "Anna" that looks like Anna) nor as emoji
codes, and the control characters in them (a clipboard write, a screen clear, a bidi
override) are shown escaped, in every command that prints them; `standings --csv` does not
hand a spreadsheet a formula.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import ok
from typer.testing import Result

from doko_ledger.cli import render_frames
from doko_ledger.cli.common import err_console, out
from doko_ledger.cli.user_text import escaped, spreadsheet_cell, user_text
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

Cli = Callable[..., Result]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
LINK = "[link=https://evil.example]Ben[/link]"
BOLD = "[bold]Anna[/]"
EMOJI = ":smile:"
CLIPBOARD = "\x1b]52;c;aGVsbG8=\x07"
CLEAR = "\x1b[2J\x1b[H"
BIDI = "\u202e"
NOTE = f"look {CLIPBOARD} here {CLEAR} and {BIDI}reversed"
AUTHOR = f"Mal\x1b[31mlory {BOLD}"
WIDE = {"COLUMNS": "250"}
GAME = "hostile-names"


@pytest.fixture
def hostile(cli: Cli, tmp_path: Path) -> Cli:
    """A ledger with the sample game played by `Anna`, `[bold]Anna[/]`, a name that is a
    hyperlink in markup and `Dirk`, with notes on the game, a trick and a card by an author
    whose name holds an ANSI colour and markup."""
    text = (SAMPLES / "01-normal.yaml").read_text(encoding="utf-8")
    text = text.replace("2026-11-28-kitchen-01-normal", GAME).replace("Ben", f"'{LINK}'").replace("Clara", f"'{BOLD}'")
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    ok(cli("import", path))
    ok(cli("annotate", GAME, NOTE, "--by", AUTHOR))
    ok(cli("annotate", GAME, f"trick {CLEAR}", "--trick", "2", "--by", AUTHOR))
    ok(cli("annotate", GAME, f"card {CLIPBOARD}", "--trick", "3", "--card", "2", "--by", AUTHOR))
    return cli


def _printed(result: Result) -> str:
    output = ok(result).stdout
    assert "\x1b" not in output and "\x07" not in output and BIDI not in output, output
    return output


@pytest.mark.parametrize(
    "args",
    [
        ("notes", GAME),
        ("replay", GAME, "--all"),
        ("replay", GAME, "--as", "Anna"),
        ("replay", GAME, "--tournament"),
        ("log", GAME),
    ],
    ids=["notes", "replay-all", "replay-as", "replay-tournament", "log"],
)
def test_notes_and_authors_are_shown_escaped(hostile: Cli, args: tuple[str, ...]) -> None:
    output = _printed(hostile(*args, env=WIDE))
    if args[0] != "log":  # the log shows the payload as JSON, which has escapes of its own
        assert escaped(CLIPBOARD) in output
        assert "\\x1b[2J\\x1b[H" in output
        assert "Mal\\x1b[31mlory" in output
    if args[0] == "notes":
        assert "\\u202ereversed" in output
    assert "Mal" in output


@pytest.mark.parametrize(
    "args",
    [
        ("games",),
        ("replay", GAME, "--all"),
        ("replay", GAME, "--trick", "3"),
        ("replay", GAME, "--as", BOLD),
        ("replay", GAME, "--tournament"),
        ("score", GAME),
        ("notes", GAME),
        ("stats",),
    ],
    ids=["games", "replay-all", "replay-trick", "replay-as", "replay-tournament", "score", "notes", "stats"],
)
def test_player_names_are_printed_as_written(hostile: Cli, args: tuple[str, ...]) -> None:
    output = _printed(hostile(*args, env=WIDE))
    if args[0] != "notes":
        assert LINK in output
    assert BOLD in output


def test_the_stepper_frames_show_names_and_notes_as_text(hostile: Cli, ledger_path: Path) -> None:
    """The interactive replay draws `render_frames.frame` on the CLI's console: every frame."""
    with Ledger.open(ledger_path) as ledger:
        view = ledger.book_of(DOPPELKOPF).frames(GAME, "all")
    console = out()
    with console.capture() as capture:
        for index in range(len(view["frames"])):
            console.print(render_frames.frame(view, index, keys=True))
    shown = capture.get()
    assert "\x1b" not in shown and BIDI not in shown
    assert LINK in shown and BOLD in shown
    assert escaped(CLIPBOARD) in shown and "\\x1b[2J" in shown


def test_a_card_night_of_hostile_names(cli: Cli) -> None:
    players = f"Anna,{BOLD},{EMOJI},{LINK}"
    ok(cli("session", "start", "night", "--players", players, "--rate", "0.05"))
    ok(cli("record", "--re", f"Anna,{EMOJI}", "--re-points", "151", "--yes"))
    ok(cli("record", "--re", f"{BOLD},{EMOJI}", "--re-points", "80", "--yes"))
    for args in (("standings",), ("settle",), ("session", "list"), ("stats", "--session", "night")):
        output = _printed(cli(*args, env=WIDE))
        assert BOLD in output and EMOJI in output, args
        assert "😄" not in output


def test_errors_and_plain_strings_are_text_too(hostile: Cli) -> None:
    """The console renders every plain string without markup and with escapes: an error that
    quotes what the user typed, say."""
    console = err_console()
    with console.capture() as capture:
        console.print(f"error: no game {BOLD!s} {CLEAR}")
    assert capture.get() == "error: no game [bold]Anna[/] \\x1b[2J\\x1b[H\n"
    result = hostile("replay", f"{LINK}\x1b[2J")
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and LINK in result.stderr


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Anna", "Anna"),
        ("two\nlines\tand a tab", "two\nlines\tand a tab"),
        ("\x1b[31mred", "\\x1b[31mred"),
        ("bell\x07 cr\r del\x7f", "bell\\x07 cr\\r del\\x7f"),
        ("csi \x9b2J", "csi \\x9b2J"),
        ("bidi \u202eabc\u2066x\u2069 \u200f", "bidi \\u202eabc\\u2066x\\u2069 \\u200f"),
        ("line\u2028sep", "line\\u2028sep"),
        ("Zoë 👩‍👩‍👧 café", "Zoë 👩‍👩‍👧 café"),
        ("not UTF-8 \udcff", "not UTF-8 \\udcff"),
    ],
)
def test_escaped(text: str, shown: str) -> None:
    assert escaped(text) == shown
    assert user_text(text, style="bold").plain == shown


def test_json_is_the_same_data_and_safe_on_a_terminal(hostile: Cli) -> None:
    """JSON escapes C0 controls itself; C1 controls (\x9b is a CSI) and bidi controls are
    written as JSON escapes too, so the output has none of them and reads back the same."""
    ok(hostile("annotate", GAME, "c1 \x9b2J bidi \u202e end"))
    output = ok(hostile("notes", GAME, "--json")).stdout
    assert "\x9b" not in output and BIDI not in output and "\x1b" not in output
    assert "\\u009b2J bidi \\u202e end" in output
    assert [n["text"] for n in json.loads(output)][-1] == "c1 \x9b2J bidi \u202e end"
    assert NOTE in [n["text"] for n in json.loads(output)]


def test_a_recorder_that_is_not_text_is_refused(hostile: Cli) -> None:
    result = hostile("annotate", GAME, "fine", env={"DOKO_USER": "x\udcff"})
    assert result.exit_code == 2
    assert "is not UTF-8 text" in result.stderr and "\x1b" not in result.stderr


def _csv(result: Result) -> list[list[str]]:
    return list(csv.reader(io.StringIO(ok(result).stdout)))


def test_standings_csv_cells_are_not_formulas(cli: Cli) -> None:
    players = ['=HYPERLINK("http://x")', "+Ben", "-Clara", "@Dirk"]
    ok(cli("session", "start", "night", "--players", ",".join(players)))
    ok(cli("record", "--re", '=HYPERLINK("http://x"),+Ben', "--re-points", "80", "--yes"))
    header, row = _csv(cli("standings", "--csv"))
    fixed = ["deal", "game", "dealer", "match", "round", "multiplier"]
    assert header == [*fixed, *(f"'{p} points" for p in players), *(f"'{p} total" for p in players)]
    assert row[:6] == ["1", "night-01", '\'=HYPERLINK("http://x")', "1", "1", "1"]
    assert [int(cell) for cell in row[6:]] == [-3, -3, 3, 3] * 2  # numbers, negative ones too, stay numbers
    assert row[6] == "-3"


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+49 170", "'+49 170"),
        ("-Clara", "'-Clara"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rcr", "'\rcr"),
        ("Anna", "Anna"),
        ("", ""),
        (-6, -6),
        (3, 3),
    ],
)
def test_spreadsheet_cell(cell: object, written: object) -> None:
    assert spreadsheet_cell(cell) == written
