"""A result claimed by someone else (`ResultClaimed`), set line by line against doko's score.

The claim's lines say what each is in doko's derivation (`won`, `fox_caught`, `doubling`...);
doko's own lines are sorted the same way, and the two are compared kind by kind and party by
party: the points of each kind (a doubling by its factor), so a special point counted twice,
a threshold missed or a doubling left out is named, not only the total.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from doko_ledger.doppelkopf.events import ClaimedLine, ResultClaimed
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.counting import sheet_points
from doko_ledger.doppelkopf.rules.ruleset import Counting
from doko_ledger.doppelkopf.rules.scoring import ScoreLine, SpecialKind
from doko_ledger.doppelkopf.score import GameScore
from doko_ledger.projections.checks import Check

WON = "won"
AGAINST_THE_OLD_ONES = "against_the_old_ones"
GAME_POINTS = "game_points"
DOUBLING = "doubling"
BOCK = "bock"
SHOWN_ONLY = frozenset({"solo"})
"""Claimed lines that only show what the score does anyway (a solo's three shares)."""
_BY_LABEL = {kind.label: kind.value for kind in SpecialKind}
_KIND_WORDS = {
    WON: "won",
    AGAINST_THE_OLD_ONES: "against the old ones",
    GAME_POINTS: "game points",
    DOUBLING: "doubling",
} | {kind.value: kind.label for kind in SpecialKind}


def line_kind(line: ScoreLine) -> str | None:
    """What a line of doko's derivation is, in the words a claim uses (None: it adds nothing,
    like a party's goal)."""
    if line.item == WON:
        return WON
    if line.item == "against the old ones":
        return AGAINST_THE_OLD_ONES
    if line.special and line.item in _BY_LABEL:
        return _BY_LABEL[line.item]
    if line.factor != 1:
        return BOCK if line.party is None else DOUBLING
    return GAME_POINTS if line.points else None


def _tally(lines: Iterable[tuple[str, Party | None, int]]) -> Counter[tuple[str, Party | None]]:
    """Points per (kind, party); a doubling's or a bock's factors multiplied, for all parties."""
    tally: Counter[tuple[str, Party | None]] = Counter()
    for kind, party, points in lines:
        if kind in (DOUBLING, BOCK):
            key = (kind, None)
            tally[key] = (tally[key] or 1) * points
        else:
            tally[kind, party] += points
    return tally


def _claimed(lines: Sequence[ClaimedLine]) -> Counter[tuple[str, Party | None]]:
    return _tally((c.kind, c.party, c.points) for c in lines if c.kind not in SHOWN_ONLY)


def _computed(lines: Sequence[ScoreLine]) -> Counter[tuple[str, Party | None]]:
    kinds = ((line_kind(line), line) for line in lines)
    return _tally(
        (kind, line.party, line.factor if kind in (DOUBLING, BOCK) else line.points) for kind, line in kinds if kind
    )


def _party(party: Party | None) -> str:
    return "" if party is None else f" for {party.value.capitalize()}"


def outside_bock(result: GameScore, claim: ResultClaimed) -> int:
    """The bock factor of a claim made within a card night the ledger does not hold: a game
    imported alone, whose claim counts its party's bock round (1: none, or the ledger's night
    gives the game its own)."""
    if result.score is None or any(line_kind(line) == BOCK for line in result.score.lines):
        return 1
    return _claimed(claim.lines).get((BOCK, None), 1)


def claimed_points(claim: ResultClaimed, players: Sequence[str], bock: int = 1) -> dict[str, int]:
    """The claim as the per-player result `doko audit --claimed` takes; `bock`: a bock round of
    the claimer's night outside the ledger, taken out."""
    return {player: points // bock for player, points in zip(players, claim.points, strict=True)}


def derivation_check(result: GameScore, claim: ResultClaimed, counting: Counting) -> Check:
    """The claim's derivation and sheet against doko's: passed when every kind of line adds up
    alike for each party (and the sheet row, where the claim has one, is the same). A bock round
    of the claimer's night that the ledger does not hold (`outside_bock`) is taken out of the
    claim and said so."""
    name = f"the derivation agrees with {claim.source}'s"
    if result.score is None:
        return Check.not_checked(name, "the game has no derivation to compare (entered by its value)")
    claimed, computed = _claimed(claim.lines), _computed(result.score.lines)
    bock = outside_bock(result, claim)
    notes = []
    if bock != 1:
        claimed.pop((BOCK, None))
        notes.append(f"{claim.source}'s game was in a bock round (×{bock}) of a night not in the ledger: taken out")
    details = []
    for key in sorted(set(claimed) | set(computed), key=lambda k: (k[0], "" if k[1] is None else k[1].value)):
        mine, theirs = computed.get(key, 0), claimed.get(key, 0)
        if mine != theirs:
            kind, party = key
            words = [c.item for c in claim.lines if c.kind == kind and c.party == party] or ["none"]
            details.append(
                f"{_KIND_WORDS.get(kind, kind)}{_party(party)}: {mine} here, {theirs} in {claim.source}'s"
                f" ({', '.join(dict.fromkeys(words))})"
            )
    if claim.sheet is not None:
        row = sheet_points(result.by_player, counting)
        mine_row = tuple(row[p] * bock for p in result.players)
        if mine_row != claim.sheet:
            shown = " ".join(f"{p:+d}" for p in mine_row)
            details.append(f"sheet row {shown} here, {' '.join(f'{p:+d}' for p in claim.sheet)} in {claim.source}'s")
    if not details:
        return Check(name, True, [f"every line and the sheet row agree ({claim.origin})", *notes])
    return Check(name, False, details + notes)
