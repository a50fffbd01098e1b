"""Write tests/bad_inputs/ledgers/: files given as `--db` that are not what they seem.

- `empty.sqlite`: zero bytes; `not_sqlite.sqlite`: text; `foreign.sqlite`: another program's
  SQLite database (a recipe table);
- `newer_format.sqlite`: a ledger of one game whose format says `doko-ledger/3`;
- `unknown_event.sqlite`: a ledger of one game and, chained after it, an event of a type this
  doko_ledger does not know (as a newer version would write it, with its `event_types` row);
- `damaged_page.sqlite`: a ledger of two games with one page of its event table overwritten.

Run once: `.venv/bin/python tools/make_bad_ledgers.py` (it refuses to overwrite).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

from doko_ledger.doppelkopf.files import game_file
from doko_ledger.events.envelope import chain_hash
from doko_ledger.ledger import Ledger

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "bad_inputs" / "ledgers"
AT, BY = "2026-11-29T20:00:00+00:00", "fixture"


def _ledger(path: Path, *games: str) -> None:
    with Ledger.open(path, create=True) as ledger:
        loaded = [(name, game_file.read_file(ROOT / "sample_games" / name)) for name in games]
        ledger.import_games(loaded, recorded_by=BY, recorded_at=AT)
    _settle(path)


def _settle(path: Path) -> None:
    """Everything in the one file: no -wal or -shm beside it."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=delete")
    conn.close()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if any(OUT.iterdir()):
        sys.exit(f"{OUT} is not empty; its files are fixtures and are never rewritten")
    (OUT / "empty.sqlite").write_bytes(b"")
    (OUT / "not_sqlite.sqlite").write_text("just some text, not a database\n" * 4, encoding="utf-8")
    conn = sqlite3.connect(OUT / "foreign.sqlite")
    conn.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    conn.execute("INSERT INTO recipes VALUES ('Kartoffelsalat', 40)")
    conn.commit()
    conn.close()

    _ledger(OUT / "newer_format.sqlite", "01-normal.yaml")
    with sqlite3.connect(OUT / "newer_format.sqlite") as conn:
        conn.execute("UPDATE ledger SET value = 'doko-ledger/3' WHERE key = 'format'")

    _ledger(OUT / "unknown_event.sqlite", "01-normal.yaml")
    with sqlite3.connect(OUT / "unknown_event.sqlite") as conn:
        position, prev = conn.execute("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1").fetchone()
        row = [position + 1, "league/2026", 1, "LeagueTableKept", 1, '{"season":"2026"}', AT, BY]
        digest = chain_hash(prev, *row)  # type: ignore[arg-type]
        conn.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)", [*row, prev, digest])
        types = json.loads(conn.execute("SELECT value FROM ledger WHERE key = 'event_types'").fetchone()[0])
        conn.execute(
            "UPDATE ledger SET value = ? WHERE key = 'event_types'",
            [json.dumps(types | {"LeagueTableKept": 1}, sort_keys=True)],
        )

    damaged = OUT / "damaged_page.sqlite"
    _ledger(damaged, "01-normal.yaml", "14-marriage-first-trick.yaml")
    with sqlite3.connect(damaged) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()[0]
    with damaged.open("r+b") as fh:  # the event table's root page: every read of the events fails
        fh.seek((root - 1) * page_size + 8)
        fh.write(b"\xff" * 200)
    print(f"wrote {', '.join(sorted(p.name for p in OUT.iterdir()))}")


if __name__ == "__main__":
    main()
