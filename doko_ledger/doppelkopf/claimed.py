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
from doko_ledger.i18n import Message, msg
from doko_ledger.projections.checks import Check

WON = "won"
AGAINST_THE_OLD_ONES = "against_the_old_ones"
GAME_POINTS = "game_points"
DOUBLING = "doubling"
BOCK = "bock"
SHOWN_ONLY = frozenset({"solo"})
"""Claimed lines that only show what the score does anyway (a solo's three shares)."""
_BY_LABEL = {kind.label: kind.value for kind in SpecialKind}
_KIND_WORDS: dict[str, Message] = {
    WON: msg("won"),
    AGAINST_THE_OLD_ONES: msg("against the old ones"),
    GAME_POINTS: msg("game points"),
    DOUBLING: msg("doubling"),
    BOCK: msg("bock"),
} | {kind.value: kind.word for kind in SpecialKind}


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


def _kind(kind: str, party: Party | None) -> Message | str:
    """A kind of line, and the party it is for: "fox caught (Fuchs) for Re"."""
    words = _KIND_WORDS.get(kind, kind)
    return words if party is None else msg("{kind} for {party}", kind=words, party=party.word)


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
    name = msg("the derivation agrees with {source}'s", source=claim.source)
    if result.score is None:
        return Check.not_checked(name, msg("the game has no derivation to compare (entered by its value)"))
    claimed, computed = _claimed(claim.lines), _computed(result.score.lines)
    bock = outside_bock(result, claim)
    notes: list[Message | str] = []
    if bock != 1:
        claimed.pop((BOCK, None))
        notes.append(
            msg(
                "{source}'s game was in a bock round (×{bock}) of a night not in the ledger: taken out",
                source=claim.source,
                bock=bock,
            )
        )
    details: list[Message | str] = []
    for key in sorted(set(claimed) | set(computed), key=lambda k: (k[0], "" if k[1] is None else k[1].value)):
        mine, theirs = computed.get(key, 0), claimed.get(key, 0)
        if mine != theirs:
            kind, party = key
            items = ", ".join(dict.fromkeys(c.item for c in claim.lines if c.kind == kind and c.party == party))
            details.append(
                msg(
                    "{kind}: {mine} here, {theirs} in {source}'s ({items})",
                    kind=_kind(kind, party),
                    mine=mine,
                    theirs=theirs,
                    source=claim.source,
                    items=items or msg("none"),
                )
            )
    if claim.sheet is not None:
        row = sheet_points(result.by_player, counting)
        mine_row = tuple(row[p] * bock for p in result.players)
        if mine_row != claim.sheet:
            shown, other = (" ".join(f"{p:+d}" for p in row) for row in (mine_row, claim.sheet))
            details.append(
                msg("sheet row {mine} here, {theirs} in {source}'s", mine=shown, theirs=other, source=claim.source)
            )
    if not details:
        agree = msg("every line and the sheet row agree ({origin})", origin=claim.origin)
        return Check(name, True, [agree, *notes])
    return Check(name, False, details + notes)
