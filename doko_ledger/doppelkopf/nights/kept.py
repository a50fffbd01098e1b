"""Card nights kept folded in this process, so that a page, the standings or a write cost the
same however long the night: a night is folded from the log once, then only caught up with
what the log gained since.

A night is kept with the point of the log it was folded at: the newest event's position and
hash. The hash covers every event before it, so the same point means the same log, and the
log only ever grows, so a fold stays true and is caught up from there. A kept night is never
changed: a catch-up makes a new one from a fork, and a write decides on a fork of its own.
What is derived from a kept night (its page, its standings) is derived once, under its lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from doko_ledger.doppelkopf.nights.night import Night

T = TypeVar("T")

Point = tuple[int, str]
"""A point of the log: the newest event's position and hash."""


@dataclass(slots=True)
class KeptNight:
    """A night folded up to `at` (every event up to it is in the fold; a later one may be
    too, which a catch-up, going by the session's versions, never applies twice)."""

    night: Night
    at: Point
    requests: dict[str, tuple[int, Any]] = field(default_factory=dict)
    """The session events that carry a write's request id, by that id: the stream version and
    the event of the first (a write sent again finds what its first sending did)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    _derived: dict[str, Any] = field(default_factory=dict)

    def derived(self, name: str, derive: Callable[[Night], T]) -> T:
        """`derive(night)`, computed once for this fold (under its lock: a night's course is
        extended as it is derived)."""
        with self.lock:
            if name not in self._derived:
                self._derived[name] = derive(self.night)
            found: T = self._derived[name]
            return found

    def fork(self) -> Night:
        """A night of its own to decide on, read at this fold's point of the log."""
        with self.lock:
            night = self.night.fork()
        night.read_at = self.at
        return night

    def note_requests(self, first_version: int, events: list[Any]) -> None:
        """Index the request ids of session events stored from `first_version` on."""
        for version, event in enumerate(events, first_version):
            request_id = getattr(event, "request_id", None)
            if request_id is not None:
                self.requests.setdefault(request_id, (version, event))


class KeptNights:
    """The nights this process keeps folded, the most recently used first out of `size`."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._nights: OrderedDict[Hashable, KeptNight] = OrderedDict()

    def get(self, key: Hashable) -> KeptNight | None:
        with self._lock:
            kept = self._nights.get(key)
            if kept is not None:
                self._nights.move_to_end(key)
            return kept

    def put(self, key: Hashable, kept: KeptNight) -> None:
        with self._lock:
            self._nights[key] = kept
            self._nights.move_to_end(key)
            while len(self._nights) > self.size:
                self._nights.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._nights.clear()


KEPT = KeptNights()
"""The card nights kept folded by this process, by ledger and night."""
