"""The events every game's sessions share, in the session's own stream: a deal added (its game)
and the session closed. A card night (`session/<id>`, `doppelkopf.nights.events`) and a Dou
Dizhu session (`doudizhu-session/<id>`) both record them."""

from __future__ import annotations

from typing import Any

from doko_ledger.events.codec import Event, event, upcaster


@event(version=2)
class DealAdded(Event):
    """The next deal of the session, recorded as the game `game_id`. Version 2 added
    `request_id`: the id a phone's form or an API client sent with the write, so that the
    same write sent again (its answer lost) finds this deal instead of recording another."""

    game_id: str
    request_id: str | None = None


@upcaster("DealAdded", 1)
def _deal_added_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no request id."""
    return {**payload, "request_id": None}


@event(version=1)
class SessionClosed(Event):
    """The session is over; nothing more is added."""
