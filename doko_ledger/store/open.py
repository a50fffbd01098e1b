"""`open_store`: the event store at a target, on the backend its scheme names."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from doko_ledger.i18n import msg
from doko_ledger.store.errors import LedgerError
from doko_ledger.store.location import is_url

if TYPE_CHECKING:
    from doko_ledger.store.base import EventStore


def open_store(target: str | Path, *, create: bool = False) -> EventStore:
    """Open the ledger at `target`: a path (SQLite, `store.sqlite`) or a `postgresql://` URL
    (`store.postgres`). Only with `create`, and only where there is nothing yet (a new or empty
    file, a database without tables), is a ledger made; read commands never make one, and a
    database that holds other tables is never touched. A ledger that cannot be written is
    opened read-only (see `EventStore.read_only`)."""
    if is_url(target):
        try:
            from doko_ledger.store.postgres import PostgresEventStore
        except ImportError as exc:  # psycopg is an extra: `pip install 'doko-ledger[postgres]'`
            raise LedgerError(
                msg(
                    "a PostgreSQL ledger needs psycopg 3 ({module} is not installed):"
                    " pip install 'doko-ledger[postgres]'",
                    module=exc.name,
                )
            ) from None

        return PostgresEventStore.connect(str(target), create=create)
    from doko_ledger.store.sqlite import SqliteEventStore

    return SqliteEventStore.open_file(Path(target), create=create)
