"""The interactive replay: one frame on screen, keys to step through the game.

`Stepper` is the pure part (which frame a key leads to) and is tested on its own;
`run` reads keys from a terminal in raw mode and redraws.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from doko_ledger.cli import render_frames
from doko_ledger.errors import DokoError
from doko_ledger.i18n import plural

NEXT_CARD = {"RIGHT", "l", "n", " "}
PREVIOUS_CARD = {"LEFT", "h", "p"}
NEXT_TRICK = {"DOWN", "j", "PAGEDOWN"}
PREVIOUS_TRICK = {"UP", "k", "PAGEUP"}
FIRST = {"HOME", "g"}
LAST = {"END", "G"}
QUIT = {"q", "Q", "ESC", "CTRL-C", "CTRL-D"}
_ESCAPES = {
    "[C": "RIGHT",
    "[D": "LEFT",
    "[B": "DOWN",
    "[A": "UP",
    "[H": "HOME",
    "[F": "END",
    "[1~": "HOME",
    "[4~": "END",
    "[5~": "PAGEUP",
    "[6~": "PAGEDOWN",
    "OH": "HOME",
    "OF": "END",
}


@dataclass(slots=True)
class Stepper:
    """Where a replay is: a frame index, and a trick number being typed."""

    tricks: Sequence[int]
    """The trick of each frame's last card (0 before play)."""
    cards: Sequence[int]
    """The position of each frame's last card in its trick (0 before play)."""
    hand_size: int = 12
    """The tricks a game has."""
    index: int = 0
    typed: str = ""

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Stepper:
        frames = view["frames"]
        return cls([f["trick"] for f in frames], [f["card"] for f in frames], view["hand_size"])

    @property
    def last(self) -> int:
        return len(self.tricks) - 1

    def _trick_end(self, trick: int) -> int:
        """The frame that shows trick `trick` whole (or as far as it was played)."""
        frames = [i for i, t in enumerate(self.tricks) if t == trick]
        return frames[-1] if frames else 0

    def before_trick(self, trick: int) -> int:
        """The frame just before the first card of trick `trick`; `DokoError` if the game did not
        get there (the trick before it is not complete, or the game has no such trick)."""
        complete = sum(1 for card in self.cards if card == 4)
        if trick > self.hand_size:
            raise DokoError(
                plural(
                    "there is no trick {trick}: a game has {count} trick",
                    "there is no trick {trick}: a game has {count} tricks",
                    self.hand_size,
                    trick=trick,
                )
            )
        if trick > complete + 1:
            raise DokoError(
                plural(
                    "trick {trick} was not played: the game has {count} complete trick",
                    "trick {trick} was not played: the game has {count} complete tricks",
                    complete,
                    trick=trick,
                )
            )
        return self._trick_end(trick - 1)

    def press(self, key: str) -> bool:
        """Move for one key; False when the key quits."""
        if key in QUIT:
            return False
        if len(key) == 1 and key in "0123456789":
            self.typed = (self.typed + key)[-2:]
            return True
        if key == "ENTER" and self.typed:
            wanted = int(self.typed)
            self.typed = ""
            if wanted in self.tricks:
                self.index = self._trick_end(wanted)
            return True
        self.typed = ""
        here = self.tricks[self.index]
        if key in NEXT_CARD:
            self.index = min(self.index + 1, self.last)
        elif key in PREVIOUS_CARD:
            self.index = max(self.index - 1, 0)
        elif key in NEXT_TRICK:
            target = here if 0 < self.cards[self.index] < 4 else here + 1
            self.index = self._trick_end(target) if target in self.tricks else self.last
        elif key in PREVIOUS_TRICK:
            self.index = self._trick_end(here - 1) if here > 1 else 0
        elif key in FIRST:
            self.index = 0
        elif key in LAST:
            self.index = self.last
        return True


def keys_from(read: Callable[[], str]) -> Iterator[str]:
    """Key names from a stream of characters (`read` returns "" at the end): arrows and
    Home/End/PageUp/PageDown decoded; a lone ESC is ESC and the key after it is kept."""
    pending = ""

    def next_char() -> str:
        nonlocal pending
        char, pending = (pending, "") if pending else (read(), "")
        return char

    while True:
        char = next_char()
        if char == "":
            yield "CTRL-D"
            return
        if char == "\x1b":
            lead = next_char()
            if lead not in ("[", "O"):
                pending = lead
                yield "ESC"
                continue
            seq = lead + next_char()
            while seq[-1].isdigit() or seq[-1] == ";":
                more = next_char()
                if more == "":
                    break
                seq += more
            yield _ESCAPES.get(seq, "UNKNOWN")
        elif char in ("\r", "\n"):
            yield "ENTER"
        elif char == "\x03":
            yield "CTRL-C"
        elif char == "\x04":
            yield "CTRL-D"
        else:
            yield char


@contextmanager
def _raw_terminal(fd: int) -> Iterator[None]:
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        quiet = termios.tcgetattr(fd)
        quiet[3] &= ~termios.ISIG  # Ctrl-C is a key that quits, not a signal
        termios.tcsetattr(fd, termios.TCSADRAIN, quiet)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def has_steps(view: Mapping[str, Any]) -> bool:
    """Whether there is anything to step through: a card played (a game recorded as a score
    sheet has one frame and no card)."""
    return len(view["frames"]) > 1


def run(view: Mapping[str, Any], console: Console, marks: render_frames.Marks | None = None) -> None:
    """Step through `view` at the terminal until the viewer quits; with an analysis's `marks`,
    its costly cards marked (`render_frames.frame`)."""
    stepper = Stepper.of(view)
    fd = sys.stdin.fileno()
    with _raw_terminal(fd), console.screen():
        console.print(render_frames.frame(view, stepper.index, keys=True, marks=marks))
        for key in keys_from(lambda: os.read(fd, 1).decode("utf-8", "replace")):
            if not stepper.press(key):
                break
            console.clear()
            console.print(render_frames.frame(view, stepper.index, keys=True, marks=marks))
