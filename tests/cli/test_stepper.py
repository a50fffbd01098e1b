"""The interactive replay: `Stepper` (which frame a key leads to), `keys_from` (terminal bytes
to key names), and `doko replay` stepping in a real pseudo-terminal.

Where a key should lead is derived from the frames' own trick and card numbers: the next
trick is the next frame that completes a trick (or the last frame), the previous trick the
last complete-trick frame before this one (or frame 0).
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from doko_ledger.cli.stepper import Stepper, keys_from
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game.record import from_events
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.errors import DokoError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

if TYPE_CHECKING:
    from conftest import RandomGame

MakeGame = Callable[..., "RandomGame"]

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = SAMPLES_DIR / "01-normal.yaml"
SUMMARY = SAMPLES_DIR / "31-summary-specials.yaml"
AT = "2026-11-30T20:00:00+00:00"
PARTIAL_CARDS = 3 * 4 + 2

NEXT_CARD = ["RIGHT", "l", "n", " "]
PREVIOUS_CARD = ["LEFT", "h", "p"]
NEXT_TRICK = ["DOWN", "j", "PAGEDOWN"]
PREVIOUS_TRICK = ["UP", "k", "PAGEUP"]
FIRST = ["HOME", "g"]
LAST = ["END", "G"]
QUIT = ["q", "Q", "ESC", "CTRL-C", "CTRL-D"]


# -- real frames: a finished game, an unfinished one, a summary ------------------------------


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory, make_game: MakeGame) -> dict[str, dict[str, Any]]:
    whole = make_game(3, game_id="partial", game_type=GameType.NORMAL, tricks=4)
    cut = [i for i, e in enumerate(whole.events) if isinstance(e, CardPlayed)][PARTIAL_CARDS]
    partial = game_file.read(game_file.dumps(from_events(whole.events[:cut])), "partial.yaml")
    games = [("full", game_file.read_file(NORMAL)), ("partial", partial), ("summary", game_file.read_file(SUMMARY))]
    with Ledger.open(tmp_path_factory.mktemp("stepper") / "ledger.sqlite", create=True) as ledger:
        ledger.import_games(games, recorded_by="test", recorded_at=AT)
        return {name: ledger.book_of(DOPPELKOPF).frames(loaded.record.id) for name, loaded in games}


def cards_of(view: dict[str, Any]) -> list[int]:
    return [f["card"] for f in view["frames"]]


def tricks_of(view: dict[str, Any]) -> list[int]:
    return [f["trick"] for f in view["frames"]]


def next_trick(view: dict[str, Any], index: int) -> int:
    cards = cards_of(view)
    return next((j for j in range(index + 1, len(cards)) if cards[j] == 4), len(cards) - 1)


def previous_trick(view: dict[str, Any], index: int) -> int:
    cards = cards_of(view)
    return next((j for j in range(index - 1, -1, -1) if cards[j] == 4), 0)


def at(view: dict[str, Any], index: int) -> Stepper:
    stepper = Stepper.of(view)
    stepper.index = index
    return stepper


def test_the_frames_the_stepper_walks(views: dict[str, dict[str, Any]]) -> None:
    assert len(views["full"]["frames"]) == 49
    assert len(views["partial"]["frames"]) == PARTIAL_CARDS + 1
    assert len(views["summary"]["frames"]) == 1
    stepper = Stepper.of(views["full"])
    assert (stepper.index, stepper.typed, stepper.last) == (0, "", 48)
    assert list(stepper.tricks) == tricks_of(views["full"])
    assert list(stepper.cards) == cards_of(views["full"])


# -- Stepper.press --------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["full", "partial", "summary"])
@pytest.mark.parametrize("key", NEXT_CARD)
def test_next_card_moves_one_frame_and_stops_at_the_end(views: dict[str, Any], game: str, key: str) -> None:
    view = views[game]
    last = len(view["frames"]) - 1
    for index in range(last + 1):
        stepper = at(view, index)
        assert stepper.press(key) is True
        assert stepper.index == min(index + 1, last)


@pytest.mark.parametrize("game", ["full", "partial", "summary"])
@pytest.mark.parametrize("key", PREVIOUS_CARD)
def test_previous_card_moves_one_frame_back_and_stops_at_0(views: dict[str, Any], game: str, key: str) -> None:
    view = views[game]
    for index in range(len(view["frames"])):
        stepper = at(view, index)
        assert stepper.press(key) is True
        assert stepper.index == max(index - 1, 0)


@pytest.mark.parametrize("game", ["full", "partial", "summary"])
@pytest.mark.parametrize("key", NEXT_TRICK)
def test_next_trick_lands_where_a_trick_is_complete(views: dict[str, Any], game: str, key: str) -> None:
    view = views[game]
    for index in range(len(view["frames"])):
        stepper = at(view, index)
        assert stepper.press(key) is True
        assert stepper.index == next_trick(view, index), index


@pytest.mark.parametrize("game", ["full", "partial", "summary"])
@pytest.mark.parametrize("key", PREVIOUS_TRICK)
def test_previous_trick_lands_on_the_complete_trick_before(views: dict[str, Any], game: str, key: str) -> None:
    view = views[game]
    for index in range(len(view["frames"])):
        stepper = at(view, index)
        assert stepper.press(key) is True
        assert stepper.index == previous_trick(view, index), index


def test_next_and_previous_trick_in_numbers(views: dict[str, Any]) -> None:
    """The same, spelled out for the finished game: tricks end on frames 4, 8, ... 48."""
    full = views["full"]
    assert [next_trick(full, i) for i in (0, 1, 3, 4, 5, 44, 45, 47, 48)] == [4, 4, 4, 8, 8, 48, 48, 48, 48]
    assert [previous_trick(full, i) for i in (0, 1, 4, 5, 8, 9, 48)] == [0, 0, 0, 4, 4, 8, 44]
    partial = views["partial"]
    assert [next_trick(partial, i) for i in (8, 12, 13, 14)] == [12, 14, 14, 14]
    stepper = Stepper.of(full)
    visited = []
    while True:
        stepper.press("DOWN")
        visited.append(stepper.index)
        if stepper.index == stepper.last:
            break
    assert visited == list(range(4, 49, 4))
    back = []
    while stepper.index:
        stepper.press("UP")
        back.append(stepper.index)
    assert back == list(range(44, -1, -4))


@pytest.mark.parametrize("game", ["full", "partial"])
def test_home_and_end(views: dict[str, Any], game: str) -> None:
    view = views[game]
    last = len(view["frames"]) - 1
    for index in range(last + 1):
        for key in FIRST:
            stepper = at(view, index)
            assert stepper.press(key) is True and stepper.index == 0
        for key in LAST:
            stepper = at(view, index)
            assert stepper.press(key) is True and stepper.index == last


def _type(stepper: Stepper, keys: str) -> list[bool]:
    return [stepper.press("ENTER" if k == "\n" else k) for k in keys]


@pytest.mark.parametrize("trick", range(1, 13))
def test_a_trick_number_and_enter_jumps_to_the_end_of_that_trick(views: dict[str, Any], trick: int) -> None:
    full = views["full"]
    end = max(i for i, f in enumerate(full["frames"]) if f["trick"] == trick)
    assert full["frames"][end]["card"] == 4
    for start in (0, 17, 48):
        stepper = at(full, start)
        assert _type(stepper, f"{trick}\n") == [True] * (len(str(trick)) + 1)
        assert stepper.index == end
        assert stepper.typed == ""


def test_digits_move_nothing_until_enter(views: dict[str, Any]) -> None:
    stepper = at(views["full"], 9)
    _type(stepper, "11")
    assert (stepper.index, stepper.typed) == (9, "11")
    stepper.press("ENTER")
    assert (stepper.index, stepper.typed) == (44, "")


def test_an_unplayed_trick_number_does_nothing(views: dict[str, Any]) -> None:
    for number in ("13", "99"):
        stepper = at(views["full"], 21)
        _type(stepper, number + "\n")
        assert (stepper.index, stepper.typed) == (21, "")
    partial = views["partial"]
    stepper = at(partial, 3)
    _type(stepper, "5\n")
    assert stepper.index == 3
    _type(stepper, "4\n")  # the trick on the table: as far as it was played
    assert stepper.index == PARTIAL_CARDS


def test_another_key_drops_the_number_being_typed(views: dict[str, Any]) -> None:
    stepper = at(views["full"], 0)
    _type(stepper, "7")
    stepper.press("RIGHT")
    assert (stepper.index, stepper.typed) == (1, "")
    stepper.press("ENTER")
    assert stepper.index == 1
    stepper.press("x")  # an unknown key moves nothing
    assert stepper.index == 1


def test_enter_without_a_number_moves_nothing(views: dict[str, Any]) -> None:
    stepper = at(views["full"], 30)
    assert stepper.press("ENTER") is True
    assert stepper.index == 30


@pytest.mark.parametrize("key", QUIT)
def test_quit_keys_return_false_and_stay(views: dict[str, Any], key: str) -> None:
    stepper = at(views["full"], 13)
    assert stepper.press(key) is False
    assert stepper.index == 13


@pytest.mark.parametrize("key", [*NEXT_CARD, *PREVIOUS_CARD, *NEXT_TRICK, *PREVIOUS_TRICK, *FIRST, *LAST, "x", "7"])
def test_other_keys_do_not_quit(views: dict[str, Any], key: str) -> None:
    assert at(views["full"], 13).press(key) is True


# -- Stepper.before_trick -----------------------------------------------------------------


@pytest.mark.parametrize("trick", range(1, 13))
def test_before_a_trick_is_the_frame_before_its_first_card(views: dict[str, Any], trick: int) -> None:
    frames = views["full"]["frames"]
    first = next(i for i, f in enumerate(frames) if f["trick"] == trick and f["card"] == 1)
    assert Stepper.of(views["full"]).before_trick(trick) == first - 1
    assert frames[first - 1]["card"] in (0, 4)


def test_before_the_trick_on_the_table(views: dict[str, Any]) -> None:
    stepper = Stepper.of(views["partial"])
    assert stepper.before_trick(4) == 12
    assert stepper.before_trick(1) == 0
    assert Stepper.of(views["summary"]).before_trick(1) == 0


@pytest.mark.parametrize(
    ("game", "trick"), [("full", 13), ("full", 14), ("partial", 5), ("partial", 6), ("summary", 2)]
)
def test_before_a_trick_not_played_is_refused(views: dict[str, Any], game: str, trick: int) -> None:
    """`before_trick` promises a `DokoError` for a trick that was not played (or that no game has)."""
    with pytest.raises(DokoError, match=f"(trick {trick} was not played|there is no trick {trick}: a game has 12)"):
        Stepper.of(views[game]).before_trick(trick)


# -- keys_from ----------------------------------------------------------------------------


def reader(text: str, *, patience: int = 3) -> Callable[[], str]:
    """One character per call, then "" (end of input) a few times; more reads fail the test
    instead of hanging it."""
    chars = iter(text)
    ends = 0

    def read() -> str:
        nonlocal ends
        char = next(chars, "")
        if char == "":
            ends += 1
            if ends > patience:
                raise AssertionError(f"keys_from kept reading past the end of {text!r}")
        return char

    return read


def keys(text: str) -> list[str]:
    return list(keys_from(reader(text)))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("\x1b[C", "RIGHT"),
        ("\x1b[D", "LEFT"),
        ("\x1b[A", "UP"),
        ("\x1b[B", "DOWN"),
        ("\x1b[H", "HOME"),
        ("\x1b[F", "END"),
        ("\x1bOH", "HOME"),
        ("\x1bOF", "END"),
        ("\x1b[1~", "HOME"),
        ("\x1b[4~", "END"),
        ("\x1b[5~", "PAGEUP"),
        ("\x1b[6~", "PAGEDOWN"),
        ("\r", "ENTER"),
        ("\n", "ENTER"),
        ("\x03", "CTRL-C"),
        ("\x04", "CTRL-D"),
        ("q", "q"),
        (" ", " "),
        ("7", "7"),
    ],
)
def test_keys_from_decodes_one_key(text: str, key: str) -> None:
    assert keys(text) == [key, "CTRL-D"]  # then the end of input


def test_keys_from_decodes_a_stream() -> None:
    stream = "\x1b[Cl\x1b[5~12\r\x1bOHq\x1b[D"
    assert keys(stream) == ["RIGHT", "l", "PAGEUP", "1", "2", "ENTER", "HOME", "q", "LEFT", "CTRL-D"]


def test_keys_from_ends_at_the_end_of_input() -> None:
    assert keys("") == ["CTRL-D"]
    generator = keys_from(reader("a"))
    assert next(generator) == "a"
    assert next(generator) == "CTRL-D"
    with pytest.raises(StopIteration):
        next(generator)


def test_an_unknown_escape_sequence_is_one_unknown_key() -> None:
    assert keys("\x1b[Zq") == ["UNKNOWN", "q", "CTRL-D"]
    assert keys("\x1b[15~q") == ["UNKNOWN", "q", "CTRL-D"]  # F5


def test_a_lone_escape_is_escape_and_the_next_key_is_kept() -> None:
    assert keys("\x1bq") == ["ESC", "q", "CTRL-D"]
    assert keys("\x1bx\x1b[C") == ["ESC", "x", "RIGHT", "CTRL-D"]


def test_a_lone_escape_at_the_end_of_input() -> None:
    assert keys("\x1b") == ["ESC", "CTRL-D"]


def test_an_escape_sequence_cut_off_by_the_end_of_input_ends() -> None:
    """A terminal closed in the middle of `ESC [ 5 ~`: the decoder must stop, not spin."""
    decoded = keys("\x1b[5")
    assert decoded[-1] == "CTRL-D"


# -- doko replay in a pseudo-terminal -------------------------------------------------------

ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")
DEADLINE = 30.0


def _doko() -> str:
    doko = Path(sys.executable).with_name("doko")
    assert doko.exists(), f"no doko beside {sys.executable}"
    return str(doko)


class Terminal:
    """`doko` running in a pseudo-terminal: keys go in, the screen's text comes out."""

    def __init__(self, args: list[str]) -> None:
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        self.saved = termios.tcgetattr(self.slave)
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "DOKO_DB")}
        env |= {"COLUMNS": "120", "LINES": "50", "TERM": "xterm", "DOKO_USER": "tester"}

        def controlling_terminal() -> None:  # the child's own session, with the pty as its terminal
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(
            [_doko(), *args],
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            env=env,
            close_fds=True,
            preexec_fn=controlling_terminal,
        )
        self.raw = b""
        self.seen = 0

    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            try:
                self.raw += os.read(self.master, 65536)
            except OSError:  # the other side is gone
                time.sleep(timeout)

    def expect(self, wanted: str) -> str:
        """Read until `wanted` shows in the output since the last `expect`; fail at the deadline."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            fresh = self.text()[self.seen :]
            if wanted in fresh:
                self.seen += fresh.index(wanted) + len(wanted)
                return fresh
            self._read(0.1)
        raise AssertionError(f"{wanted!r} did not appear; the screen said:\n{self.text()[self.seen :][-3000:]}")

    def press(self, keys: str, then: str) -> str:
        os.write(self.master, keys.encode())
        return self.expect(then)

    def exit_code(self) -> int:
        """Wait for the end (reading, so the child never blocks on a full terminal)."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code is not None:
                self._read(0.05)
                return code
            self._read(0.1)
        self.process.kill()
        self.process.wait()
        raise AssertionError(f"doko still running {DEADLINE} s after the last key; killed")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminal() -> Iterator[Callable[..., Terminal]]:
    opened: list[Terminal] = []

    def open_(*args: str) -> Terminal:
        opened.append(Terminal(list(args)))
        return opened[-1]

    yield open_
    for term in opened:
        term.close()


@pytest.fixture
def ledger_file(tmp_path: Path) -> str:
    path = tmp_path / "ledger.sqlite"
    with Ledger.open(path, create=True) as ledger:
        ledger.import_games([("normal", game_file.read_file(NORMAL))], recorded_by="test", recorded_at=AT)
        ledger.annotate("2026-11-28-kitchen-01-normal", 5, None, "the fox goes", by="Ben", at=AT)
    return str(path)


def test_stepping_through_a_game_in_a_terminal(terminal: Callable[..., Terminal], ledger_file: str) -> None:
    term = terminal("--db", ledger_file, "replay", "#1")
    first = term.expect("frame 0 of 48")
    assert "Anna leads trick 1" in first
    assert "q: quit" in first
    steps = [
        ("\x1b[C", "frame 1 of 48"),  # → a card
        ("\x1b[B", "frame 4 of 48"),  # ↓ the end of trick 1
        ("\x1b[B", "frame 8 of 48"),  # ↓ the end of trick 2
        ("\x1b[A", "frame 4 of 48"),  # ↑
        ("\x1b[D", "frame 3 of 48"),  # ←
        ("\x1b[F", "frame 48 of 48"),  # End
        ("\x1b[H", "frame 0 of 48"),  # Home
        ("\x1b[6~", "frame 4 of 48"),  # PageDown
        ("5\r", "frame 20 of 48"),  # trick 5, Enter
        ("\x1bOH", "frame 0 of 48"),  # Home (application mode)
        ("l", "frame 1 of 48"),
        ("h", "frame 0 of 48"),
    ]
    for keys_, frame in steps:
        screen = term.press(keys_, frame)
        if frame == "frame 20 of 48":
            assert "the fox goes" in screen  # the note on trick 5 sits on its last frame
            assert "trick 5 · Clara plays H9 · Dirk wins the trick (26)" in screen
        if frame == "frame 1 of 48":
            assert "trick 1 · Anna plays SA" in screen
    os.write(term.master, b"q")
    assert term.exit_code() == 0
    # the terminal is as it was: line mode and echo back, the alternate screen left
    assert termios.tcgetattr(term.slave)[3] == term.saved[3]
    assert b"\x1b[?1049l" in term.raw


def test_stepping_as_a_player_hides_the_other_hands(terminal: Callable[..., Terminal], ledger_file: str) -> None:
    term = terminal("--db", ledger_file, "replay", "#1", "--as", "Ben")
    screen = term.expect("frame 0 of 48")
    assert "as Ben" in screen
    assert screen.count("hidden") == 3
    screen = term.press("\x1b[F", "frame 48 of 48")
    assert "result:" in screen
    os.write(term.master, b"\x04")  # Ctrl-D quits too
    assert term.exit_code() == 0
    assert termios.tcgetattr(term.slave)[3] == term.saved[3]


def test_ctrl_c_leaves_the_terminal_as_it_was(terminal: Callable[..., Terminal], ledger_file: str) -> None:
    term = terminal("--db", ledger_file, "replay", "#1")
    term.expect("frame 0 of 48")
    term.press("\x1b[C", "frame 1 of 48")
    os.write(term.master, b"\x03")
    term.exit_code()  # ends (a clean quit or an interrupt), within the deadline
    assert termios.tcgetattr(term.slave)[3] == term.saved[3]
    assert b"\x1b[?1049l" in term.raw


def test_all_at_a_terminal_prints_at_once(terminal: Callable[..., Terminal], ledger_file: str) -> None:
    term = terminal("--db", ledger_file, "replay", "#1", "--all")
    assert term.exit_code() == 0
    text = term.text()
    assert "frame 0 of" not in text
    assert "q: quit" not in text
    assert "the fox goes" in text


def test_a_game_without_cards_prints_at_once_at_a_terminal(terminal: Callable[..., Terminal], tmp_path: Path) -> None:
    """A score sheet has no card to step through: `doko replay` at a terminal (as in `make
    demo`) prints it and ends without waiting for a key."""
    path = tmp_path / "ledger.sqlite"
    with Ledger.open(path, create=True) as ledger:
        ledger.import_games([("summary", game_file.read_file(SUMMARY))], recorded_by="test", recorded_at=AT)
    term = terminal("--db", str(path), "replay", "#1")
    assert term.exit_code() == 0
    text = term.text()
    assert "frame 0 of" not in text and "q: quit" not in text
    assert "card points" in text


def test_stepping_with_the_analysis_says_each_verdict_at_its_card(
    terminal: Callable[..., Terminal], ledger_file: str
) -> None:
    from doko_ledger.doppelkopf.analysis.view import DOUBLE_DUMMY
    from doko_ledger.doppelkopf.analysis_marks import marks

    with Ledger.open(ledger_file) as ledger:
        book = ledger.book_of(DOPPELKOPF)
        shown = marks(
            book.analysis("2026-11-28-kitchen-01-normal", 9), book.state("2026-11-28-kitchen-01-normal").players
        )
    step = min(shown)
    term = terminal("--db", ledger_file, "replay", "#1", "--analysis", "--from-trick", "9")
    assert " ".join(DOUBLE_DUMMY.split()) in " ".join(term.expect("frame 0 of 48").split())
    before = term.press("\x1b[C" * (step - 1), f"frame {step - 1} of 48")
    assert shown[step].line not in before
    screen = term.press("\x1b[C", f"frame {step} of 48")
    assert f"{shown[step].glyph} {shown[step].line}" in " ".join(screen.split())
    assert shown[step].card.pretty + shown[step].glyph in screen
    os.write(term.master, b"q")
    assert term.exit_code() == 0
