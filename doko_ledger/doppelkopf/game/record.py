"""A whole game as people write it down, and its conversion to and from events.

`GameRecord` is what a game file holds: players by name, the dealer, the rules,
optional hands, the reservations, a poverty's exchange, and the play trick by
trick with the calls between the cards. `to_events` runs every entry through
`decide`, so a record that breaks a rule is refused with the path of the entry
(`("tricks", 5, 2)`); `from_events` is its inverse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.events import (
    AbandonReason,
    AnnouncementMade,
    CardPlayed,
    DealAbandoned,
    DealSummarized,
    DealValued,
    DoppelkopfEvent,
    HyperschweinchenShown,
    PenaltyImposed,
    PovertyAnswered,
    PovertyCardsPassed,
    PovertyCardsReturned,
    ReservationDeclared,
    ReservationNamed,
    SchweinchenShown,
    SummaryCall,
    SummarySpecial,
)
from doko_ledger.doppelkopf.game.commands import (
    AbandonDeal,
    Announce,
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    EnterValue,
    IllegalMove,
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
from doko_ledger.doppelkopf.game.notes import anchored, annotate
from doko_ledger.doppelkopf.game.parties import true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.game.value import PLAYERS, ValueRefused
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, Throw, asking_order, next_to_name
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.rules.value import ValueDeal
from doko_ledger.errors import DokoError, FieldPath
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg
from doko_ledger.names import find_player

SCHWEINCHEN = "schweinchen"
HYPERSCHWEINCHEN = "hyperschweinchen"
RESERVATION = "reservation"
"""A reservation whose kind was never asked because an earlier one decided the game."""

MISDEAL = AbandonReason.MISDEAL.value


@frozen
class Said:
    """A call between two cards: `{Anna: re}`, `{Anna: kontra no90}`, `{Anna: schweinchen}`."""

    player: str
    what: str


PlayItem = Card | Said


@frozen
class PovertyRecord:
    """A poverty's exchange by its outcome: the cards passed, who took them (the players
    asked before declined; nobody: all declined), and the cards given back."""

    passed: tuple[Card, ...] | None = None
    accepted_by: str | None = None
    returned: tuple[Card, ...] | None = None


@frozen
class SummaryRecord:
    """A deal written down by its facts: the game type, the Re players (the soloist alone),
    Re's card points, the tricks (Re, Kontra) where they matter, the announcements in order
    as (player, call), the special points as (kind, party, caught from), and whether a trick
    of four hearts was played (a bock trigger, docs/rules.md §9)."""

    game: str
    re: tuple[str, ...]
    re_points: int
    tricks: tuple[int, int] | None = None
    announcements: tuple[tuple[str, str], ...] = ()
    specials: tuple[tuple[str, str, str | None], ...] = ()
    heart_trick: bool = False


@frozen
class ValueRecord:
    """A deal written down by its value only (docs/rules.md §7): the winners or the losers
    (both only when they make up the table), the simple value before bock, and the solo mark
    (the lone player, the only winner or the only loser, played a solo)."""

    value: int
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()
    solo: bool = False

    @property
    def named(self) -> tuple[str, ...]:
        return (*self.winners, *self.losers)

    @property
    def alone(self) -> bool:
        """One of the four playing won or lost alone: only then may the deal be a solo."""
        return len(self.winners or self.losers) in (1, SEATS - 1)


DealEntry = SummaryRecord | ValueRecord
"""A deal as the table writes it down: by its facts, or by its value only."""


@frozen
class PenaltyRecord:
    """A penalty as written: the offender, minor or severe, could it harm the soloist, the
    denials that count (None: counted from the record), why."""

    player: str
    severe: bool
    harms_soloist: bool = False
    denials: int | None = None
    reason: str = ""
    at_card: int | None = None
    """Imposed after this many cards were played (None: after the play so far)."""


@frozen
class GameRecord:
    """One game as written in a game file.

    `reservations` lists, in asking order, each player who did not say healthy and what
    the reservation was: `marriage`, `poverty`, a solo type, or `reservation` when it was
    never asked.
    """

    id: str
    players: tuple[str, ...]
    dealer: str
    rules: RuleSet
    reservations: tuple[tuple[str, str], ...] = ()
    poverty: PovertyRecord | None = None
    abandoned: str | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    tricks: tuple[tuple[PlayItem, ...], ...] = ()
    played_on: str | None = None
    summary: SummaryRecord | None = None
    value: ValueRecord | None = None
    """A deal entered by its value only (`winners`, `value`, `solo`)."""
    note: str | None = None
    reservations_open: bool = False
    """A deal being played whose players have not all spoken yet (`reservations: open`)."""
    solo_owed_by: tuple[str, ...] = ()
    """Tournament: who still owes a compulsory solo (`solo_owed_by: [..]`)."""
    dealt_by: str | None = None
    """Who dealt while sitting the deal out (`dealt_by: Emil`); `dealer` is then the player
    before the first to play."""
    penalties: tuple[PenaltyRecord, ...] = ()
    """Rule violations settled with penalty points, after the play (docs/rules.md §9)."""
    notes: tuple[AnnotationAdded, ...] = ()
    """Comments on the game, its tricks and cards (`doko annotate`)."""


class RecordError(DokoError, ValueError):
    """An entry of a game record that cannot be recorded; `path` says which entry."""

    def __init__(self, message: str | Message, path: FieldPath) -> None:
        super().__init__(message)
        self.path = path


def _seat(record: GameRecord, player: str, path: FieldPath) -> int:
    found = find_player(player, record.players)
    if found is None:
        raise RecordError(
            msg("unknown player {name} (players: {players})", name=repr(player), players=", ".join(record.players)),
            path,
        )
    return record.players.index(found)


THROW_WORDS = {f"thrown_{t.value}" if t is not Throw.FOX_HIGHEST_TRUMP else t.value: t for t in Throw}
"""A throw as a game file writes it: `thrown_nines`, `thrown_kings`, … and `fox_highest_trump`."""


def _reservation(value: str, path: FieldPath) -> NameReservation:
    """The named reservation of a game file's `reservations` entry, for seat 0 (the caller's seat replaces it)."""
    if value in THROW_WORDS:
        return NameReservation(0, ReservationKind.THROW, throw=THROW_WORDS[value])
    if value in (ReservationKind.MARRIAGE.value, ReservationKind.POVERTY.value):
        return NameReservation(0, ReservationKind(value))
    try:
        solo = GameType(value)
    except ValueError:
        solo = None
    if solo is None or not solo.is_declared_solo:
        raise RecordError(
            msg("unknown reservation {value} (marriage, poverty, a solo type or a throw)", value=repr(value)), path
        )
    return NameReservation(0, ReservationKind.SOLO, solo)


def _call(record: GameRecord, said: Said, path: FieldPath) -> Command:
    seat = _seat(record, said.player, path)
    words = said.what.lower().split()
    if words == [SCHWEINCHEN]:
        return ShowSchweinchen(seat)
    if words == [HYPERSCHWEINCHEN]:
        return ShowHyperschweinchen(seat)
    parties = {p.value: p for p in Party}
    calls = {a.value: a for a in Announcement}
    if len(words) == 1 and words[0] in calls:
        return Announce(seat, calls[words[0]])
    if len(words) == 2 and words[0] in parties and words[1] in calls:
        return Announce(seat, calls[words[1]], parties[words[0]])
    raise RecordError(
        msg(
            "unknown call {call} (re, kontra, no90, no60, no30, schwarz, schweinchen, hyperschweinchen)",
            call=repr(said.what),
        ),
        path,
    )


def _reservation_commands(record: GameRecord, dealer: int, now: Callable[[], GameState]) -> Iterator[Any]:
    said = dict(record.reservations)
    for player in said:
        _seat(record, player, ("reservations", player))
    for seat in asking_order(dealer):
        yield DeclareReservation(seat, record.players[seat] not in said), ("reservations", record.players[seat])
    while (naming := next_to_name(dealer, now().declared, now().named, now().rules, now().hands)) is not None:
        player = record.players[naming]
        path: FieldPath = ("reservations", player)
        if said[player] == RESERVATION:
            raise RecordError(msg("{who}'s reservation decides the game: say what it is", who=player), path)
        yield replace(_reservation(said[player], path), seat=naming), path
    named = {record.players[n.seat] for n in now().named}
    for player, value in said.items():
        if value != RESERVATION and player not in named:
            raise RecordError(
                msg("{who}'s reservation is never asked (an earlier one decides); write `reservation`", who=player),
                ("reservations", player),
            )


def _poverty_commands(record: GameRecord, now: Callable[[], GameState]) -> Iterator[Any]:
    state = now()
    poverty = record.poverty
    if state.poverty is None:
        if poverty is not None:
            raise RecordError(msg("a poverty exchange, but nobody's poverty decides the game"), ("poverty",))
        return
    poor = state.poverty.poor
    poverty = poverty or PovertyRecord()
    yield PassPovertyCards(poor, poverty.passed), ("poverty", "passed")
    acceptor: int | None = None
    if poverty.accepted_by is not None:
        acceptor = _seat(record, poverty.accepted_by, ("poverty", "accepted_by"))
        if acceptor == poor:
            raise RecordError(
                msg("{who} cannot take their own poverty", who=poverty.accepted_by), ("poverty", "accepted_by")
            )
    for i in range(1, SEATS):
        seat = (poor + i) % SEATS
        yield AnswerPoverty(seat, seat == acceptor), ("poverty", "accepted_by")
        if seat == acceptor:
            yield ReturnPovertyCards(seat, poverty.returned), ("poverty", "returned")
            return


def _special_party(
    kind: SpecialKind, party: str, victim: int | None, re_seats: tuple[int, ...], path: FieldPath
) -> Party:
    """A special point's party as written, or, left out, the party that caught the victim's card
    (the other party than the victim's)."""
    if party:
        return Party(party)
    if victim is None:
        if kind.caught:
            raise RecordError(msg("{special}: say whose card was caught", special=kind), path)
        raise RecordError(msg("{special}: say the party that won it", special=kind), path)
    return Party.KONTRA if victim in re_seats else Party.RE


def _summary_command(record: GameRecord, summary: SummaryRecord) -> SummarizeDeal:
    if record.hands or record.reservations or record.poverty or record.abandoned or record.tricks:
        raise RecordError(msg("a summary stands alone: no hands, reservations, poverty or tricks"), ("summary",))
    try:
        game = GameType(summary.game)
    except ValueError:
        raise RecordError(msg("unknown game type {text}", text=repr(summary.game)), ("summary", "game")) from None
    re_seats = tuple(_seat(record, p, ("summary", "re", i)) for i, p in enumerate(summary.re))
    calls = []
    for i, (player, what) in enumerate(summary.announcements):
        path: FieldPath = ("summary", "announcements", i)
        calls.append(SummaryCall(_seat(record, player, path), Announcement(what)))
    specials = []
    for i, (kind, party, caught) in enumerate(summary.specials):
        path = ("summary", "specials", i)
        victim = None if caught is None else _seat(record, caught, path)
        specials.append(
            SummarySpecial(SpecialKind(kind), _special_party(SpecialKind(kind), party, victim, re_seats, path), victim)
        )
    re_tricks, kontra_tricks = summary.tricks if summary.tricks is not None else (None, None)
    return SummarizeDeal(
        game, re_seats, summary.re_points, re_tricks, kontra_tricks, tuple(calls), tuple(specials), summary.heart_trick
    )


def _value_command(record: GameRecord, entry: ValueRecord) -> EnterValue:
    if record.hands or record.reservations or record.poverty or record.abandoned or record.tricks or record.summary:
        raise RecordError(
            msg("a value entry stands alone: no hands, reservations, poverty, tricks or summary"), ("value",)
        )
    winners = tuple(_seat(record, p, ("winners", i)) for i, p in enumerate(entry.winners))
    losers = tuple(_seat(record, p, ("losers", i)) for i, p in enumerate(entry.losers))
    return EnterValue(winners, losers, entry.value, entry.solo)


def _value_field(entry: ValueRecord, field: str) -> str:
    """The field of a value entry a refusal is about: `value`, `solo`, or the players as given."""
    if field != PLAYERS:
        return field
    return "winners" if entry.winners or not entry.losers else "losers"


def entry_players(entry: DealEntry | None) -> tuple[str, ...]:
    """The players an entry names (as written): the Re players, callers and victims of a
    summary; the winners and losers of a value entry."""
    if isinstance(entry, ValueRecord):
        return entry.named
    if entry is None:
        return ()
    return (*entry.re, *(p for p, _ in entry.announcements), *(s[2] for s in entry.specials if s[2]))


def _commands(record: GameRecord, now: Callable[[], GameState]) -> Iterator[tuple[Command | Card, FieldPath]]:
    dealer = _seat(record, record.dealer, ("dealer",))
    start = StartGame(
        record.id,
        record.players,
        dealer,
        record.rules,
        record.played_on,
        record.note,
        record.solo_owed_by,
        record.dealt_by,
    )
    yield start, ("players",)
    if record.value is not None:
        yield _value_command(record, record.value), ("value",)
        yield from _penalty_commands(record)
        return
    if record.summary is not None:
        yield _summary_command(record, record.summary), ("summary",)
        yield from _penalty_commands(record)
        return
    if record.hands is not None:
        yield DealCards(record.hands), ("hands",)
    if record.abandoned is not None:
        if record.abandoned != MISDEAL:
            raise RecordError(msg("unknown reason {reason} (misdeal)", reason=repr(record.abandoned)), ("abandoned",))
        if record.reservations or record.poverty or record.tricks:
            raise RecordError(msg("a deal thrown in has no reservations, poverty or tricks"), ("abandoned",))
        yield AbandonDeal(AbandonReason.MISDEAL), ("abandoned",)
        yield from _penalty_commands(record)
        return
    if record.reservations_open:
        if record.reservations or record.poverty or record.tricks:
            raise RecordError(msg("the reservations are open: nothing is said or played yet"), ("reservations",))
        return
    yield from _reservation_commands(record, dealer, now)
    yield from _poverty_commands(record, now)
    if now().abandoned is not None and record.tricks:
        raise RecordError(msg("nobody took the poverty, so the deal was thrown in: no tricks"), ("tricks",))
    played = 0
    for t, trick in enumerate(record.tricks):
        cards = sum(isinstance(item, Card) for item in trick)
        if cards > SEATS:
            raise RecordError(
                msg("trick {trick} has {count} cards; a trick has four", trick=t + 1, count=cards), ("tricks", t)
            )
        if cards < SEATS and t < len(record.tricks) - 1:
            raise RecordError(
                msg("trick {trick} has {count} cards; only the last trick may be unfinished", trick=t + 1, count=cards),
                ("tricks", t),
            )
        for i, item in enumerate(trick):
            path: FieldPath = ("tricks", t, i)
            yield (_call(record, item, path) if isinstance(item, Said) else item), path
            played += isinstance(item, Card)
            if isinstance(item, Card):
                yield from _penalty_commands(record, at_card=played)
    yield from _penalty_commands(record, at_card=None)


def _penalty_commands(record: GameRecord, at_card: int | None = None) -> Iterator[tuple[Command, FieldPath]]:
    """The penalties imposed after card `at_card`; with None, those of no card or after the play."""
    if not record.penalties:  # the common case, asked after every card: no need to count them
        return
    played = sum(isinstance(i, Card) for t in record.tricks for i in t)
    for i, penalty in enumerate(record.penalties):
        moment = penalty.at_card if penalty.at_card is not None and penalty.at_card < played else None
        if moment != at_card:
            continue
        path: FieldPath = ("penalties", i)
        seat = _seat(record, penalty.player, path)
        yield ImposePenalty(seat, penalty.severe, penalty.harms_soloist, penalty.denials, penalty.reason), path


def to_events(record: GameRecord) -> tuple[list[DoppelkopfEvent | AnnotationAdded], GameState]:
    """The events that record this game, and the state after them; `RecordError` on any illegal entry."""
    now = [GameState()]  # the commands ask for the state as it is when they are generated
    events: list[DoppelkopfEvent | AnnotationAdded] = []
    for command, path in _commands(record, lambda: now[0]):
        state = now[0]
        if isinstance(command, Card):
            seat = state.to_play
            command = PlayCard(-1 if seat is None else seat, command)
        try:
            new = decide(state, command)
        except IllegalMove as exc:
            where = path
            if path == ("hands",) and exc.seat is not None:
                where = ("hands", record.players[exc.seat])
            if isinstance(exc, ValueRefused) and record.value is not None:
                where = (_value_field(record.value, exc.field),)
            raise RecordError(exc.args[0], where) from exc
        for event in new:
            state = evolve(state, event)
        now[0] = state
        events.extend(new)
    for i, note in enumerate(record.notes):
        try:
            events.append(
                annotate(now[0], note.trick, note.card, note.text, author=note.author, written_at=note.written_at)
            )
        except IllegalMove as exc:
            raise RecordError(exc.args[0], ("notes", i)) from exc
    return events, now[0]


def from_events(events: Iterable[Any]) -> GameRecord:
    """The record of a game's events (the inverse of `to_events`)."""
    state = GameState()
    reservations: dict[str, str] = {}
    passed = returned = None
    accepted_by = abandoned = None
    tricks: list[list[PlayItem]] = []
    summary = None
    valued = None
    penalties: list[PenaltyRecord] = []
    notes: list[AnnotationAdded] = []
    cards_in_last = SEATS
    for event in events:
        before, state = state, evolve(state, event)
        players = state.players
        match event:
            case ReservationDeclared(seat=seat, healthy=False):
                reservations[players[seat]] = RESERVATION
            case ReservationNamed(seat=seat, kind=kind, solo=solo, throw=throw):
                words = {t: w for w, t in THROW_WORDS.items()}
                reservations[players[seat]] = (
                    solo.value if solo is not None else words[throw] if throw is not None else kind.value
                )
            case PovertyCardsPassed(cards=cards):
                passed = cards
            case PovertyAnswered(seat=seat, accepted=True):
                accepted_by = players[seat]
            case PovertyCardsReturned(cards=cards):
                returned = cards
            case DealAbandoned(reason=AbandonReason.MISDEAL):
                abandoned = MISDEAL
            case DealSummarized():
                summary = _summary_record(players, event)
            case DealValued():
                valued = value_record(players, ValueDeal(event.winners, event.value, event.solo))
            case AnnotationAdded():
                notes.append(event)
            case PenaltyImposed():
                penalties.append(
                    PenaltyRecord(
                        players[event.seat],
                        event.severe,
                        event.harms_soloist,
                        event.denials if event.severe else None,
                        event.reason,
                        len(before.cards_played),
                    )
                )
            case SchweinchenShown() | HyperschweinchenShown() | AnnouncementMade() | CardPlayed():
                if cards_in_last == SEATS:
                    tricks.append([])
                    cards_in_last = 0
                if isinstance(event, CardPlayed):
                    tricks[-1].append(event.card)
                    cards_in_last += 1
                elif isinstance(event, SchweinchenShown):
                    tricks[-1].append(Said(players[event.seat], SCHWEINCHEN))
                elif isinstance(event, HyperschweinchenShown):
                    tricks[-1].append(Said(players[event.seat], HYPERSCHWEINCHEN))
                else:
                    tricks[-1].append(Said(players[event.seat], _call_text(before, event)))
    if not state.started:
        raise DokoError(msg("these events hold no GameStarted"))
    poverty = None if state.poverty is None else PovertyRecord(passed, accepted_by, returned)
    return GameRecord(
        id=state.game_id,
        players=state.players,
        dealer=state.players[state.dealer],
        rules=state.rules,
        reservations=tuple(reservations.items()),
        poverty=poverty,
        abandoned=abandoned,
        hands=state.dealt,
        tricks=tuple(tuple(t) for t in tricks),
        played_on=state.played_on,
        summary=summary,
        value=valued,
        note=state.note,
        reservations_open=not state.declared
        and state.abandoned is None
        and state.summary is None
        and state.valued is None,
        solo_owed_by=state.solo_owed_by,
        dealt_by=state.dealt_by,
        penalties=tuple(_at_card(p, len(state.cards_played)) if state.finished or state.void else p for p in penalties),
        notes=tuple(anchored(state, n) for n in notes),
    )


def _at_card(penalty: PenaltyRecord, played: int) -> PenaltyRecord:
    """In a finished or void game a penalty after the last card is simply after the play."""
    if penalty.at_card is not None and penalty.at_card >= played:
        return replace(penalty, at_card=None)
    return penalty


def _summary_record(players: tuple[str, ...], event: DealSummarized) -> SummaryRecord:
    tricks = None
    if event.re_tricks is not None and event.kontra_tricks is not None:
        tricks = (event.re_tricks, event.kontra_tricks)
    return SummaryRecord(
        game=event.game_type.value,
        re=tuple(players[s] for s in event.re_seats),
        re_points=event.re_points,
        tricks=tricks,
        announcements=tuple((players[c.seat], c.announcement.value) for c in event.announcements),
        specials=tuple(
            (s.kind.value, s.party.value, None if s.caught_from is None else players[s.caught_from])
            for s in event.specials
        ),
        heart_trick=event.heart_trick,
    )


def value_record(players: tuple[str, ...], deal: ValueDeal) -> ValueRecord:
    """A value entry as written: the lone loser by name where one player lost, else the winners."""
    losers = tuple(players[s] for s in deal.losers)
    if len(losers) == 1:
        return ValueRecord(deal.value, losers=losers, solo=deal.solo)
    return ValueRecord(deal.value, winners=tuple(players[s] for s in deal.winners), solo=deal.solo)


def _call_text(before: GameState, event: AnnouncementMade) -> str:
    """`re`, `no90`, or `kontra no90` where the record could not tell the caller's party."""
    word = event.announcement.value
    if event.announcement.level == 0 or true_parties(before)[event.seat] is not None:
        return word
    return f"{event.party.value} {word}"
