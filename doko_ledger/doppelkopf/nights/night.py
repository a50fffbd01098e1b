"""Recording a card night in memory: every command decided against the night so far, the
events it makes for the session stream and for each deal's game stream.

Pure: the ledger loads a night into a `Night`, asks it for events, and appends them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, count
from typing import TYPE_CHECKING, Any

from doko_ledger.doppelkopf.game.evolve import fold as fold_game
from doko_ledger.doppelkopf.game.illegal import IllegalMove
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.events import DealCorrected, DealVoided
from doko_ledger.doppelkopf.nights.outcome import DealOutcome, deal_outcome
from doko_ledger.doppelkopf.nights.place import DealPlace, deal_places, grown_places
from doko_ledger.doppelkopf.nights.schedule import Course, Schedule, steps
from doko_ledger.doppelkopf.nights.state import Change, Entry, NightState, evolve
from doko_ledger.doppelkopf.rules.game_types import GameType, game_type_problem
from doko_ledger.events.voiding import in_force
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg
from doko_ledger.names import find_player

if TYPE_CHECKING:  # a deal's record is read and made only where a deal is added or corrected,
    # and the night's commands decided only where one is given: the standings only fold
    from doko_ledger.doppelkopf.game.record import DealEntry, GameRecord
    from doko_ledger.doppelkopf.nights.decide import (
        ChangeRules,
        DeclareBock,
        JoinTable,
        LeaveTable,
        NightCommand,
        StartNight,
        TakeBackChange,
    )

_CORRECTED = re.compile(r"(.+)-c\d+")
"""A corrected deal's game id: the original's id and `-c1`, `-c2`, …"""


@frozen
class _Places:
    """The places derived last: with the course they came from (a course folded again may have
    moved bock rounds), the session events, schedule rows and deals in force they cover."""

    course: Course | None
    events: int
    rows: int
    deals: int
    places: dict[str, DealPlace]


@dataclass(slots=True)
class Night:
    """A card night with the games of its deals; `new_session_events`/`new_games` hold what
    was decided since it was loaded (to be appended)."""

    state: NightState = field(default_factory=NightState)
    games: dict[str, GameState] = field(default_factory=dict)
    new_session_events: list[Any] = field(default_factory=list)
    new_games: dict[str, list[Any]] = field(default_factory=dict)
    history: list[Any] = field(default_factory=list)
    """Every session event, stored and new."""
    _outcomes: dict[str, tuple[GameState, DealOutcome]] = field(default_factory=dict, repr=False)
    _course: Course | None = field(default=None, repr=False)
    _timeline: tuple[Entry, ...] = field(default=(), repr=False)
    """The timeline folded into `_course` (the state's timeline when it was last extended)."""
    _scheduled: tuple[NightState, Schedule] | None = field(default=None, repr=False)
    """The last schedule derived, with the state it was derived from."""
    _places: _Places | None = field(default=None, repr=False)
    read_at: object = field(default=None, repr=False, compare=False)
    """Where the night was read (the point of the log, for whoever keeps nights folded)."""

    @classmethod
    def load(cls, session_events: Sequence[Any], games: Mapping[str, Sequence[Any]]) -> Night:
        """A night from its stored session events and the events of every game it names."""
        night = cls()
        night.catch_up(session_events, games)
        return night

    def catch_up(self, session_events: Sequence[Any], games: Mapping[str, Sequence[Any]]) -> None:
        """Fold what was stored since the night was loaded: its session's further events, and
        every game that is new or changed, each folded again from all of its events."""
        for event in session_events:
            self.state = evolve(self.state, event)
            self.history.append(event)
        for game_id, events in games.items():
            self._set_game(game_id, fold_game(in_force(events)))

    def _set_game(self, game_id: str, game: GameState) -> None:
        """A deal's game as it now stands; a game the course folded already, changed, makes the
        course be folded again."""
        known = self._outcomes.get(game_id)
        if known is not None and known[0] is not game:
            self._course = None
        self.games[game_id] = game

    def fork(self) -> Night:
        """A night of its own as this one stands, with nothing new to append: deciding on it
        leaves this one as it is (a night kept folded is forked for every write)."""
        course = None if self._course is None else self._course.copy()
        places = self._places
        return Night(
            state=self.state,
            games=dict(self.games),
            history=list(self.history),
            _outcomes=dict(self._outcomes),
            _course=course,
            _timeline=self._timeline,
            _scheduled=self._scheduled,
            _places=None if places is None or places.course is not self._course else replace(places, course=course),
        )

    def outcome(self, game_id: str) -> DealOutcome:
        """A deal's outcome, derived once per state of its game."""
        game = self.games[game_id]
        known = self._outcomes.get(game_id)
        if known is None or known[0] is not game:
            known = self._outcomes[game_id] = (game, deal_outcome(game))
        return known[1]

    def outcomes(self) -> list[DealOutcome]:
        return [self.outcome(g) for g in self.state.deals]

    def schedule(self) -> Schedule:
        """The night's course so far (`plan`); extended by the deals and changes added since it
        was last derived, so recording a night deal by deal costs the same however long the
        night (folded again from the start only when the night changed otherwise: a deal taken
        back or corrected, a game changed, a bock bound to an earlier deal)."""
        state = self.state
        if self._scheduled is not None and self._scheduled[0] is state and self._course is not None:
            return self._scheduled[1]
        course, done = self._course, self._timeline
        timeline = state.timeline
        if course is None or _start(course.state) != _start(state) or not _extends(timeline, done):
            course, done = Course(state), ()
            new = steps(state)
        else:
            new = list(timeline[len(done) :])
        for step in new:
            if isinstance(step, str):
                course.add(self.outcome(step))
            else:
                course.apply(step)
        self._course, self._timeline = course, timeline
        schedule = course.schedule()
        self._scheduled = (state, schedule)
        return schedule

    def _apply(self, command: NightCommand) -> None:
        from doko_ledger.doppelkopf.nights.decide import decide

        for event in decide(self.state, command, self.schedule()):
            self.state = evolve(self.state, event)
            self.new_session_events.append(event)
            self.history.append(event)

    def places(self, schedule: Schedule | None = None) -> dict[str, DealPlace]:
        """Where each game the night names stands (`deal_places`): its deal number, in force,
        voided or corrected, and its bock round (from `schedule`, the night's own when not given)."""
        schedule = schedule or self.schedule()
        known, history, rows = self._places, self.history, schedule.rows
        if known is not None and known.course is self._course and known.rows <= len(rows):
            if known.events == len(history) and known.rows == len(rows):
                return known.places
            if not any(isinstance(e, DealVoided | DealCorrected) for e in history[known.events :]):
                places = grown_places(
                    known.places, self.state.session_id, known.deals, history[known.events :], rows[known.rows :]
                )
                self._places = _Places(self._course, len(history), len(rows), len(self.state.deals), places)
                return places
        bock = {row.game_id: row.bock_round for row in rows if row.bock_round is not None}
        places = deal_places(self.state.session_id, history, bock)
        self._places = _Places(self._course, len(history), len(rows), len(self.state.deals), places)
        return places

    def start(self, command: StartNight) -> None:
        self._apply(command)

    def next_game_id(self) -> str:
        """The next deal's game id: the night and the deal number (`kitchen-05`); when that id is
        taken by a deal taken back, a letter follows (`kitchen-05b`), so ids keep the numbers."""
        base = f"{self.state.session_id}-{len(self.state.deals) + 1:02d}"
        taken = {*self.state.deals, *self.state.voided, *self.state.replaced}
        tails = chain(("",), "bcdefghijklmnopqrstuvwxyz", (f"-{n}" for n in count(26)))
        return next(base + tail for tail in tails if base + tail not in taken)

    def deal_record(
        self, summary: DealEntry | None, abandoned: bool = False, game_id: str | None = None, live: bool = False
    ) -> GameRecord:
        """The game record of the next deal: its players from the dealer's left, the night's rules;
        `summary` is the deal by its facts or by its value only."""
        from doko_ledger.doppelkopf.game.record import MISDEAL, GameRecord, SummaryRecord, ValueRecord

        nxt = self.schedule().next
        state = self.state
        at_table = nxt.playing
        dealer = nxt.dealer if state.table_size == len(at_table) else at_table[-1]
        note = None
        if state.table_size > len(at_table):
            out = ", ".join(p for p in state.players if p not in at_table)
            note = f"deal {nxt.number} of {state.session_id}: {nxt.dealer} deals; sitting out: {out}"
        return GameRecord(
            id=game_id or self.next_game_id(),
            players=at_table,
            dealer=dealer,
            rules=state.rules,
            abandoned=MISDEAL if abandoned else None,
            played_on=state.played_on,
            summary=summary if isinstance(summary, SummaryRecord) else None,
            value=summary if isinstance(summary, ValueRecord) else None,
            note=note,
            reservations_open=live,
            solo_owed_by=tuple(p for p in self.schedule().owed if p in at_table),
            dealt_by=None if dealer == nxt.dealer else nxt.dealer,
        )

    def game_type_problem(self, game: GameType) -> Message | str | None:
        """Why the next deal cannot be `game`, or None: the rules forbid it, or a forced solo is due."""
        problem: Message | str | None = game_type_problem(game, self.state.rules)
        owing = self.schedule().next.forced_solo_by
        if problem is None and owing and not game.is_declared_solo:
            problem = f"a forced solo is due (docs/rules.md §9): {', '.join(owing)} must still play a solo"
        return problem

    def game_types(self) -> tuple[GameType, ...]:
        """The game types the next deal may be."""
        return tuple(g for g in GameType if self.game_type_problem(g) is None)

    def add(self, record: GameRecord, *, request_id: str | None = None) -> tuple[list[Any], GameState]:
        """Add a deal recorded as a game: the game's events (decided) and its state; `request_id`
        is kept with the deal (`DealAdded`)."""
        from doko_ledger.doppelkopf.game.record import to_events

        self._check_at_table(record)
        events, game = to_events(record)
        self._add_game(record.id, events, game, request_id)
        return events, game

    def _check_at_table(self, record: GameRecord) -> None:
        """Name a player who sits this deal out as such (not as an unknown player)."""
        from doko_ledger.doppelkopf.game.record import entry_players

        for named_as in entry_players(record.summary or record.value):
            name = find_player(named_as, self.state.players)
            if name is not None and find_player(name, record.players) is None:
                nxt = self.schedule().next
                raise IllegalMove(
                    msg(
                        "{player} sits out deal {deal} ({dealer} deals): {players} play",
                        player=repr(name),
                        deal=nxt.number,
                        dealer=nxt.dealer,
                        players=", ".join(record.players),
                    )
                )

    def _add_game(self, game_id: str, events: list[Any], game: GameState, request_id: str | None) -> None:
        nxt = self.schedule().next
        self._set_game(game_id, game)
        from doko_ledger.doppelkopf.nights.decide import AddDeal

        self._apply(AddDeal(self.outcome(game_id), nxt.dealer, request_id))
        self.new_games[game_id] = events

    def void_last(self, reason: str = "undone", *, request_id: str | None = None) -> str:
        """Take back the last deal (with a bock declared with it)."""
        if not self.state.deals:
            raise IllegalMove(msg("session {night} has no deal to take back", night=repr(self.state.session_id)))
        game_id = self.state.deals[-1]
        from doko_ledger.doppelkopf.nights.decide import VoidDeal

        self._apply(VoidDeal(game_id, reason, request_id))
        return game_id

    def deal_named(self, ref: str) -> str:
        """The game id of the deal `ref` names: its number in the standings (`3`) or its game id."""
        deals, sid = self.state.deals, self.state.session_id
        if ref.isdigit():
            number = int(ref)
            if not 1 <= number <= len(deals):
                from doko_ledger.doppelkopf.nights.decide import no_such_deal

                raise IllegalMove(no_such_deal(sid, number, len(deals)))
            return deals[number - 1]
        if ref in deals:
            return ref
        place = self.places().get(ref)
        if place is not None and place.corrected_by is not None:
            raise IllegalMove(
                msg(
                    "{game} is not a deal of session {night} any more: it was corrected by {correction};"
                    " correct deal {deal} instead",
                    game=repr(ref),
                    night=repr(sid),
                    correction=place.corrected_by,
                    deal=place.number,
                )
            )
        if place is not None:
            raise IllegalMove(
                msg(
                    "{game} is not a deal of session {night} any more: it was taken back (voided)",
                    game=repr(ref),
                    night=repr(sid),
                )
            )
        raise IllegalMove(
            msg(
                "{game} is not a deal of session {night}: give the deal's number from `doko standings`",
                game=repr(ref),
                night=repr(sid),
            )
        )

    def correct(
        self,
        game_id: str,
        summary: DealEntry | None,
        reason: str = "corrected",
        *,
        misdeal: bool = False,
        request_id: str | None = None,
    ) -> tuple[list[Any], GameState]:
        """Replace a deal by a corrected summary or value entry (or a misdeal: the deal thrown in), in the same
        place with the same players."""
        from doko_ledger.doppelkopf.game.record import MISDEAL, GameRecord, SummaryRecord, ValueRecord, to_events

        if game_id not in self.state.deals:
            raise IllegalMove(
                msg("{game} is not a deal of session {night}", game=repr(game_id), night=repr(self.state.session_id))
            )
        old = self.games[game_id]
        match = _CORRECTED.fullmatch(game_id)
        base = match.group(1) if match else game_id
        taken = {*self.state.deals, *self.state.replaced, *self.state.voided}
        new_id = next(f"{base}-c{n}" for n in range(1, 1000) if f"{base}-c{n}" not in taken)
        record = GameRecord(
            id=new_id,
            players=old.players,
            dealer=old.players[old.dealer],
            rules=old.rules,
            played_on=old.played_on,
            summary=None if misdeal or not isinstance(summary, SummaryRecord) else summary,
            value=None if misdeal or not isinstance(summary, ValueRecord) else summary,
            abandoned=MISDEAL if misdeal else None,
            note=old.note,
        )
        events, game = to_events(record)
        self._set_game(new_id, game)
        from doko_ledger.doppelkopf.nights.decide import CorrectDeal

        self._apply(CorrectDeal(game_id, self.outcome(new_id), reason, request_id))
        self.new_games[new_id] = events
        return events, game

    def close(self) -> None:
        from doko_ledger.doppelkopf.nights.decide import CloseNight

        self._apply(CloseNight())

    def change(self, command: JoinTable | LeaveTable | ChangeRules | DeclareBock | TakeBackChange) -> Any:
        """Decide a change of the night (in force from the next deal) and return its event."""
        self._apply(command)
        return self.new_session_events[-1]


def _start(state: NightState) -> tuple[object, ...]:
    """What a course is folded from before its first step."""
    return (state.started, state.starting, state.first_rules, state.first_dealer, state.match_length)


def _extends(timeline: tuple[Entry, ...], done: tuple[Entry, ...]) -> bool:
    """The timeline is `done` with entries added after it, none of them a bock bound to a deal
    other than the one just before it (`steps` would fold that earlier)."""
    if timeline[: len(done)] != done:
        return False
    for index in range(len(done), len(timeline)):
        entry = timeline[index]
        if isinstance(entry, Change) and entry.game_id is not None:
            before = index - 1
            while before >= 0 and _bound_to(timeline[before], entry.game_id):
                before -= 1
            if before < 0 or timeline[before] != entry.game_id:
                return False
    return True


def _bound_to(entry: Entry, game_id: str) -> bool:
    return isinstance(entry, Change) and entry.game_id == game_id
