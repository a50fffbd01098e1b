"""Numbers, money and dates in each language's form (`1.234`, `0,05 €`, `01.12.2026`),
through Babel's locale data, imported the first time one is written. Each is a parameter of
a message (plain classes with slots: every command imports this module)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datetime
    from decimal import Decimal

LOCALES = {"en": "en_GB", "de": "de_DE", "fr": "fr_FR"}
"""The locale whose forms each language is written in (English as in Britain: `1,234.5`,
`€0.05`, `01/12/2026`)."""


class Number:
    """A count or an amount, grouped and with the decimal mark of the language (`1.234,5`)."""

    __slots__ = ("value",)

    def __init__(self, value: int | Decimal) -> None:
        self.value = value

    def localized(self, language: str) -> str:
        if language == "en" and isinstance(self.value, int):
            return f"{self.value:,}"
        return str(_babel("numbers").format_decimal(self.value, locale=LOCALES[language]))


class Money:
    """An amount of money in a currency (`0,05 €`, `€0.05`)."""

    __slots__ = ("amount", "currency")

    def __init__(self, amount: Decimal, currency: str = "EUR") -> None:
        self.amount, self.currency = amount, currency

    def localized(self, language: str) -> str:
        return str(_babel("numbers").format_currency(self.amount, self.currency, locale=LOCALES[language]))


class Day:
    """A day, as each language writes it in full numbers (`01.12.2026`; `01/12/2026` in
    English and French)."""

    __slots__ = ("value",)

    def __init__(self, value: datetime.date) -> None:
        self.value = value

    def localized(self, language: str) -> str:
        form = "medium" if language == "de" else "short"  # Babel's short German form has a two-digit year
        return str(_babel("dates").format_date(self.value, format=form, locale=LOCALES[language]))


def _babel(module: str) -> Any:
    """Babel's `numbers` or `dates`, imported on first use (they cost a command run in
    English nothing)."""
    if module == "numbers":
        import babel.numbers

        return babel.numbers
    import babel.dates

    return babel.dates
