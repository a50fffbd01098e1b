"""The seating of a card night (docs/rules.md §9): a ring of seats in playing order, with the
players who left keeping their old seat, so that the deal passes on past a seat left empty."""

from __future__ import annotations

from collections.abc import Sequence

from doko_ledger.frozen import frozen


@frozen
class Seating:
    """Every player who ever sat, in seat order (`ring`), and who of them is at the table now
    (`present`, in seat order)."""

    ring: tuple[str, ...]
    gone: frozenset[str] = frozenset()

    @classmethod
    def of(cls, players: Sequence[str]) -> Seating:
        return cls(tuple(players))

    @property
    def present(self) -> tuple[str, ...]:
        """The players at the table, in seat order."""
        return tuple(p for p in self.ring if p not in self.gone)

    def seated(self, player: str) -> bool:
        return player in self.ring and player not in self.gone

    def join(self, player: str, after: str | None) -> Seating:
        """`player` takes the seat after `after` (None: after the last seat); one who left
        before moves to the new seat."""
        ring = [p for p in self.ring if p != player]
        at = len(ring) if after is None or after not in ring else ring.index(after) + 1
        ring.insert(at, player)
        return Seating(tuple(ring), self.gone - {player})

    def leave(self, player: str) -> Seating:
        return Seating(self.ring, self.gone | {player})

    def next_after(self, player: str) -> str:
        """The first player at the table after `player`'s seat, to the left (`player` itself
        when alone; the first present player when `player` never sat)."""
        present = self.present
        if player not in self.ring:
            return present[0]
        at = self.ring.index(player)
        n = len(self.ring)
        return next(p for p in (self.ring[(at + i) % n] for i in range(1, n + 1)) if p not in self.gone)
