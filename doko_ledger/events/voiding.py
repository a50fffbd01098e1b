"""Undo as an event, for any game: `EventVoided` takes back a stream's newest event still in
force. The log keeps both; a game is the fold of its events in force (`in_force`), so a voided
card is as if never played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from doko_ledger.events.codec import Event, event

T = TypeVar("T")


@event(version=1)
class EventVoided(Event):
    """Undo: the game's event at `version` (its newest one still in force) no longer counts."""

    version: int


def versions_in_force(events: Sequence[Any]) -> list[int]:
    """The versions (index + 1) of a stream's events that count: neither voided nor voiding."""
    kept: list[int] = []
    for version, each in enumerate(events, 1):
        if isinstance(each, EventVoided):
            kept = [v for v in kept if v != each.version]
        else:
            kept.append(version)
    return kept


def in_force(items: Sequence[T], events: Sequence[Any] | None = None) -> list[T]:
    """The items (events, or records of them, given with their `events`) that count, in order."""
    return [items[v - 1] for v in versions_in_force(items if events is None else events)]
