"""The command line parser's own refusals (Click's, as Typer carries it) in the reader's
language: "No such option: --jsn (Possible options: --json)", "Missing argument 'GAME'.".

Click writes them in English only, as finished sentences. Each form it writes is a pattern
here beside the message that says the same; the parts the pattern finds (an option's name, the
choices) are filled back into the message, and a part that is itself one of these forms (the
error a suggestion follows) is said in the language too. A form not listed stays as Click
wrote it. Imported only when a command line is refused, and used only in a language other than
English: an English refusal is Click's text, as it always was."""

from __future__ import annotations

import re

from doko_ledger.i18n import Message, msg, render

_FORMS: tuple[tuple[re.Pattern[str], Message], ...] = tuple(
    (re.compile(pattern, re.DOTALL), said)
    for pattern, said in (
        (r"(?P<error>.+) \(Possible options: (?P<options>.+)\)", msg("{error} (possible options: {options})")),
        (r"(?P<error>.+)\. Did you mean (?P<matches>.+)\?", msg("{error}. Did you mean {matches}?")),
        (r"(?P<error>.+?)\.? Choose from:\s*(?P<choices>.+)", msg("{error}. Choose from: {choices}")),
        (r"No such option: (?P<option>.+)", msg("No such option: {option}")),
        (r"No such command (?P<command>.+?)\.?", msg("No such command {command}.")),
        (r"Missing command\.", msg("Missing command.")),
        (r"Missing argument (?P<name>.+?)\.?", msg("Missing argument {name}.")),
        (r"Missing option (?P<name>.+?)\.?", msg("Missing option {name}.")),
        (r"Missing parameter (?P<name>.+?)\.?", msg("Missing parameter {name}.")),
        (r"Got unexpected extra argument\(s\) \((?P<args>.+)\)", msg("Got unexpected extra arguments ({args})")),
        (r"Option (?P<option>.+) requires an argument\.", msg("Option {option} requires an argument.")),
        (
            r"Option (?P<option>.+) requires (?P<count>\d+) arguments\.",
            msg("Option {option} requires {count} arguments."),
        ),
        (r"Option (?P<option>.+) does not take a value\.", msg("Option {option} does not take a value.")),
        (r"Argument (?P<name>.+) takes (?P<count>\d+) values\.", msg("Argument {name} takes {count} values.")),
        (r"Invalid value for (?P<name>.+?): (?P<reason>.+)", msg("Invalid value for {name}: {reason}")),
        (r"Invalid value: (?P<reason>.+)", msg("Invalid value: {reason}")),
        (r"(?P<value>.+) is not one of (?P<choices>.+?)\.?", msg("{value} is not one of {choices}")),
        (r"Value (?P<value>.+) is not a valid (?P<kind>.+)\.", msg("{value} is not a valid {kind}")),
        (r"Input should be a valid integer.*", msg("not a whole number")),
        (r"Input should be a valid number.*", msg("not a number")),
        (r"Input should be a valid boolean.*", msg("not true or false")),
        (r"File (?P<path>.+) does not exist\.", msg("File {path} does not exist.")),
        (r"Directory (?P<path>.+) does not exist\.", msg("Directory {path} does not exist.")),
        (r"Path (?P<path>.+) does not exist\.", msg("Path {path} does not exist.")),
        (r"Could not open file (?P<path>.+?): (?P<reason>.+)", msg("Could not open file {path}: {reason}")),
    )
)
"""Each form of Click's refusals, and its message; the compound forms (an error and what
follows it) first."""
_NESTED = ("error", "reason")
"""The parts that are themselves a refusal (said in the language too, without their full stop:
the form around them ends the sentence)."""


def said(text: str) -> Message | str:
    """Click's refusal `text` as a message, or the text itself when it is no form listed (the
    "Value error, " Typer's checks put before a value's refusal left out)."""
    text = text.removeprefix("Value error, ")
    for pattern, form in _FORMS:
        found = pattern.fullmatch(text)
        if found is not None:
            parts = found.groupdict()
            params = {name: _part(value) if name in _NESTED else value for name, value in parts.items()}
            return Message(form.id, tuple(params.items()))
    return text


def _part(text: str) -> _Stopless | str:
    inner = said(text)
    return _Stopless(inner) if isinstance(inner, Message) else inner


class _Stopless:
    """A refusal inside another one: said in the language, without its full stop."""

    __slots__ = ("message",)

    def __init__(self, message: Message) -> None:
        self.message = message

    def localized(self, language: str) -> str:
        return render(self.message, language).rstrip(".")
