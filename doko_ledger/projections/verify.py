"""Whether the read models are exactly what folding the log gives (`doko verify`).

The log is folded again, with the projections' own code, into tables of their own beside the
ledger's (`EventStore.read_models_beside`: in memory on SQLite, temporary tables of a
transaction that is rolled back on PostgreSQL; nothing is written to the ledger), and each
table is compared with the ledger's by SQL `EXCEPT`, both ways: every row and every column.
How far each projection has folded the log (its position) is compared too.

Read models merely behind the log (not caught up yet) are caught up first, as any read does;
on a ledger that cannot be written they are then not compared, and the report says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message, msg
from doko_ledger.numbers import shortened
from doko_ledger.projections import runner
from doko_ledger.store.base import EventStore
from doko_ledger.store.database import Database
from doko_ledger.store.verify import VerifyReport

SHOWN = 3
"""Differences named per table; the rest are counted."""
REPAIR = "doko rebuild"


def check_read_models(
    store: EventStore,
    projections: Sequence[runner.Projection],
    report: VerifyReport,
    *,
    quick: bool,
    catch_up: Callable[[], None],
) -> None:
    """Add to `report` every way the read models differ from the fold of the log, and say
    whether they were compared; with `quick`, only what their positions show (a log emptied or
    cut short under them). A log that does not verify is not folded (an unknown `format` row
    alone does not stop it)."""
    log_verified = not report.more_problems and all(p == store.format_problem for p in report.problems)
    before = len(report.problems) + report.more_problems
    end = store.last_position()
    tables = store.db.table_names()
    positions = _positions(store.db, runner.POSITIONS if runner.POSITIONS in tables else None, projections)
    _check_positions(store.db, [t for p in projections for t in p.tables if t in tables], positions, end, report)
    if quick:
        _not_compared(report, "skipped", msg("--quick: the read models were not compared with the log"))
    elif not log_verified:
        _not_compared(report, "not compared", msg("the log itself does not verify"))
    elif any(p > end for p in positions.values()) or all(p == end for p in positions.values()):
        _compare(store, projections, report)
    elif store.read_only is not None:
        why = msg("they are behind the log, and this ledger cannot be written to catch them up")
        _not_compared(report, "not compared", why)
    else:  # merely behind: caught up as by any read, then compared
        catch_up()
        _compare(store, projections, report)
    if len(report.problems) + report.more_problems > before:
        report.read_models, report.repair = "differ", REPAIR


def _check_positions(
    db: Database, tables: Sequence[str], positions: Mapping[str, int], end: int, report: VerifyReport
) -> None:
    """A projection that has folded further than the log reaches: events were deleted under it."""
    if end == 0:
        held = sum(_count(db, table) for table in tables)
        if held or any(positions.values()):
            report.problem(
                None,
                msg(
                    "the log is empty, but the read models hold {rows} rows (folded up to position {position}):"
                    " its events were deleted, or the read models are another log's",
                    rows=held,
                    position=max(positions.values(), default=0),
                ),
            )
        return
    for name, position in positions.items():
        if position > end:
            report.problem(
                None,
                msg(
                    "read model {name} has folded the log up to position {position}, but the log ends at position"
                    " {end}: events were deleted, or the read models are another log's",
                    name=name,
                    position=position,
                    end=end,
                ),
            )


def _compare(store: EventStore, projections: Sequence[runner.Projection], report: VerifyReport) -> None:
    """Fold the log beside the read models, in one snapshot of both, and compare every table."""
    if store.read_models_private:
        return _not_compared(report, "not compared", msg("they were caught up in a private copy"))
    with store.read_models_beside() as (db, stored):
        try:
            runner.fold_anew(EventStore(db, where=store.where), projections)
        except (DokoError, ValueError) as exc:
            report.problem(None, msg("the log cannot be folded into read models: {problem}", problem=exc))
            return None
        kept = _positions(db, stored.get(runner.POSITIONS), projections)
        if any(kept[p.name] < runner.position(db, p) for p in projections):
            why = msg("another writer recorded while they were compared: run `doko verify` again")
            return _not_compared(report, "not compared", why)
        for projection in projections:
            for table, keys in projection.tables.items():
                _compare_table(db, table, stored.get(table), keys, report)
    report.read_models = "match"
    return None


def _not_compared(report: VerifyReport, status: str, why: Message) -> None:
    report.read_models, report.read_models_note = status, why


def _positions(db: Database, table: str | None, projections: Sequence[runner.Projection]) -> dict[str, int]:
    """How far each projection has folded the log as `table` records it (0 for none)."""
    found: dict[str, int] = {}
    if table is not None:
        names = [p.name for p in projections]
        marks = ", ".join("?" * len(names))
        found = {
            str(n): int(p) for n, p in db.execute(f"SELECT name, position FROM {table} WHERE name IN ({marks})", names)
        }
    return {p.name: found.get(p.name, 0) for p in projections}


def _count(db: Database, table: str) -> int:
    return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def _compare_table(db: Database, table: str, stored: str | None, keys: tuple[str, ...], report: VerifyReport) -> None:
    """The rows of the ledger's `stored` table against the fold's `table`: each key whose rows
    differ, a few named and the rest counted. A table the ledger lacks holds no rows."""
    if stored is None:
        rows = _count(db, table)
        if rows:
            report.problem(
                None, msg("read model table {table} is missing (the log gives {rows} rows)", table=table, rows=rows)
            )
        return
    columns = db.columns(table)
    kept = [c[0] for c in db.execute(f"SELECT * FROM {stored} LIMIT 0").description]
    if kept != columns:
        report.problem(
            None,
            msg(
                "read model table {table}: its columns are ({kept}); the log's fold has ({folded})",
                table=table,
                kept=", ".join(kept),
                folded=", ".join(columns),
            ),
        )
        return
    names = ", ".join(f'"{c}"' for c in columns)
    only_kept = f"SELECT {names} FROM {stored} EXCEPT SELECT {names} FROM {table}"
    only_folded = f"SELECT {names} FROM {table} EXCEPT SELECT {names} FROM {stored}"
    key_names = ", ".join(f'"{k}"' for k in keys)
    differing = f"SELECT {key_names} FROM ({only_kept}) AS a UNION SELECT {key_names} FROM ({only_folded}) AS b"
    count = int(db.execute(f"SELECT count(*) FROM ({differing}) AS k").fetchone()[0])
    if count == 0:
        held, given = _count(db, stored), _count(db, table)
        if held != given:
            report.problem(
                None,
                msg(
                    "read model table {table} holds {rows} rows, the log gives {given}",
                    table=table,
                    rows=held,
                    given=given,
                ),
            )
        return
    first = db.execute(f"SELECT {key_names} FROM ({differing}) AS k ORDER BY {key_names} LIMIT {SHOWN}").fetchall()
    where = " AND ".join(f'"{k}" = ?' for k in keys)
    for key in first:
        row_kept = db.execute(f"SELECT {names} FROM {stored} WHERE {where}", list(key)).fetchone()
        row_folded = db.execute(f"SELECT {names} FROM {table} WHERE {where}", list(key)).fetchone()
        report.problem(
            None,
            msg(
                "read model {table} ({key}): {difference}",
                table=table,
                key=_key_text(keys, key),
                difference=_difference(columns, row_kept, row_folded),
            ),
        )
    if count > SHOWN:
        report.problem(
            None,
            msg("read model {table}: {count} more rows differ from the log's fold", table=table, count=count - SHOWN),
        )


def _key_text(keys: tuple[str, ...], values: Sequence[Any]) -> str:
    return ", ".join(f"{k} {_shown(v)}" for k, v in zip(keys, values, strict=True))


def _difference(columns: list[str], kept: Sequence[Any] | None, folded: Sequence[Any] | None) -> Message:
    if kept is None:
        return msg("missing (the log gives this row)")
    if folded is None:
        return msg("a row the log does not give")
    changed = [(c, k, f) for c, k, f in zip(columns, kept, folded, strict=True) if k != f]
    if not changed:
        return msg("differs from the log's fold")
    return _joined(
        [
            msg("{column} is {kept}, the log gives {folded}", column=c, kept=_shown(k), folded=_shown(f))
            for c, k, f in changed[:4]
        ]
    )


def _joined(parts: list[Message]) -> Message:
    """Differences one after the other, each in the reader's language."""
    text = parts[0]
    for part in parts[1:]:
        text = msg("{first}; {then}", first=text, then=part)
    return text


def _shown(value: Any) -> Message | str:
    if value is None:
        return msg("empty")
    if isinstance(value, str):
        return repr(shortened(value, 60))
    return str(value)
