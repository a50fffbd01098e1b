"""Penalty points for rule violations at the table (docs/rules.md §9, "Penalties", DDV).

Minor: the offender -3, each other player +1; in a solo, when the offence could harm the
soloist, the offender -3 and the soloist +3. Severe: the game is void; the offender
-12 -3 for each denial the other party had made, the others share the same total as plus
points; in a solo where an opponent offends, the solo counts as won: the soloist
+12 +3 per denial of his, paid by the offender.
"""

from __future__ import annotations

from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.frozen import frozen

MINOR_POINTS = 3
SEVERE_POINTS = 12
PER_DENIAL = 3


@frozen
class Penalty:
    """A rule violation: who, how grave, whether it could harm the soloist, the denials that count."""

    seat: int
    severe: bool
    harms_soloist: bool = False
    denials: int = 0


def penalty_points(penalty: Penalty, soloist: int | None) -> tuple[int, ...]:
    """Points per seat for one penalty; they sum to zero. `soloist` is the lone player, if any."""
    out = [0] * SEATS
    offender = penalty.seat
    against_soloist = soloist is not None and offender != soloist
    if not penalty.severe:
        if against_soloist and penalty.harms_soloist:
            assert soloist is not None
            out[offender], out[soloist] = -MINOR_POINTS, MINOR_POINTS
            return tuple(out)
        total = MINOR_POINTS
    else:
        total = SEVERE_POINTS + PER_DENIAL * penalty.denials
        if against_soloist:
            assert soloist is not None
            out[offender], out[soloist] = -total, total
            return tuple(out)
    out[offender] = -total
    for seat in range(SEATS):
        if seat != offender:
            out[seat] = total // (SEATS - 1)
    return tuple(out)
