"""Undo as an event: `EventVoided` takes back a game's newest event still in force.

The log keeps both; the game is the fold of the events in force (`in_force`), so a
voided card is as if never played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.doppelkopf import GameStarted
from doko_ledger.events.voiding import EventVoided, in_force, versions_in_force
from doko_ledger.game.commands import IllegalMove

__all__ = ["in_force", "versions_in_force", "void_last"]


def void_last(events: Sequence[Any]) -> EventVoided:
    """The event that takes back the newest event in force; the game's start cannot be, and
    notes are comments, not moves: undo passes them by."""
    kept = [v for v in versions_in_force(events) if not isinstance(events[v - 1], AnnotationAdded)]
    if not kept or isinstance(events[kept[-1] - 1], GameStarted):
        raise IllegalMove("nothing to undo in this game")
    return EventVoided(kept[-1])
