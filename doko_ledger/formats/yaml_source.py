"""Safe YAML reading that keeps line numbers, for precise errors in hand-written files.

Only plain data is read (`yaml.SafeLoader`: a tag that tries to build a Python
object is refused). Dates stay text, only true/false are booleans, and a key
given twice in one mapping is an error instead of silently keeping the last.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from doko_ledger.errors import EXCERPT, DokoError, FieldPath, excerpt, reason_of
from doko_ledger.i18n import Message, current, msg, render
from doko_ledger.i18n.formats import Number
from doko_ledger.numbers import NumberTooLong, check_length

MAX_FILE_BYTES = 1_000_000
TOO_LARGE = msg("file is larger than {most} bytes", most=Number(MAX_FILE_BYTES))
MAX_NOTE = 10_000
"""The most characters of a game's note (its leading comment), as the ledger's events allow."""
BOM = "\ufeff"


class SourceError(DokoError, ValueError):
    """A problem in a file, with where it is: `file:line: field: message`."""

    exit_code = 2

    def __init__(
        self, message: str | Message, *, source: str = "<text>", line: int | None = None, field: str = ""
    ) -> None:
        if isinstance(message, str):
            message = excerpt(message, 2 * EXCERPT)  # a message quotes the input, never all of it
        self.problem, self.source, self.line, self.field = message, source, line, field
        where = source if line is None else f"{source}:{line}"
        place = f"{where}: {field}" if field else where
        super().__init__(msg("{place}: {problem}", place=place, problem=_Excerpt(message)))

    @property
    def message(self) -> str:
        """What is wrong, without where: in the language of the command or the request."""
        return _Excerpt(self.problem).localized(current())


class _Excerpt:
    """A file's problem as a message shows it, in the reader's language: never all of a long
    input it quotes."""

    __slots__ = ("message",)

    def __init__(self, message: str | Message) -> None:
        self.message = message

    def localized(self, language: str) -> str:
        return excerpt(render(self.message, language), 2 * EXCERPT)


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


class Place(NamedTuple):
    """Where a value stands in the file: its 1-based line and, for a mapping or a list, the
    places of its values (by the key's text, or by index)."""

    line: int
    children: dict[str, Place] | list[Place] | None = None


@dataclass(frozen=True, slots=True)
class YamlDocument:
    """Parsed YAML data with the place of every value in it, to find the line of any path."""

    data: Any
    root: Place | None
    source: str
    text: str = ""

    def line_of(self, path: FieldPath) -> int | None:
        """1-based line of the value at `path`, or of its nearest existing parent."""
        place = self.root
        if place is None:
            return None
        for key in path:
            child = _child(place, key)
            if child is None:
                break
            place = child
        return place.line

    def error(self, message: str | Message, path: FieldPath) -> SourceError:
        return SourceError(message, source=self.source, line=self.line_of(path), field=field_name(path))

    def note(self) -> str | None:
        """The file's leading comment (the game's note), checked here against the ledger's limit
        so that a long one is this file's error, not a refused append."""
        note = leading_comment(self.text)
        if note is not None and len(note) > MAX_NOTE:
            raise SourceError(
                msg(
                    "the leading comment (the note) has {count} characters; at most {most} are kept",
                    count=Number(len(note)),
                    most=Number(MAX_NOTE),
                ),
                source=self.source,
                line=1,
                field="note",
            )
        return note


def _child(place: Place, key: str | int) -> Place | None:
    children = place.children
    if isinstance(children, dict):
        found: Place | None = children.get(key) if isinstance(key, str) else None
        return found
    if isinstance(children, list) and isinstance(key, int) and 0 <= key < len(children):
        item: Place = children[key]
        return item
    return None


def field_name(path: FieldPath) -> str:
    """`tricks[5][2]` for ("tricks", 5, 2); trick and card numbers stay 0-based like the YAML list."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


MAX_DEPTH = 20

try:  # libyaml's parser where it is installed: the same events, some twenty times faster
    _Parser: type[Any] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Parser = _Loader

_STR, _INT, _FLOAT, _BOOL, _NULL = (f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null"))
_IMPLICIT: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {
    key: resolvers + _Loader.yaml_implicit_resolvers.get(None, [])
    for key, resolvers in _Loader.yaml_implicit_resolvers.items()
}
_COLLECTION_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _plain_tag(value: str) -> str:
    """The tag of a plain scalar, by `_Loader`'s implicit resolvers (YAML 1.2-like)."""
    for tag, regexp in _IMPLICIT.get(value[:1], _IMPLICIT.get(None, [])):
        if regexp.match(value):
            return tag
    return _STR


def _scalar(event: Any, source: str) -> Any:
    """A scalar's value as `yaml.SafeLoader` with `_Loader`'s resolvers builds it."""
    tag, value = event.tag, event.value
    if tag is None or tag == "!":
        tag = _plain_tag(value) if event.implicit[0] else _STR
    if tag == _STR:
        return unicodedata.normalize("NFC", value)  # composed, so a name typed either way is one name
    try:
        if tag == _INT:
            digits = value.replace("_", "")
            check_length(digits)  # before Python converts one too long to hold
            return int(digits)
        if tag == _FLOAT:
            text = value.replace("_", "").lower()
            if text.endswith(("inf", "nan")):
                return {"-.inf": -math.inf, ".inf": math.inf, "+.inf": math.inf}.get(text, math.nan)
            return float(text)
        if tag == _BOOL:
            return value.lower() == "true"
        if tag == _NULL:
            return None
    except NumberTooLong as exc:
        raise SourceError(reason_of(exc), source=source, line=_line(event)) from None
    except ValueError:
        not_read = msg("not a number YAML reads: {text}", text=repr(value[:40]))
        raise SourceError(not_read, source=source, line=_line(event)) from None
    raise _tag_error(tag, event, source)


def _tag_error(tag: str, event: Any, source: str) -> SourceError:
    return SourceError(
        msg(
            "not valid YAML: could not determine a constructor for the tag {tag}; only plain YAML data is read",
            tag=repr(tag),
        ),
        source=source,
        line=_line(event),
    )


def _line(event: Any) -> int | None:
    mark = event.start_mark
    return None if mark is None else int(mark.line) + 1


def _compose_worded(text: str, source: str) -> tuple[Any, Place | None]:
    """`_compose` with libyaml; a file it finds malformed is parsed again by PyYAML's own parser,
    whose messages (and lines) the errors keep."""
    try:
        return _compose(text, source, _Parser)
    except yaml.YAMLError:
        if _Parser is _Loader:
            raise
        return _compose(text, source, _Loader)


def _compose(text: str, source: str, loader: type[Any]) -> tuple[Any, Place | None]:
    """The data and the places of one YAML document, from one pass over the parser's events.

    The checks are made on the way: no anchors or aliases (alias bombs), no key given twice,
    no list or mapping as a key, nesting at most `MAX_DEPTH` deep, only plain data's tags. The
    nesting is kept on a list, not the call stack, so no input can exhaust it.
    """
    parser = loader(text)
    # the open collections: [value, places, line, key waiting for its value (mappings)]
    stack: list[list[Any]] = []
    root: tuple[Any, Place] | None = None
    documents = 0
    try:
        while True:
            event = parser.get_event()
            kind = type(event)
            if kind is yaml.ScalarEvent or kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if event.anchor is not None:
                    raise _anchor_error(event, source)
                line = event.start_mark.line + 1
                if kind is yaml.ScalarEvent:
                    value: Any = _scalar(event, source)
                    place = Place(line)
                    if stack and type(stack[-1][0]) is dict and stack[-1][3] is None:
                        _key(stack[-1], unicodedata.normalize("NFC", event.value), value, line, source)
                        continue
                else:
                    if event.tag not in _COLLECTION_TAGS:
                        raise _tag_error(event.tag, event, source)
                    if len(stack) >= MAX_DEPTH:
                        raise SourceError(
                            msg("nested deeper than {most} levels", most=MAX_DEPTH), source=source, line=line
                        )
                    if stack and type(stack[-1][0]) is dict and stack[-1][3] is None:
                        raise SourceError(
                            msg("a key must be plain text, not a list or a mapping"), source=source, line=line
                        )
                    if kind is yaml.MappingStartEvent:
                        stack.append([{}, {}, line, None])
                    else:
                        stack.append([[], [], line, None])
                    continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                value, places, line, _ = stack.pop()
                place = Place(line, places)
            elif kind is yaml.AliasEvent:
                raise _anchor_error(event, source)
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise SourceError(
                        msg("not valid YAML: expected a single document in the stream"),
                        source=source,
                        line=_line(event),
                    )
                continue
            elif kind is yaml.StreamEndEvent:
                break
            else:
                continue
            if not stack:
                root = (value, place)
            elif type(stack[-1][0]) is dict:
                top = stack[-1]
                key_text, key = top[3]
                top[0][key] = value
                top[1][key_text] = place
                top[3] = None
            else:
                stack[-1][0].append(value)
                stack[-1][1].append(place)
    finally:
        parser.dispose()
    return (None, None) if root is None else root


def _key(top: list[Any], text: str, key: Any, line: int, source: str) -> None:
    if text in top[1]:
        raise SourceError(msg("key {key} is given twice", key=repr(text)), source=source, line=line)
    try:
        hash(key)
    except TypeError:  # pragma: no cover - scalars are hashable
        raise SourceError(msg("a key must be plain text"), source=source, line=line) from None
    top[3] = (text, key)


def _anchor_error(event: Any, source: str) -> SourceError:
    return SourceError(
        msg("anchors and aliases (& and *) are not read in doko_ledger files"), source=source, line=_line(event)
    )


def read_text(path: str | Path) -> str:
    """A file's UTF-8 text (a byte order mark dropped, line ends made `\\n`); an unreadable or
    too large file is a `SourceError` naming it. At most `MAX_FILE_BYTES` + 1 bytes are read, so
    a huge file (or `/dev/zero`) is refused without being held in memory."""
    if Path(path).is_dir():
        raise SourceError(msg("a folder with no game files in it (.yaml, .yml or .FreeDoko)"), source=str(path))
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SourceError(msg("cannot read file: {problem}", problem=exc.strerror), source=str(path)) from None
    if len(data) > MAX_FILE_BYTES:
        raise SourceError(TOO_LARGE, source=str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(msg("not UTF-8 text ({problem})", problem=exc.reason), source=str(path)) from None
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def parse_yaml(text: str, source: str = "<text>") -> YamlDocument:
    """Parse one YAML document safely; `SourceError` with the line on any problem."""
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise SourceError(TOO_LARGE, source=source)
    text = text.removeprefix(BOM)  # a byte order mark is no text: the note after it is kept
    try:
        data, root = _compose_worded(text, source)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = None if mark is None else mark.line + 1
        problem = msg("not valid YAML: {problem}", problem=exc.problem or msg("malformed YAML"))
        raise SourceError(problem, source=source, line=line) from None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        refused = msg("not valid text: character {character} is not allowed", character=f"#x{exc.character:04x}")
        raise SourceError(refused, source=source, line=line) from None
    except yaml.YAMLError as exc:
        raise SourceError(msg("not valid YAML: {problem}", problem=exc), source=source) from None
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
