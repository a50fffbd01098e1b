"""The course of a card night, derived from its timeline (docs/rules.md §9): who deals and who
sits out from the seating in force at each deal, the rules in force at each deal, matches and
rounds, bock rounds (triggered and declared by hand), a tournament's compulsory and forced
solos, and each deal's row on the sheet under the counting in force.

Nothing here is stored: voiding or correcting a deal, or taking back a change, changes the
timeline and so everything after it (a bock round a voided deal caused disappears).
"""

from __future__ import annotations

from collections.abc import Sequence

from doko_ledger.doppelkopf.nights.events import BockDeclared, PlayerJoined, PlayerLeft, RulesChanged
from doko_ledger.doppelkopf.nights.outcome import DealOutcome
from doko_ledger.doppelkopf.nights.seating import Seating
from doko_ledger.doppelkopf.nights.state import Change, Entry, NightState, moved
from doko_ledger.doppelkopf.rules.bock import Bock, BockCause, BockRounds, bocked, parties_at, reason_said
from doko_ledger.doppelkopf.rules.counting import sheet_points
from doko_ledger.doppelkopf.rules.ruleset import Counting, RuleSet
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, plural, render

TABLE = 4


def playing(players: Sequence[str], dealer: int) -> tuple[str, ...]:
    """The four who play a deal: from the dealer's left; with five or more the others sit out
    (with five, the dealer)."""
    n = len(players)
    first = 1 if n > TABLE else 0
    seats = [(dealer + first + i) % n for i in range(TABLE)] if n > TABLE else list(range(n))
    return tuple(players[s] for s in seats)


@frozen
class NightChangeRow:
    """A change of the night in force: the deal it took effect at (`deal`, the next deal when
    it was made), what it is (`kind`: join, leave, rules, bock), in words, and its stream
    version (what undo names)."""

    version: int
    deal: int
    kind: str
    words: Message | str
    """What it does, in the reader's language when rendered."""
    with_deal: bool = False
    """A bock declared with deal `deal` (it goes when that deal is taken back)."""

    @property
    def text(self) -> Message | str:
        """The change and where it took effect: "Erik joins after Anna, from deal 7"."""
        return self.words if self.with_deal else msg("{change}, from deal {deal}", change=self.words, deal=self.deal)

    def view(self, language: str | None = "en") -> dict[str, object]:
        """The change as data, its words in `language` (English, for scripts; None: as a message)."""
        return {
            "version": self.version,
            "kind": self.kind,
            "from_deal": self.deal + self.with_deal,
            "with_deal": self.deal if self.with_deal else None,
            "words": self.text if language is None else render(self.text, language),
        }


@frozen
class DealRow:
    """One deal of the night with everything derived about it: `rules` in force at it,
    `bock_round` the bock rounds it is played in (None outside bock), `deltas` its points with
    bock, `sheet` those points under the counting in force, `totals` the running sheet totals
    after it (everyone who sat so far), and `changes` the changes that took effect at it."""

    number: int
    game_id: str
    dealer: str
    playing: tuple[str, ...]
    sitting_out: tuple[str, ...]
    match: int
    round: int
    bock_round: Bock | None
    counts: bool
    compulsory: bool
    forced: bool
    bock_rounds_started: int
    deltas: dict[str, int]
    sheet: dict[str, int]
    totals: dict[str, int]
    outcome: DealOutcome
    rules: RuleSet
    changes: tuple[Message | str, ...] = ()
    """The changes that took effect at it, in words."""

    @property
    def multiplier(self) -> int:
        """The bock multiplier of the deal (1 outside bock, and with `extra_point`)."""
        return 1 if self.bock_round is None else self.bock_round.multiplier

    @property
    def bock(self) -> str:
        """What started the bock rounds the deal is played in ("deal 3, lost solo"; empty outside bock)."""
        return "" if self.bock_round is None else self.bock_round.cause


@frozen
class NextDeal:
    """What the next deal must look like."""

    number: int
    dealer: str
    dealer_seat: int
    playing: tuple[str, ...]
    multiplier: int
    forced_solo_by: tuple[str, ...]
    over: bool
    sitting_out: tuple[str, ...] = ()
    bock: Bock | None = None
    changes: tuple[Message | str, ...] = ()
    """The changes that take effect at the next deal, in words."""


@frozen
class Schedule:
    rows: tuple[DealRow, ...]
    next: NextDeal
    owed: tuple[str, ...]
    counted: int
    bock_deals_left: int
    bock_causes: tuple[BockCause, ...] = ()
    """The bock rounds in force and queued after the last deal (`BockRounds.causes`)."""
    rules: RuleSet = RuleSet()
    """The rules in force for the next deal."""
    seating: tuple[str, ...] = ()
    """Who is at the table for the next deal, in seat order."""
    everyone: tuple[str, ...] = ()
    """Every player who sat at the table this night, in seat order."""
    changes: tuple[NightChangeRow, ...] = ()
    """The night's changes in force, in order."""

    @property
    def counting(self) -> Counting:
        """How the sheet counts from the next deal on."""
        return self.rules.counting


def _owed(rules: RuleSet, players: Sequence[str], solos: set[str]) -> tuple[str, ...]:
    if not rules.compulsory_solo:
        return ()
    return tuple(p for p in players if p not in solos)


def _forced(rules: RuleSet, counted: int, owed: tuple[str, ...]) -> bool:
    """A tournament's owed solos are due now (`after_deals`: after the counted deals; `when_owed`, the DDV's: when
    the deals left equal the solos owed)."""
    if not owed:
        return False
    left = rules.tournament_deals - counted
    if rules.forced_solos == "when_owed":
        return left <= len(owed)
    return left <= 0


def steps(state: NightState) -> list[Entry]:
    """The timeline as the course folds it: a bock declared with a deal right after that deal."""
    bound: dict[str, list[Change]] = {}
    for entry in state.timeline:
        if isinstance(entry, Change) and entry.game_id is not None:
            bound.setdefault(entry.game_id, []).append(entry)
    out: list[Entry] = []
    for entry in state.timeline:
        if isinstance(entry, str):
            out.append(entry)
            out.extend(bound.get(entry, ()))
        elif entry.game_id is None:
            out.append(entry)
    return out


def plan(state: NightState, outcomes: Sequence[DealOutcome]) -> Schedule:
    """Fold the night's timeline into the schedule, in order (`outcomes`: its deals' outcomes)."""
    course = Course(state)
    by_id = {o.game_id: o for o in outcomes}
    for entry in steps(state):
        if isinstance(entry, str):
            course.add(by_id[entry])
        else:
            course.apply(entry)
    return course.schedule()


def change_words(event: object, seating: Seating, rules: RuleSet) -> tuple[str, Message | str]:
    """A change's kind and what it does, in words ("Erik joins after Anna"), given the seating and
    the rules in force before it."""
    if isinstance(event, PlayerJoined):
        after = event.after if event.after is not None else seating.present[-1]
        if event.player in seating.ring:
            return "join", msg("{player} joins again after {after}", player=event.player, after=after)
        return "join", msg("{player} joins after {after}", player=event.player, after=after)
    if isinstance(event, PlayerLeft):
        return "leave", msg("{player} leaves", player=event.player)
    if isinstance(event, RulesChanged):
        return "rules", _rules_words(event.name or "", rules_difference(rules, event.rules))
    if isinstance(event, BockDeclared):
        words = msg("bock declared by {player}", player=event.by)
        if event.reason:
            words = msg("{change} ({reason})", change=words, reason=reason_said(event.reason))
        if event.rounds > 1:
            words = plural("{change}: {count} round", "{change}: {count} rounds", event.rounds, change=words)
        return "bock", words
    return "change", str(event)


def _rules_words(name: str, changed: str) -> Message:
    """ "the rules change to bistro: counting winners_only", by the name chosen (if any) and
    the options changed (if any)."""
    if name and changed:
        return msg("the rules change to {name}: {changes}", name=name, changes=changed)
    if name:
        return msg("the rules change to {name} (no option differs)", name=name)
    if changed:
        return msg("the rules change: {changes}", changes=changed)
    return msg("the rules change (no option differs)")


def rules_difference(before: RuleSet, after: RuleSet) -> str:
    """ "counting winners_only, bock_triggers [tie]": the options `after` changes from `before`
    ("" when none), as they are typed."""
    old, new = before.to_dict(), after.to_dict()
    return ", ".join(f"{k} {_value(v)}" for k, v in new.items() if old.get(k) != v)


def _value(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


class Course:
    """The fold behind `plan`, one step at a time: a night that grows by a deal or a change
    extends its course instead of folding every deal again."""

    __slots__ = (
        "_bock",
        "_changes",
        "_counted",
        "_in_round",
        "_keep",
        "_last_dealer",
        "_pending",
        "_round",
        "_rows",
        "_rules",
        "_seating",
        "_solos",
        "_totals",
        "outcomes",
        "state",
    )

    def __init__(self, state: NightState) -> None:
        self.state = state
        self.outcomes: list[DealOutcome] = []
        self._rows: list[DealRow] = []
        self._seating = Seating.of(state.starting)
        self._rules = state.first_rules
        self._last_dealer: str | None = None
        self._keep = False
        self._counted, self._round, self._in_round = 0, 1, 0
        self._bock = BockRounds(self._rules, len(state.starting))
        self._solos: set[str] = set()
        self._totals = dict.fromkeys(state.starting, 0)
        self._pending: list[Message | str] = []
        self._changes: list[NightChangeRow] = []

    def copy(self) -> Course:
        """A course of its own, as far as this one: extending it leaves this one as it is."""
        other = Course.__new__(Course)
        other.state, other.outcomes, other._rows = self.state, list(self.outcomes), list(self._rows)
        other._seating, other._rules, other._last_dealer = self._seating, self._rules, self._last_dealer
        other._keep, other._counted, other._round, other._in_round = (
            self._keep,
            self._counted,
            self._round,
            self._in_round,
        )
        other._bock, other._solos, other._totals = self._bock.copy(), set(self._solos), dict(self._totals)
        other._pending, other._changes = list(self._pending), list(self._changes)
        return other

    def apply(self, change: Change) -> None:
        """Fold a change: in force from the next deal."""
        event = change.event
        kind, words = change_words(event, self._seating, self._rules)
        number = len(self.outcomes) + 1
        with_deal = isinstance(event, BockDeclared) and event.game_id is not None
        if isinstance(event, BockDeclared):
            self._bock.declare(len(self.outcomes), event.by, event.reason, event.rounds)
            if with_deal:
                number -= 1
                words = msg("{change} with deal {number}", change=words, number=number)
        else:
            if isinstance(event, PlayerJoined | PlayerLeft):
                self._seating = moved(self._seating, event)
                self._totals.setdefault(event.player, 0)
            elif isinstance(event, RulesChanged):
                self._rules = event.rules
            self._bock.change(self._rules, len(self._seating.present))
        row = NightChangeRow(change.version, number, kind, words, with_deal)
        self._changes.append(row)
        self._pending.append(row.words)

    def _dealer(self) -> str:
        """Who deals next (docs/rules.md §9): the player left of the last dealer in the seating
        in force, past seats left empty; the same dealer again after a deal thrown in or a
        compulsory solo."""
        seating, last = self._seating, self._last_dealer
        if last is None:
            first = self.state.starting[self.state.first_dealer]
            return first if seating.seated(first) else seating.next_after(first)
        if self._keep and seating.seated(last):
            return last
        return seating.next_after(last)

    def add(self, outcome: DealOutcome) -> None:
        """Fold the next deal's outcome."""
        state = self.state
        self.outcomes.append(outcome)
        if not state.started:
            return
        rules, counted, solos = self._rules, self._counted, self._solos
        seated = self._seating.present
        n = len(seated)
        dealer = self._dealer()
        number = len(self.outcomes)
        at_table = playing(seated, seated.index(dealer))
        owed = tuple(p for p in _owed(rules, seated, solos) if p in at_table)  # a player sitting out plays no solo
        forced = _forced(rules, counted, _owed(rules, seated, solos)) and bool(owed)
        first_solo = outcome.solo_by is not None and outcome.solo_by not in solos and rules.compulsory_solo
        compulsory = rules.compulsory_solo and first_solo and not forced
        live = not outcome.abandoned
        played = self._bock.play(number, live and outcome.finished, outcome.triggers if outcome.finished else ())
        points = [outcome.deltas.get(p, 0) for p in seated]
        parties = parties_at(seated, outcome.players, outcome.re_players)
        bocked_points = bocked(points, played.bock, parties, outcome.winner, outcome.lone)
        deltas = dict(zip(seated, bocked_points, strict=True))
        sheet = sheet_points(deltas, rules.counting)
        for player, written in sheet.items():
            self._totals[player] = self._totals.get(player, 0) + written
        counts = live and not compulsory and not (forced and rules.forced_solos == "after_deals")
        if counts:
            if self._in_round >= n:
                self._round, self._in_round = self._round + 1, 0
            self._in_round += 1
        index = max(counted - 1 + counts, 0)
        self._rows.append(
            DealRow(
                number=number,
                game_id=outcome.game_id,
                dealer=dealer,
                playing=at_table,
                sitting_out=tuple(p for p in seated if p not in at_table),
                match=index // state.match_length + 1,
                round=self._round,
                bock_round=played.bock,
                counts=counts,
                compulsory=compulsory,
                forced=forced and first_solo,
                bock_rounds_started=len(played.started),
                deltas=deltas,
                sheet=sheet,
                totals=dict(self._totals),
                outcome=outcome,
                rules=rules,
                changes=tuple(self._pending),
            )
        )
        self._pending = []
        if outcome.solo_by is not None:
            solos.add(outcome.solo_by)
        self._counted += counts
        self._last_dealer = dealer
        self._keep = not live or compulsory

    def schedule(self) -> Schedule:
        """The schedule of the steps folded so far."""
        state = self.state
        if not state.started:
            return Schedule((), NextDeal(1, "", 0, (), 1, (), False), (), 0, 0)
        rules, counted = self._rules, self._counted
        seated = self._seating.present
        owed = _owed(rules, seated, self._solos)
        dealer = self._dealer()
        at_next = playing(seated, seated.index(dealer))
        forced_now = _forced(rules, counted, owed) and any(p in at_next for p in owed)
        over = rules.compulsory_solo and counted >= rules.tournament_deals and not owed
        bock = self._bock.next_bock
        next_deal = NextDeal(
            number=len(self.outcomes) + 1,
            dealer=dealer,
            dealer_seat=seated.index(dealer),
            playing=at_next,
            multiplier=1 if bock is None else bock.multiplier,
            forced_solo_by=tuple(p for p in owed if p in at_next) if forced_now else (),
            over=over,
            sitting_out=tuple(p for p in seated if p not in at_next),
            bock=bock,
            changes=tuple(self._pending),
        )
        return Schedule(
            tuple(self._rows),
            next_deal,
            owed,
            counted,
            self._bock.deals_left,
            self._bock.causes(),
            rules,
            seated,
            self._seating.ring,
            tuple(self._changes),
        )
