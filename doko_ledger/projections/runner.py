"""Keeping read models in step with the log, and rebuilding them from nothing.

A projection owns its tables and turns the whole event list of one stream into
rows. The runner feeds it every stream that changed since the projection's
recorded position, and moves that position in the same transaction as the rows.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from doko_ledger.events.sqlite import Database
from doko_ledger.events.store import EventStore, StreamEvents

POSITIONS = "projection_positions"
BATCH = 500


class Projection(Protocol):
    """A fold from each stream's events to rows in the projection's own tables.

    A projection may also name `first_events` (a tuple of event type names): the types its
    streams start with. The runner then reads only those streams of `stream_prefix`, so that
    two games sharing `game/` do not each read the other's streams.
    """

    name: str
    stream_prefix: str

    def create(self, db: Database) -> None:
        """Create the tables if they do not exist."""

    def drop(self, db: Database) -> None:
        """Drop the tables."""

    def write(self, db: Database, streams: Sequence[StreamEvents]) -> None:
        """Replace the rows of these streams (each a whole stream, in version order)."""


def _first_events(projection: Projection) -> tuple[str, ...] | None:
    first: tuple[str, ...] | None = getattr(projection, "first_events", None)
    return first


def _ensure(db: Database, projection: Projection) -> None:
    db.execute(f"CREATE TABLE IF NOT EXISTS {POSITIONS} (name TEXT PRIMARY KEY, position INTEGER NOT NULL)")
    projection.create(db)


def position(db: Database, projection: Projection) -> int:
    if POSITIONS not in db.table_names():
        return 0
    row = db.execute(f"SELECT position FROM {POSITIONS} WHERE name = ?", [projection.name]).fetchone()
    return 0 if row is None else int(row[0])


def _set_position(db: Database, projection: Projection, value: int) -> None:
    db.execute(
        f"INSERT INTO {POSITIONS} (name, position) VALUES (?, ?) "
        "ON CONFLICT(name) DO UPDATE SET position = excluded.position",
        [projection.name, value],
    )


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often: a rebuild allocates millions of short-lived,
    acyclic objects (states, tricks, rows) that reference counting frees, and the collector's
    passes over them cost ~5% of a rebuild. The threshold is restored afterwards.
    """
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], 50_000), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def up_to_date(store: EventStore, names: Sequence[str]) -> bool:
    """True when every projection named has applied the whole log."""
    db = store.db
    if POSITIONS not in db.table_names():
        return False
    marks = ", ".join("?" * len(names))
    row = db.execute(
        f"SELECT count(*) FROM {POSITIONS} WHERE name IN ({marks}) AND position = ?", [*names, store.last_position()]
    ).fetchone()
    return int(row[0]) == len(set(names))


def catch_up(store: EventStore, projection: Projection) -> int:
    """Apply every event recorded since the projection's position; returns how many streams changed."""
    db = store.db
    start = position(db, projection)
    if start == store.last_position():
        return 0
    with _fewer_collections(), store.transaction():
        _ensure(db, projection)
        start = position(db, projection)
        end = store.last_position()
        changed = store.changed_streams(projection.stream_prefix, start, end)
        first = _first_events(projection)
        if first is not None:
            changed = store.streams_starting_with(changed, first)
        for i in range(0, len(changed), BATCH):
            batch = [store.read_stream_events(s) for s in changed[i : i + BATCH]]
            projection.write(db, [s for s in batch if s is not None])
        _set_position(db, projection, end)
    return len(changed)


def rebuild(store: EventStore, projection: Projection) -> int:
    """Drop the projection's tables and fold every stream again; returns the number of streams."""
    db = store.db
    count = 0
    with _fewer_collections(), store.transaction():
        projection.drop(db)
        _ensure(db, projection)
        end = store.last_position()
        batch: list[StreamEvents] = []
        for stream in store.iter_stream_events(projection.stream_prefix, end, _first_events(projection)):
            batch.append(stream)
            if len(batch) == BATCH:
                projection.write(db, batch)
                count += len(batch)
                batch = []
        projection.write(db, batch)
        count += len(batch)
        _set_position(db, projection, end)
    return count


def rebuild_many(store: EventStore, projections: Sequence[Projection]) -> int:
    """`rebuild` of several projections that share one stream prefix (every game's under `game/`)
    in one read of the log: each stream goes to every projection, which keeps its own (by the
    stream's first event). Returns the number of streams read."""
    db = store.db
    prefixes = {p.stream_prefix for p in projections}
    if len(prefixes) != 1:
        return sum(rebuild(store, p) for p in projections)
    count = 0
    with _fewer_collections(), store.transaction():
        for projection in projections:
            projection.drop(db)
            _ensure(db, projection)
        end = store.last_position()
        batch: list[StreamEvents] = []
        for stream in store.iter_stream_events(prefixes.pop(), end):
            batch.append(stream)
            if len(batch) == BATCH:
                for projection in projections:
                    projection.write(db, batch)
                count += len(batch)
                batch = []
        for projection in projections:
            projection.write(db, batch)
            _set_position(db, projection, end)
        count += len(batch)
    return count
