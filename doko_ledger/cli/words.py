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


def day(played_on: str) -> str:
    """A day as recorded (`2026-12-01`), in the language's form (`01.12.2026`, `01/12/2026`);
    in English as recorded, as the command line always wrote it (and without reading Babel's
    locale data). A text that is not a date is shown as it is."""
    from datetime import date

    from doko_ledger.i18n.formats import Day

    if current() == "en":
        return played_on
    try:
        return localized(Day(date.fromisoformat(played_on)))
    except ValueError:
        return played_on
