"""What the CLI tests share: a command that succeeded, a clean refusal, JSON and table output,
and the bytes of a ledger."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from backends import Client
from typer.testing import Result


def ok(result: Result) -> Result:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result


def refused(result: Result, *fragments: str) -> str:
    """A clean refusal: non-zero exit, no traceback, one `error:` line on stderr naming `fragments`."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def as_json(result: Result) -> Any:
    return json.loads(ok(result).stdout)


def flat(text: str) -> str:
    """The text with Rich's line wrapping undone (runs of white space made one space)."""
    return " ".join(text.split())


def table_rows(text: str) -> list[list[str]]:
    """The cells of every row of the Rich tables in `text`."""
    return [[c.strip() for c in line.split("│")[1:-1]] for line in text.splitlines() if line.startswith("│")]


def snapshot(target: str | Path) -> dict[str, Any]:
    """Everything stored of a ledger: the bytes of the file and any journal beside it, or every
    row of every table of the PostgreSQL database."""
    if isinstance(target, Path):
        return {p.name: p.read_bytes() for p in sorted(target.parent.glob(target.name + "*"))}
    with Client(target) as conn:
        tables = [r[0] for r in conn.rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]
        return {t: sorted(map(repr, conn.rows(f'SELECT * FROM "{t}"'))) for t in sorted(tables)}


def exists(target: str | Path) -> bool:
    """Whether there is a ledger (its file, or its event table in the database)."""
    if isinstance(target, Path):
        return target.exists()
    with Client(target) as conn:
        return conn.has_table("events")


def listed_games(text: str) -> list[tuple[list[str], str]]:
    """`doko games`' output as (cells of a game's first line, its result line) per game: the
    number, id, day and `type · rules` are parted by two spaces."""
    lines = text.splitlines()
    games = []
    for at, line in enumerate(lines):
        cells = [c for c in line.strip().split("  ") if c]
        if cells and cells[0].startswith("#") and cells[0][1:].isdigit():
            games.append((cells, lines[at + 1].strip() if at + 1 < len(lines) else ""))
    return games
