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
calls the one it knows (made on open when missing, `ensure_append_function`).
"""

from __future__ import annotations

from collections.abc import Sequence
from json.encoder import encode_basestring
from typing import Any, NamedTuple

from doko_ledger.events.envelope import GENESIS
from doko_ledger.store.base import EncodedBatch

NAME = "doko_append_v1"
ARGUMENTS = (
    "lock_ms bigint, types_seen text, types_noted text, stream_names text[], expected_versions bigint[],"
    " row_streams text[], row_versions bigint[], row_types text[], row_schemas bigint[], row_payloads text[],"
    " row_tails text[], at_time text, by_whom text"
)
CALL = f"SELECT * FROM {NAME}(?, ?, ?, ?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?, ?)"  # noqa: E501

FUNCTION = f"""
CREATE OR REPLACE FUNCTION {NAME}(
    {ARGUMENTS},
    OUT outcome text, OUT head_position bigint, OUT head_hash text, OUT hashes text[],
    OUT versions_found bigint[], OUT types_found text
) LANGUAGE plpgsql AS $$
DECLARE
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
        coalesce((SELECT max(e.version) FROM events e WHERE e.stream = s.name), 0) ORDER BY s.i), '{{}}')
        INTO versions_found FROM unnest(stream_names) WITH ORDINALITY AS s(name, i);
    IF versions_found IS DISTINCT FROM expected_versions THEN
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
    FOR i IN 1 .. coalesce(array_length(row_tails, 1), 0) LOOP
        prev := encode(sha256(convert_to(
            '[' || to_json(prev)::text || ',' || (head_position + i)::text || ',' || row_tails[i], 'UTF8')), 'hex');
        hashes[i] := prev;
    END LOOP;
    INSERT INTO events (position, stream, version, type, schema_version, payload, recorded_at, recorded_by,
                        prev_hash, hash)
        SELECT head_position + r.i, r.stream, r.version, r.type, r.schema_version, r.payload, at_time, by_whom,
               coalesce(hashes[r.i - 1], head_hash), hashes[r.i]
        FROM unnest(row_streams, row_versions, row_types, row_schemas, row_payloads)
            WITH ORDINALITY AS r(stream, version, type, schema_version, payload, i);
    IF types_noted IS NOT NULL THEN
        UPDATE ledger SET value = types_noted WHERE key = 'event_types';
    END IF;
    outcome := 'appended';
END
$$
"""
"""The function, made with the ledger's tables (`_create_tables`) or on open (`ensure_append_function`)."""

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


def follows_on(encoded: Sequence[EncodedBatch]) -> bool:
    """Whether every batch of a stream that had a batch before it expects the version that one
    leaves: then checking each stream's first batch against the log checks them all."""
    leaves: dict[str, int] = {}
    for batch, items in encoded:
        if type(batch.expected_version) is not int or leaves.get(batch.stream, batch.expected_version) != (
            batch.expected_version
        ):
            return False
        leaves[batch.stream] = batch.expected_version + len(items)
    return True


def arguments(
    encoded: Sequence[EncodedBatch], at: str, by: str, *, lock_ms: int, types_seen: str | None, types_noted: str | None
) -> list[Any]:
    """The function's arguments for these batches (`follows_on`), recorded at `at` by `by`."""
    quote = encode_basestring  # as chain_hash quotes
    expected: dict[str, int] = {}
    streams, versions, kinds, schemas, payloads, tails = [], [], [], [], [], []
    quoted_by = f"{quote(at)},{quote(by)}]"
    for batch, items in encoded:
        stream, version = batch.stream, batch.expected_version
        expected.setdefault(stream, version)
        quoted_stream = quote(stream)
        for name, schema_version, payload in items:
            version += 1
            streams.append(stream)
            versions.append(version)
            kinds.append(name)
            schemas.append(schema_version)
            payloads.append(payload)
            tails.append(f"{quoted_stream},{version},{quote(name)},{schema_version},{quote(payload)},{quoted_by}")
    return [
        lock_ms,
        types_seen,
        types_noted,
        list(expected),
        list(expected.values()),
        streams,
        versions,
        kinds,
        schemas,
        payloads,
        tails,
        at,
        by,
    ]
