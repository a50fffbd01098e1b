"""The root of every error doko_ledger raises on purpose.

The CLI turns a `DokoError` into a one-line message and a non-zero exit code;
anything else is a bug.
"""

from __future__ import annotations

from typing import TypeVar

from doko_ledger.i18n import Message, msg, render

E = TypeVar("E", bound=BaseException)

FieldPath = tuple[str | int, ...]
"""Where a value stands in a file or a record: the keys and list indexes from the top,
`("tricks", 5, 2)` for the third entry of the sixth trick. Errors about a file's fields carry one."""


class DokoError(Exception):
    """An input, a command or a ledger that doko_ledger refuses, with the reason: a
    `Message` (its id and parameters), written in the language of the command or the request
    when the error is shown, or (until every reason is a message) a text."""

    exit_code = 1

    def __str__(self) -> str:
        reason = self.args[0] if len(self.args) == 1 else None
        return render(reason) if isinstance(reason, Message) else super().__str__()


def prefixed(exc: E, before: Message, after: Message | None = None) -> E:
    """The same error (its type, so its exit code, kept) with its message between `before: `
    and `; after`: what the library knows about the command that failed. The error's own
    message is kept as a message, shown in the reader's language with the rest."""
    reason = reason_of(exc)
    if after is None:
        exc.args = (msg("{before}: {reason}", before=before, reason=reason), *exc.args[1:])
    else:
        exc.args = (msg("{before}: {reason}; {after}", before=before, reason=reason, after=after), *exc.args[1:])
    return exc


def reason_of(exc: BaseException) -> Message | str:
    """An error's reason as a message when it carries one (to be put inside another message),
    else its text."""
    reason = exc.args[0] if len(exc.args) == 1 else None
    return reason if isinstance(reason, Message) else str(exc)


def in_english(exc: BaseException) -> str:
    """An error's reason in English: what a reader of another error's words looks for (which
    field of a file a refusal is about), whatever the reader's language."""
    return render(reason_of(exc), "en")


EXCERPT = 200
"""The most characters of one message an error shows: inputs are quoted, never echoed whole."""


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """`text` when short; else its start and end around an ellipsis, `limit` characters in all."""
    if len(text) <= limit:
        return text
    tail = limit // 4
    return f"{text[: limit - tail - 1]}…{text[-tail:]}"
