"""The errors the Dou Dizhu module raises on purpose; all are `DokoError` and `ValueError`."""

from __future__ import annotations

from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message


class CardError(DokoError, ValueError):
    """A text that names no Dou Dizhu card, or cards that are not in the deck."""


class PlayerCountError(DokoError, ValueError):
    """Dou Dizhu is played by three or four players (docs/rules.md §D1)."""


class IllegalMove(DokoError, ValueError):
    """A command the rules or the deal so far do not allow; `seat` names whose part is wrong."""

    def __init__(self, message: str | Message, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class IllegalBid(IllegalMove):
    """A bid or pass that breaks the bidding rules (docs/rules.md §D2)."""


class IllegalPlay(IllegalMove):
    """A combination or pass that breaks the play rules (docs/rules.md §D3-§D4)."""


class IllegalSummary(IllegalMove):
    """Facts of a deal that cannot all be true (docs/rules.md §D1-§D5); `fact` names the one
    that is wrong (`bid`, `bombs`, ...)."""

    def __init__(self, message: str, fact: str) -> None:
        super().__init__(message)
        self.fact = fact
