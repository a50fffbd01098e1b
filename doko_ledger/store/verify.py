"""Recomputing the ledger's hash chain: the whole log in one pass, one stream, or a format-1 log.

Written against `events.database.Database`, so that both backends verify alike and give the
same head for the same events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from hashlib import sha256
from json.encoder import encode_basestring as _quote
from typing import Any

from doko_ledger.errors import DokoError
from doko_ledger.events.codec import EventCodecError, validate
from doko_ledger.events.envelope import GENESIS, chain_hash, stream_chain_hash
from doko_ledger.i18n import Message, msg
from doko_ledger.store.database import Database
from doko_ledger.store.errors import LedgerDamaged

MAX_PROBLEMS = 50
"""`verify` names at most this many problems (and counts the rest)."""
PAYLOADS_KEPT = 2048
"""Payloads `verify_log` remembers as checked (most recur: a card a seat plays), forgotten all
at once when there are this many: its memory stays the same however long the log."""
STREAMS_KEPT = 4096
"""Streams whose last version `verify_log` remembers, forgotten all at once when there are this
many (a stream seen again later is looked up in the log)."""
COLUMNS = "position, stream, version, type, schema_version, payload, recorded_at, recorded_by, prev_hash, hash"
"""An event row's columns, in the order the chain hashes them (then the two hashes)."""


@dataclass(slots=True)
class VerifyReport:
    """The result of recomputing the hash chain."""

    events: int = 0
    streams: int = 0
    head: str = GENESIS
    position: int = 0
    format: str = ""
    """The ledger's format (`doko-ledger/2`), set by the store."""
    problems: list[Message] = field(default_factory=list)
    """Each problem in the reader's language once rendered (`--json` renders them in English)."""
    more_problems: int = 0
    first_bad_position: int | None = None
    expected: str | None = None
    expected_at: int | None = None
    """The position whose hash is the expected head, when one was given and found."""
    read_models: str = "not checked"
    """Whether the read models are what folding the log gives: `match`, `differ`, `skipped`
    (`--quick`) or `not compared` (`read_models_note` says why)."""
    read_models_note: Message | str = ""
    repair: str | None = None
    """The command that makes the read models the fold of the log again, when they are not."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def problem(self, position: int | None, text: Message) -> None:
        if position is not None and self.first_bad_position is None:
            self.first_bad_position = position
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(text)
        else:
            self.more_problems += 1


READ_MODEL_STATES = {"skipped": msg("skipped"), "not compared": msg("not compared"), "not checked": msg("not checked")}
"""`VerifyReport.read_models` in words, where it says they were not compared."""


class BadHead(DokoError, ValueError):
    """An `--expect` value that is not a head (a SHA-256 hash in hex, or 16+ of its first digits)."""

    exit_code = 2


def expected_head(text: str) -> str:
    head = text.strip().lower()
    if not 16 <= len(head) <= 64 or any(c not in "0123456789abcdef" for c in head):
        raise BadHead(
            msg(
                "--expect {text}: a head is the hash `doko head` prints (64 hex digits, or the first 16+)",
                text=repr(text[:80]),
            )
        )
    return head


def verify_log(
    db: Database,
    wanted: str | None,
    *,
    where: str = "the ledger",
    damaged: tuple[type[Exception], ...] = (),
    translate: Callable[[Exception], Exception] | None = None,
) -> VerifyReport:
    """The one chain over all positions, in a single pass in position order.

    The loop is the hot path of `verify` (bench/): a row that passes every check costs one
    SHA-256 over the text `chain_hash` hashes (built inline, the same way) and a few
    comparisons; only a row that fails one is looked at again, by `_row_problems`. What it
    remembers is bounded (`PAYLOADS_KEPT`, `StreamVersions`): its memory does not grow with
    the log.
    """
    report = VerifyReport()
    versions = StreamVersions(db)  # each stream's last version (`current`'s: in `last`)
    valid: set[tuple[str, int, str]] = set()
    prev, expected, count = GENESIS, 1, 0
    found: int | None = None
    quote, sha = _quote, sha256
    position = 0
    # The stream of the row before and its version: a stream's events mostly follow each other,
    # and comparing the names costs less than looking the stream up in `versions` twice a row.
    current: Any = _NO_STREAM
    last = 0
    try:
        rows = db.stream(f"SELECT {COLUMNS} FROM events ORDER BY position")
        for row in rows:
            position, stream, version, kind, schema_version, payload, at, by, prev_hash, digest = row
            try:
                material = (
                    f"[{quote(prev)},{position},{quote(stream)},{version},{quote(kind)},{schema_version},"
                    f"{quote(payload)},{quote(at)},{quote(by)}]"
                )
                computed: str | None = sha(material.encode("utf-8")).hexdigest()
            except TypeError:  # a value that is not text: `_row_problems` says what
                computed = None
            if stream != current:
                if current is not _NO_STREAM:
                    versions.keep(current, last)
                current, last = stream, versions.last(stream, version, position)
            if not (
                position == expected
                and version == last + 1
                and prev_hash == prev
                and computed == digest
                and type(schema_version) is int
                and ((kind, schema_version, payload) in valid or _valid(kind, schema_version, payload, valid))
            ):
                _row_problems(report, row, prev, expected, last)
            last = version
            if wanted is not None and found is None and str(digest).startswith(wanted):
                found = position
            prev, expected = digest, position + 1
            count += 1
    except damaged as exc:  # the database's own error for a page it cannot read, or for the disk
        failure = None if translate is None else translate(exc)
        if failure is not None and not isinstance(failure, LedgerDamaged):
            raise failure from None  # the disk failed (full, an I/O error), not the file
        raise LedgerDamaged(
            msg("{where} is damaged after position {position}: {problem}", where=where, position=position, problem=exc)
        ) from None
    report.events, report.streams = count, versions.streams
    report.head, report.position, report.expected_at = prev, expected - 1, found
    return report


_NO_STREAM = object()


def _valid(kind: str, schema_version: int, payload: str, valid: set[tuple[str, int, str]]) -> bool:
    if _payload_problem(kind, schema_version, payload) is not None:
        return False
    if len(valid) >= PAYLOADS_KEPT:
        valid.clear()  # a payload forgotten is checked again when it recurs (`validate` caches it too)
    valid.add((kind, schema_version, payload))
    return True


_MISSING = object()


class StreamVersions:
    """Each stream's version at the row before, as the single pass over the log needs it, with
    at most `STREAMS_KEPT` streams remembered: a stream not among them is asked of the log (the
    version of its row just before this position; none: the stream starts here).

    Asking costs a query, so it is spared where the answer is known: while nothing was
    forgotten, a stream not remembered is new; after, so is a stream at its row of version 1,
    unless an earlier row of the stream was seen without one (`late`) or the log holds two rows
    of version 1 of it (`doubled`, asked of the log once). A log as `append` writes it asks
    nothing more, however long it is."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.recent: dict[Any, Any] = {}
        self.forgot = False
        self.streams = 0
        """How many streams the log holds (counted as each is first seen)."""
        self.late: set[Any] = set()
        """The streams whose first row is not of version 1 (none in a log not tampered with)."""
        self._doubled: set[Any] | None = None

    def keep(self, stream: Any, version: Any) -> None:
        """`stream`'s row seen last has `version`."""
        if len(self.recent) >= STREAMS_KEPT and stream not in self.recent:
            self.recent.clear()
            self.forgot = True
        self.recent[stream] = version

    def last(self, stream: Any, version: Any, position: Any) -> Any:
        """The version of `stream`'s row before the row at `position` (0: it has none)."""
        found = self.recent.get(stream, _MISSING)
        if found is not _MISSING:
            return found
        if self.forgot and (version != 1 or stream in self.late or stream in self.doubled()):
            row = self.db.execute(
                "SELECT version FROM events WHERE stream = ? AND position < ? ORDER BY position DESC LIMIT 1",
                [stream, position],
            ).fetchone()
            if row is not None:
                return row[0]
        self.streams += 1  # the stream starts here
        if version != 1:
            self.late.add(stream)
        return 0

    def doubled(self) -> set[Any]:
        """The streams with two rows of version 1 (their key forbids it; a file rewritten
        without the key does not)."""
        if self._doubled is None:
            rows = self.db.execute("SELECT stream FROM events WHERE version = 1 GROUP BY stream HAVING count(*) > 1")
            self._doubled = {name for (name,) in rows}
        return self._doubled


def _row_problems(report: VerifyReport, row: Sequence[Any], prev: str, expected: int, last: int) -> None:
    """What is wrong with one row of the chain (`prev`: the hash of the row before it)."""
    position, stream, version, kind, schema_version, payload, at, by, prev_hash, digest = row
    if position != expected:
        if isinstance(position, int) and position > expected:
            report.problem(
                expected,
                msg(
                    "position {position}: missing (the next event is at {next}); events were deleted or renumbered",
                    position=expected,
                    next=position,
                ),
            )
        else:
            report.problem(
                expected,
                msg(
                    "position {position}: out of order after position {before}; events were renumbered",
                    position=repr(position),
                    before=expected - 1,
                ),
            )
    where = _where(position, stream, version, kind)
    if version != last + 1:
        report.problem(
            position,
            msg(
                "{where}: expected version {version} of its stream; an event of the stream is missing or was moved",
                where=where,
                version=last + 1,
            ),
        )
    elif prev_hash != prev:
        report.problem(
            position,
            msg(
                "{where}: its previous hash is not the hash of the event before it; the chain is broken"
                " (an event before it was altered, deleted or moved)",
                where=where,
            ),
        )
    else:
        computed = chain_hash(prev, position, stream, version, kind, schema_version, payload, at, by)
        _content_problems(report, where, position, computed == digest, kind, schema_version, payload)


def _content_problems(
    report: VerifyReport,
    where: Message,
    position: int,
    hash_matches: bool,
    kind: str,
    schema_version: int,
    payload: str,
) -> None:
    """An event whose link to the one before it holds: its own hash, then its payload's schema."""
    if not hash_matches:
        report.problem(position, msg("{where}: hash does not match its content; the event was altered", where=where))
        return
    text = _payload_problem(kind, schema_version, payload)
    if text:
        report.problem(position, msg("{where}: {problem}", where=where, problem=text))


def _where(position: int, stream: str, version: int, kind: str) -> Message:
    return msg(
        "position {position} (stream {stream} version {version}, {kind})",
        position=position,
        stream=repr(stream),
        version=version,
        kind=kind,
    )


def _missing(where: Message, version: int) -> Message:
    return msg("{where}: expected version {version}; an event is missing", where=where, version=version)


def verify_stream(db: Database, stream_name: str) -> VerifyReport:
    """One stream's events, each checked against the hash of the event before it in the log."""
    report = VerifyReport(streams=0)
    expected_version = 1
    rows = db.execute(
        f"SELECT {COLUMNS}, (SELECT b.hash FROM events b WHERE b.position = events.position - 1)"
        " FROM events WHERE stream = ? ORDER BY version",
        [stream_name],
    )
    for position, stream, version, kind, schema_version, payload, at, by, prev_hash, digest, before in rows:
        report.streams = 1
        report.events += 1
        where = _where(position, stream, version, kind)
        prev = GENESIS if position == 1 else before
        if version != expected_version:
            report.problem(position, _missing(where, expected_version))
        elif prev is None:
            report.problem(
                position - 1,
                msg(
                    "{where}: the event before it in the log (position {before}) is missing",
                    where=where,
                    before=position - 1,
                ),
            )
        elif prev_hash != prev:
            report.problem(
                position,
                msg(
                    "{where}: its previous hash is not the hash of the event before it; the chain is broken",
                    where=where,
                ),
            )
        else:
            computed = chain_hash(prev, position, stream, version, kind, schema_version, payload, at, by)
            _content_problems(report, where, position, computed == digest, kind, schema_version, payload)
        expected_version, report.head, report.position = version + 1, digest, position
    return report


def verify_v1(db: Database, stream_name: str | None, wanted: str | None = None) -> VerifyReport:
    """Format 1: a chain within each stream, positions not hashed (checked before an upgrade,
    and for a ledger that cannot be upgraded)."""
    report = VerifyReport()
    stream, expected_version, prev = None, 1, GENESIS
    if stream_name is None:
        rows = db.stream(f"SELECT {COLUMNS} FROM events ORDER BY stream, version")
    else:
        rows = db.execute(f"SELECT {COLUMNS} FROM events WHERE stream = ? ORDER BY version", [stream_name])
    for row in rows:
        position, name, version, kind, schema_version, payload, at, by, prev_hash, digest = row
        if name != stream:
            stream, expected_version, prev = name, 1, GENESIS
            report.streams += 1
        report.events += 1
        where = _where(position, name, version, kind)
        if version != expected_version:
            report.problem(position, _missing(where, expected_version))
        elif prev_hash != prev:
            report.problem(position, msg("{where}: previous hash does not match; the chain is broken", where=where))
        else:
            computed = stream_chain_hash(prev, name, version, kind, schema_version, payload, at, by)
            _content_problems(report, where, position, computed == digest, kind, schema_version, payload)
        if wanted is not None and report.expected_at is None and digest.startswith(wanted):
            report.expected_at = position
        expected_version, prev = version + 1, digest
    if stream_name is not None:
        return report
    positions = db.execute("SELECT count(*), coalesce(max(position), 0) FROM events").fetchone()
    if positions[0] != positions[1]:
        report.problem(
            None,
            msg(
                "global positions run to {last} but only {count} events exist; events were deleted",
                last=positions[1],
                count=positions[0],
            ),
        )
    head = db.execute("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1").fetchone()
    report.position, report.head = (int(head[0]), str(head[1])) if head else (0, GENESIS)
    return report


def _payload_problem(kind: str, schema_version: int, payload: str) -> str | None:
    try:
        validate(kind, schema_version, payload)
    except EventCodecError as exc:
        return str(exc)
    return None
