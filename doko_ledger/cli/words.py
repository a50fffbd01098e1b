"""What a command shows, in its language: a message, a number, an amount or a day, or a text
of the library as it is."""

from __future__ import annotations

from doko_ledger.i18n import Message, current, render


def localized(value: object) -> str:
    """`value` in the command's language: a `Message` rendered, a `Number`, `Money` or `Day`
    (anything with a `localized` form) in the language's form, anything else as `str` writes it."""
    if isinstance(value, Message):
        return render(value)
    form = getattr(value, "localized", None)
    return str(value) if form is None else str(form(current()))
