"""The changes of a card night between two deals, on a store: a player joins or leaves, the
rules change, bock is declared by hand (`CardNights.join`, `leave`, `change_rules`,
`declare_bock`), and taking back the newest change (`CardNights.undo`).

Each is decided against the night as recorded (`Night.change`) and appended in one
transaction, only if the night is still at the version it was read at; a request id sent
again finds the change its first sending made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from doko_ledger.doppelkopf.game.illegal import IllegalMove
from doko_ledger.doppelkopf.nights.decide import ChangeRules, DeclareBock, JoinTable, LeaveTable, TakeBackChange
from doko_ledger.doppelkopf.nights.events import (
    BockDeclared,
    ChangeTakenBack,
    NightChangeEvent,
    PlayerJoined,
    PlayerLeft,
    RulesChanged,
)
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.schedule import NightChangeRow, change_words
from doko_ledger.doppelkopf.nights.seating import Seating
from doko_ledger.doppelkopf.nights.state import Change
from doko_ledger.errors import prefixed
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, render
from doko_ledger.store.base import ConcurrencyError, LedgerBusy

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.nights.book import CardNights

NightChangeCommand = JoinTable | LeaveTable | ChangeRules | DeclareBock


@frozen
class NightChange:
    """A change of the night as recorded: its kind (join, leave, rules, bock), in words ("Erik
    joins after Anna, from deal 7"), and its version in the night's stream."""

    kind: str
    words: Message | str
    """In the reader's language when rendered."""
    version: int
    repeated: bool = False
    """A change sent again with the request id of one already appended: that one."""

    def __str__(self) -> str:
        return render(self.words)


def change_row(night: Night, version: int) -> NightChangeRow | None:
    """The change made at stream `version`, as the night's course places it, or None."""
    return next((c for c in night.schedule().changes if c.version == version), None)


def make_change(
    nights: CardNights, session_id: str, command: NightChangeCommand, *, by: str, at: str, version: int | None
) -> NightChange:
    """Decide a change of the night and append it (see the module's docstring)."""
    if command.request_id is not None:
        first = _made_for(nights, session_id, command.request_id)
        if first is not None:
            return first
    night = nights.night(session_id)
    if version is not None:
        require_version(night, version)
    event = night.change(command)
    made = len(night.history)
    row = change_row(night, made)
    kind, words = (row.kind, row.text) if row is not None else change_words(event, Seating(()), night.state.rules)
    try:
        nights.commit_night(session_id, night, by=by, at=at)
    except LedgerBusy as exc:
        raise prefixed(exc, msg("{change}: not recorded", change=words)) from None
    except ConcurrencyError as exc:
        meanwhile = nights.change_since(session_id, made - 1)
        raise prefixed(exc, msg("{change}: not recorded", change=words), meanwhile) from None
    return NightChange(kind, words, made)


def _made_for(nights: CardNights, session_id: str, request_id: str) -> NightChange | None:
    """The change a write with this request id appended (in force or taken back since), or None."""
    found = nights.made_with(session_id, request_id)
    if found is None or not isinstance(found[1], NightChangeEvent):
        return None
    made, event = found
    night = nights.night(session_id)
    row = change_row(night, made)
    if row is not None:
        return NightChange(row.kind, row.text, row.version, repeated=True)
    kind, words = change_words(event, night.state.seating, night.state.rules)
    return NightChange(kind, msg("{change} (taken back since)", change=words), made, repeated=True)


def take_back_change(night: Night, change: Change, request_id: str | None) -> NightChangeRow:
    """Decide taking back the night's newest change (`night` holds the event, unwritten); what
    it was, as the course placed it."""
    row = change_row(night, change.version)
    if row is None:  # a change always has its row while in force
        raise IllegalMove(
            msg(
                "no change at version {version} of session {night}",
                version=change.version,
                night=repr(night.state.session_id),
            )
        )
    night.change(TakeBackChange(change.version, request_id=request_id))
    return row


def taken_back_words(nights: CardNights, session_id: str, done: ChangeTakenBack) -> Message | str:
    """A change taken back (by `done`), in words, for an undo sent again."""
    events = nights.changes_since(session_id, 0)
    made = next((r.event for r in events if r.envelope.version == done.change), None)
    if made is None:
        return msg("the change at version {version}", version=done.change)
    night = Night.load([r.event for r in events if r.envelope.version < done.change], {})
    return change_words(made, night.state.seating, night.state.rules)[1]


def change_in_words(event: object) -> Message:
    """A change as `change_since` names it ("Erik joined", "the rules were changed")."""
    if isinstance(event, PlayerJoined):
        return msg("{player} joined", player=event.player)
    if isinstance(event, PlayerLeft):
        return msg("{player} left", player=event.player)
    if isinstance(event, RulesChanged):
        return msg("the rules were changed")
    if isinstance(event, BockDeclared):
        return msg("bock was declared by {player}", player=event.by)
    return msg("a change was taken back")


def require_version(night: Night, version: int) -> None:
    """Refuse (`ConcurrencyError`) a write made from a night at `version` that has moved on."""
    current = len(night.history)
    if current != version:
        raise ConcurrencyError(
            msg(
                "card night {night} is at version {current}, not {version}:"
                " someone else recorded first; nothing was written",
                night=repr(night.state.session_id),
                current=current,
                version=version,
            )
        )
