"""The events of a card night, in the night's own stream `session/<id>`, which links its deals'
games. The stored names (`SessionStarted`, `SessionClosed`) are the log's, kept as they are."""

from __future__ import annotations

from typing import Any

from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.events.codec import Event, event, upcaster


@event(version=1)
class SessionStarted(Event):
    """A card night began: 4 to 7 players in seat order, the first dealer, the rules of the
    night, deals per match, and an optional money rate per point (decimal text, e.g. "0.05")."""

    session_id: str
    players: tuple[str, ...]
    first_dealer: int
    rules: RuleSet
    match_length: int = 8
    played_on: str | None = None
    rate: str | None = None


@event(version=2)
class DealAdded(Event):
    """The next deal of the night, recorded as the game `game_id`. Version 2 added
    `request_id`: the id a phone's form or an API client sent with the write, so that the
    same write sent again (its answer lost) finds this deal instead of recording another."""

    game_id: str
    request_id: str | None = None


@upcaster("DealAdded", 1)
def _deal_added_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no request id."""
    return {**payload, "request_id": None}


@event(version=1)
class DealVoided(Event):
    """A deal taken back (undo): it no longer counts, and what it caused (bock) disappears."""

    game_id: str
    reason: str = "undone"


@event(version=1)
class DealCorrected(Event):
    """A deal's record replaced by a corrected game, `new_game_id`, in the same place."""

    game_id: str
    new_game_id: str
    reason: str = "corrected"


@event(version=1)
class SessionClosed(Event):
    """The card night is over; nothing more is added."""


SessionEvent = SessionStarted | DealAdded | DealVoided | DealCorrected | SessionClosed
