"""The help of `doko`'s commands, written once in English in the code and shown in the
language of the command: `helped("...")` marks the help of an option, an argument or a
command group, `@described("...")` a command's (its docstring); `make messages` gathers both
into the catalogs, and `--help` shows their translation (`cli.common`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


def helped(text: str) -> str:
    """The help of an option, an argument or a command group, as it is (translated when shown)."""
    return text


def described(text: str) -> Callable[[F], F]:
    """A command's help, given to its function as the docstring Typer reads (translated when
    shown). Paragraphs are parted by an empty line (`\\n\\n`)."""

    def describe(command: F) -> F:
        command.__doc__ = text
        return command

    return describe
