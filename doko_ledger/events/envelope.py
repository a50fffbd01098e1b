"""The envelope: where and when an event was recorded, kept apart from its payload."""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

from doko_ledger.events.codec import dumps_canonical

GENESIS = "0" * 64
"""The `prev_hash` of the first event of every stream."""


class Envelope(NamedTuple):
    """Stream, version within the stream, global position, time, author, and the chained hash.

    A NamedTuple rather than a frozen dataclass: one is built for every row read.
    """

    stream: str
    version: int
    position: int
    recorded_at: str
    recorded_by: str
    event_type: str
    schema_version: int
    prev_hash: str
    hash: str


class Recorded(NamedTuple):
    """A stored event: its envelope and the (upcast) event."""

    envelope: Envelope
    event: Any


def chain_hash(
    prev_hash: str,
    stream: str,
    version: int,
    event_type: str,
    schema_version: int,
    payload_text: str,
    recorded_at: str,
    recorded_by: str,
) -> str:
    """SHA-256 over the previous hash and everything stored of an event except its position."""
    material: list[Any] = [
        prev_hash,
        stream,
        version,
        event_type,
        schema_version,
        payload_text,
        recorded_at,
        recorded_by,
    ]
    return hashlib.sha256(dumps_canonical(material).encode("utf-8")).hexdigest()
