"""Keeping read models in step with the log, and rebuilding them from nothing.

A projection owns its tables and turns the whole event list of one stream into
rows. The runner feeds it every stream that changed since the projection's
recorded position, and moves that position in the same transaction as the rows.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Protocol

from doko_ledger.store.base import EventStore, StreamEvents
from doko_ledger.store.database import Database

POSITIONS = "projection_positions"
BATCH = 100
"""Streams folded per write transaction: the longest any other writer waits for a read model."""
Transaction = Callable[[], AbstractContextManager[object]]
"""What a batch of streams is written in: `store.transaction`, or nothing of its own."""


class Projection(Protocol):
    """A fold from each stream's events to rows in the projection's own tables.

    A projection may also name `first_events` (a tuple of event type names): the types its
    streams start with. The runner then reads only those streams of `stream_prefix`, so that
    two games sharing `game/` do not each read the other's streams. A projection that reads
    streams under more than one prefix names `more_streams`: further prefixes, each with the
    first events of its streams. A projection that can catch up from the names of the streams
    changed since a position, reading what it needs of them itself (a stream's new events only,
    where it keeps what the older ones gave), has `write_changes(db, streams, after_position)`:
    the catch-up calls it instead of `write`.
    """

    name: str
    stream_prefix: str
    tables: Mapping[str, tuple[str, ...]]
    """Each table the projection owns, with the columns of its primary key."""

    def create(self, db: Database) -> None:
        """Create the tables if they do not exist."""

    def drop(self, db: Database) -> None:
        """Drop the tables."""

    def write(self, db: Database, streams: Sequence[StreamEvents]) -> None:
        """Replace the rows of these streams (each a whole stream, in version order)."""


def _first_events(projection: Projection) -> tuple[str, ...] | None:
    first: tuple[str, ...] | None = getattr(projection, "first_events", None)
    return first


def _prefixes(projection: Projection) -> list[tuple[str, tuple[str, ...] | None]]:
    """Each stream prefix the projection reads, with the first events of its streams."""
    more: dict[str, tuple[str, ...]] = getattr(projection, "more_streams", {})
    return [(projection.stream_prefix, _first_events(projection)), *more.items()]


def _ensure(db: Database, projection: Projection) -> None:
    db.execute(f"CREATE TABLE IF NOT EXISTS {POSITIONS} (name TEXT PRIMARY KEY, position BIGINT NOT NULL)")
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
    """Apply every event recorded since the projection's position; returns how many streams changed.

    The write lock is held for one batch of streams at a time (their events read and folded
    inside it, so rows are never older than what another writer stored), and the position is
    moved only from where this catch-up found it (else another catch-up or a rebuild moved it
    first, and its own position stands).
    """
    return catch_up_many(store, [projection])


def catch_up_many(store: EventStore, projections: Sequence[Projection]) -> int:
    """`catch_up` of several projections: each one's batches of streams as there, the last batch
    written in one transaction with every projection's new position (a deal just recorded is
    one transaction, however many read models there are). Returns how many streams changed."""
    end = store.last_position()
    behind = [(p, start) for p in projections if (start := position(store.db, p)) != end]
    if not behind:
        return 0
    since = {start: store.changed_streams("", start, end) for start in {start for _, start in behind}}
    firsts = store.first_event_types(sorted({s for changed in since.values() for s in changed}))
    batches: list[tuple[Projection, int, list[str]]] = []
    for projection, start in behind:
        changed = [
            s
            for prefix, first in _prefixes(projection)  # its own prefix's streams first, as `_streams_of` gives them
            for s in since[start]
            if s.startswith(prefix) and (first is None or firsts.get(s) in first)
        ]
        batches += [(projection, start, changed[i : i + BATCH]) for i in range(0, len(changed), BATCH)]
    with _fewer_collections():
        for index, (projection, start, streams) in enumerate(batches):
            with store.transaction(derived=True):
                _write_changed(store, projection, start, streams)
                if index == len(batches) - 1:
                    _move_positions(store.db, behind, end)
        if not batches:
            with store.transaction(derived=True):  # a read-only ledger's: its private copy (`store.db` anew)
                _move_positions(store.db, behind, end)
    return sum(len(streams) for _, _, streams in batches)


def _write_changed(store: EventStore, projection: Projection, start: int, streams: list[str]) -> None:
    """The rows of `streams`, changed since `start` (a projection with `write_changes` reads what
    it needs)."""
    if start == 0:  # else its tables are there: a position is only ever set beside them
        _ensure(store.db, projection)
    write_changes = getattr(projection, "write_changes", None)
    if write_changes is not None:
        write_changes(store.db, streams, start)
    else:
        projection.write(store.db, list(store.read_streams_events(streams)))


def _move_positions(db: Database, behind: Sequence[tuple[Projection, int]], end: int) -> None:
    for projection, start in behind:
        if start == 0:
            _ensure(db, projection)
        _move_position(db, projection, start, end)


def rebuild(store: EventStore, projection: Projection) -> int:
    """Drop the projection's tables and fold every stream again; returns the number of streams
    of its `stream_prefix` (a game projection: the games).

    The tables are emptied (position 0) in one short transaction, then filled a batch of
    streams per transaction, so other writers wait for one batch at most, never the whole
    rebuild; a rebuild cut short leaves position 0, which the next catch-up completes.
    """
    with store.transaction():  # a rebuild is asked for: refused outright on a read-only ledger
        projection.drop(store.db)
        _ensure(store.db, projection)
        _set_position(store.db, projection, 0)
    end = store.last_position()
    # streams recorded after `end` are folded early: harmless
    own, *more = _streams_of(store, projection, store.streams)
    with _fewer_collections():
        _write_batches(store, projection, [*own, *(s for found in more for s in found)], store.transaction)
    with store.transaction():
        _move_position(store.db, projection, 0, end)
    return len(own)


def _streams_of(
    store: EventStore, projection: Projection, named: Callable[[str], list[str]], *, further_only: bool = False
) -> list[list[str]]:
    """For each prefix the projection reads (its `stream_prefix` first; with `further_only`,
    only the others), the streams `named` gives that start with the first events it reads."""
    streams: list[list[str]] = []
    for prefix, first in _prefixes(projection)[1 if further_only else 0 :]:
        found = named(prefix)
        streams.append(found if first is None else store.streams_starting_with(found, first))
    return streams


def _write_batches(store: EventStore, projection: Projection, streams: Sequence[str], transaction: Transaction) -> None:
    for i in range(0, len(streams), BATCH):
        with transaction():
            _ensure(store.db, projection)
            projection.write(store.db, list(store.read_streams_events(streams[i : i + BATCH])))


def _move_position(db: Database, projection: Projection, start: int, end: int) -> None:
    """Move the position from `start` to `end`, only if it is still at `start`."""
    if start > 0:  # the row is there: one conditional update
        db.execute(
            f"UPDATE {POSITIONS} SET position = ? WHERE name = ? AND position = ?", [end, projection.name, start]
        )
    elif position(db, projection) == start:
        _set_position(db, projection, end)


def rebuild_many(store: EventStore, projections: Sequence[Projection]) -> int:
    """`rebuild` of several projections that share one stream prefix (every game's under `game/`)
    with one read of those streams: each batch goes to every projection, which keeps its own (by
    the stream's first event); then each reads its further prefixes (a night's stream). As in
    `rebuild`, a batch of streams per transaction. Returns the number of streams read."""
    prefixes = {p.stream_prefix for p in projections}
    if len(prefixes) != 1:
        return sum(rebuild(store, p) for p in projections)
    db = store.db
    with store.transaction():
        for projection in projections:
            projection.drop(db)
            _ensure(db, projection)
            _set_position(db, projection, 0)
    count, end = _fold_all(store, projections, store.transaction)
    with store.transaction():
        for projection in projections:
            _move_position(db, projection, 0, end)
    return count


def fold_anew(store: EventStore, projections: Sequence[Projection]) -> None:
    """What `rebuild_many` writes, written inside the caller's one transaction on a store whose
    projection tables are not there yet (`EventStore.read_models_beside`): the read models as
    the log gives them, for `doko verify` to compare."""
    db = store.db
    for projection in projections:
        _ensure(db, projection)
        _set_position(db, projection, 0)
    _, end = _fold_all(store, projections, nullcontext)
    for projection in projections:
        _move_position(db, projection, 0, end)


def _fold_all(store: EventStore, projections: Sequence[Projection], transaction: Transaction) -> tuple[int, int]:
    """Every stream of the projections' (shared) prefix, a batch per `transaction`, to every
    projection, then each projection's further prefixes; returns the number of streams of the
    shared prefix and the position the log had at the start."""
    db = store.db
    end = store.last_position()
    # streams recorded after `end` are folded early: harmless
    streams = store.streams(projections[0].stream_prefix)
    with _fewer_collections():
        for i in range(0, len(streams), BATCH):
            with transaction():
                batch = list(store.read_streams_events(streams[i : i + BATCH]))
                for projection in projections:
                    projection.write(db, batch)
        for projection in projections:  # its own prefix's streams were the batches above
            more = _streams_of(store, projection, store.streams, further_only=True)
            _write_batches(store, projection, [s for found in more for s in found], transaction)
    return len(streams), end
