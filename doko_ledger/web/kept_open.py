"""The ledger of a request, kept open by the server for the next one.

Opening an SQLite ledger (its file looked at, its format read, WAL mode asked for, and its
schema read by the new connection) costs a phone's request about as much as deciding the deal
it records. So the server keeps the stores its requests opened, idle between them, and a
request takes one back once it says it can be used again (`EventStore.reopened`: the path
still names the file it opened, writable, of the format it read, nothing of the earlier
request left open); otherwise the ledger is opened anew.

A ledger at rest is as a closed one leaves it: each request ends with the store `at_rest` (on
SQLite the WAL written back into the file and emptied, as the last connection to close does),
so that the file can be copied, or another moved into its place, between requests. When the
path names another file, every idle store of the old one is closed at once. A store whose
request failed in the database, or with an error of the ledger itself, is closed, never kept.
A backend that cannot be kept so (PostgreSQL) is opened and closed per request, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from doko_ledger.ledger import Ledger
from doko_ledger.store.base import EventStore, LedgerError
from doko_ledger.store.open import open_store


class KeptStores:
    """The idle stores of each ledger, the most recently used last."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[str, list[EventStore]] = {}

    def take(self, key: str) -> EventStore | None:
        """An idle store of the ledger `key` that can be used again, or None. When the one found
        cannot, every idle store of that ledger is closed: the file they opened may no longer
        be the one at its path."""
        with self._lock:
            idle = self._idle.get(key)
            store = idle.pop() if idle else None
        if store is None or store.reopened():
            return store
        with self._lock:
            others = self._idle.pop(key, [])
        for stale in [store, *others]:
            stale.close()
        return None

    def give_back(self, key: str, store: EventStore) -> None:
        """Keep `store` idle, at rest, for the ledger's next request; closed instead if its backend
        cannot be kept or it cannot be put at rest (the next request opens the ledger anew)."""
        if not store.keeps_open:
            store.close()
            return
        failures: tuple[type[Exception], ...] = (OSError, *store.database_errors)
        try:
            store.at_rest()
        except failures:  # what the request wrote stands: the next one opens the ledger anew
            store.close()
            return
        with self._lock:
            self._idle.setdefault(key, []).append(store)

    def close_all(self) -> None:
        """Close every idle store (the server stops)."""
        with self._lock:
            idle = [store for stores in self._idle.values() for store in stores]
            self._idle.clear()
        for store in idle:
            store.close()


KEPT = KeptStores()
"""The stores this process keeps open between requests, by the ledger as the server names it."""


@contextmanager
def kept_open(target: str | Path) -> Iterator[Ledger]:
    """The ledger at `target` for one request: an idle store of it that can be used again, else
    opened anew; kept for the next request unless the request failed in the database or with
    an error of the ledger (which, as `Ledger`'s own exit does, leaves as a `LedgerError`)."""
    key = str(target)
    store = KEPT.take(key) or open_store(target)
    try:
        yield Ledger(store)
    except BaseException as exc:
        problem = store.failure(exc)
        if problem is not None or isinstance(exc, LedgerError):
            store.close()
            if problem is not None:
                raise problem from None
            raise
        KEPT.give_back(key, store)
        raise
    KEPT.give_back(key, store)
