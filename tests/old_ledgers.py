"""Ledgers written by earlier versions, kept in `tests/fixtures/`, and how today's answers are
compared with what those versions printed and stored."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from doko_ledger.doppelkopf.rules.ruleset import RuleSet

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NEW_OPTIONS = ("bock_overlap", "bock_effect", "counting")
"""Rule options added since the fixtures were written: a rule set printed today shows them too."""

Table = tuple[tuple[str, ...], list[tuple[object, ...]]]


def read_models(path: Path) -> dict[str, Table]:
    """Every read-model table of an SQLite ledger: its columns and its rows, sorted (not where
    each projection stands, which names the projection's version)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [
            name
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            if name not in {"events", "ledger", "projection_positions", "night_folds"}
            and not name.startswith("sqlite_")
        ]
        out = {}
        for name in names:
            cursor = conn.execute(f'SELECT * FROM "{name}"')
            columns = tuple(d[0] for d in cursor.description)
            out[name] = (columns, sorted(cursor.fetchall(), key=repr))
        return out
    finally:
        conn.close()


def as_then(now: dict[str, Table], then: dict[str, Table]) -> dict[str, Table]:
    """Today's read models in the columns the old version had, after checking that every column
    added since holds one value in every row (what a column new to old rows can only hold).
    Today's `tricks`, `parties` and `score_lines` (a row per game) are first unfolded into a row
    per trick, per seat and per line, as they were kept before."""
    out = {}
    for name, (columns, rows) in now.items():
        if name not in then:
            continue
        if name == "tricks" and "number" in then[name][0]:
            columns, rows = per_trick((columns, rows))
        if name == "parties" and "seat" in then[name][0]:
            columns, rows = per_seat((columns, rows))
        if name == "score_lines" and "number" in then[name][0]:
            columns, rows = per_line((columns, rows))
        old = then[name][0]
        keep = [columns.index(c) for c in old if c in columns]
        for added in (i for i, c in enumerate(columns) if c not in old):
            assert len({row[added] for row in rows}) <= 1, f"{name}.{columns[added]} differs between old rows"
        out[name] = (tuple(columns[i] for i in keep), sorted((tuple(row[i] for i in keep) for row in rows), key=repr))
    return out


def per_trick(tricks: Table) -> Table:
    """The `tricks` table as a row per trick (`game_id`, `number`, `leader`, `cards`, `winner`,
    `points`) from today's row per game, whose columns hold a JSON list each, trick by trick."""
    columns, rows = tricks
    lists = [columns.index(c) for c in ("leaders", "cards", "winners", "points")]
    game_id = columns.index("game_id")
    out = [
        (row[game_id], number, *trick)
        for row in rows
        for number, trick in enumerate(zip(*(json.loads(str(row[i])) for i in lists), strict=True), 1)
    ]
    return ("game_id", "number", "leader", "cards", "winner", "points"), sorted(out, key=repr)


def per_seat(parties: Table) -> Table:
    """The `parties` table as a row per seat (`game_id`, `seat`, `player`, `party`,
    `public_in_trick`, `public_cause`) from today's row per game, with those columns per seat."""
    columns, rows = parties
    fields = ("player", "party", "public_in_trick", "public_cause")
    game_id = columns.index("game_id")
    out = [
        (row[game_id], seat, *(row[columns.index(f"{field}{seat}")] for field in fields))
        for row in rows
        for seat in range(4)
    ]
    return ("game_id", "seat", *fields), sorted(out, key=repr)


def per_line(score_lines: Table) -> Table:
    """The `score_lines` table as a row per line (`game_id`, `number`, `item`, `party`, `points`,
    `factor`, `special`, `cause`) from today's row per game, whose columns hold a JSON list each,
    line by line (a special point as 1 or 0, as the old rows kept it)."""
    columns, rows = score_lines
    lists = [columns.index(c) for c in ("items", "parties", "points", "factors", "specials", "causes")]
    game_id = columns.index("game_id")
    out = [
        (row[game_id], number, item, party, points, factor, int(special), cause)
        for row in rows
        for number, (item, party, points, factor, special, cause) in enumerate(
            zip(*(json.loads(str(row[i])) for i in lists), strict=True), 1
        )
    ]
    return ("game_id", "number", "item", "party", "points", "factor", "special", "cause"), sorted(out, key=repr)


def as_written_then(answer: object, then: object) -> object:
    """A `--json` answer as the old version could have written it: only the keys its answer
    `then` had (an answer may say more today, never something else), and without the rule
    options added since, each of which must hold its default (the rules the old games were
    played under are unchanged)."""
    if isinstance(answer, list) and isinstance(then, list) and len(answer) == len(then):
        return [as_written_then(item, old) for item, old in zip(answer, then, strict=True)]
    if not isinstance(answer, dict) or not isinstance(then, dict):
        return answer
    if "preset" in answer and "with_nines" in answer:
        defaults = RuleSet().to_dict()
        assert {k: answer.get(k) for k in NEW_OPTIONS} == {k: defaults[k] for k in NEW_OPTIONS}
    return {k: as_written_then(v, then[k]) for k, v in answer.items() if k in then}
