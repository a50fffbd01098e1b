"""Bock rounds (*Bockrunde*, a house rule, docs/rules.md §9): what starts one, what a trigger
during a round does (`bock_overlap`), what a round does to a deal's points (`bock_effect`), and
why bock is in force after a deal.

Pure: a night's course plays its deals (and the rounds the table declares by hand) through
`BockRounds` in order; nothing here is stored, so a deal taken back takes the rounds it
started with it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.scoring import DealFacts, ScoreLine
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, render

DECLARED = "declared"
MARKED_WITH_THE_DEAL = "marked with the deal"
"""The reason a bock marked with a deal is recorded with when the table gives none: the
library's own words, stored as they are and said in the reader's language when shown."""
"""A round the table declared by hand (the bock button), beside the triggers of the rules."""

TRIGGER_SAID = {
    "tie": msg("120:120 tie"),
    "lost_solo": msg("lost solo"),
    "lost_re": msg("lost Re"),
    "lost_kontra": msg("lost Kontra"),
    "nobody_wins": msg("nobody won"),
    "heart_trick": msg("trick of four hearts"),
    "schwarz": msg("schwarz"),
    "lost_announcement": msg("lost announcement"),
    DECLARED: msg("declared"),
}
"""Each bock trigger (`RuleSet.bock_triggers`) as the derivation names it, in the reader's
language (render them)."""
TRIGGER_WORDS = {trigger: render(words, "en") for trigger, words in TRIGGER_SAID.items()}
"""The same in English: the derivation's stable words."""


def heart_trick_matters(rules: RuleSet) -> bool:
    """Whether a deal recorded by its facts is asked for a trick of four hearts: only where it
    can start a bock round (the `heart_trick` trigger, docs/rules.md §9)."""
    return "heart_trick" in rules.bock_triggers


def deal_triggers(facts: DealFacts, winner: Party | None) -> tuple[str, ...]:
    """Which bock triggers a scored deal sets off, before the rules pick theirs: a 120:120 tie,
    nobody winning, a lost solo (a lone marriage included), a lost Re or Kontra announcement,
    a trick of four hearts that are not trumps, a party without a trick (schwarz), any
    announced party losing (docs/rules.md §9)."""
    out = []
    if facts.re_points == 120:
        out.append("tie")
    if winner is None:
        out.append("nobody_wins")
    if (facts.lone or facts.game_type.is_solo) and winner is Party.KONTRA:
        out.append("lost_solo")
    lost_re = facts.level(Party.RE) >= 0 and winner is not Party.RE
    lost_kontra = facts.level(Party.KONTRA) >= 0 and winner is not Party.KONTRA
    if lost_re:
        out.append("lost_re")
    if lost_kontra:
        out.append("lost_kontra")
    if facts.heart_trick:
        out.append("heart_trick")
    if facts.re_tricks == 0 or facts.kontra_tricks == 0:
        out.append("schwarz")
    if lost_re or lost_kontra:
        out.append("lost_announcement")
    return tuple(out)


def cause_of(said: Message) -> str:
    """What started a deal's bock rounds: its English words, as the ledger keeps them and scripts
    read them, that also know themselves as a message (`said`, see `Bock.because`), for a reader
    in another language. A text that knows more, rather than a field more of `Bock`: every
    command builds that class as it starts, and this one only when a night has bock in force."""
    cause = _cause_class()(render(said, "en"))
    cause.said = said
    text: str = cause
    return text


@cache
def _cause_class() -> type[Any]:
    return type("Cause", (str,), {"__doc__": "A bock round's cause in English, and as a message (`said`)."})


@frozen
class Bock:
    """A deal's bock: what the rounds in force do to it and why they are in force.

    `multiplier`: the whole value multiplied (`bock_effect: multiply`; 1 with `extra_point`);
    `extra`: game points added to the winners' value (`extra_point`; 0 with `multiply`);
    `cause`: every round in force and what started it ("deal 3, lost solo; deal 4, declared by
    Anna (Hochzeit)")."""

    multiplier: int
    cause: str
    extra: int = 0

    @property
    def because(self) -> Message | None:
        """`cause` in the reader's language (`render` it); None where only the English is known
        (a bock read back from the ledger's read models)."""
        said: Message | None = getattr(self.cause, "said", None)
        return said

    @property
    def shown_cause(self) -> Message | str:
        """What started the rounds, in the reader's language where known."""
        return self.cause if self.because is None else self.because

    @property
    def item(self) -> str:
        return f"bock +{self.extra}" if self.extra else f"bock x{self.multiplier}"

    @property
    def said(self) -> Message:
        """`item` in the reader's language."""
        if self.extra:
            return msg("bock +{extra}", extra=self.extra)
        return msg("bock x{multiplier}", multiplier=self.multiplier)

    def line(self, party: Party | None = None) -> ScoreLine:
        """The score's last line: the whole value multiplied, or `extra` game points for the
        winning `party` (none when nobody won)."""
        if self.extra and party is None:
            words = msg("{bock}: nobody won, nothing added", bock=self.said)
            return ScoreLine(
                f"{self.item}: nobody won, nothing added", None, 0, cause=self.cause, words=words, because=self.because
            )
        if self.extra:
            return ScoreLine(self.item, party, self.extra, cause=self.cause, words=self.said, because=self.because)
        return ScoreLine(
            self.item, None, 0, factor=self.multiplier, cause=self.cause, words=self.said, because=self.because
        )

    def applied(
        self, points: Sequence[int], parties: Sequence[Party | None], winner: Party | None, lone: bool
    ) -> tuple[int, ...]:
        """Each player's points in this bock deal (`points`: before bock, penalties included;
        `parties`: each player's party, None for one not at the table): multiplied, every point
        included; or, with `extra`, the winners' value grown by `extra` game points (a lone
        player three times that; nothing when nobody won; penalties as they are): docs/rules.md §9."""
        if not self.extra:
            return multiplied(points, self.multiplier)
        more = extra_points(parties, winner, lone, self.extra)
        return tuple(p + e for p, e in zip(points, more, strict=True))


def bocked(
    points: Sequence[int], bock: Bock | None, parties: Sequence[Party | None], winner: Party | None, lone: bool
) -> tuple[int, ...]:
    """`Bock.applied`, and the points as they are outside bock."""
    return tuple(points) if bock is None else bock.applied(points, parties, winner, lone)


def parties_at(
    players: Sequence[str], at_table: Collection[str], re_players: Collection[str]
) -> tuple[Party | None, ...]:
    """Each of a night's players' party in a deal (None: not at the table), for `bocked`."""
    return tuple(None if p not in at_table else Party.RE if p in re_players else Party.KONTRA for p in players)


def extra_points(parties: Sequence[Party | None], winner: Party | None, lone: bool, extra: int) -> tuple[int, ...]:
    """What `extra` game points more for the winners give each player (docs/rules.md §7, §9):
    each winner `extra`, each loser `-extra`, a lone player three shares, a player not at the
    table nothing; zero-sum."""
    if winner is None or not extra:
        return (0,) * len(parties)
    re_value = extra if winner is Party.RE else -extra
    shares = {Party.RE: re_value * (3 if lone else 1), Party.KONTRA: -re_value}
    return tuple(0 if party is None else shares[party] for party in parties)


def multiplied(points: Sequence[int], multiplier: int) -> tuple[int, ...]:
    """Each player's points in a bock deal: every point, special points and penalties
    included, times the deal's multiplier (1 outside bock)."""
    return tuple(p * multiplier for p in points)


@frozen
class BockCause:
    """Rounds not over yet, grouped by what started them: the deal (0: before the first deal),
    the triggers it set off (`declared` for a round declared by hand, with who and why), the
    bock deals left, whether they are in force for the next deal or queued after it, and how
    many rounds they are (stacked rounds in force run at once: their deals left are the
    longest's; queued rounds one after the other: theirs add up)."""

    deal: int
    triggers: tuple[str, ...]
    deals_left: int
    in_force: bool = True
    declared_by: str | None = None
    reason: str = ""
    rounds: int = 1

    def view(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "triggers": list(self.triggers),
            "deals_left": self.deals_left,
            "rounds": self.rounds,
            "in_force": self.in_force,
            "declared_by": self.declared_by,
            "reason": self.reason,
        }


@frozen
class _Source:
    """What started (or extended) a round by `size` deals: a deal's trigger, or a declaration by hand."""

    deal: int
    trigger: str
    size: int
    by: str | None = None
    reason: str = ""

    @property
    def origin(self) -> tuple[int, str | None, str]:
        return (self.deal, self.by, self.reason)

    @property
    def word(self) -> str:
        return render(self.said, "en")

    @property
    def said(self) -> Message | str:
        """What it is, in the reader's language when rendered ("lost solo", "declared by Anna")."""
        if self.trigger != DECLARED:
            return TRIGGER_SAID.get(self.trigger, self.trigger)
        if self.reason:
            return msg("declared by {player} ({reason})", player=self.by, reason=reason_said(self.reason))
        return msg("declared by {player}", player=self.by)


def reason_said(reason: str) -> Message | str:
    """Why a bock was declared, as shown: the table's own words, or the default in the reader's language."""
    return msg("marked with the deal") if reason == MARKED_WITH_THE_DEAL else reason


def _words(sources: Sequence[_Source]) -> Message:
    """ "deal 3, 120:120 tie, lost Re": the sources of one deal together, in order (then
    ", extended by deal 5, lost solo")."""
    groups: list[list[_Source]] = []
    for source in sources:
        if groups and groups[-1][0].deal == source.deal:
            groups[-1].append(source)
        else:
            groups.append([source])
    parts: list[Message] = []
    for group in groups:
        deal = group[0].deal
        part = msg("deal {number}", number=deal) if deal else msg("before the first deal")
        for source in group:
            part = msg("{before}, {after}", before=part, after=source.said)
        parts.append(part)
    said = parts[0]
    for part in parts[1:]:
        said = msg("{before}, extended by {part}", before=said, part=part)
    return said


@frozen
class _Round:
    """A bock round: the bock deals left, what started it (then what extended it), and whether
    it runs at once with the others (started under `stack`) or waits for the rounds before it."""

    left: int
    sources: tuple[_Source, ...]
    at_once: bool = False

    @property
    def cause(self) -> str:
        return render(self.said, "en")

    @property
    def said(self) -> Message:
        """What started (and extended) the round, in the reader's language when rendered."""
        return _words(self.sources)

    def lefts(self) -> list[tuple[_Source, int]]:
        """Each source with the deals of the round still to come that it gave (none: left out)."""
        out: list[tuple[_Source, int]] = []
        remaining = self.left
        for source in reversed(self.sources):
            take = min(source.size, remaining)
            remaining -= take
            if take:
                out.append((source, take))
        return out[::-1]


@frozen
class BockDeal:
    """A deal as the bock rounds see it: its bock (None outside bock or for a deal thrown in),
    and the triggers of the rules (and `declared`) that started or extended rounds."""

    bock: Bock | None
    started: tuple[str, ...]

    @property
    def multiplier(self) -> int:
        return 1 if self.bock is None else self.bock.multiplier

    @property
    def cause(self) -> str:
        """What started the rounds the deal is played in ("deal 3, lost solo"; empty outside bock)."""
        return "" if self.bock is None else self.bock.cause


def _running(rounds: Sequence[_Round]) -> list[int]:
    """Which rounds are in force: the first, and every round started under `stack` (a round
    queued before the table changed to stacking still waits its turn)."""
    return [i for i, r in enumerate(rounds) if i == 0 or r.at_once]


def _spent(rounds: Sequence[_Round], deals: int = 1) -> list[_Round]:
    """The rounds after `deals` bock deals (no more than the shortest round in force has left):
    each round in force has that many deals fewer; those used up go."""
    running = set(_running(rounds))
    spent = [replace(r, left=r.left - deals) if i in running else r for i, r in enumerate(rounds)]
    return [r for r in spent if r.left > 0]


class BockRounds:
    """The bock rounds of a night, played deal by deal (docs/rules.md §9).

    Each trigger of the rules (and each round declared by hand) starts a round of as many
    deals as there are players at the table when it starts. A trigger during a bock round
    (the deal that set it off was a bock deal, or rounds are still to come after it) does
    what `bock_overlap` says: `queue` another round after the queued ones, `stack` a round in
    parallel, `extend` the round by a round, `ignore` nothing. With `stack` every round runs
    at once; otherwise only the first is in force. A scored deal while a round is in force is
    a bock deal and uses one deal of every round in force; a deal thrown in uses none."""

    __slots__ = ("_last", "_rounds", "rules", "table_size")

    def __init__(self, rules: RuleSet, table_size: int) -> None:
        self.rules = rules
        self.table_size = table_size
        self._rounds: list[_Round] = []
        self._last = (0, False)
        """The last deal played and whether it was a bock deal."""

    def copy(self) -> BockRounds:
        other = BockRounds(self.rules, self.table_size)
        other._rounds = list(self._rounds)
        other._last = self._last
        return other

    def change(self, rules: RuleSet, table_size: int) -> None:
        """The rules and the table in force from the next deal on; a running round keeps its length."""
        self.rules = rules
        self.table_size = table_size

    def _in_force(self) -> list[_Round]:
        return [self._rounds[i] for i in _running(self._rounds)]

    @property
    def next_bock(self) -> Bock | None:
        """The bock the next scored deal gets: None when no round is in force."""
        rounds = self._in_force()
        if not rounds:
            return None
        because = rounds[0].said
        for round_ in rounds[1:]:
            because = msg("{before}; {after}", before=because, after=round_.said)
        cause = cause_of(because)
        if self.rules.bock_effect == "extra_point":
            return Bock(1, cause, extra=len(rounds))
        return Bock(self.rules.bock_multiplier ** len(rounds), cause)

    @property
    def next_multiplier(self) -> int:
        """The next scored deal's multiplier (1 with `extra_point`)."""
        bock = self.next_bock
        return 1 if bock is None else bock.multiplier

    @property
    def deals_left(self) -> int:
        """The bock deals still to come: the rounds that wait their turn one after another, the
        rounds at once beside them (with `stack`, the longest round's; with `queue`, every round's)."""
        rounds, deals = list(self._rounds), 0
        while rounds:  # until the next round in force ends, the same rounds are in force
            step = min(rounds[i].left for i in _running(rounds))
            deals += step
            rounds = _spent(rounds, step)
        return deals

    def play(self, number: int, scored: bool, triggers: Sequence[str]) -> BockDeal:
        """Play deal `number`: `scored` says it was played out (not thrown in), `triggers` what
        it set off (`deal_triggers`; none for a deal not scored)."""
        bock = self.next_bock if scored else None
        if bock is not None:
            self._rounds = _spent(self._rounds)
        during = bock is not None or bool(self._rounds)
        self._last = (number, bock is not None)
        sources = [_Source(number, t, self.table_size) for t in triggers if t in self.rules.bock_triggers]
        return BockDeal(bock, self._start(sources, during))

    def declare(self, number: int, by: str, reason: str, rounds: int) -> None:
        """The table declares `rounds` bock rounds by hand after deal `number` (0: before the
        first deal); they start as rounds from that deal's triggers would (`bock_overlap`)."""
        during = bool(self._rounds) or self._last == (number, True)
        self._start([_Source(number, DECLARED, self.table_size, by, reason)] * rounds, during)

    def _start(self, sources: Sequence[_Source], during: bool) -> tuple[str, ...]:
        """Start (or extend) rounds for `sources` as `bock_overlap` says; what took effect."""
        if not sources:
            return ()
        overlap = self.rules.bock_overlap
        if overlap in ("queue", "stack"):
            self._rounds += [_Round(s.size, (s,), overlap == "stack") for s in sources]
            return tuple(s.trigger for s in sources)
        if overlap == "ignore":
            if during:
                return ()
            self._rounds.append(_Round(sources[0].size, (sources[0],)))
            return (sources[0].trigger,)
        # extend: the first source starts the round (unless one runs), the others extend it
        first = self._rounds[0] if self._rounds else _Round(0, ())
        grown = _Round(first.left + sum(s.size for s in sources), (*first.sources, *sources), first.at_once)
        self._rounds[:1] = [grown]
        return tuple(s.trigger for s in sources)

    def causes(self) -> tuple[BockCause, ...]:
        """Why bock is in force or queued: the rounds in force for the next deal first, then
        the queued ones; the deals left of one deal's (or one declaration's) rounds together.
        An extended round's deals are the extensions' first: the round is used up from the
        start, so what its first source gave goes first."""
        out: list[BockCause] = []
        running = _running(self._rounds)
        in_force = len(running)
        for index, round_ in enumerate(self._rounds):
            force = index in running
            for source, left in round_.lefts():
                last = out[-1] if out else None
                if last is not None and (last.deal, last.declared_by, last.reason, last.in_force) == (
                    *source.origin,
                    force,
                ):
                    merged = tuple(dict.fromkeys((*last.triggers, source.trigger)))
                    at_once = force and in_force > 1  # stacked rounds in force
                    left = max(last.deals_left, left) if at_once else last.deals_left + left
                    out[-1] = BockCause(last.deal, merged, left, force, last.declared_by, last.reason, last.rounds + 1)
                else:
                    out.append(BockCause(source.deal, (source.trigger,), left, force, source.by, source.reason))
        return tuple(out)
