"""Notes on a game (`AnnotationAdded`): `doko annotate`, `doko notes`, where a note sits in a
replay, undo passing over notes, export and import carrying them, and the checks
(`audit`, `verify`, `rebuild`) that must not mind them.

A refused note must leave the ledger's bytes as they were and say why in one line.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from cli_helpers import as_json, flat, ok, snapshot
from rich.console import Console
from typer.testing import Result

from doko_ledger.cli import render_frames
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game.record import from_events
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.errors import DokoError
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

if TYPE_CHECKING:
    from conftest import RandomGame

Cli = Callable[..., Result]
MakeGame = Callable[..., "RandomGame"]

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = SAMPLES_DIR / "01-normal.yaml"
NORMAL_ID = "2026-11-28-kitchen-01-normal"
SUMMARY = SAMPLES_DIR / "31-summary-specials.yaml"
MISDEAL = SAMPLES_DIR / "20-misdeal.yaml"
BISTRO = SAMPLES_DIR / "12-bistro-schweinchen.yaml"  # no nines: ten tricks
PARTIAL_ID = "partial-5"
PARTIAL_CARDS = 3 * 4 + 2
SEED = "2026-11-30"


# -- helpers ------------------------------------------------------------------------------


def refused(result: Result, *fragments: str, code: int = 1, also: tuple[str, ...] = ()) -> str:
    """A clean refusal: the exit code, no traceback, one `error:` line on stderr naming
    `fragments` (and the lines `also`, as `doko import` adds its count)."""
    assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 + len(also) and lines[1:] == list(also), result.stderr
    assert lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def line_with(text: str, needle: str) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(lines) == 1, f"{needle!r} is on lines {lines}"
    return lines[0]


def frame_of(trick: int, card: int) -> int:
    """The frame after the `card`-th card of trick `trick`: one frame per card before it."""
    return 4 * (trick - 1) + card


@pytest.fixture
def partial(tmp_path: Path, make_game: MakeGame) -> Path:
    """An unfinished normal game: three tricks and two cards of the fourth."""
    whole = make_game(5, game_id=PARTIAL_ID, game_type=GameType.NORMAL, tricks=4)
    cut = [i for i, e in enumerate(whole.events) if isinstance(e, CardPlayed)][PARTIAL_CARDS]
    path = tmp_path / "partial.yaml"
    path.write_text(game_file.dumps(from_events(whole.events[:cut])), encoding="utf-8")
    return path


@pytest.fixture
def games(cli: Cli, partial: Path) -> None:
    """The ledger holds a finished normal game (#1), an unfinished one (#2), a summary (#3),
    a misdeal (#4) and a ten-trick bistro game (#5)."""
    ok(cli("import", NORMAL, partial, SUMMARY, MISDEAL, BISTRO))


# -- refused notes ------------------------------------------------------------------------

REFUSED = [
    # (game, args, what the error says)
    ("#1", ["a note", "--trick", "13"], "no trick 13: the game has 12 tricks so far"),
    ("#1", ["a note", "--trick", "99", "--card", "1"], "no trick 99: the game has 12 tricks so far"),
    ("#2", ["a note", "--trick", "5"], "no trick 5: the game has 4 tricks so far"),
    ("#2", ["a note", "--trick", "4", "--card", "3"], "no card 3 in trick 4: it has 2 cards"),
    ("#2", ["a note", "--trick", "4", "--card", "4"], "no card 4 in trick 4: it has 2 cards"),
    ("#5", ["a note", "--trick", "11"], "no trick 11: the game has 10 tricks so far"),
    ("#1", ["a note", "--card", "2"], "a note on a card needs its trick too"),
    ("#1", ["", "--trick", "2"], "a note needs a text"),
    ("#1", ["   \t\n  "], "a note needs a text"),
    ("#1", ["x" * 2001], "a note may be at most 2000 characters, this one has 2001"),
    ("#1", ["ü" * 2001, "--trick", "1"], "a note may be at most 2000 characters, this one has 2001"),
    ("#3", ["a note", "--trick", "1"], "no trick 1: no card of this game is recorded"),
    ("#4", ["a note", "--trick", "1", "--card", "1"], "no trick 1: no card of this game is recorded"),
    ("#9", ["a note"], "there is no game #9"),
]


@pytest.mark.usefixtures("games")
@pytest.mark.parametrize(("game", "args", "says"), REFUSED)
def test_a_note_that_points_nowhere_is_refused(
    cli: Cli, ledger_path: Path, game: str, args: list[str], says: str
) -> None:
    before = snapshot(ledger_path)
    refused(cli("annotate", game, *args), says)
    assert snapshot(ledger_path) == before
    assert as_json(cli("notes", "#1", "--json")) == []


@pytest.mark.usefixtures("games")
def test_an_author_longer_than_an_event_allows_is_refused(cli: Cli, ledger_path: Path) -> None:
    before = snapshot(ledger_path)
    refused(cli("annotate", "#1", "a note", "--by", "x" * 101), "author", "too long")
    assert snapshot(ledger_path) == before
    ok(cli("annotate", "#1", "a note", "--by", "x" * 100))


@pytest.mark.usefixtures("games")
@pytest.mark.parametrize("card", ["5", "0", "-1"])
def test_a_card_outside_1_to_4_is_a_usage_error(cli: Cli, ledger_path: Path, card: str) -> None:
    before = snapshot(ledger_path)
    result = cli("annotate", "#1", "a note", "--trick", "2", "--card", card)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "--card" in result.stderr
    assert snapshot(ledger_path) == before


@pytest.mark.parametrize(
    ("trick", "card", "says"),
    [
        (1, 5, "no card 5 in trick 1: it has 4 cards"),
        (13, None, "no trick 13"),
        (0, None, "no trick 0"),
        (None, 1, "needs its trick too"),
    ],
)
def test_the_library_refuses_the_same(
    cli: Cli, ledger_path: Path, trick: int | None, card: int | None, says: str
) -> None:
    ok(cli("import", NORMAL))
    before = snapshot(ledger_path)
    with Ledger.open(ledger_path) as ledger, pytest.raises(DokoError, match=re.escape(says)):
        ledger.annotate(NORMAL_ID, trick, card, "a note", by="me", at="2026-11-30T20:00:00+00:00")
    assert snapshot(ledger_path) == before


@pytest.mark.usefixtures("games")
def test_the_longest_note_and_the_edges_of_the_game_are_accepted(cli: Cli) -> None:
    ok(cli("annotate", "#1", "x" * 2000))
    ok(cli("annotate", "#1", "  " + "y" * 2000 + "\n", "--trick", "12", "--card", "4"))
    ok(cli("annotate", "#2", "the card on the table", "--trick", "4", "--card", "2"))
    ok(cli("annotate", "#5", "the last trick", "--trick", "10"))
    ok(cli("annotate", "#3", "a summary"))
    ok(cli("annotate", "#4", "a misdeal"))
    notes = as_json(cli("notes", "#1", "--json"))
    assert [(n["trick"], n["card"], n["text"]) for n in notes] == [(None, None, "x" * 2000), (12, 4, "y" * 2000)]
    assert [n["text"] for n in as_json(cli("notes", "#2", "--json"))] == ["the card on the table"]
    assert [n["trick"] for n in as_json(cli("notes", "#5", "--json"))] == [10]


# -- where a note sits ----------------------------------------------------------------------

PLACED = [
    # (game, trick, card, the frame it sits on)
    ("#1", None, None, 0),
    ("#1", 1, 1, frame_of(1, 1)),
    ("#1", 2, 3, frame_of(2, 3)),
    ("#1", 3, None, frame_of(3, 4)),
    ("#1", 12, None, 48),
    ("#1", 12, 4, 48),
    ("#2", 4, None, PARTIAL_CARDS),  # an unfinished trick: as far as it was played
    ("#2", 4, 1, frame_of(4, 1)),
    ("#2", 3, None, frame_of(3, 4)),
    ("#2", None, None, 0),
    ("#3", None, None, 0),
    ("#4", None, None, 0),
]


@pytest.mark.usefixtures("games")
@pytest.mark.parametrize("perspective", ["all", "tournament", "second player"])
def test_each_note_sits_on_its_frame(cli: Cli, ledger_path: Path, perspective: str) -> None:
    for i, (game, trick, card, _) in enumerate(PLACED):
        where = [] if trick is None else ["--trick", str(trick)] + ([] if card is None else ["--card", str(card)])
        ok(cli("annotate", game, f"note {i}", *where, "--by", f"author {i}"))
    with Ledger.open(ledger_path) as ledger:
        for game in ("#1", "#2", "#3", "#4"):
            gid = ledger.resolve(game)
            seen_as = (
                ledger.book_of(DOPPELKOPF).state(gid).players[1] if perspective == "second player" else perspective
            )
            view = ledger.book_of(DOPPELKOPF).frames(gid, seen_as)
            found = {n["text"]: frame["step"] for frame in view["frames"] for n in frame["notes"]}
            expected = {f"note {i}": step for i, (g, _, _, step) in enumerate(PLACED) if g == game}
            assert found == expected, game
            for frame in view["frames"]:
                for note in frame["notes"]:
                    i = int(note["text"].split()[1])
                    assert (note["trick"], note["card"], note["author"]) == (PLACED[i][1], PLACED[i][2], f"author {i}")


@pytest.mark.usefixtures("games")
def test_the_stepper_draws_a_note_on_its_frame_only(cli: Cli, ledger_path: Path) -> None:
    ok(cli("annotate", "#1", "what a Fuchs", "--trick", "2", "--card", "3", "--by", "Clara"))
    with Ledger.open(ledger_path) as ledger:
        view = ledger.book_of(DOPPELKOPF).frames(NORMAL_ID, "Anna")

    def drawn(index: int) -> str:
        console = Console(width=120, record=True, color_system=None, file=io.StringIO())
        console.print(render_frames.frame(view, index))
        return console.export_text()

    assert "what a Fuchs" in drawn(frame_of(2, 3))
    assert "trick 2, card 3 · Clara" in drawn(frame_of(2, 3))
    for index in (0, frame_of(2, 2), frame_of(2, 4), 48):
        assert "what a Fuchs" not in drawn(index)


# -- doko notes -----------------------------------------------------------------------------


@pytest.mark.usefixtures("games")
def test_notes_lists_where_who_when_and_what(cli: Cli) -> None:
    assert "no notes on" in ok(cli("notes", "#1")).stdout
    assert as_json(cli("notes", "#1", "--json")) == []
    start = datetime.now().astimezone()
    ok(cli("annotate", "#1", "the whole game", "--by", "Anna"))
    ok(cli("annotate", "#1", "trick five", "--trick", "5"))
    ok(cli("annotate", "#1", 'Zoë\'s card: "DA" # yes', "--trick", "7", "--card", "4", "--by", "Zoë"))
    end = datetime.now().astimezone()
    notes = as_json(cli("notes", "#1", "--json"))
    assert [(n["trick"], n["card"], n["author"], n["text"]) for n in notes] == [
        (None, None, "Anna", "the whole game"),
        (5, None, "tester", "trick five"),  # $DOKO_USER
        (7, 4, "Zoë", 'Zoë\'s card: "DA" # yes'),
    ]
    times = [datetime.fromisoformat(n["at"]) for n in notes]
    assert all(t.tzinfo is not None for t in times)
    assert start <= times[0] <= times[1] <= times[2] <= end
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in ok(cli("notes", "#1")).stdout.splitlines()]
    rows = [r for r in rows if r and r[0]]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("the game", "Anna", render_frames.local_minute(notes[0]["at"])),
        ("trick 5", "tester", render_frames.local_minute(notes[1]["at"])),
        ("trick 7, card 4", "Zoë", render_frames.local_minute(notes[2]["at"])),
    ]
    # the other game has none
    assert as_json(cli("notes", "#2", "--json")) == []
    # and the log records each note as an AnnotationAdded event by its author
    log = as_json(cli("log", "#1", "--json"))
    added = [e for e in log if e["type"] == "AnnotationAdded"]
    assert [e["recorded_by"] for e in added] == ["Anna", "tester", "Zoë"]
    assert [e["payload"]["text"] for e in added] == [n["text"] for n in notes]


@pytest.fixture
def in_kolkata(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This computer's time zone is UTC+05:30 (no daylight saving time)."""
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("in_kolkata")
def test_notes_are_shown_in_local_time_to_the_minute_and_stored_in_utc(cli: Cli, ledger_path: Path) -> None:
    ok(cli("import", NORMAL))
    with Ledger.open(ledger_path) as ledger:
        ledger.annotate(NORMAL_ID, None, None, "late at night", by="Ben", at="2026-11-30T20:59:41.123456+00:00")
        ledger.annotate(NORMAL_ID, 2, None, "the Alte", by="Anna", at="2026-11-30T18:29:59+00:00")
    listed = ok(cli("notes", "#1")).stdout
    assert "2026-12-01 02:29" in listed and "2026-11-30 23:59" in listed
    assert "20:59" not in listed and "+00:00" not in listed and ":41" not in listed
    for perspective in ([], ["--all"], ["--as", "Anna"], ["--tournament"]):
        shown = flat(ok(cli("replay", "#1", *perspective)).stdout)
        assert "the game · Ben · 2026-12-01 02:29" in shown, perspective
        assert "trick 2 · Anna · 2026-11-30 23:59" in shown, perspective
        assert "+00:00" not in shown
    stored = as_json(cli("notes", "#1", "--json"))
    assert [n["at"] for n in stored] == ["2026-11-30T20:59:41.123456+00:00", "2026-11-30T18:29:59+00:00"]


# -- undo passes over notes -------------------------------------------------------------------


def _night(cli: Cli) -> None:
    """A card night with a seeded deal of a club solo by Dirk: three cards of trick 1 played."""
    ok(cli("session", "start", "p", "--players", "Anna,Ben,Clara,Dirk"))
    ok(cli("deal", "--seed", SEED))
    ok(cli("play", "Dirk=club_solo", "S10", "S9", "SA"))


def test_undo_in_a_card_night_takes_back_the_card_not_the_note_after_it(cli: Cli) -> None:
    _night(cli)
    ok(cli("annotate", "p-01", "Clara had to follow", "--trick", "1", "--card", "2"))
    took = ok(cli("undo", "-y")).stdout.strip()
    assert took == "took back Dirk's SA in trick 1 (deal 1, p-01)"
    log = as_json(cli("log", "p-01", "--json"))
    voided = next(e for e in log if e["version"] == log[-1]["payload"]["version"])
    assert voided["type"] == "CardPlayed" and voided["payload"]["card"] == "SA"
    assert log[-1]["type"] == "EventVoided"
    assert log[-2]["type"] == "AnnotationAdded"
    assert [n["text"] for n in as_json(cli("notes", "p-01", "--json"))] == ["Clara had to follow"]
    replay = as_json(cli("replay", "p-01", "--json"))
    assert [p["card"] for p in replay["tricks"][0]["plays"]] == ["S10", "S9"]
    # a second undo takes the next card back, the note still stands
    ok(cli("undo", "-y"))
    replay = as_json(cli("replay", "p-01", "--json"))
    assert [p["card"] for p in replay["tricks"][0]["plays"]] == ["S10"]
    assert [n["text"] for n in as_json(cli("notes", "p-01", "--json"))] == ["Clara had to follow"]


def test_undo_of_a_game_passes_over_its_notes(cli: Cli) -> None:
    ok(cli("import", NORMAL))
    ok(cli("annotate", "#1", "one", "--trick", "12"))
    ok(cli("annotate", "#1", "two"))
    took = ok(cli("undo", "-y", "--game", "#1")).stdout.strip()
    assert re.fullmatch(rf"took back \w+'s \w+ in trick 12 \(event 54 of {NORMAL_ID}\)", took), took
    log = as_json(cli("log", "#1", "--json"))
    assert log[53]["type"] == "CardPlayed" and log[53]["version"] == 54
    assert log[-1]["payload"] == {"version": 54}
    assert len(as_json(cli("notes", "#1", "--json"))) == 2


def test_play_goes_on_after_a_note(cli: Cli) -> None:
    """A note in the middle of a deal being played must not stop the recording of its next card."""
    _night(cli)
    ok(cli("annotate", "p-01", "Dirk took it", "--trick", "1", "--card", "3"))
    result = ok(cli("play", "SK"))
    assert "Anna" in result.stdout
    replay = as_json(cli("replay", "p-01", "--json"))
    assert [p["card"] for p in replay["tricks"][0]["plays"]] == ["S10", "S9", "SA", "SK"]
    assert [n["text"] for n in as_json(cli("notes", "p-01", "--json"))] == ["Dirk took it"]


def test_undo_right_after_a_deal_with_a_note_takes_the_deal_back(cli: Cli) -> None:
    """Without the note `doko undo` takes back the deal; the note must not change that."""
    ok(cli("session", "start", "p", "--players", "Anna,Ben,Clara,Dirk"))
    ok(cli("deal", "--seed", SEED))
    ok(cli("annotate", "p-01", "Anna dealt badly"))
    assert ok(cli("undo", "-y")).stdout.strip() == "took back deal 1 (p-01)"


# -- export and import --------------------------------------------------------------------

TEXTS = [
    "plain",
    "quotes \"double\" and 'single'",
    "a # that is no comment",
    "key: value, [list], {map}",
    "- a dash first",
    "two\nlines",
    "Zoë sagt: ♥10 ist Trumpf ✓",
    "123",
    "true",
    "null",
    "~",
    "@at *star &amp !bang %percent `tick`",
]


def test_export_and_import_under_a_new_id_keep_the_notes(cli: Cli, tmp_path: Path, ledger_path: Path) -> None:
    ok(cli("import", NORMAL))
    places = [[], ["--trick", "3"], ["--trick", "12", "--card", "4"], ["--trick", "1", "--card", "1"]]
    for i, text in enumerate(TEXTS):
        by = ["Anna", "Ben", "Zoë", "o'Neil"][i % 4]
        ok(cli("annotate", "#1", *places[i % len(places)], "--by", by, "--", text))
    original = as_json(cli("notes", "#1", "--json"))
    assert [n["text"] for n in original] == TEXTS
    exported = ok(cli("export", "#1")).stdout
    # the file reads back as the same record, byte for byte
    assert game_file.dumps(game_file.loads(exported)) == exported
    copy = tmp_path / "copy.yaml"
    copy.write_text(exported.replace(f"id: {NORMAL_ID}\n", "id: the-copy\n"), encoding="utf-8")
    ok(cli("import", copy))
    assert as_json(cli("notes", "the-copy", "--json")) == original
    again = ok(cli("export", "the-copy")).stdout
    assert again == copy.read_text(encoding="utf-8")
    # the copy's notes sit where the original's do
    with Ledger.open(ledger_path) as ledger:
        first, second = ledger.book_of(DOPPELKOPF).frames(NORMAL_ID), ledger.book_of(DOPPELKOPF).frames("the-copy")
    assert [f["notes"] for f in first["frames"]] == [f["notes"] for f in second["frames"]]


def test_a_note_on_a_card_taken_back_does_not_break_the_export(cli: Cli, tmp_path: Path) -> None:
    """Undo takes back the card a note was on: the game's file must still import."""
    ok(cli("import", NORMAL))
    ok(cli("annotate", "#1", "the last card", "--trick", "12", "--card", "4"))
    ok(cli("undo", "-y", "--game", "#1"))
    copy = tmp_path / "copy.yaml"
    copy.write_text(ok(cli("export", "#1")).stdout.replace(f"id: {NORMAL_ID}\n", "id: the-copy\n"), encoding="utf-8")
    ok(cli("import", copy))


BAD_NOTES = [
    # (the bad note, its field, what is wrong)
    (
        "{trick: 13, author: Anna, at: '2026-11-30', text: late}",
        "notes[1].trick",
        "13 is greater than the maximum of 12",
    ),
    ("{trick: 2, author: Anna, at: '2026-11-30', text: x, colour: red}", "notes[1].colour", "unknown field"),
    ("{trick: 2, author: Anna, at: '2026-11-30'}", "notes[1]", "'text' is a required property"),
    ("{trick: 2, text: x, at: '2026-11-30'}", "notes[1]", "'author' is a required property"),
    ("{trick: 2, card: 0, author: Anna, at: '2026-11-30', text: x}", "notes[1].card", "less than the minimum of 1"),
    ("{card: 2, author: Anna, at: '2026-11-30', text: x}", "notes[1]", "a note on a card needs its trick too"),
    ("{author: Anna, at: '2026-11-30', text: '   '}", "notes[1]", "a note needs a text"),
    ("{trick: 2, author: Anna, at: 2026, text: x}", "notes[1].at", "not of type 'string'"),
]


@pytest.mark.parametrize(("note", "field", "says"), BAD_NOTES)
def test_a_game_file_with_a_bad_note_is_refused_with_file_line_and_field(
    cli: Cli, tmp_path: Path, ledger_path: Path, note: str, field: str, says: str
) -> None:
    text = NORMAL.read_text(encoding="utf-8").replace(f"id: {NORMAL_ID}\n", "id: noted\n")
    text += f"notes:\n  - {{author: Anna, at: '2026-11-30', text: fine}}\n  - {note}\n"
    line = line_with(text, note)
    with pytest.raises(SourceError) as info:
        game_file.read(text, "noted.yaml")
    assert (info.value.line, info.value.field) == (line, field), str(info.value)
    assert says in info.value.message
    path = tmp_path / "noted.yaml"
    path.write_text(text, encoding="utf-8")
    ok(cli("import", SUMMARY))
    before = snapshot(ledger_path)
    message = refused(cli("import", path), code=2, also=("1 file not imported",))
    assert message.startswith(f"error: {path}:{line}: {field}: "), message
    assert says in message
    assert snapshot(ledger_path) == before


def test_a_note_beyond_a_ten_trick_game_is_refused_on_its_line(tmp_path: Path) -> None:
    text = BISTRO.read_text(encoding="utf-8") + "notes:\n  - {trick: 11, author: Anna, at: x, text: late}\n"
    with pytest.raises(SourceError) as info:
        game_file.read(text, "bistro.yaml")
    assert info.value.line == line_with(text, "trick: 11")
    assert info.value.field == "notes[0]"
    assert "no trick 11: the game has 10 tricks" in info.value.message


# -- the checks do not mind notes -------------------------------------------------------------


@pytest.mark.usefixtures("games")
def test_audit_verify_and_rebuild_with_notes(cli: Cli) -> None:
    ok(cli("annotate", "#1", "the game"))
    ok(cli("annotate", "#1", "trick 4", "--trick", "4"))
    ok(cli("annotate", "#1", "card 2 of trick 6", "--trick", "6", "--card", "2"))
    ok(cli("annotate", "#2", "unfinished"))
    audit = as_json(cli("audit", "#1", "--json"))
    assert audit["ok"] is True, audit
    assert all(check["ok"] for check in audit["checks"])
    ok(cli("audit", "#1"))
    verify = ok(cli("verify"))
    assert "every hash chain matches" in verify.stdout
    games = as_json(cli("games", "--json"))
    assert [g["events"] for g in games][:2] == [54 + 3, 6 + PARTIAL_CARDS + 1]
    ok(cli("rebuild"))
    assert as_json(cli("games", "--json")) == games
    score = as_json(cli("score", "#1", "--json"))
    assert sum(score["players"].values()) == 0


# -- the static replay shows the notes ----------------------------------------------------------


@pytest.mark.usefixtures("games")
@pytest.mark.parametrize("perspective", [[], ["--all"], ["--as", "Anna"], ["--tournament"], ["--as", "Ben", "--all"]])
def test_the_static_replay_prints_the_notes(cli: Cli, perspective: list[str]) -> None:
    ok(cli("annotate", "#1", "remember this game", "--by", "Anna"))
    ok(cli("annotate", "#1", "a bold lead", "--trick", "6", "--card", "1", "--by", "Dirk"))
    text = flat(ok(cli("replay", "#1", *perspective)).stdout)
    assert "remember this game" in text
    assert "a bold lead" in text
    assert "trick 6, card 1 · Dirk" in text
    assert "the game · Anna" in text
