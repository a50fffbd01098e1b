"""Text that users wrote (player names, notes, authors, reasons), shown as text: never read as
Rich markup or emoji codes, and with the characters a terminal would act on shown escaped.

Every string the CLI prints goes through the console of `cli.common`, which renders plain
strings with `escaped` and no markup; a renderer that builds a `Text` from user text uses
`user_text`, so the two agree.
"""

from __future__ import annotations

import re

from rich.text import Text

_ACTIVE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 controls but tab and line feed, DEL, C1 controls (CSI is \x9b)
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff]"  # lone surrogates: bytes that were not UTF-8 (in a command line or a path)
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return {0x0D: "\\r"}.get(code, f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escaped(text: str) -> str:
    """`text` with every control character but tab and line feed, every bidirectional control
    and every lone surrogate written as an escape (`\\x1b`, `\\u202e`): safe to put on a
    terminal as it is."""
    return _ACTIVE.sub(_escape, text)


def json_escaped(text: str) -> str:
    """JSON text with the characters `escaped` shows written as JSON escapes (`\\u202e`): the
    same data, and safe on a terminal (JSON escapes the other controls itself)."""
    return _ACTIVE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def user_text(text: str, style: str = "") -> Text:
    """A `Text` of what a user wrote: escaped, never markup."""
    return Text(escaped(text), style=style)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """A CSV cell a spreadsheet reads as what it is: text that would start a formula (`=`, `+`,
    `-`, `@`, a tab or a carriage return) gets a leading `'`; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def is_text(value: str) -> bool:
    """`value` is Unicode text that UTF-8 can hold (no lone surrogates from undecodable bytes)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
