"""Annotating a game: a comment on the game, on a trick, or on one card of a trick."""

from __future__ import annotations

from dataclasses import replace

from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.events.annotations import MAX_NOTE, AnnotationAdded
from doko_ledger.i18n import msg, plural


def annotate(
    state: GameState, trick: int | None, card: int | None, text: str, *, author: str, written_at: str
) -> AnnotationAdded:
    """The event of a note. Raises `IllegalMove` for an empty or overlong text, or a trick or
    card the game does not have (yet): a note is on what was played."""
    if not text.strip():
        raise IllegalMove(msg("a note needs a text"))
    if len(text) > MAX_NOTE:
        raise IllegalMove(
            msg("a note may be at most {most} characters, this one has {count}", most=MAX_NOTE, count=len(text))
        )
    if trick is None:
        if card is not None:
            raise IllegalMove(msg("a note on a card needs its trick too"))
        return AnnotationAdded(None, None, text, author, written_at)
    played = len(state.cards_played)
    if played == 0:
        raise IllegalMove(
            msg("no trick {trick}: no card of this game is recorded, so a note can only be on the game", trick=trick)
        )
    tricks = (played - 1) // SEATS + 1
    if not 1 <= trick <= tricks:
        raise IllegalMove(
            plural(
                "no trick {trick}: the game has {count} trick so far",
                "no trick {trick}: the game has {count} tricks so far",
                tricks,
                trick=trick,
            )
        )
    in_trick = min(SEATS, played - (trick - 1) * SEATS)
    if card is not None and not 1 <= card <= in_trick:
        raise IllegalMove(
            plural(
                "no card {card} in trick {trick}: it has {count} card",
                "no card {card} in trick {trick}: it has {count} cards",
                in_trick,
                card=card,
                trick=trick,
            )
        )
    return AnnotationAdded(trick, card, text, author, written_at)


def anchored(state: GameState, note: AnnotationAdded) -> AnnotationAdded:
    """The note where it can stand in the game as it is now: on its trick or card, or, when
    that card was taken back (`doko undo`), on the game as a whole."""
    try:
        annotate(state, note.trick, note.card, note.text, author=note.author, written_at=note.written_at)
    except IllegalMove:
        return replace(note, trick=None, card=None)
    return note
