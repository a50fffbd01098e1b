"""Where a game stands in its card night (docs/rules.md §9): the deal number, whether it counts, was
taken back or corrected, and the bock round it is played in. Derived from the night's events and
never written to the log: voiding a deal that started a bock round takes the round away. The
read models hold it for a scored deal (`games`, `scores`) and fold the night's deals again
whenever the night changes."""

from __future__ import annotations

from dataclasses import dataclass

IN_FORCE, VOIDED, CORRECTED = "in force", "voided", "corrected"
"""A deal counts; it was taken back (`doko undo`); a correction replaced it (`doko correct`)."""


@dataclass(frozen=True, slots=True)
class Bock:
    """The bock round a deal is played in: the multiplier and what started the round."""

    multiplier: int
    cause: str

    @property
    def item(self) -> str:
        return f"bock x{self.multiplier}"


@dataclass(frozen=True, slots=True)
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
    def marks(self) -> str:
        """What sets the game apart from a normal one: "voided", "corrected by X", "replaces X"."""
        return deal_marks(self.status, self.corrected_by, self.replaces)

    @property
    def label(self) -> str:
        """ "deal 3 of kitchen", with the marks after it."""
        text = f"deal {self.number} of {self.session_id}"
        return f"{text}, {self.marks}" if self.marks else text

    def view(self) -> dict[str, object]:
        """The place for scripts (JSON)."""
        return {
            "session": self.session_id,
            "deal": self.number,
            "status": self.status,
            "corrected_by": self.corrected_by,
            "replaces": self.replaces,
            "bock": None if self.bock is None else {"multiplier": self.bock.multiplier, "cause": self.bock.cause},
        }


def deal_marks(status: str | None, corrected_by: str | None, replaces: str | None) -> str:
    """A night's deal marked for a list: "voided", "replaces X", "corrected by X" (empty for a
    deal that counts as first recorded, or a game of no night)."""
    parts = []
    if status == VOIDED:
        parts.append("voided")
    if replaces is not None:
        parts.append(f"replaces {replaces}")
    if corrected_by is not None:
        parts.append(f"corrected by {corrected_by}")
    return ", ".join(parts)
