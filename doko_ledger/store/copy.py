"""Moving a whole ledger to another database (SQLite to PostgreSQL and back), event by event.

Every event goes over as it is: its position, stream, version, payload text, time, recorder
and hashes. Nothing is re-encoded, so the hash chain, and so the head, is the same at both
ends; the copy recomputes every hash as it goes and stops at the first that does not match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from doko_ledger.events.envelope import GENESIS, chain_hash
from doko_ledger.i18n import msg, plural
from doko_ledger.store.base import (
    EVENT_TYPES_KEY,
    FORMAT_NAME,
    FORMAT_VERSION,
    INSERT,
    LEDGER_FORMAT,
    SET,
    EventStore,
    Head,
)
from doko_ledger.store.errors import LedgerDamaged, LedgerError
from doko_ledger.store.verify import COLUMNS

BATCH = 1_000
"""Events inserted per statement."""


class CopyRefused(LedgerError):
    """A copy that would not give the same ledger: the target holds events, or the source does
    not verify."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a copy moved: the head both ledgers now have, and how many streams."""

    head: Head
    streams: int


def copy_ledger(source: EventStore, target: EventStore) -> Copied:
    """Copy every event of `source` into `target`, which must hold none, in one transaction
    of the target: all of it or nothing. The source is verified first (a ledger that does not
    verify is not copied: the copy would carry its damage over as if it were sound); events
    recorded while the copy runs are left for the next copy."""
    if source.format_version != FORMAT_VERSION:
        raise CopyRefused(
            msg(
                "{where} is format {format}: open it once where it can be written (it is upgraded to {newest}),"
                " then copy it",
                where=source.where,
                format=f"{FORMAT_NAME}/{source.format_version}",
                newest=LEDGER_FORMAT,
            )
        )
    report = source.verify()
    if not report.ok:
        raise CopyRefused(
            msg(
                "{where} does not verify, so it was not copied: {problem} (see `doko verify`)",
                where=source.where,
                problem=report.problems[0],
            )
        )
    end = report.position
    types: dict[str, int] = {}
    streams: set[str] = set()
    with target.transaction():
        held = target.last_position()
        if held:
            raise CopyRefused(
                plural(
                    "{where} already holds {count} event: a ledger is copied only into a new one",
                    "{where} already holds {count} events: a ledger is copied only into a new one",
                    held,
                    where=target.where,
                )
            )
        prev, batch = GENESIS, []
        rows = source.db.stream(f"SELECT {COLUMNS} FROM events WHERE position <= ? ORDER BY position", [end])
        for row in rows:
            position, stream, kind, schema_version, prev_hash, digest = row[0], row[1], row[3], row[4], row[8], row[9]
            if prev_hash != prev or chain_hash(prev, *row[:8]) != digest:
                raise LedgerDamaged(
                    msg(
                        "{where}: position {position} changed while it was copied; nothing was copied",
                        where=source.where,
                        position=position,
                    )
                )
            batch.append(row)
            types[kind] = max(types.get(kind, 0), schema_version)
            streams.add(stream)
            prev = digest
            if len(batch) == BATCH:
                target.db.executemany(INSERT, batch)
                batch = []
        if batch:
            target.db.executemany(INSERT, batch)
        target.db.execute(SET, [EVENT_TYPES_KEY, json.dumps(types, sort_keys=True)])
    target.appended += end
    head = target.head()
    if (head.hash, head.position) != (report.head, end):  # cannot happen: the rows went over as they are
        raise LedgerError(
            msg(
                "{where}: the copy ends at {head}, not at {expected}",
                where=target.where,
                head=head.hash[:16],
                expected=report.head[:16],
            )
        )
    return Copied(head, len(streams))
