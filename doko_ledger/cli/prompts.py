"""The questions `doko` asks at a terminal: Rich's prompts with their refusals in plain words,
shown as every refusal at a prompt is (`refused: ...` on stderr), then asked again."""

from __future__ import annotations

from rich.prompt import Confirm, IntPrompt, InvalidResponse, Prompt
from rich.text import Text

from doko_ledger.cli.common import err_console


def refuse(message: str) -> None:
    """A refused answer, before the question is asked again."""
    err_console().print(f"refused: {message}", markup=False, highlight=False, soft_wrap=True)


def _plain(error: InvalidResponse) -> str:
    message = error.message
    return message.plain if isinstance(message, Text) else Text.from_markup(message).plain


class Ask(Prompt):
    """A question answered by a line of text (or one of `choices`)."""

    illegal_choice_message = "answer one of the choices in brackets"

    def on_validate_error(self, value: str, error: InvalidResponse) -> None:
        refuse(_plain(error))


class AskNumber(IntPrompt):
    """A question answered by a whole number."""

    validate_error_message = "write a whole number, e.g. 150"

    def on_validate_error(self, value: str, error: InvalidResponse) -> None:
        refuse(f"{_plain(error)}, not {value.strip()!r}")


class AskYesNo(Confirm):
    """A yes-or-no question."""

    validate_error_message = "answer y or n"

    def on_validate_error(self, value: str, error: InvalidResponse) -> None:
        refuse(f"{_plain(error)}, not {value.strip()!r}")
