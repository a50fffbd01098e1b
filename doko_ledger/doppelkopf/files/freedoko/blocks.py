"""The text of FreeDoko's files as a tree of named blocks, every line numbered.

FreeDoko writes its game logs and party files in one plain grammar: `key = value` lines,
a word on its own line followed by `{` opens a block of that name (a `{` alone opens a
nameless one, as each player's block), `}` closes it, and `#` starts a comment. The game
log's head adds `key: value` lines and boxed titles (`/---\\ | message | \\---/`). Lines that
are neither (a hand's `player 0 (Mara)`, `0  club king`) are kept as text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.frozen import frozen
from doko_ledger.i18n import msg

MAX_DEPTH = 16
"""FreeDoko nests four blocks deep; more is not a FreeDoko file."""


@frozen
class Entry:
    """A `key = value` (or `key: value`) line."""

    key: str
    value: str
    line: int


@frozen
class Text:
    """A line that is neither an entry nor a brace."""

    text: str
    line: int


@dataclass(slots=True)
class Block:
    """A `{ ... }` block: its name (empty for a nameless one), where it opens, what it holds."""

    name: str
    line: int
    items: list[Entry | Text | Block] = field(default_factory=list)

    def blocks(self, name: str | None = None) -> Iterator[Block]:
        """The blocks directly inside, all or those of one name."""
        for item in self.items:
            if isinstance(item, Block) and (name is None or item.name == name):
                yield item

    def block(self, name: str) -> Block | None:
        """The first block of that name directly inside, if any."""
        return next(self.blocks(name), None)

    def entries(self) -> Iterator[Entry]:
        for item in self.items:
            if isinstance(item, Entry):
                yield item

    def entry(self, key: str) -> Entry | None:
        """The first entry of that key directly inside, if any."""
        return next((e for e in self.entries() if e.key == key), None)

    def texts(self) -> Iterator[Text]:
        for item in self.items:
            if isinstance(item, Text):
                yield item


def parse_blocks(text: str, source: str) -> Block:
    """The file's lines as a tree under a nameless root block (line 0); a brace without its
    partner, or blocks nested deeper than FreeDoko writes, is a `SourceError` at its line."""
    root = Block("", 0)
    stack = [root]
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line == "{":
            parent = stack[-1]
            last = parent.items[-1] if parent.items else None
            name, opened = ("", number)
            if isinstance(last, Text) and _named_block(lines, last.line, number):
                parent.items.pop()
                name, opened = last.text, last.line
            if len(stack) > MAX_DEPTH:
                raise SourceError(msg("blocks nested deeper than {most}", most=MAX_DEPTH), source=source, line=number)
            block = Block(name, opened)
            parent.items.append(block)
            stack.append(block)
        elif line == "}":
            if len(stack) == 1:
                raise SourceError(msg("{brace} closes no block", brace="'}'"), source=source, line=number)
            stack.pop()
        elif _is_box(line):
            continue
        else:
            stack[-1].items.append(_item(line, number))
    if len(stack) > 1:
        open_block = stack[-1]
        what = f"block {open_block.name!r}" if open_block.name else "a block"
        raise SourceError(
            msg("{what} is never closed (the file ends first)", what=what), source=source, line=open_block.line
        )
    return root


def _named_block(lines: list[str], name_line: int, brace_line: int) -> bool:
    """A text line names the block when only blank lines stand between it and the `{`."""
    return all(not lines[i - 1].strip() for i in range(name_line + 1, brace_line))


def _is_box(line: str) -> bool:
    """The lines of a boxed title: `/-----\\`, `| output |`, `\\-----/`."""
    return (line[0] in "/\\" and set(line[1:-1]) <= {"-"} and len(line) > 2) or (
        line.startswith("|") and line.endswith("|") and len(line) > 1
    )


def _item(line: str, number: int) -> Entry | Text:
    key, equals, value = line.partition(" = ")
    if equals:
        return Entry(key.strip(), value.strip(), number)
    if line.endswith(" ="):
        return Entry(line[:-2].strip(), "", number)
    key, colon, value = line.partition(": ")
    if colon and key and " " not in key.strip():
        return Entry(key.strip(), value.strip(), number)
    return Text(line, number)
