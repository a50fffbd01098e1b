"""Undo as an event: `EventVoided` takes back a game's newest event still in force.

The log keeps both; the game is the fold of the events in force (`in_force`), so a
voided card is as if never played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doko_ledger.doppelkopf.cards import Cards
from doko_ledger.doppelkopf.events import (
    AnnouncementMade,
    CardPlayed,
    GameStarted,
    HyperschweinchenShown,
    PenaltyImposed,
    ReservationDeclared,
    ReservationNamed,
    SchweinchenShown,
)
from doko_ledger.doppelkopf.game.illegal import IllegalMove
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.voiding import EventVoided, in_force, versions_in_force
from doko_ledger.i18n import Message, msg

__all__ = ["in_force", "taken_back", "versions_in_force", "void_last"]


def void_last(events: Sequence[Any]) -> EventVoided:
    """The event that takes back the newest event in force; the game's start cannot be, and
    notes are comments, not moves: undo passes them by."""
    kept = [v for v in versions_in_force(events) if not isinstance(events[v - 1], AnnotationAdded)]
    if not kept or isinstance(events[kept[-1] - 1], GameStarted):
        raise IllegalMove(msg("nothing to undo in this game"))
    return EventVoided(kept[-1])


def taken_back(events: Sequence[Any], voided: EventVoided) -> Message:
    """What `voided` takes back, in the table's words: "Ben's CK in trick 4", "Anna's Re",
    "Dirk's reservation (club solo)", "the minor penalty on Clara"."""
    kept = versions_in_force(events)
    event = events[voided.version - 1]
    players = next((e.players for e in events if isinstance(e, GameStarted)), ())

    def name(seat: int | None) -> Message | str:
        return players[seat] if seat is not None and 0 <= seat < len(players) else msg("the table")

    match event:
        case CardPlayed(seat=seat, card=card):
            before = sum(1 for v in kept if v < voided.version and isinstance(events[v - 1], CardPlayed))
            trick = before // SEATS + 1
            return msg("{player}'s {card} in trick {trick}", player=name(seat), card=Cards([card]), trick=trick)
        case AnnouncementMade(seat=seat, announcement=announcement):
            return msg("{player}'s {call}", player=name(seat), call=announcement)
        case ReservationDeclared(seat=seat, healthy=healthy):
            if healthy:
                return msg("{player}'s healthy", player=name(seat))
            return msg("{player}'s reservation", player=name(seat))
        case ReservationNamed(seat=seat, kind=kind, solo=solo):
            return msg("{player}'s reservation ({what})", player=name(seat), what=kind if solo is None else solo)
        case PenaltyImposed(seat=seat, severe=severe):
            if severe:
                return msg("the severe penalty on {player}", player=name(seat))
            return msg("the minor penalty on {player}", player=name(seat))
        case SchweinchenShown(seat=seat):
            return msg("{player}'s Schweinchen", player=name(seat))
        case HyperschweinchenShown(seat=seat):
            return msg("{player}'s Hyperschweinchen", player=name(seat))
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in type(event).__name__).strip()
    return msg("the event {version} ({words})", version=voided.version, words=words)
