"""How a table keeps its sheet (option `counting`, docs/rules.md §9): what each deal writes on
the sheet, and what the totals are worth in money.

Pure: a deal's points (its value, bock applied) never change; the sheet row is those points
under the counting in force at that deal, and totals, standings and money are sums of sheet
rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from doko_ledger.doppelkopf.rules.ruleset import Counting
from doko_ledger.i18n import Message, msg, render

COUNTING_SAID: dict[str, Message] = {
    "plus_minus": msg("plus/minus (winners +, losers −)"),
    "winners_only": msg("winners only (the losers write 0)"),
    "losers_only": msg("losers only (the winners write 0)"),
}
"""Each counting as the standings name it, in the reader's language when rendered."""
COUNTING_WORDS: dict[str, str] = {counting: render(words, "en") for counting, words in COUNTING_SAID.items()}
"""Each counting as the standings name it, in English (for scripts)."""


def sheet_points(points: Mapping[str, int], counting: Counting) -> dict[str, int]:
    """A deal's row on the sheet: `plus_minus` every player's points as they are (zero-sum),
    `winners_only` only the plus points (the losers write 0), `losers_only` only the minus
    points (the winners write 0)."""
    if counting == "winners_only":
        return {player: max(p, 0) for player, p in points.items()}
    if counting == "losers_only":
        return {player: min(p, 0) for player, p in points.items()}
    return dict(points)


def money(totals: Mapping[str, int], rate: Decimal, zero_sum: bool) -> dict[str, Decimal]:
    """What each player gets (negative: pays) for their total at `rate` a point, exactly.

    `zero_sum`: every deal in force was counted `plus_minus`, so the totals sum to zero and
    each total times the rate is the money. Otherwise every pair of players settles the
    difference of their totals: a player gets (N*t - sum of totals) * rate, N being everyone who has a
    total, which sums to zero whatever the totals are."""
    if zero_sum:
        return {player: total * rate for player, total in totals.items()}
    n, whole = len(totals), sum(totals.values())
    return {player: (n * total - whole) * rate for player, total in totals.items()}
