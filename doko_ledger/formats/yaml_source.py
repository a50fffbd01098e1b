"""Safe YAML reading that keeps line numbers, for precise errors in hand-written files.

Only plain data is read (`yaml.SafeLoader`: a tag that tries to build a Python
object is refused). Dates stay text, only true/false are booleans, and a key
given twice in one mapping is an error instead of silently keeping the last.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from doko_ledger.errors import EXCERPT, DokoError, excerpt

MAX_FILE_BYTES = 1_000_000
MAX_NOTE = 10_000
"""The most characters of a game's note (its leading comment), as the ledger's events allow."""
BOM = "\ufeff"


class SourceError(DokoError, ValueError):
    """A problem in a file, with where it is: `file:line: field: message`."""

    exit_code = 2

    def __init__(self, message: str, *, source: str = "<text>", line: int | None = None, field: str = "") -> None:
        message = excerpt(message, 2 * EXCERPT)  # a message quotes the input, never all of it
        self.message, self.source, self.line, self.field = message, source, line, field
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: {field + ': ' if field else ''}{message}")


class _Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2-like scalars: no timestamps, booleans only true/false."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
    for key, resolvers in _Loader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
# Numbers without YAML 1.1's base-60 form: `tricks: 9:3` stays text, not 543.
_Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$"), list("-+0123456789"))
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]+(?:[eE][-+][0-9]+)?$|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$"),
    list("-+0123456789."),
)


@dataclass(frozen=True, slots=True)
class YamlDocument:
    """Parsed YAML data with the node tree it came from, to find the line of any path."""

    data: Any
    root: yaml.Node | None
    source: str
    text: str = ""

    def line_of(self, path: Sequence[str | int]) -> int | None:
        """1-based line of the value at `path`, or of its nearest existing parent."""
        node = self.root
        line = None if node is None else node.start_mark.line + 1
        for key in path:
            child = _child(node, key)
            if child is None:
                break
            node = child
            line = node.start_mark.line + 1
        return line

    def error(self, message: str, path: Sequence[str | int]) -> SourceError:
        return SourceError(message, source=self.source, line=self.line_of(path), field=field_name(path))

    def note(self) -> str | None:
        """The file's leading comment (the game's note), checked here against the ledger's limit
        so that a long one is this file's error, not a refused append."""
        note = leading_comment(self.text)
        if note is not None and len(note) > MAX_NOTE:
            raise SourceError(
                f"the leading comment (the note) has {len(note):,} characters; at most {MAX_NOTE:,} are kept",
                source=self.source,
                line=1,
                field="note",
            )
        return note


def field_name(path: Sequence[str | int]) -> str:
    """`tricks[5][2]` for ("tricks", 5, 2); trick and card numbers stay 0-based like the YAML list."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def _child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    children: list[tuple[Any, yaml.Node]] = []
    if isinstance(node, yaml.MappingNode):
        children = [(k.value, v) for k, v in node.value]
    elif isinstance(node, yaml.SequenceNode):
        children = list(enumerate(node.value))
    return next((child for k, child in children if k == key), None)


def _check_duplicate_keys(node: yaml.Node | None, source: str) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise SourceError(
                    "a key must be plain text, not a list or a mapping", source=source, line=_line(key.start_mark)
                )
            if key.value in seen:
                raise SourceError(f"key {key.value!r} is given twice", source=source, line=key.start_mark.line + 1)
            seen.add(key.value)
            _check_duplicate_keys(value, source)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_duplicate_keys(item, source)


MAX_DEPTH = 20


def _line(mark: Any) -> int | None:
    return None if mark is None else int(mark.line) + 1


def _check_plain(text: str, source: str) -> None:
    """Refuse anchors, aliases and deep nesting before building anything (alias bombs, recursion)."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise SourceError(
                "anchors and aliases (& and *) are not read in doko_ledger files",
                source=source,
                line=_line(event.start_mark),
            )
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise SourceError(f"nested deeper than {MAX_DEPTH} levels", source=source, line=_line(event.start_mark))
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def read_text(path: str | Path) -> str:
    """A file's UTF-8 text (a byte order mark dropped, line ends made `\\n`); an unreadable or
    too large file is a `SourceError` naming it. At most `MAX_FILE_BYTES` + 1 bytes are read, so
    a huge file (or `/dev/zero`) is refused without being held in memory."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SourceError(f"cannot read file: {exc.strerror}", source=str(path)) from None
    if len(data) > MAX_FILE_BYTES:
        raise SourceError(f"file is larger than {MAX_FILE_BYTES:,} bytes", source=str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"not UTF-8 text ({exc.reason})", source=str(path)) from None
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def parse_yaml(text: str, source: str = "<text>") -> YamlDocument:
    """Parse one YAML document safely; `SourceError` with the line on any problem."""
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise SourceError(f"file is larger than {MAX_FILE_BYTES:,} bytes", source=source)
    text = text.removeprefix(BOM)  # a byte order mark is no text: the note after it is kept
    try:
        _check_plain(text, source)
        root = yaml.compose(text, Loader=_Loader)
        _check_duplicate_keys(root, source)
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = None if mark is None else mark.line + 1
        what = exc.problem or "malformed YAML"
        if isinstance(exc, yaml.constructor.ConstructorError) and "tag" in what:
            what = f"{what}; only plain YAML data is read"
        raise SourceError(f"not valid YAML: {what}", source=source, line=line) from None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise SourceError(
            f"not valid text: character #x{exc.character:04x} is not allowed", source=source, line=line
        ) from None
    except yaml.YAMLError as exc:
        raise SourceError(f"not valid YAML: {exc}", source=source) from None
    return YamlDocument(data, root, source, text)


def dump_flow(value: Any) -> str:
    """One YAML scalar or flow sequence on one line, quoted where YAML needs it."""
    text: str = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000, sort_keys=False)
    if text.endswith("\n...\n"):
        text = text[: -len("\n...\n")]
    return text.rstrip("\n")


def leading_comment(text: str) -> str | None:
    """The comment lines before the first key, without their `#` (the game's note)."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    return "\n".join(lines) if lines else None
