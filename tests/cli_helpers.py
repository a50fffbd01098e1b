"""What the CLI tests share: a command that succeeded, a clean refusal, JSON and table output,
and the bytes of a ledger."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
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


def run_doko(
    db: str | Path, *args: str | Path, preexec_fn: Callable[[], None] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`doko --db DB ARGS...` in a child process: for what a test cannot do to itself (drop the
    powers of root, limit the size of files, risk waiting forever on a named pipe). `timeout`
    only stops a child that hangs: it fails the test."""
    script = Path(sys.executable).parent / "doko"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "doko_ledger.cli.app"]
    env = {k: v for k, v in os.environ.items() if k != "DOKO_DB"} | {"COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [*command, "--db", str(db), *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        preexec_fn=preexec_fn,
    )


def one_error_line(done: subprocess.CompletedProcess[str], code: int, *fragments: str) -> str:
    """`refused` for a child process: exit `code`, no traceback, one `error:` line naming `fragments`
    (besides `doko import`'s count of files not imported)."""
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip() and not line.endswith("not imported")]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
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
    row of every table of the PostgreSQL database. Not the -shm file, SQLite's index of the WAL
    in shared memory: a connection kept open (a server's) marks its reads there."""
    if isinstance(target, Path):
        files = sorted(p for p in target.parent.glob(target.name + "*") if not p.name.endswith("-shm"))
        return {p.name: p.read_bytes() for p in files}
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
