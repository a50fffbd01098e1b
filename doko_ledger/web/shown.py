"""Numbers, money and days as a page shows them, in its reader's language (`1.234`, `0,05 €`,
`01.12.2026`): the templates' filters `number`, `signed`, `money`, `signed_money` and `day`."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation

from doko_ledger.i18n import current
from doko_ledger.i18n.formats import Day, Money, Number


def number(value: int | Decimal | str) -> str:
    """A count or an amount in the page's language: `1.234` in German, `1,234` in English."""
    return Number(value if isinstance(value, int) else _decimal(value)).localized(current())


def signed(value: int) -> str:
    """Points with their sign, as a score sheet writes them: `+5`, `-3`, `+0`."""
    return ("-" if value < 0 else "+") + number(abs(value))


def money(amount: Decimal | str | float) -> str:
    """An amount of euros in the page's language: `0,05 €`, `€0.05`."""
    return Money(_decimal(amount)).localized(current())


def signed_money(amount: Decimal | str | float) -> str:
    """Money won (`+1,20 €`) or lost (`-0,40 €`)."""
    value = _decimal(amount)
    return ("-" if value < 0 else "+") + money(abs(value))


def day(value: datetime.date | str) -> str:
    """A day in the page's language: `01.12.2026`; a text that is no day is shown as it is."""
    if not isinstance(value, str):
        return Day(value).localized(current())
    try:
        return Day(datetime.date.fromisoformat(value)).localized(current())
    except ValueError:
        return value


def _decimal(value: Decimal | str | float | int) -> Decimal:
    try:
        return value if isinstance(value, Decimal) else Decimal(str(value))
    except InvalidOperation:
        return Decimal(0)


FILTERS = {"number": number, "signed": signed, "money": money, "signed_money": signed_money, "day": day}
