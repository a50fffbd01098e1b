"""The envelope: where and when an event was recorded, kept apart from its payload."""

from __future__ import annotations

from hashlib import sha256
from json.encoder import encode_basestring
from typing import Any, NamedTuple

from doko_ledger.events.codec import dumps_canonical

_quote = encode_basestring
"""How the JSON encoder writes a string when `ensure_ascii` is off (`dumps_canonical`)."""

GENESIS = "0" * 64
"""The `prev_hash` of the first event of the log: the head of an empty ledger."""


class Envelope(NamedTuple):
    """Stream, version within the stream, global position, time, author, and the chained hash.

    `prev_hash` is the hash of the event before this one in the log (position - 1), so the
    hash of the newest event, the head, covers every event of every stream.
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
    position: int,
    stream: str,
    version: int,
    event_type: str,
    schema_version: int,
    payload_text: str,
    recorded_at: str,
    recorded_by: str,
) -> str:
    """SHA-256 over the hash of the event before in the log and everything stored of an event:
    over the canonical JSON text (`dumps_canonical`) of the list of those values, position
    second."""
    if type(position) is int and type(version) is int and type(schema_version) is int:
        try:  # `dumps_canonical([...])` written out for the append path: the same text at a third of the cost
            material = (
                f"[{_quote(prev_hash)},{position},{_quote(stream)},{version},{_quote(event_type)},{schema_version},"
                f"{_quote(payload_text)},{_quote(recorded_at)},{_quote(recorded_by)}]"
            )
        except TypeError:  # a value that is not text
            pass
        else:
            return sha256(material.encode("utf-8")).hexdigest()
    values = [prev_hash, position, stream, version, event_type, schema_version, payload_text, recorded_at, recorded_by]
    return sha256(dumps_canonical(values).encode("utf-8")).hexdigest()


def stream_chain_hash(
    prev_hash: str,
    stream: str,
    version: int,
    event_type: str,
    schema_version: int,
    payload_text: str,
    recorded_at: str,
    recorded_by: str,
) -> str:
    """The hash of format `doko-ledger/1`, chained within each stream and without the position:
    kept to check an old ledger's chains before it is upgraded."""
    values = [prev_hash, stream, version, event_type, schema_version, payload_text, recorded_at, recorded_by]
    return sha256(dumps_canonical(values).encode("utf-8")).hexdigest()
