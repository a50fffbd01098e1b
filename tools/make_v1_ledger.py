"""Write tests/fixtures/ledger-v1.sqlite: a ledger whose GameStarted events are schema version 1.

Version 1 of GameStarted had no `note`. The fixture is kept so that a test proves an old
ledger still verifies and replays (upcast on read) after the event type gained version 2.
Run once: `.venv/bin/python tools/make_v1_ledger.py` (it refuses to overwrite).
"""

from __future__ import annotations

import sys
from pathlib import Path

from doko_ledger.doppelkopf.files import game_file
from doko_ledger.events.codec import dumps_canonical, to_payload
from doko_ledger.events.envelope import GENESIS, stream_chain_hash
from doko_ledger.store.base import EventStore

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "ledger-v1.sqlite"
GAMES = ["01-normal.yaml", "14-marriage-first-trick.yaml", "18-poverty.yaml"]
AT, BY = "2026-11-29T20:00:00+00:00", "fixture"


def main() -> None:
    if OUT.exists():
        sys.exit(f"{OUT} exists; it is a fixture and is never rewritten")
    store = EventStore.open(OUT, create=True)
    # the format-1 hashes are written by hand below: the store itself writes format 2 only
    store.db.execute("UPDATE ledger SET value = 'doko-ledger/1' WHERE key = 'format'")
    position = 0
    with store.transaction():
        for name in GAMES:
            loaded = game_file.read_file(ROOT / "sample_games" / name)
            stream, prev = f"game/{loaded.record.id}", GENESIS
            for version, event in enumerate(loaded.events, 1):
                kind, schema_version = event.event_name, event.schema_version
                payload = to_payload(event)
                if kind == "GameStarted":
                    payload.pop("note")
                    schema_version = 1
                text = dumps_canonical(payload)
                position += 1
                digest = stream_chain_hash(prev, stream, version, kind, schema_version, text, AT, BY)
                store.db.execute(
                    "INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)",
                    [position, stream, version, kind, schema_version, text, AT, BY, prev, digest],
                )
                prev = digest
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.db.execute("PRAGMA journal_mode=delete")
    store.close()
    print(f"wrote {OUT}: {position} events")


if __name__ == "__main__":
    main()
