"""Audit of a disputed game: every check a table argues about, and where a claim differs.

Re-decides every recorded event with today's rules engine (a card, an announcement
too late), finds revokes that later cards prove where hands were not recorded,
checks the card points, the zero sum and the score sheet's parity, and explains
the difference between a claimed result and the computed one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from doko_ledger.doppelkopf.cards import Cards
from doko_ledger.doppelkopf.claimed import claimed_points, derivation_check, outside_bock
from doko_ledger.doppelkopf.events import (
    AbandonReason,
    AnnouncementMade,
    CardPlayed,
    CardsDealt,
    DealAbandoned,
    DealSummarized,
    DealValued,
    GameStarted,
    HyperschweinchenShown,
    PenaltyImposed,
    PovertyAnswered,
    PovertyCardsPassed,
    PovertyCardsReturned,
    ReservationDeclared,
    ReservationNamed,
    ResultClaimed,
    SchweinchenShown,
)
from doko_ledger.doppelkopf.game.commands import (
    AbandonDeal,
    Announce,
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    EnterValue,
    ImposePenalty,
    NameReservation,
    PassPovertyCards,
    PlayCard,
    ReturnPovertyCards,
    ShowHyperschweinchen,
    ShowSchweinchen,
    StartGame,
    SummarizeDeal,
)
from doko_ledger.doppelkopf.game.decide import decide
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.rules.play import proven_revokes
from doko_ledger.doppelkopf.rules.ruleset import OPTION_NAMES, PRESETS, RuleSet, preset
from doko_ledger.doppelkopf.rules.scoring import ScoreLine
from doko_ledger.doppelkopf.rules.value import MOST_VALUE
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.errors import DokoError, reason_of
from doko_ledger.events.envelope import Recorded
from doko_ledger.i18n import Message, msg, plural
from doko_ledger.projections.checks import Check


@dataclass(slots=True)
class ClaimReport:
    """A claimed result against the computed one, and what could explain the difference."""

    claimed: dict[str, int]
    computed: dict[str, int]
    difference: dict[str, int]
    lines: list[list[ScoreLine]]
    rules: list[Message | str]
    """The rule sets under which the claim is right, each named (in words, `render` them)."""
    why: Message | None = None
    """Why the first explanation is listed first (None when nothing explains the difference)."""


@dataclass(slots=True)
class AuditReport:
    game_id: str
    checks: list[Check]
    score: GameScore | None
    claim: ClaimReport | None = None
    place: DealPlace | None = None

    @property
    def ok(self) -> bool:
        return not any(c.failed for c in self.checks) and (
            self.claim is None or not any(self.claim.difference.values())
        )


def command_of(event: Any) -> Command | None:
    """The command that produces `event` (None for an event another one brings with it)."""
    match event:
        case GameStarted():
            return StartGame(
                event.game_id,
                event.players,
                event.dealer,
                event.rules,
                event.played_on,
                event.note,
                event.solo_owed_by,
                event.dealt_by,
            )
        case CardsDealt():
            return DealCards(event.hands)
        case ReservationDeclared():
            return DeclareReservation(event.seat, event.healthy)
        case ReservationNamed():
            return NameReservation(event.seat, event.kind, event.solo, event.throw)
        case PovertyCardsPassed():
            return PassPovertyCards(event.seat, event.cards)
        case PovertyAnswered():
            return AnswerPoverty(event.seat, event.accepted)
        case PovertyCardsReturned():
            return ReturnPovertyCards(event.seat, event.cards)
        case DealAbandoned(reason=AbandonReason.MISDEAL):
            return AbandonDeal(AbandonReason.MISDEAL)
        case AnnouncementMade():
            return Announce(event.seat, event.announcement, event.party)
        case SchweinchenShown():
            return ShowSchweinchen(event.seat)
        case HyperschweinchenShown():
            return ShowHyperschweinchen(event.seat)
        case CardPlayed():
            return PlayCard(event.seat, event.card)
        case PenaltyImposed():
            return ImposePenalty(event.seat, event.severe, event.harms_soloist, event.denials, event.reason)
        case DealSummarized():
            return SummarizeDeal(
                event.game_type,
                event.re_seats,
                event.re_points,
                event.re_tricks,
                event.kontra_tricks,
                event.announcements,
                event.specials,
                event.heart_trick,
            )
        case DealValued():
            return EnterValue(event.winners, (), event.value, event.solo)
    return None


def _where(recorded: Recorded, state: GameState) -> Message:
    envelope = recorded.envelope
    trick = len(state.tricks) + 1
    return msg("event {version} (position {position}, trick {trick})", **_at(envelope), trick=trick)


def _at(envelope: Any) -> dict[str, int]:
    """An event's version and position in the ledger, as the audit names them."""
    return {"version": envelope.version, "position": envelope.position}


def _redecide(recorded: Sequence[Recorded]) -> tuple[GameState, Check, Check, Check]:
    """Replay every event through `decide`: cards, announcements, everything else."""
    cards, calls, other = (
        Check(msg("every card legal"), True),
        Check(msg("every announcement in time"), True),
        Check(msg("every other event legal"), True),
    )
    state = GameState()
    for r in recorded:
        command = command_of(r.event)
        if command is not None:
            try:
                decide(state, command)
            except DokoError as exc:
                check = cards if isinstance(command, PlayCard) else calls if isinstance(command, Announce) else other
                check.ok = False
                check.details.append(msg("{where}: {reason}", where=_where(r, state), reason=reason_of(exc)))
        state = evolve(state, r.event)
    if not state.cards_played:
        why = msg("no cards recorded") if state.abandoned is None else msg("deal thrown in: no cards played")
        cards = Check.not_checked(cards.name, why)
        if state.valued is not None and not calls.failed:
            calls = Check.not_checked(calls.name, msg("value only: no announcements were entered"))
        elif state.summary is not None and not calls.failed:  # the calls' order against the cards is not known
            calls = Check.not_checked(calls.name, msg("no cards recorded: when each call was made is not known"))
    return state, cards, calls, other


def _revokes(state: GameState, cards: Sequence[Recorded]) -> Check:
    """Revokes proven by later cards, each with both card events (docs/rules.md §3)."""
    check = Check(msg("no revoke proven by a later card"), True)
    if not state.cards_played:
        return Check.not_checked(check.name, msg("no cards recorded"))
    if state.dealt is not None:
        check.details.append(msg("hands recorded: every revoke was refused when played"))
        return check
    tricks = [t.plays for t in state.all_tricks]
    for seat, trick, later, card in proven_revokes(tricks, state.order):
        check.ok = False
        led = state.all_tricks[trick - 1].cards[0]
        first, shown = _card_event(state, cards, trick, seat), _card_event(state, cards, later, seat)
        check.details.append(
            msg(
                "{player} did not follow {led} in trick {trick} ({first}) but played {card} in trick {later} ({shown})",
                player=state.players[seat],
                led=Cards((led,)),
                trick=trick,
                first=first,
                card=Cards((card,)),
                later=later,
                shown=shown,
            )
        )
    return check


def _card_event(state: GameState, cards: Sequence[Recorded], trick: int, seat: int) -> Message:
    """The event of `seat`'s card in `trick`: card events come four to a trick, in order."""
    index = next(i for i, (s, _) in enumerate(state.all_tricks[trick - 1].plays) if s == seat)
    envelope = cards[(trick - 1) * 4 + index].envelope
    return msg("event {version}, position {position}", **_at(envelope))


def _points(state: GameState) -> Check:
    name = msg("240 card points")
    if state.valued is not None:
        return Check.not_checked(name, msg("value only: the card points are not known"))
    if state.summary is not None or state.abandoned is not None:
        return Check.not_checked(name, msg("no cards recorded") if state.summary else msg("deal thrown in"))
    total = sum(t.points for t in state.tricks)
    ok = not state.finished or total == 240
    found = plural(
        "{points} card points in {count} trick",
        "{points} card points in {count} tricks",
        len(state.tricks),
        points=total,
    )
    return Check(name, ok, [found])


def _value_entry(state: GameState) -> list[Check]:
    """What the audit can check of a deal entered by its value only, and what it cannot."""
    valued = state.valued
    if valued is None:
        return []
    players = state.players
    seated = all(0 <= s < len(players) for s in valued.winners) and 0 < len(set(valued.winners)) < len(players)
    whole = 0 <= valued.value <= MOST_VALUE
    winners: Message | str = ", ".join(players[s] if 0 <= s < len(players) else f"#{s}" for s in valued.winners)
    if valued.solo and valued.lone is not None and seated:
        winners = msg("{winners}; a solo by {player}", winners=winners, player=players[valued.lone])
    who = (
        msg("the winners are one to three players of the deal: {winners}", winners=winners)
        if seated
        else msg("the winners are not one to three players of the deal: {winners}", winners=winners)
    )
    value = (
        msg("the value is a whole number from 0 to {most}: {value}", most=MOST_VALUE, value=valued.value)
        if whole
        else msg("the value is not a whole number from 0 to {most}: {value}", most=MOST_VALUE, value=valued.value)
    )
    entered = Check(msg("value only: who won and the value"), seated and whole, [who, value])
    unknown = Check.not_checked(
        msg("value only: how the value came about"),
        msg(
            "only who won and the value were entered: the card points, the announcements and the special points"
            " cannot be checked"
        ),
    )
    return [entered, unknown]


def _sums(result: GameScore | None) -> list[Check]:
    if result is None:
        return []
    total = sum(result.deltas)
    zero = Check(msg("scores sum to zero"), total == 0, [msg("sum {total}", total=total)])
    parities = {d % 2 for d in result.deltas}
    details: list[Message | str] = [" ".join(f"{d:+d}" for d in result.deltas)]
    if len(parities) > 1 and result.solo_penalty:
        details.append(msg("mixed because of a penalty in a solo, the one thing that may mix them (docs/rules.md §9)"))
    parity = Check(msg("all scores even or all odd"), len(parities) == 1 or result.solo_penalty, details)
    return [zero, parity]


def _explain(
    result: GameScore, claimed: Mapping[str, int], state: GameState, place: DealPlace | None = None
) -> ClaimReport:
    """The per-player difference, the derivation lines whose points make up one share of
    it, and the rule sets under which the claim would be right."""
    computed = result.by_player
    difference = {p: claimed.get(p, 0) - computed[p] for p in result.players}
    lines: list[list[ScoreLine]] = []
    rule_names: list[Message | str] = []
    if any(difference.values()) and result.score is not None:
        unbocked = _without_bock(state, claimed, place)
        if unbocked is not None:  # the night's bock round is the whole difference
            why = msg("the claim is the score without its bock round: nothing else differs")
            return ClaimReport(dict(claimed), computed, difference, [], [unbocked], why)
        rule_names = _rules_matching(state, claimed, place)
        lone_seat = state.declarer if result.score.lone else None
        share = next(abs(difference[p]) for s, p in enumerate(result.players) if s != lone_seat)
        scoring = [line for line in result.score.lines if line.points]
        for size in (1, 2, 3):
            lines += [list(c) for c in combinations(scoring, size) if sum(line.points for line in c) == share]
            if lines:
                break
    return ClaimReport(dict(claimed), computed, difference, lines[:5], rule_names, _why(lines, rule_names, state))


def _why(lines: list[list[ScoreLine]], rule_names: list[Message | str], state: GameState) -> Message | None:
    """Why the first explanation comes first: the fewest score lines that make up the
    difference (one line forgotten or counted twice is the likeliest slip), then the
    game's own rules with one option changed (a house rule) before another preset."""
    if lines:
        size = len(lines[0])
        if size == 1:
            return msg(
                "first: one line of the score ({item}) is the whole difference, left out or counted twice",
                item=lines[0][0].shown,
            )
        return msg("first: {count} lines of the score make up the difference, none fewer", count=size)
    if rule_names:
        if isinstance(rule_names[0], Message):  # the game's own rules with an option changed, not a preset
            return msg("first: the game's own rules with one option changed, the smallest difference in rules")
        return msg("first: another preset's rules give the claim")
    return None


def _without_bock(state: GameState, claimed: Mapping[str, int], place: DealPlace | None) -> Message | None:
    """The claim is the deal's score without its night's bock round: said so, else None."""
    if place is None or place.bock is None:
        return None
    try:
        if score_game(state).by_player != dict(claimed):
            return None
    except NotScorable:
        return None
    return msg(
        "{rules} without the night's {bock} ({cause})",
        rules=state.rules.preset,
        bock=place.bock.said,
        cause=place.bock.cause,
    )


def _rules_matching(
    state: GameState, claimed: Mapping[str, int], place: DealPlace | None = None
) -> list[Message | str]:
    """Presets, and single option changes of the game's rules, under which the claim holds
    (a card night's deal in its bock round): a changed option as a message, a preset by its name."""
    found = []
    candidates: list[tuple[Message | str, RuleSet]] = []
    base = state.rules
    for name in OPTION_NAMES:  # one house rule changed: closer than another preset, so first
        value = getattr(base, name)
        for other in _alternatives(value):
            said = msg("{rules} with {option}={value}", rules=base.preset, option=name, value=other)
            candidates.append((said, replace(base, **{name: other})))
    candidates += [(name, preset(name)) for name in PRESETS]
    for label, rules in candidates:
        try:
            if score_game(state, rules, place=place).by_player == dict(claimed):
                found.append(label)
        except (NotScorable, ValueError):
            continue
    return found


def _alternatives(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    alternatives = {
        "any": ["trump", "plain"],
        "after_first": ["tricks"],
        "additive": ["doubling"],
        "doubling": ["additive"],
        "standard": ["ddv"],
        "ddv": ["standard"],
    }
    return alternatives.get(value, [])


def audit(
    recorded: Sequence[Recorded],
    chain_problems: Sequence[Message | str],
    claimed: Mapping[str, int] | None,
    place: DealPlace | None = None,
) -> AuditReport:
    """Every check of a game; with `claimed` (player → points), the differences explained.
    Without, a result claimed in the record (`ResultClaimed`, an imported game's own score) is
    the claim, and its derivation is checked line by line too.
    `place`: the game's place in its card night (its bock round is in the score)."""
    found: list[Message | str] = list(chain_problems) or [msg("every hash matches")]
    chain = Check(msg("hash chain intact"), not chain_problems, found)
    state, cards, calls, other = _redecide(recorded)
    card_events = [r for r in recorded if isinstance(r.event, CardPlayed)]
    checks = [chain, cards, _revokes(state, card_events), calls, other, _points(state)]
    result: GameScore | None
    try:
        result = score_game(state, place=place)
    except NotScorable as exc:
        result = None
        checks.append(Check(msg("game scorable"), False, [reason_of(exc)]))
    checks += _value_entry(state)
    checks += _sums(result)
    claim = None
    recorded_claim = next((r.event for r in reversed(recorded) if isinstance(r.event, ResultClaimed)), None)
    if recorded_claim is not None and result is not None:
        checks.append(derivation_check(result, recorded_claim, state.rules.counting))
        if claimed is None:
            claimed = claimed_points(recorded_claim, state.players, outside_bock(result, recorded_claim))
    if claimed is not None and result is not None:
        unknown = [p for p in claimed if p not in state.players]
        if unknown:
            raise DokoError(
                msg(
                    "claimed result names {name}, who did not play (players: {players})",
                    name=repr(unknown[0]),
                    players=", ".join(state.players),
                )
            )
        missing = [p for p in state.players if p not in claimed]
        if missing:
            raise DokoError(msg("the claimed result must name every player: {names} missing", names=", ".join(missing)))
        total = sum(claimed.values())
        checks.append(Check(msg("the claim sums to zero"), total == 0, [msg("sum {total}", total=f"{total:+d}")]))
        claim = _explain(result, claimed, state, place)
    return AuditReport(state.game_id, checks, result, claim, place)
