"""The events of a card night, in the night's own stream `session/<id>`, which links its deals'
games. The stored names (`SessionStarted`, `SessionClosed`) are the log's, kept as they are."""

from __future__ import annotations

from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.events.codec import Event, event
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


NightEvent = SessionStarted | DealAdded | DealVoided | DealCorrected | SessionClosed
