"""The file reader: a size limit checked while reading, a byte order mark that keeps the note,
a long note refused with the file, and errors that quote an input only in part."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import ok
from typer.testing import Result

from doko_ledger.doppelkopf.files import game_file
from doko_ledger.errors import EXCERPT, FieldPath, excerpt
from doko_ledger.formats.yaml_source import MAX_FILE_BYTES, SourceError, read_text

Cli = Callable[..., Result]
BAD = Path(__file__).parents[1] / "bad_inputs"
SAMPLE = Path(__file__).parents[2] / "sample_games" / "01-normal.yaml"


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
        "1 file not imported",
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


# -- one pass of libyaml, the same data and errors as PyYAML's own loader -----------------------

YAML_FILES = sorted(
    [*BAD.glob("*.yaml"), *(Path(__file__).parents[2] / "sample_games").rglob("*.yaml")], key=lambda p: p.name
)
MORE_YAML = {
    "scalars": "a: 1\nb: -2_0\nc: 1.5\nd: .inf\ne: -.Inf\nf: true\ng: False\nh: ~\ni: null\nj: ''\nk: 9:3\n"
    "l: yes\nm: 2026-11-28\nn: '7'\no: !!str 8\np: 0x1F\nq: 1e5\nr: 1.0e+5\ns:\nt: |\n  block\n",
    "keys": "1: one\ntrue: t\nnull: n\n'x': [a, [b, {c: d}]]\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "tag on a list": "a: !!python/object/apply:os.system [ls]\n",
    "duplicate in a nested map": "a:\n  b: 1\n  b: 2\n",
    "key is a map": "? {a: 1}\n: x\n",
    "unused anchor": "a: &x 1\n",
    "nan": "a: .nan\n",
}


def _outcome(text: str, parser: type) -> object:
    from doko_ledger.formats import yaml_source

    saved = yaml_source._Parser
    yaml_source._Parser = parser
    try:
        doc = yaml_source.parse_yaml(text, "f.yaml")
    except SourceError as exc:
        return ("error", str(exc))
    finally:
        yaml_source._Parser = saved
    lines = {str(path): doc.line_of(path) for path in _paths(doc.data)}
    return ("data", repr(doc.data), lines)


def _paths(data: object, path: FieldPath = ()) -> list[FieldPath]:
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*path, str(key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            out += _paths(value, (*path, index))
    return out


def _texts() -> list[tuple[str, str]]:
    texts = [(p.name, p.read_bytes().decode("utf-8", "replace")) for p in YAML_FILES]
    return texts + list(MORE_YAML.items())


@pytest.mark.parametrize(("name", "text"), _texts(), ids=[name for name, _ in _texts()])
def test_libyaml_and_the_pure_parser_read_the_same(name: str, text: str) -> None:
    import yaml

    from doko_ledger.formats import yaml_source

    fast = _outcome(text, yaml.CSafeLoader)
    assert fast == _outcome(text, yaml_source._Loader)
    if fast[0] == "data":  # and the data is what PyYAML's loader builds from the same text
        assert fast[1] == repr(yaml.load(text.removeprefix("\ufeff"), Loader=yaml_source._Loader))


def test_the_checks_hold_with_libyaml() -> None:
    import yaml

    from doko_ledger.formats import yaml_source

    assert yaml_source._Parser is yaml.CSafeLoader
    cases = {
        "a: &x [1]\nb: *x\n": "f.yaml:1: anchors and aliases",
        "a: 1\nb:\n  c: 2\n  c: 3\n": "f.yaml:4: key 'c' is given twice",
        "? [1]\n: x\n": "f.yaml:1: a key must be plain text",
        "a: " + "[" * 30 + "]" * 30 + "\n": "f.yaml:1: nested deeper than 20 levels",
        "a: !!python/name:os.system x\n": "python/name:os.system'; only plain YAML data is read",
        "a: " + "[" * 100_000 + "\n": "nested deeper than 20 levels",
    }
    for text, says in cases.items():
        outcome = _outcome(text, yaml.CSafeLoader)
        assert outcome[0] == "error" and says in str(outcome[1]), (text[:40], outcome)


FILE_SCHEMAS = ("game.schema.json", "session.schema.json", "doudizhu-game.schema.json", "doudizhu-session.schema.json")


@pytest.mark.parametrize("schema", FILE_SCHEMAS)
def test_fastjsonschema_accepts_what_jsonschema_accepts(schema: str) -> None:
    """The file schemas are checked by fastjsonschema, jsonschema only words an error: both must
    find the same files valid, on every sample and bad input (and each altered a little)."""
    from doko_ledger.formats.yaml_source import parse_yaml
    from doko_ledger.schema_files import fast_file_check, validator

    documents = []
    for name, text in _texts():
        try:
            data = parse_yaml(text, name).data
        except SourceError:
            continue
        documents.append(data)
        if isinstance(data, dict):
            documents += [data | {"players": ["Anna"]}, data | {"id": ""}, data | {"extra": 1}]
            if data.get("play"):  # a keyword beside a `$ref` (draft 7 would ignore it)
                documents += [data | {"play": [{"Li": {"as": "pair"}}]}, data | {"play": [{"Li": 1, "Wang": 2}]}]
    fast = fast_file_check(schema)
    checked = 0
    for data in documents:
        try:
            fast(data)
            fast_ok = True
        except ValueError:
            fast_ok = False
        assert fast_ok == (not list(validator(schema).iter_errors(data))), (schema, str(data)[:200])
        checked += fast_ok
    assert checked >= 2  # some documents of each kind are valid


def test_an_import_reads_the_files_as_it_appends(tmp_path: Path) -> None:
    """`import_games` takes the games as a stream and appends them in batches: the first batch is
    in the ledger before the files after it are read."""
    from doko_ledger.ledger import IMPORT_BATCH, Ledger

    texts = [(SAMPLE.read_text(encoding="utf-8").replace("kitchen-01-normal", f"n{i:04d}")) for i in range(450)]
    pulled = 0
    seen_at_append: list[tuple[int, int]] = []

    def stream():  # type: ignore[no-untyped-def]
        nonlocal pulled
        for i, text in enumerate(texts):
            pulled += 1
            yield str(i), game_file.read(text)

    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        report = ledger.import_games(
            stream(),
            recorded_by="t",
            recorded_at="t",
            progress=lambda n: seen_at_append.append((pulled, len(ledger.store.streams("game/")))),
        )
    assert report.games == 450
    assert seen_at_append[0] == (IMPORT_BATCH, IMPORT_BATCH)
    assert [n for _, n in seen_at_append] == [200, 400, 450]
