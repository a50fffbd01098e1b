"""The envelope: where and when an event was recorded, kept apart from its payload."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from doko_ledger.events.codec import dumps_canonical

GENESIS = "0" * 64
"""The `prev_hash` of the first event of every stream."""


@dataclass(frozen=True, slots=True)
class Envelope:
    """Stream, version within the stream, global position, time, author, and the chained hash."""

    stream: str
    version: int
    position: int
    recorded_at: str
    recorded_by: str
    event_type: str
    schema_version: int
    prev_hash: str
    hash: str


@dataclass(frozen=True, slots=True)
class Recorded:
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
