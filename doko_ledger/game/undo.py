"""Undo as an event: `EventVoided` takes back a game's newest event still in force.

The log keeps both; the game is the fold of the events in force (`in_force`), so a
voided card is as if never played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.doppelkopf import EventVoided, GameStarted
from doko_ledger.game.commands import IllegalMove

T = TypeVar("T")


def versions_in_force(events: Sequence[Any]) -> list[int]:
    """The versions (index + 1) of a stream's events that count: neither voided nor voiding."""
    kept: list[int] = []
    for version, event in enumerate(events, 1):
        if isinstance(event, EventVoided):
            kept = [v for v in kept if v != event.version]
        else:
            kept.append(version)
    return kept


def in_force(items: Sequence[T], events: Sequence[Any] | None = None) -> list[T]:
    """The items (events, or records of them, given with their `events`) that count, in order."""
    return [items[v - 1] for v in versions_in_force(items if events is None else events)]


def void_last(events: Sequence[Any]) -> EventVoided:
    """The event that takes back the newest event in force; the game's start cannot be, and
    notes are comments, not moves: undo passes them by."""
    kept = [v for v in versions_in_force(events) if not isinstance(events[v - 1], AnnotationAdded)]
    if not kept or isinstance(events[kept[-1] - 1], GameStarted):
        raise IllegalMove("nothing to undo in this game")
    return EventVoided(kept[-1])
