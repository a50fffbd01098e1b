"""The events of a card night, in the night's own stream `session/<id>`, which links its deals'
games. The stored names (`SessionStarted`, `SessionClosed`) are the log's, kept as they are."""

from __future__ import annotations

from typing import Any

from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.events.codec import Event, event, upcaster
from doko_ledger.events.sessions import DealAdded, SessionClosed

__all__ = [
    "DealAdded",
    "DealCorrected",
    "DealVoided",
    "NightEvent",
    "SessionClosed",
    "SessionStarted",
]


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
class DealVoided(Event):
    """A deal taken back (undo): it no longer counts, and what it caused (bock) disappears.
    Version 2 added `request_id`, as `DealAdded` version 2 did: the same undo sent again
    finds this one instead of taking back another deal."""

    game_id: str
    reason: str = "undone"
    request_id: str | None = None


@upcaster("DealVoided", 1)
def _deal_voided_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no request id."""
    return {**payload, "request_id": None}


@event(version=2)
class DealCorrected(Event):
    """A deal's record replaced by a corrected game, `new_game_id`, in the same place.
    Version 2 added `request_id`: the same correction sent again finds this one."""

    game_id: str
    new_game_id: str
    reason: str = "corrected"
    request_id: str | None = None


@upcaster("DealCorrected", 1)
def _deal_corrected_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no request id."""
    return {**payload, "request_id": None}


NightEvent = SessionStarted | DealAdded | DealVoided | DealCorrected | SessionClosed
