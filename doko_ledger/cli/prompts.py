"""The questions `doko` asks at a terminal: Rich's prompts in the command's language, with
their refusals in plain words, shown as every refusal at a prompt is (`refused: ...` on
stderr), then asked again."""

from __future__ import annotations

from typing import Any

from rich.prompt import Confirm, IntPrompt, InvalidResponse, Prompt
from rich.text import Text

from doko_ledger.cli.common import err_console
from doko_ledger.i18n import msg, render


def refuse(message: object) -> None:
    """A refused answer (a text or a message), before the question is asked again."""
    shown = render(msg("refused: {reason}", reason=message))
    err_console().print(shown, markup=False, highlight=False, soft_wrap=True)


def _plain(error: InvalidResponse) -> str:
    message = error.message
    return message.plain if isinstance(message, Text) else Text.from_markup(message).plain


class Ask(Prompt):
    """A question answered by a line of text (or one of `choices`)."""

    def __init__(self, prompt: str | Text = "", **kwargs: Any) -> None:
        super().__init__(prompt, **kwargs)
        self.illegal_choice_message = render(msg("answer one of the choices in brackets"))

    def on_validate_error(self, value: str, error: InvalidResponse) -> None:
        refuse(_plain(error))


class AskNumber(IntPrompt):
    """A question answered by a whole number."""

    def __init__(self, prompt: str | Text = "", **kwargs: Any) -> None:
        super().__init__(prompt, **kwargs)
        self.validate_error_message = render(msg("write a whole number, e.g. 150"))

    def on_validate_error(self, value: str, error: InvalidResponse) -> None:
        refuse(msg("{problem}, not {answer}", problem=_plain(error), answer=repr(value.strip())))


class AskYesNo(Confirm):
    """A yes-or-no question, answered by the language's letters (`y`/`n`, `j`/`n`, `o`/`n`)
    or words (`yes`, `ja`, `oui`; `no`, `nein`, `non`); English's letters and words are
    understood in every language."""

    def __init__(self, prompt: str | Text = "", **kwargs: Any) -> None:
        super().__init__(prompt, **kwargs)
        yes, no = render(msg("y")), render(msg("n"))
        self.choices = [yes, no]
        self.validate_error_message = render(msg("answer {yes} or {no}", yes=yes, no=no))
        self._yes = {yes, "y", "yes", render(msg("yes")).lower()}
        self._no = {no, "n", "no", render(msg("no")).lower()}

    def process_response(self, value: str) -> bool:
        answer = value.strip().lower()
        if answer in self._yes or answer in self._no:
            return answer in self._yes
        raise InvalidResponse(self.validate_error_message)

    def on_validate_error(self, value: str, error: InvalidResponse) -> None:
        refuse(msg("{problem}, not {answer}", problem=_plain(error), answer=repr(value.strip())))
