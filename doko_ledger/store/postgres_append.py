"""An append to a PostgreSQL ledger in one round trip: a function of the ledger's schema does
under the write lock what `EventStore._append_encoded` does statement by statement.

`doko_append_v1` takes the lock, compares the `event_types` row with the one the store last
checked, reads every stream's version and the head, chains the hashes on from the head,
inserts the rows and writes the `event_types` row the store says; it commits with the
statement. When the row or a version is not as the store expects, it writes nothing and says
what it found, so that the store raises the same errors as on SQLite.

The hashes are `chain_hash`'s, to the byte: the store sends each event's part of the hashed
text after its position (JSON-quoted as `chain_hash` quotes it), the function puts the hash
before and the position in front of it (a hex digest and an integer, written the same in
JSON and in SQL) and takes the SHA-256 of its UTF-8 bytes.

A changed function gets a new name: a ledger keeps the one its makers made, and each program
calls the one it knows (made on open when missing, `PostgresEventStore._ensure_append_function`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from json.encoder import encode_basestring
from typing import Any, NamedTuple

from doko_ledger.events.envelope import GENESIS
from doko_ledger.store.base import EncodedBatch

NAME = "doko_append_v1"
CALL = f"SELECT * FROM {NAME}(?, ?, ?, ?, ?, ?, ?)"

FUNCTION = f"""
CREATE OR REPLACE FUNCTION {NAME}(
    lock_ms bigint, types_seen text, types_noted text, streams jsonb, new_rows jsonb, at_time text, by_whom text,
    OUT outcome text, OUT head_position bigint, OUT head_hash text, OUT hashes text[],
    OUT versions_found bigint[], OUT types_found text
) LANGUAGE plpgsql AS $$
DECLARE
    expected bigint[];
    tail text;
    prevs text[] := '{{}}';
    n integer := 0;
    prev text;
BEGIN
    PERFORM set_config('lock_timeout', lock_ms::text, true);
    LOCK TABLE events IN EXCLUSIVE MODE;
    SELECT value INTO types_found FROM ledger WHERE key = 'event_types';
    IF types_found IS NULL OR types_found IS DISTINCT FROM types_seen THEN
        outcome := 'types';
        RETURN;
    END IF;
    types_found := NULL;
    SELECT coalesce(array_agg(
               coalesce((SELECT max(e.version) FROM events e WHERE e.stream = s.item->>0), 0) ORDER BY s.i), '{{}}'),
           coalesce(array_agg((s.item->>1)::bigint ORDER BY s.i), '{{}}')
        INTO versions_found, expected FROM jsonb_array_elements(streams) WITH ORDINALITY AS s(item, i);
    IF versions_found IS DISTINCT FROM expected THEN
        outcome := 'versions';
        RETURN;
    END IF;
    versions_found := NULL;
    SELECT e.position, e.hash INTO head_position, head_hash FROM events e ORDER BY e.position DESC LIMIT 1;
    IF head_position IS NULL THEN
        head_position := 0;
        head_hash := '{GENESIS}';
    END IF;
    prev := head_hash;
    hashes := '{{}}';
    FOR tail IN SELECT r.item->>5 FROM jsonb_array_elements(new_rows) WITH ORDINALITY AS r(item, i) ORDER BY r.i LOOP
        n := n + 1;
        prevs[n] := prev;
        prev := encode(sha256(convert_to(
            '[' || to_json(prev)::text || ',' || (head_position + n)::text || ',' || tail, 'UTF8')), 'hex');
        hashes[n] := prev;
    END LOOP;
    INSERT INTO events (position, stream, version, type, schema_version, payload, recorded_at, recorded_by,
                        prev_hash, hash)
        SELECT head_position + r.i, r.item->>0, (r.item->>1)::bigint, r.item->>2, (r.item->>3)::bigint, r.item->>4,
               at_time, by_whom, r.prev, r.digest
        FROM ROWS FROM (jsonb_array_elements(new_rows), unnest(prevs), unnest(hashes)) WITH ORDINALITY
            AS r(item, prev, digest, i);
    IF types_noted IS NOT NULL THEN
        UPDATE ledger SET value = types_noted WHERE key = 'event_types';
    END IF;
    outcome := 'appended';
END
$$
"""
"""The function, made with the ledger's tables or on open. The streams and the rows come as
JSON texts, `[[stream, expected version], ...]` and `[[stream, version, type, schema version,
payload, the hashed text after the position], ...]`: one parameter each, which the client
writes and the server reads in C (arrays of text parameters cost the client about 45 µs an
event), as `jsonb` (read once, not at each `->>`)."""

EXISTS = "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() AND p.proname = ?"  # noqa: E501
"""Whether the ledger's schema (where its tables are) has the function."""


class Appended(NamedTuple):
    """What the function answers: `outcome` ('appended', 'types' or 'versions') and what it found."""

    outcome: str
    head_position: int | None
    head_hash: str | None
    hashes: list[str] | None
    versions_found: list[int] | None
    types_found: str | None


ROWS_AT_MOST = 200
"""The most events an append writes through the function. More go in by the statements of
`EventStore` (a COPY), beside which their eight round trips are little: at 1,000 events the
function took 1.7 times as long, chaining the hashes in PL/pgSQL (bench/RESULTS.md)."""


def serves(encoded: Sequence[EncodedBatch]) -> bool:
    """Whether the function serves these batches: at least one and at most `ROWS_AT_MOST`
    events, and every batch of a stream that had a batch before it expects the version that
    one leaves (then checking each stream's first batch against the log checks them all)."""
    if not encoded or sum(len(items) for _, items in encoded) > ROWS_AT_MOST:
        return False
    leaves: dict[str, int] = {}
    for batch, items in encoded:
        expected = batch.expected_version
        if type(expected) is not int or leaves.get(batch.stream, expected) != expected:
            return False
        leaves[batch.stream] = expected + len(items)
    return True


def arguments(
    encoded: Sequence[EncodedBatch], at: str, by: str, *, lock_ms: int, types_seen: str | None, types_noted: str | None
) -> list[Any]:
    """The function's arguments for these batches (`serves`), recorded at `at` by `by`."""
    quote = encode_basestring  # as chain_hash quotes
    expected: dict[str, int] = {}
    rows = []
    quoted_by = f"{quote(at)},{quote(by)}]"
    for batch, items in encoded:
        stream, version = batch.stream, batch.expected_version
        expected.setdefault(stream, version)
        quoted_stream = quote(stream)
        for name, schema_version, payload in items:
            version += 1
            tail = f"{quoted_stream},{version},{quote(name)},{schema_version},{quote(payload)},{quoted_by}"
            rows.append((stream, version, name, schema_version, payload, tail))
    return [lock_ms, types_seen, types_noted, _json(list(expected.items())), _json(rows), at, by]


_json = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":")).encode
"""JSON text as the server reads it back to the same strings (UTF-8 kept, a control character escaped)."""
