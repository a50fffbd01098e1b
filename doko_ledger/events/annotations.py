"""Annotations: comments on a moment of a game, kept in the game's own stream.

Game-agnostic: a game's `evolve` leaves them alone (unknown events change nothing),
the replay shows them where they point to, and export writes them out.
"""

from __future__ import annotations

from doko_ledger.errors import DokoError
from doko_ledger.events.codec import Event, event
from doko_ledger.i18n import msg

MAX_NOTE = 2000
"""The longest note, in characters."""


class NoteRefused(DokoError, ValueError):
    """A note with no text, or one too long."""


@event(version=1)
class AnnotationAdded(Event):
    """A comment on a game: on trick `trick` (1-based), on its `card`-th card (1-based) when
    given, or on the game as a whole when `trick` is None. `author` and `written_at` are the
    comment's own (an imported note keeps them), not the recording's."""

    trick: int | None
    card: int | None
    text: str
    author: str
    written_at: str


def game_note(text: str, *, author: str, written_at: str) -> AnnotationAdded:
    """A note on a game as a whole; `NoteRefused` for an empty or overlong text."""
    if not text.strip():
        raise NoteRefused(msg("a note needs a text"))
    if len(text) > MAX_NOTE:
        raise NoteRefused(
            msg(
                "a note may be at most {most} characters, this one has {count}",
                most=MAX_NOTE,
                count=len(text),
            )
        )
    return AnnotationAdded(None, None, text, author, written_at)
