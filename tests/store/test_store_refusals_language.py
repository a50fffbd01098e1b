"""The store's refusals in the reader's language, on SQLite and on PostgreSQL alike: a write
that lost to another ("someone else recorded first") and a lock held too long say what became
of the write in German and French too; where the ledger is and the database's own words are
never translated."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_store import AT, BY, cards

from doko_ledger.i18n import using
from doko_ledger.store.base import ConcurrencyError, EventStore, LedgerBusy
from doko_ledger.store.open import open_store


def said(error: Exception, language: str) -> str:
    with using(language):
        return str(error)


def test_someone_else_recorded_first_in_each_language(store: EventStore, ledger_target: str | Path) -> None:
    other = open_store(ledger_target)
    try:
        other.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    finally:
        other.close()
    with pytest.raises(ConcurrencyError) as lost:
        store.append("s/a", cards("SA"), expected_version=0, recorded_by=BY, recorded_at=AT)
    assert said(lost.value, "en") == (
        "stream 's/a' is at version 1, expected 0: someone else recorded first; nothing was written"
    )
    assert said(lost.value, "de") == (
        "Stream 's/a' ist bei Version 1, erwartet 0: jemand anderes hat zuerst eingetragen; nichts geschrieben"
    )
    assert said(lost.value, "fr") == (
        "le flux 's/a' est à la version 1, 0 attendue : quelqu'un d'autre a noté avant ; rien n'a été écrit"
    )


def test_a_lock_held_too_long_in_each_language(
    store: EventStore, ledger_target: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 250)  # the waiting, not the behaviour, is shortened
    other = open_store(ledger_target)
    try:
        other.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        with store.transaction(), pytest.raises(LedgerBusy) as busy:
            other.append("s/b", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    finally:
        other.close()
    where = other.where
    assert said(busy.value, "en") == (
        f"{where} is locked by another writer (waited 0.25 s): nothing more was written"
        " (the 1 event recorded before it stands); try again"
    )
    assert said(busy.value, "de") == (
        f"{where} ist von einem anderen Schreiber gesperrt (0,25 s gewartet): nichts weiter geschrieben"
        " (1 zuvor eingetragenes Ereignis bleibt); versuch es noch einmal"
    )
    assert said(busy.value, "fr") == (
        f"{where} est verrouillé par un autre rédacteur (0,25 s d'attente) : rien de plus n'a été écrit"
        " (1 événement noté avant reste) ; réessayez"
    )
