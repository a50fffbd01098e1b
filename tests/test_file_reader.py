"""The file reader: a size limit checked while reading, a byte order mark that keeps the note,
a long note refused with the file, and errors that quote an input only in part."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import ok
from typer.testing import Result

from doko_ledger.errors import EXCERPT, excerpt
from doko_ledger.formats import game_file
from doko_ledger.formats.yaml_source import MAX_FILE_BYTES, SourceError, read_text

Cli = Callable[..., Result]
BAD = Path(__file__).parent / "bad_inputs"
SAMPLE = Path(__file__).parent.parent / "sample_games" / "01-normal.yaml"


def test_a_huge_file_is_refused_after_reading_only_the_limit(tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as file:
        file.truncate(50 * MAX_FILE_BYTES)  # 50 MB (sparse)
    tracemalloc.start()
    with pytest.raises(SourceError, match="larger than 1,000,000 bytes"):
        read_text(huge)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 3 * MAX_FILE_BYTES, peak


def test_dev_zero_is_refused(cli: Cli, ledger_path: Path) -> None:
    result = cli("import", "/dev/zero")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: /dev/zero: file is larger than 1,000,000 bytes",
        "1 file(s) not imported",
    ]
    assert not ledger_path.exists()


def test_a_long_leading_comment_is_the_files_error_and_is_not_echoed(cli: Cli, ledger_path: Path) -> None:
    path = BAD / "long_leading_comment.yaml"
    result = cli("import", path)
    assert result.exit_code == 2
    line = result.stderr.splitlines()[0]
    assert line.startswith(
        f"error: {path}:1: note: the leading comment (the note) has 11,679 characters; at most 10,000 are kept"
    )
    assert "line by line" not in line
    assert not ledger_path.exists()


def test_a_note_of_the_limit_is_kept(cli: Cli, tmp_path: Path) -> None:
    text = (BAD / "long_leading_comment.yaml").read_text(encoding="utf-8")
    body = text[text.index("format:") :]
    note = "x" * 9_998
    path = tmp_path / "at-limit.yaml"
    path.write_text(f"# {note}\n{body}", encoding="utf-8")
    ok(cli("import", path))
    assert ok(cli("export", "2026-11-28-long-note")).stdout.startswith(f"# {note}\n")


def test_a_byte_order_mark_keeps_the_note(cli: Cli, tmp_path: Path) -> None:
    text = "# Anna's birthday\n# (two lines of note)\n" + SAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    loaded = game_file.read_file(path)
    assert loaded.record.note == game_file.read(text).record.note is not None
    ok(cli("import", path))
    assert ok(cli("export", loaded.record.id)).stdout == text


def test_windows_line_ends_read_as_before(tmp_path: Path) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "crlf.yaml"
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert read_text(path) == text


def test_errors_quote_an_excerpt() -> None:
    assert excerpt("short") == "short"
    long = "a" * 1000 + "the end"
    cut = excerpt(long)
    assert len(cut) == EXCERPT and cut.endswith("the end") and "…" in cut
    error = SourceError("value " + "z" * 50_000 + " is too long", source="f.yaml", line=3, field="players[0]")
    assert len(str(error)) < 3 * EXCERPT
    assert str(error).startswith("f.yaml:3: players[0]: value zzz") and str(error).endswith(" is too long")
