"""The error a refused command raises: a module of its own, so that what only reads games and
nights, and raises it now and then, loads no command."""

from __future__ import annotations

from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message


class IllegalMove(DokoError, ValueError):
    """A command the rules or the game so far do not allow; `seat` names whose part is wrong."""

    def __init__(self, message: str | Message, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat
