"""Where a game stands in its card night (docs/rules.md §9): the deal number, whether it counts, was
taken back or corrected, and the bock round it is played in. Derived from the night's events and
never written to the log: voiding a deal that started a bock round takes the round away. The
read models hold it for a scored deal (`games`, `scores`) and fold the night's deals again
whenever the night changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from doko_ledger.doppelkopf.nights.events import DealAdded, DealCorrected, DealVoided
from doko_ledger.doppelkopf.rules.bock import Bock
from doko_ledger.frozen import frozen
from doko_ledger.i18n import msg, render

IN_FORCE, VOIDED, CORRECTED = "in force", "voided", "corrected"
"""A deal counts; it was taken back (`doko undo`); a correction replaced it (`doko correct`)."""


@frozen
class DealPlace:
    """A game's place in its night: `number` is the deal number the standings show (for a deal
    taken back or replaced, the number it had)."""

    session_id: str
    number: int
    status: str = IN_FORCE
    corrected_by: str | None = None
    replaces: str | None = None
    bock: Bock | None = None

    @property
    def counts(self) -> bool:
        return self.status == IN_FORCE

    @property
    def tag(self) -> str:
        """The deal's mark in a list of games, in the reader's language: "taken back",
        "corrected", or "" when it counts."""
        word = {VOIDED: msg("taken back"), CORRECTED: msg("corrected")}.get(self.status)
        return "" if word is None else render(word)

    @property
    def marks(self) -> str:
        """What sets the game apart from a normal one, in the reader's language: "voided",
        "corrected by X", "replaces X"."""
        return deal_marks(self.status, self.corrected_by, self.replaces)

    @property
    def said(self) -> str:
        """ "deal 3 of kitchen", in the reader's language."""
        return render(msg("deal {number} of {night}", number=self.number, night=self.session_id))

    @property
    def label(self) -> str:
        """`said`, with the marks after it."""
        return f"{self.said}, {self.marks}" if self.marks else self.said

    def view(self) -> dict[str, object]:
        """The place for scripts (JSON)."""
        return {
            "session": self.session_id,
            "deal": self.number,
            "status": self.status,
            "corrected_by": self.corrected_by,
            "replaces": self.replaces,
            "bock": None if self.bock is None else _bock_view(self.bock),
        }


def _bock_view(bock: Bock) -> dict[str, object]:
    """A deal's bock for scripts: the multiplier and the cause, and the extra game points
    where `bock_effect` is `extra_point`."""
    view: dict[str, object] = {"multiplier": bock.multiplier, "cause": bock.cause}
    if bock.extra:
        view["extra"] = bock.extra
    return view


def deal_marks(status: str | None, corrected_by: str | None, replaces: str | None) -> str:
    """A night's deal marked for a list, in the reader's language: "voided", "replaces X",
    "corrected by X" (empty for a deal that counts as first recorded, or a game of no night)."""
    parts = []
    if status == VOIDED:
        parts.append(msg("voided"))
    if replaces is not None:
        parts.append(msg("replaces {game}", game=replaces))
    if corrected_by is not None:
        parts.append(msg("corrected by {game}", game=corrected_by))
    return ", ".join(map(render, parts))


def deal_places(session_id: str, history: Iterable[Any], bock: Mapping[str, Bock]) -> dict[str, DealPlace]:
    """Where each game a night names stands, from the night's events (`history`) in order: its
    deal number, in force, voided or corrected, and its bock round (`bock`: by game id, the
    deals played in one, from the night's course). The one derivation of a deal's place: the
    night, the read models (which keep it in `games` and `scores`) and the views ask it."""
    order: list[str] = []
    places: dict[str, DealPlace] = {}
    for event in history:
        match event:
            case DealAdded(game_id=game_id):
                order.append(game_id)
                places[game_id] = DealPlace(session_id, len(order))
            case DealVoided(game_id=game_id) if game_id in order:
                places[game_id] = replace(places[game_id], number=order.index(game_id) + 1, status=VOIDED)
                order.remove(game_id)
            case DealCorrected(game_id=old, new_game_id=new) if old in order:
                index = order.index(old)
                order[index] = new
                places[old] = replace(places[old], number=index + 1, status=CORRECTED, corrected_by=new)
                places[new] = DealPlace(session_id, index + 1, replaces=old)
    for number, game_id in enumerate(order, 1):
        places[game_id] = replace(places[game_id], number=number)
    for game_id, round_ in bock.items():
        if game_id in places:
            places[game_id] = replace(places[game_id], bock=round_)
    return places


def grown_places(
    places: Mapping[str, DealPlace], session_id: str, deals: int, events: Sequence[Any], rows: Sequence[Any]
) -> dict[str, DealPlace]:
    """`deal_places` of a night that grew after `places` were derived, from what it grew by:
    `events` (none taking back or correcting a deal), `deals` the deals in force before them,
    `rows` the schedule rows of the deals they added (with their bock rounds)."""
    grown = dict(places)
    for event in events:
        if isinstance(event, DealAdded):
            deals += 1
            grown[event.game_id] = DealPlace(session_id, deals)
    for row in rows:
        if row.bock_round is not None and row.game_id in grown:
            grown[row.game_id] = replace(grown[row.game_id], bock=row.bock_round)
    return grown


def stored_place(row: Mapping[str, Any]) -> DealPlace | None:
    """A game's place as the read models keep it: a `games` row's night, deal, status,
    corrected_by and replaces, and its bock where the row has the `scores` columns multiplier,
    bock and bock_extra; None for a game of no night."""
    if row.get("night") is None:
        return None
    multiplier, extra = int(row.get("multiplier") or 1), int(row.get("bock_extra") or 0)
    bock = Bock(multiplier, str(row["bock"]), extra) if multiplier > 1 or extra else None
    night, deal, status = str(row["night"]), int(row["deal"]), str(row["status"])
    return DealPlace(night, deal, status, row["corrected_by"], row["replaces"], bock)
