"""Whole numbers written as text (points, tricks, `#N`, a YAML integer), read with a bound on
their length: no number doko_ledger reads has more than `MAX_DIGITS` digits, and Python
refuses to convert one of more than 4,300."""

from __future__ import annotations

import re

from doko_ledger.errors import DokoError
from doko_ledger.i18n import msg
from doko_ledger.i18n.formats import Number

MAX_DIGITS = 100
_WHOLE = re.compile(r"([+-]?)[0-9]+")


class NumberTooLong(DokoError, ValueError):
    """A whole number with more digits than any doko_ledger reads; the message quotes only its start."""

    exit_code = 2

    def __init__(self, text: str) -> None:
        self.digits = sum(ch.isdigit() for ch in text)
        super().__init__(
            msg(
                "{text} is a number of {digits} digits; none here has more than {most}",
                text=shortened(text),
                digits=Number(self.digits),
                most=MAX_DIGITS,
            )
        )


def shortened(text: str, length: int = 12) -> str:
    """The start of a long text for a message (`9999999999…`), the text itself when short."""
    return text if len(text) <= length else text[:length] + "…"


def check_length(text: str) -> None:
    """`NumberTooLong` if the number `text` writes has more than `MAX_DIGITS` digits."""
    if sum(ch.isdigit() for ch in text) > MAX_DIGITS:
        raise NumberTooLong(text)


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """The whole number `text` writes in the digits 0-9 (a leading + or - when `signed`), or
    None when it writes none (`²`, `٣` and `1_0` are not numbers here); `NumberTooLong` when
    it has more than `MAX_DIGITS` digits."""
    match = _WHOLE.fullmatch(text.strip())
    if match is None or (match.group(1) and not signed):
        return None
    check_length(match.group())
    return int(match.group())


def counted(count: int, word: str, plural: str | None = None) -> str:
    """A count with its word in the right number: `1 deal`, `3 deals`, `0 bombs`; `plural`
    for a word whose plural is not the word and an s (`1 party`, `2 parties`)."""
    return f"{count} {word if count == 1 else plural or word + 's'}"
