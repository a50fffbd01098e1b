"""The ledger's failures, whichever database holds it: each is one line and an exit code."""

from __future__ import annotations

from decimal import Decimal

from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message, msg
from doko_ledger.i18n.formats import Number


class LedgerError(DokoError):
    """A ledger that is missing, not a doko_ledger ledger, or cannot be used."""


class LedgerReadOnly(LedgerError):
    """A write to a ledger that can only be read: the file (or its folder) is read-only, or it
    is of a newer format or holds events this doko_ledger does not know."""


class DiskError(LedgerError):
    """The disk under a ledger refused a read or a write (it is full, or reports an I/O error):
    the ledger is not damaged, and nothing was written."""


class LedgerUnreachable(LedgerError):
    """A ledger whose database cannot be reached now: its server is down, refuses or drops the
    connection, or its file cannot be read. Trying again later may work (exit 3, as a lock
    timeout)."""

    exit_code = 3


class LedgerDamaged(LedgerError):
    """A ledger the database cannot read (a damaged page, a truncated file)."""

    exit_code = 4


class ConcurrencyError(DokoError):
    """An append whose expected stream version is no longer the stream's version."""

    exit_code = 3


class LedgerBusy(ConcurrencyError, LedgerError):
    """Another writer held the ledger's lock for longer than the busy timeout.

    `locked` says that alone; the message adds what became of the write (`outcome`)."""

    def __init__(self, where: str, waited_ms: int, outcome: Message) -> None:
        seconds = Number(Decimal(waited_ms) / 1000)
        self.locked = msg("{where} is locked by another writer (waited {seconds} s)", where=where, seconds=seconds)
        super().__init__(msg("{locked}: {outcome}; try again", locked=self.locked, outcome=outcome))
