"""A game as a film: one frame before the first card and one after every card.

A frame holds the game as it stood until the next card: the calls made after a card
belong to that card's frame. Notes (annotations) are placed on the frame they point to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.frozen import frozen


@frozen
class Frame:
    """The game after card `step` (0: before the first card); `trick` and `card` place that
    card (1-based; 0 before play), `played` is who played it."""

    step: int
    state: GameState
    trick: int = 0
    card: int = 0
    played: tuple[int, Card] | None = None


def frames(events: Sequence[Any]) -> list[Frame]:
    """Every frame of a game (its events in force), in order."""
    state = GameState()
    shown: list[Frame] = []
    last: Frame | None = None
    for event in events:
        if isinstance(event, CardPlayed):
            shown.append(last if last is not None else Frame(0, state))
            state = evolve(state, event)
            step = len(shown)
            last = Frame(step, state, (step - 1) // SEATS + 1, (step - 1) % SEATS + 1, (event.seat, event.card))
        else:
            state = evolve(state, event)
            if last is not None:
                last = Frame(last.step, state, last.trick, last.card, last.played)
    shown.append(last if last is not None else Frame(0, state))
    return shown


def notes_in(events: Sequence[Any]) -> list[AnnotationAdded]:
    return [e for e in events if isinstance(e, AnnotationAdded)]


def note_step(note: AnnotationAdded, shown: Sequence[Frame]) -> int:
    """The frame a note belongs to: the game's first frame, the card's, or a trick's last."""
    if note.trick is None:
        return 0
    steps = [f.step for f in shown if f.trick == note.trick and (note.card is None or f.card == note.card)]
    return steps[-1] if steps else 0
