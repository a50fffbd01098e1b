"""Who wins (RULES.md §6) and what the game is worth (§7, and the DDV's differences in §8).

Pure: the facts of a deal in, a score with one derivation line per item out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from doko_ledger.rules.announcements import DENIALS, Party
from doko_ledger.rules.game_types import GameType
from doko_ledger.rules.ruleset import RuleSet

THRESHOLDS = (90, 60, 30)
"""The losers stay below these for no 90, no 60, no 30 (schwarz: no trick)."""

OWN_TARGETS = (151, 181, 211)
"""Card points a party needs after its own no 90, no 60, no 30 (schwarz: every trick)."""

AGAINST_DENIAL = (120, 90, 60, 30)
"""DDV: card points that earn +1 against the losers' no 90, no 60, no 30, schwarz."""

_PARTIES = tuple(Party)
"""Re, Kontra: iterating the Enum itself is slower."""
_TITLES = tuple(party.title for party in _PARTIES)
_DENIAL_LABELS = tuple(denial.label for denial in DENIALS)


def _title(party: Party) -> str:
    """`party.title`, without the Enum's `value` look-up (scoring writes it on every line)."""
    return _TITLES[0] if party is Party.RE else _TITLES[1]


class SpecialKind(Enum):
    """Special points (*Sonderpunkte*), scored by the party that earns them."""

    FOX_CAUGHT = "fox_caught"
    KARLCHEN = "karlchen"
    KARLCHEN_CAPTURED = "karlchen_captured"
    DOPPELKOPF = "doppelkopf"

    @property
    def label(self) -> str:
        return _SPECIAL_LABEL[self]


_SPECIAL_LABEL = {
    SpecialKind.FOX_CAUGHT: "fox caught (Fuchs)",
    SpecialKind.KARLCHEN: "last trick won with CJ (Karlchen)",
    SpecialKind.KARLCHEN_CAPTURED: "CJ caught in the last trick (Karlchen)",
    SpecialKind.DOPPELKOPF: "trick of 40 or more (Doppelkopf)",
}


@dataclass(frozen=True, slots=True)
class Special:
    """One special point a party earned, and what earned it."""

    kind: SpecialKind
    party: Party
    cause: str = "recorded"


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What scoring needs of a deal: the game, Re's card points, the tricks each party
    won, each party's highest announced level (-1 none, 0 Re/Kontra, 1 no 90 … 4 schwarz),
    and the special points earned in play (before the rules decide which count)."""

    game_type: GameType
    lone: bool
    re_points: int
    re_tricks: int
    kontra_tricks: int
    announced: dict[Party, int]
    specials: tuple[Special, ...] = ()
    causes: dict[tuple[Party, int], str] = field(default_factory=dict)
    tricks_known: bool = True

    def points(self, party: Party) -> int:
        return self.re_points if party is Party.RE else 240 - self.re_points

    def tricks(self, party: Party) -> int:
        return self.re_tricks if party is Party.RE else self.kontra_tricks

    def level(self, party: Party) -> int:
        # by identity rather than `announced.get(party, -1)`: an Enum's hash is a Python call
        for key, value in self.announced.items():
            if key is party:
                return value
        return -1


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One item of the derivation: `points` for `party`, or a doubling (`factor` 2)."""

    item: str
    party: Party | None
    points: int = 0
    factor: int = 1
    cause: str = ""
    special: bool = False


@dataclass(frozen=True, slots=True)
class Score:
    """The result: the winner (None: nobody), the derivation, and the value for Re per
    two-against-two share (negative when Re loses); a lone player gets three shares."""

    winner: Party | None
    lines: tuple[ScoreLine, ...]
    re_value: int
    lone: bool

    @property
    def value(self) -> int:
        """What each winner gets per share (may be negative, RULES.md §7); Re's net when nobody wins."""
        return -self.re_value if self.winner is Party.KONTRA else self.re_value

    def deltas(self, re_seats: Sequence[int], seats: Sequence[int]) -> dict[int, int]:
        """Points per seat; they always sum to zero. A lone Re player gets three shares."""
        re_share = self.re_value * (3 if self.lone else 1)
        out = {}
        for seat in seats:
            out[seat] = re_share if seat in re_seats else -self.re_value
        if self.lone and len(re_seats) != 1:
            raise ValueError("a lone game has one Re player")
        return out


# -- who wins (RULES.md §6) ---------------------------------------------------


def own_target(facts: DealFacts, party: Party) -> str:
    """The party's own target, for the derivation."""
    level = facts.level(party)
    if level >= 4:
        return "every trick"
    if level >= 1:
        return f"{OWN_TARGETS[level - 1]}"
    return f"{_base_target(facts, party)}"


def _goal(facts: DealFacts, party: Party) -> tuple[str, bool]:
    """What the party had to do (RULES.md §6), and whether it did: its own target, or, when
    only the other party denied, to break that denial."""
    other = party.other
    if facts.level(party) < 1 and facts.level(other) >= 1:
        step = facts.level(other) - 1
        denial = _DENIAL_LABELS[step]
        if step == 3:
            return f"one trick against {_title(other)}'s {denial}", facts.tricks(party) > 0
        return f"{THRESHOLDS[step]} against {_title(other)}'s {denial}", facts.points(party) >= THRESHOLDS[step]
    return f"target {own_target(facts, party)}", reaches_target(facts, party)


def _base_target(facts: DealFacts, party: Party) -> int:
    """121 for Re and 120 for Kontra, swapped when only Kontra announced (RULES.md §6)."""
    kontra_only = facts.level(Party.KONTRA) >= 0 and facts.level(Party.RE) < 0
    if party is Party.RE:
        return 120 if kontra_only else 121
    return 121 if kontra_only else 120


def reaches_target(facts: DealFacts, party: Party) -> bool:
    level = facts.level(party)
    if level >= 4:
        return facts.tricks(party.other) == 0
    if level >= 1:
        return facts.points(party) >= OWN_TARGETS[level - 1]
    return facts.points(party) >= _base_target(facts, party)


def winner(facts: DealFacts) -> Party | None:
    """Who wins: the party that reaches its target; when both denied and both miss, nobody."""
    re_denied, kontra_denied = facts.level(Party.RE) >= 1, facts.level(Party.KONTRA) >= 1
    if re_denied and kontra_denied:
        for party in _PARTIES:
            if reaches_target(facts, party):
                return party
        return None
    if kontra_denied:
        return Party.KONTRA if reaches_target(facts, Party.KONTRA) else Party.RE
    return Party.RE if reaches_target(facts, Party.RE) else Party.KONTRA


# -- game value (RULES.md §7, §8 ddv) ------------------------------------------


def _below(facts: DealFacts, party: Party, step: int) -> bool:
    """`party` stayed below the threshold of denial `step` (0: no 90 … 3: schwarz)."""
    if step == 3:
        return facts.tricks(party) == 0
    return facts.points(party) < THRESHOLDS[step]


def _threshold_lines(facts: DealFacts, party: Party, rules: RuleSet, won: bool) -> list[ScoreLine]:
    """The no 90 … schwarz items `party` scores against the other party."""
    other = party.other
    title, other_title = _title(party), _title(other)
    own_level, other_level = facts.level(party), facts.level(other)
    ddv = rules.scoring == "ddv"
    lines: list[ScoreLine] = []
    for step, name in enumerate(_DENIAL_LABELS):
        level = step + 1
        if _below(facts, other, step):
            what = "no trick" if step == 3 else f"below {THRESHOLDS[step]}"
            lines.append(
                ScoreLine(f"{other_title} {what}", party, 1, cause=f"{other_title} took {_took(facts, other)}")
            )
        if ddv:
            if won:
                for announcer in (party, other):
                    if facts.level(announcer) >= level:
                        cause = facts.causes.get((announcer, level), "")
                        lines.append(ScoreLine(f"{name} announced by {_title(announcer)}", party, 1, cause=cause))
            if other_level >= level and facts.points(party) >= AGAINST_DENIAL[step]:
                lines.append(
                    ScoreLine(
                        f"{AGAINST_DENIAL[step]} reached against {other_title}'s {name}",
                        party,
                        1,
                        cause=f"{title} took {_took(facts, party)}",
                    )
                )
        else:
            if own_level >= level:
                cause = facts.causes.get((party, level), "")
                lines.append(ScoreLine(f"{name} announced by {title}", party, 1, cause=cause))
            if other_level >= level and not _below(facts, party, step):
                cause = facts.causes.get((other, level), "")
                lines.append(ScoreLine(f"{other_title}'s {name} missed", party, 2, cause=cause))
    return lines


def _took(facts: DealFacts, party: Party) -> str:
    if not facts.tricks_known:
        return f"{facts.points(party)} card points"
    tricks = facts.tricks(party)
    return f"{facts.points(party)} card points in {tricks} trick{'' if tricks == 1 else 's'}"


def _specials_count(facts: DealFacts, rules: RuleSet) -> bool:
    """Special points count in this game (RULES.md §7; §8 ddv and bistro)."""
    if facts.lone or facts.game_type.is_solo:
        return False
    return not (facts.game_type is GameType.POVERTY and not rules.special_points_in_poverty)


def special_lines(facts: DealFacts, rules: RuleSet) -> list[ScoreLine]:
    if not _specials_count(facts, rules):
        return []
    lines = []
    for special in facts.specials:
        if special.kind is SpecialKind.KARLCHEN_CAPTURED and not rules.karlchen_capture:
            continue
        karlchen = special.kind in (SpecialKind.KARLCHEN, SpecialKind.KARLCHEN_CAPTURED)
        if karlchen and facts.game_type is GameType.POVERTY and not rules.karlchen_in_poverty:
            continue
        lines.append(ScoreLine(special.kind.label, special.party, 1, cause=special.cause, special=True))
    return lines


def score(facts: DealFacts, rules: RuleSet) -> Score:
    """The score of a deal with its derivation (RULES.md §6-§8)."""
    won = winner(facts)
    lines: list[ScoreLine] = []
    for party in _PARTIES:
        goal, reached = _goal(facts, party)
        title = _title(party)
        cause = f"{title} took {_took(facts, party)}; " + ("reached" if reached else "missed")
        lines.append(ScoreLine(f"{title}'s goal: {goal}", party, 0, cause=cause))
    specials = special_lines(facts, rules)
    if won is None:
        if rules.scoring == "ddv":
            for party in _PARTIES:
                lines += _threshold_lines(facts, party, rules, won=False)
        lines += specials
        re_value = _net(lines, Party.RE, rules, doubling=False)
        return Score(None, tuple(lines), re_value, facts.lone)
    lines.append(ScoreLine("won", won, 1))
    aold = won is Party.KONTRA and not facts.lone and not facts.game_type.is_solo
    if aold and rules.scoring == "ddv":
        aold = _specials_count(facts, rules)
    if aold:
        lines.append(ScoreLine("against the old ones", won, 1, special=rules.announcement_scoring == "doubling"))
    for party in _PARTIES:
        if facts.level(party) >= 0:
            cause = facts.causes.get((party, 0), "")
            if rules.announcement_scoring == "doubling":
                lines.append(ScoreLine(f"{_title(party)} announced: doubles", won, 0, factor=2, cause=cause))
            else:
                lines.append(ScoreLine(f"{_title(party)} announced", won, 2, cause=cause))
    lines += _threshold_lines(facts, won, rules, won=True)
    lines += specials
    net = _net(lines, won, rules, doubling=rules.announcement_scoring == "doubling")
    return Score(won, tuple(lines), net if won is Party.RE else -net, facts.lone)


def _net(lines: list[ScoreLine], party: Party, rules: RuleSet, doubling: bool) -> int:
    """`party`'s points minus the other party's, doublings applied (RULES.md §7)."""
    factor, game, specials = 1, 0, 0
    other = party.other
    for line in lines:
        factor *= line.factor
        if line.party is party:
            points = line.points
        elif line.party is other:
            points = -line.points
        else:
            continue
        if line.special:
            specials += points
        else:
            game += points
    if not doubling:
        return game + specials
    return game * factor + specials * (factor if rules.specials_doubled else 1)
