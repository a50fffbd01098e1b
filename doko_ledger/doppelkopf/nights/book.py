"""Card nights in the ledger: start one, add deals, take back, correct, close, standings.

Each night is a stream `session/<id>`; each deal is a game stream of its own that the
night names. A command loads the night, decides, and appends the night's new events and
any new game in one transaction, or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from doko_ledger.doppelkopf.cards import seeded_deal
from doko_ledger.doppelkopf.events import CardsDealt, GameStarted
from doko_ledger.doppelkopf.game.evolve import fold as fold_game
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.game.illegal import IllegalMove
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.game.undo import in_force, taken_back, void_last
from doko_ledger.doppelkopf.nights.events import (
    BockDeclared,
    ChangeTakenBack,
    DealAdded,
    DealCorrected,
    DealVoided,
    NightChangeEvent,
    SessionClosed,
)
from doko_ledger.doppelkopf.nights.kept import KEPT, KeptNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.page import DealInPlay, NightPage, default_game_type
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.nights.standings import Standings, payments, standings
from doko_ledger.doppelkopf.nights.state import Change, NightState
from doko_ledger.doppelkopf.nights.state import fold as fold_session
from doko_ledger.doppelkopf.rules.bock import MARKED_WITH_THE_DEAL
from doko_ledger.doppelkopf.rules.game_types import GameType, allowed_game_types, parse_game_type
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.scoring import special_points_count
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.errors import DokoError, prefixed
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.envelope import Envelope, Recorded
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, plural, render
from doko_ledger.store.base import ConcurrencyError, EventStore, LedgerBusy, NewStreamEvents
from doko_ledger.streams import GAME_PREFIX, SESSION_PREFIX, game_stream

if TYPE_CHECKING:  # a deal's record, the night's commands and its changes between deals are
    # loaded only where one is recorded or made: the standings start faster
    from doko_ledger.doppelkopf.game.record import DealEntry, GameRecord
    from doko_ledger.doppelkopf.nights.changes import NightChange
    from doko_ledger.doppelkopf.nights.decide import DeclareBock, StartNight


def session_stream(session_id: str) -> str:
    return SESSION_PREFIX + session_id


class NightNotFound(DokoError, LookupError):
    """No such card night, or no open one."""


class DealChanged(ConcurrencyError):
    """A write about a deal that was corrected or taken back since the form was made: refused
    by the deal's number, whatever the night's version."""


class DealAlreadyRecorded(DokoError):
    """A deal given by its number (`doko record --deal N`) that the night holds already: a
    retry of a deal that was recorded, or a deal someone else recorded first."""


class NotTheNextDeal(DokoError):
    """A deal number past the night's next deal (`doko record --deal N`)."""

    exit_code = 2


@frozen
class PreparedDeal:
    """A deal decided but not yet appended: its game, the score it will get, and the night."""

    night: Night
    game_id: str
    game: GameState
    score: GameScore | None
    number: int
    """The deal's number in the night."""
    repeated: bool = False
    """A write sent again: the deal its first sending recorded, nothing written now."""
    bock: Message | str | None = None
    """The bock marked with the deal, in words ("bock declared by Anna (marked with the deal): 2
    rounds with deal 5"), appended with it; None without a mark."""

    @property
    def bock_in_english(self) -> str | None:
        """The bock mark's words for scripts (None without a mark)."""
        return None if self.bock is None else render(self.bock, "en")


@frozen
class BockMark:
    """Bock marked with the deal being recorded (the bock button's taps: Bock, Doppelbock,
    Triplebock = 1 to 3 rounds), declared by `by` for `reason` ("": "marked with the deal")."""

    rounds: int
    by: str
    reason: str = ""

    def command(self, game_id: str, request_id: str | None) -> DeclareBock:
        """The declaration that comes with the deal `game_id` (it goes when that deal is taken back)."""
        from doko_ledger.doppelkopf.nights.decide import DeclareBock

        return DeclareBock(self.by, self.reason or MARKED_WITH_THE_DEAL, self.rounds, game_id, request_id)


@frozen
class RecordedDeal:
    """A deal of the night as recorded: its number, game, who recorded it, and its score
    (None for a deal thrown in)."""

    number: int
    game_id: str
    by: str
    score: GameScore | None


PROVISIONAL_POINTS = 120
"""Re's card points while only the game and the Re players are known: with no tricks, calls
or special points given, no rule refuses 120 points, so a refusal is about the Re players."""


@frozen
class NextDealChecks:
    """The next deal's facts checked one answer at a time, as they are asked at the table;
    each check raises the library's refusal, so the question can be asked again."""

    nights: CardNights
    session_id: str
    game_types: tuple[GameType, ...]
    """What the next deal may be (the rules, and a forced solo when one is due)."""
    rules: RuleSet

    def game_type(self, text: str) -> GameType:
        game = parse_game_type(text)
        problem = self.nights.night(self.session_id).game_type_problem(game)
        if problem is not None:
            raise IllegalMove(problem)
        return game

    @property
    def default_game_type(self) -> GameType:
        """The game type the prompt offers first (`default_game_type`)."""
        return default_game_type(self.game_types)

    def re_players(self, game: GameType, re: Sequence[str]) -> None:
        """Refuse Re players who are not at the table or do not fit the game (two, or a soloist)."""
        from doko_ledger.doppelkopf.game.record import SummaryRecord

        self.facts(SummaryRecord(game.value, tuple(re), PROVISIONAL_POINTS))

    def special_points_count(self, game: GameType, re: Sequence[str]) -> bool:
        """Special points count in this deal (`re`: the Re players, the soloist alone in a solo
        or a lone marriage): the rule of `special_points_count` (docs/rules.md §7, §8)."""
        return special_points_count(game, len(re) == 1, self.rules)

    def facts(self, summary: DealEntry) -> PreparedDeal:
        return self.nights.prepare(self.session_id, summary)


@frozen
class PreparedCorrection:
    """A correction decided but not yet appended: the deal's number, the game it replaces, the
    new game, and the deal's score before and after (None for a deal not finished)."""

    night: Night
    number: int
    game_id: str
    game: GameState
    before: GameScore | None
    after: GameScore | None
    unchanged: bool = False
    """The new facts are the deal's own: a correction tried again after it was recorded, which
    `commit` refuses (`DealAlreadyRecorded`)."""
    repeated: bool = False
    """A correction sent again with the request id of one already appended: that one, which
    `commit` leaves as it is."""


@frozen
class TakenBack:
    """What `undo` took back: of deal `number` (game `game_id`), the whole deal or its newest
    card, call or penalty, in words (`what`); or a change of the night (`change`: its version;
    `game_id` empty, `number` the deal it took effect from)."""

    game_id: str
    number: int
    what: Message | str
    """In the reader's language when rendered."""
    facts: str = ""
    """The whole deal taken back, in words ("normal game: Re Anna, Clara with 190 card points")."""
    repeated: bool = False
    """An undo sent again with the request id of one already appended: what that one took back."""
    change: int | None = None
    """The version of the change taken back, None for a deal (or part of one)."""

    @property
    def kind(self) -> str:
        """ "change" or "deal"."""
        return "deal" if self.change is None else "change"

    def __str__(self) -> str:
        return render(self.what)


def deal_in_words(game: GameState) -> str:
    """A recorded deal for people: "a misdeal", "club solo: Re Dirk with 130 card points",
    "normal game played card by card"."""
    if game.abandoned is not None:
        return "a misdeal"
    kind = "no game yet" if game.game_type is None else game.game_type.value.replace("_", " ")
    kind += " game" if game.game_type is GameType.NORMAL else ""
    if game.valued is not None:
        return f"value only: {game.valued.words(game.players)}"
    if game.summary is None:
        return f"{kind} played card by card"
    re = ", ".join(game.players[s] for s in game.summary.re_seats)
    return f"{kind}: Re {re} with {game.summary.re_points} card points"


def _score_or_none(game: GameState, place: DealPlace | None) -> GameScore | None:
    try:
        return score_game(game, place=place)
    except NotScorable:
        return None


class CardNights:
    """The card nights of one ledger."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    # -- finding ----------------------------------------------------------------

    def session_ids(self) -> list[str]:
        return [s[len(SESSION_PREFIX) :] for s in self.store.streams(SESSION_PREFIX)]

    def open_ids(self) -> list[str]:
        closed = SessionClosed.event_name
        return [s[len(SESSION_PREFIX) :] for s in self.store.streams_without(SESSION_PREFIX, closed)]

    def exists(self, session_id: str) -> bool:
        return self.store.stream_version(session_stream(session_id)) > 0

    def resolve(self, ref: str | None, *, latest: bool = False) -> str:
        """The session `ref` names (exactly or by a unique prefix), or the open one when `ref`
        is None: index look-ups, however long the log; with `latest`, when no night is open, the
        one closed last (what `standings` and `settle` show after closing)."""
        if ref is None:
            open_ids = self.open_ids()
            closed = self._closed_last() if latest and not open_ids else None
            if closed is not None:
                return closed
            if not open_ids:
                raise NightNotFound(msg("no open card night: start one with `doko session start`"))
            return open_ids[0]
        if self.exists(ref):
            return ref
        matches = [s[len(SESSION_PREFIX) :] for s in self.store.stream_names(session_stream(ref), 2)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise NightNotFound(msg("{night} is ambiguous", night=repr(ref)))
        raise NightNotFound(msg("no card night {night} in the ledger", night=repr(ref)))

    def _closed_last(self) -> str | None:
        """The night whose closing was recorded last, or None."""
        closings = [
            (r.envelope.position, sid)
            for sid in self.session_ids()
            for r in self.store.read_stream(session_stream(sid))
            if isinstance(r.event, SessionClosed)
        ]
        return max(closings)[1] if closings else None

    def night_naming(self, game_id: str) -> str | None:
        """The card night that names a game (a deal, voided or replaced), read from the log
        (`doppelkopf.game_list.night_of` is the look-up in the read models)."""
        return next((sid for sid in self.session_ids() if game_id in self.game_ids(sid)), None)

    def game_ids(self, session_id: str) -> list[str]:
        """Every game the night names: its deals, and those voided or replaced by a correction."""
        state = self.state(session_id)
        return [*state.deals, *state.voided, *state.replaced]

    def night(self, session_id: str) -> Night:
        """The night as recorded, with the games of all its deals (voided and replaced too): a
        night of its own, to decide on."""
        return self._kept(session_id).fork()

    def _kept(self, session_id: str) -> KeptNight:
        """The night kept folded by this process, caught up with the log (folded from the log
        the first time, or when the log is not the one it was folded from)."""
        key = (self.store.where, session_id)
        newest = self.store.newest()
        kept = KEPT.get(key)
        if kept is not None and kept.at == newest:
            return kept
        caught_up = None if kept is None or kept.at[0] > newest[0] else self._caught_up(kept, session_id)
        kept = caught_up or self._folded(session_id, newest)
        KEPT.put(key, kept)
        return kept

    def _folded(self, session_id: str, at: tuple[int, str]) -> KeptNight:
        """The night folded from the log (which held at least everything up to `at`)."""
        events = [r.event for r in self.store.read_stream(session_stream(session_id))]
        if not events:
            raise NightNotFound(msg("no card night {night} in the ledger", night=repr(session_id)))
        night = Night.load(events, {})
        names = [game_stream(g) for g in (*night.state.deals, *night.state.voided, *night.state.replaced)]
        night.catch_up([], self._games(names))
        night.places()  # the course and the places, derived once for every reader of the kept night
        kept = KeptNight(night, at)
        kept.note_requests(1, events)
        return kept

    def _games(self, streams: Sequence[str]) -> dict[str, list[Any]]:
        """The events of these game streams, by game id."""
        return {found.stream[len(GAME_PREFIX) :]: found.events for found in self.store.read_streams_events(streams)}

    def _caught_up(self, kept: KeptNight, session_id: str) -> KeptNight | None:
        """`kept` caught up with the events stored after it (its session's further events, its
        new and changed games), or None when that is more than a catch-up: many events since, or
        a log that is not the one it was folded from."""
        tail = self.store.read_after(kept.at[0], CATCH_UP_LIMIT + 1)
        if not tail or len(tail) > CATCH_UP_LIMIT or tail[0].envelope.prev_hash != kept.at[1]:
            return None
        stream, version = session_stream(session_id), len(kept.night.history)
        ours = [r for r in tail if r.envelope.stream == stream and r.envelope.version > version]  # not folded yet
        if [r.envelope.version for r in ours] != list(range(version + 1, version + 1 + len(ours))):
            return None  # not the session's events that follow the fold's
        further = [r.event for r in ours]
        night = kept.fork()
        night.catch_up(further, {})
        named = {e.game_id for e in further if isinstance(e, DealAdded)}
        named |= {e.new_game_id for e in further if isinstance(e, DealCorrected)}
        changed = {
            g
            for r in tail
            if r.envelope.stream.startswith(GAME_PREFIX) and (g := r.envelope.stream[len(GAME_PREFIX) :]) in night.games
        }
        night.catch_up([], self._games([game_stream(g) for g in sorted(named | changed)]))
        night.places()
        last = tail[-1].envelope
        caught_up = KeptNight(night, (last.position, last.hash), dict(kept.requests))
        caught_up.note_requests(version + 1, further)
        return caught_up

    # -- writing ---------------------------------------------------------------------

    def commit_night(self, session_id: str, night: Night, *, by: str, at: str) -> None:
        """Append what `night` decided (its events and new games) in one transaction."""
        self._commit(session_id, night, by=by, at=at)

    def _commit(self, session_id: str, night: Night, *, by: str, at: str, game_updates: Sequence[Any] = ()) -> None:
        """Append what the night decided: its events and new games, in one transaction, only if
        the night is still as it was read (else `ConcurrencyError`, and nothing is written): a
        deal decided on a night that another writer has moved on is refused, never shifted."""
        batches = []
        if night.new_session_events:
            read_at = len(night.history) - len(night.new_session_events)
            batches.append(NewStreamEvents(session_stream(session_id), read_at, night.new_session_events))
        for game_id, events in night.new_games.items():
            batches.append(NewStreamEvents(game_stream(game_id), 0, events))
        batches.extend(game_updates)
        appended = self.store.append_streams(batches, recorded_by=by, recorded_at=at)
        if appended and not game_updates:
            self._keep_written(session_id, night, appended)

    def _keep_written(self, session_id: str, night: Night, appended: Sequence[Envelope]) -> None:
        """Keep the night as just written, when it was read at the point of the log just before
        the write and that is where the kept night is (else the next read catches up)."""
        key, first, last = (self.store.where, session_id), appended[0], appended[-1]
        kept = KEPT.get(key)
        before = (first.position - 1, first.prev_hash)
        if kept is None or kept.at != before or night.read_at != before:
            return
        written = night.fork()
        written.places()
        caught_up = KeptNight(written, (last.position, last.hash), dict(kept.requests))
        caught_up.note_requests(len(kept.night.history) + 1, night.new_session_events)
        KEPT.put(key, caught_up)

    def start(self, command: StartNight, *, by: str, at: str) -> Night:
        """Start a card night; a second open night is refused."""
        open_ids = self.open_ids()
        if open_ids:
            raise IllegalMove(msg("card night {night} is still open: close it first", night=repr(open_ids[0])))
        if self.exists(command.session_id):
            raise IllegalMove(msg("a card night {night} is already in the ledger", night=repr(command.session_id)))
        night = Night()
        night.start(command)
        self._commit(command.session_id, night, by=by, at=at)
        return night

    def import_night(self, night: Night, *, by: str, at: str) -> int:
        """Append a whole night read from a session file (its stream and every deal's game),
        atomically. Refused if the night or one of its games is in the ledger already, or if
        it is open while another night is, or if the log holds events this doko_ledger does not
        know. Returns the number of deals."""
        self.store.check_log_types()
        session_id = night.state.session_id
        if self.exists(session_id):
            raise IllegalMove(msg("card night {night} is already in the ledger", night=repr(session_id)))
        taken = [g for g in night.new_games if self.store.stream_version(game_stream(g)) > 0]
        if taken:
            raise IllegalMove(
                msg(
                    "game {game} of card night {night} is already in the ledger",
                    game=repr(taken[0]),
                    night=repr(session_id),
                )
            )
        open_ids = self.open_ids()
        if not night.state.closed and open_ids:
            raise IllegalMove(
                msg(
                    "card night {night} is still open: close it before importing an open night",
                    night=repr(open_ids[0]),
                )
            )
        self._commit(session_id, night, by=by, at=at)
        return len(night.state.deals)

    def prepare(
        self,
        session_id: str,
        summary: DealEntry | None,
        *,
        misdeal: bool = False,
        deal: int | None = None,
        version: int | None = None,
        request_id: str | None = None,
        bock: BockMark | None = None,
    ) -> PreparedDeal:
        """Decide the next deal from its facts (or a misdeal) without writing anything, with its
        score in its bock round; `commit` appends it, with the bock marked with it (`bock`, decided
        as `declare_bock` decides it, with the deal's request id) in the same write. With `deal`,
        only if that is the next deal's number (`DealAlreadyRecorded` once it is recorded, whatever the version); with
        `version`, only if the night is still at that version (else `ConcurrencyError`). With
        `request_id`, a write sent again gives the deal its first sending recorded
        (`repeated`, which `commit` writes nothing for), whatever was recorded since."""
        if request_id is not None:
            first = self.recorded_for(session_id, request_id)
            if first is not None:
                return first
        kept = self._kept(session_id)
        if deal is not None:
            self._expect_next(kept.night, deal)
        if version is not None:  # before a night is forked to decide on
            from doko_ledger.doppelkopf.nights.changes import require_version

            try:
                require_version(kept.night, version)
            except ConcurrencyError as exc:
                meanwhile = self.change_since(session_id, version)
                raise prefixed(exc, msg("the deal was not recorded"), meanwhile) from None
        night = kept.fork()
        number = len(night.state.deals) + 1
        record = night.deal_record(summary, abandoned=misdeal)
        _, game = night.add(record, request_id=request_id)  # the write's id, kept with the deal it added
        score = None if misdeal else score_game(game, place=night.places()[record.id])  # in its bock round
        marked = None
        if bock is not None:
            from doko_ledger.doppelkopf.nights.changes import change_row

            night.change(bock.command(record.id, request_id))
            row = change_row(night, len(night.history))
            marked = row.text if row is not None else None
        return PreparedDeal(night, record.id, game, score, number, bock=marked)

    def expect_next(self, session_id: str, deal: int) -> None:
        """Refuse a deal number that is not the night's next deal: `DealAlreadyRecorded` for a
        deal the night holds (who recorded it, and the next deal's number), `NotTheNextDeal`
        for one past the next."""
        self._expect_next(self.night(session_id), deal)

    def _expect_next(self, night: Night, deal: int) -> None:
        deals, sid = night.state.deals, night.state.session_id
        following = len(deals) + 1
        if deal < 1 or deal > following:
            raise NotTheNextDeal(
                plural(
                    "card night {night} has {count} deal: the next is deal {next}, not {deal}",
                    "card night {night} has {count} deals: the next is deal {next}, not {deal}",
                    len(deals),
                    night=repr(sid),
                    next=following,
                    deal=deal,
                )
            )
        if deal < following:
            game_id = deals[deal - 1]
            first = self.store.read_stream(game_stream(game_id))[:1]
            if first:
                where = msg("{game}, by {player}", game=game_id, player=first[0].envelope.recorded_by)
            else:
                where = msg("{game}", game=game_id)
            raise DealAlreadyRecorded(
                msg(
                    "deal {deal} is already recorded ({where}), so it is not recorded again;"
                    " the next deal is deal {next} (`doko record --deal {next}`)",
                    deal=deal,
                    where=where,
                    next=following,
                )
            )

    def checks(self, session_id: str) -> NextDealChecks:
        """The checks of the next deal's facts; refuses at once what refuses any next deal
        (a closed night, a deal still being played, a complete tournament)."""
        self.prepare(session_id, None, misdeal=True)
        night = self.night(session_id)
        return NextDealChecks(self, session_id, night.game_types(), night.state.rules)

    def start_deal(self, session_id: str, record: GameRecord, *, by: str, at: str) -> GameState:
        """Add a deal that will be played card by card (its game so far is `record`)."""
        night = self.night(session_id)
        _, game = night.add(record)
        self._commit(session_id, night, by=by, at=at)
        return game

    def deal(self, session_id: str, seed: str, *, by: str, at: str) -> GameState:
        """Deal the next deal's hands from a seed (the same text, the same hands) and record them."""
        night = self.night(session_id)
        base = night.deal_record(None, live=True)
        note = f"dealt from seed {seed!r}" + (f"; {base.note}" if base.note else "")
        record = replace(base, hands=seeded_deal(seed, base.rules.with_nines), note=note)
        return self.start_deal(session_id, record, by=by, at=at)

    def commit(self, prepared: PreparedDeal | PreparedCorrection, *, by: str, at: str) -> None:
        """Append a deal or a correction as decided, only if the night is still as it was read.
        A deal that is not appended is named, so that trying again is safe: a lock held too
        long says to try again with its number (which refuses it once it is recorded), a night
        that moved on says what was recorded meanwhile."""
        if prepared.repeated:
            return  # its first sending recorded it
        if isinstance(prepared, PreparedCorrection) and prepared.unchanged:  # a correction made already, tried again
            number, game_id = prepared.number, prepared.game_id
            if prepared.game.abandoned is not None:
                again = msg(
                    "deal {deal} ({game}) is a misdeal already, so nothing is corrected", deal=number, game=game_id
                )
            else:
                again = msg(
                    "deal {deal} ({game}) has these facts already, so nothing is corrected", deal=number, game=game_id
                )
            raise DealAlreadyRecorded(again)
        night, number = prepared.night, prepared.number
        try:
            self._commit(night.state.session_id, night, by=by, at=at)
        except LedgerBusy as exc:
            raise prefixed(exc, _not_recorded(prepared)) from None
        except ConcurrencyError as exc:
            read_at = len(night.history) - len(night.new_session_events)
            meanwhile = self.change_since(night.state.session_id, read_at)
            raise prefixed(exc, _not_recorded(prepared), meanwhile) from None

    def undo(
        self,
        session_id: str,
        *,
        by: str,
        at: str,
        deal: int | None = None,
        version: int | None = None,
        whole_deal: bool = False,
        request_id: str | None = None,
        change: int | None = None,
    ) -> TakenBack:
        """Take back the newest entry of the night: a change (a join, a leave, a rule change, a
        bock declared), else a card or call of a deal still being played, else the last deal
        with any bock declared with it (with `whole_deal`, the last deal even while it is
        played). With `deal` (or `change`: a change's version), only if that is the night's
        newest entry: trying again after it was taken back is refused, not a second undo. With
        `version`, only if the night is still at that version (else `ConcurrencyError`). With
        `request_id`, an undo sent again after it took something back answers what it took
        back, and takes back nothing more."""
        if request_id is not None:
            done = self._done_with(session_id, request_id)
            if isinstance(done, DealVoided):
                numbers = deal_numbers(r.event for r in self.changes_since(session_id, 0))
                number = numbers[done.game_id]
                what = msg("deal {number} ({game})", number=number, game=done.game_id)
                return TakenBack(done.game_id, number, what, repeated=True)
            if isinstance(done, ChangeTakenBack):
                from doko_ledger.doppelkopf.nights.changes import taken_back_words

                words = taken_back_words(self, session_id, done)
                return TakenBack("", 0, words, repeated=True, change=done.change)
        from doko_ledger.doppelkopf.nights.changes import require_version

        night = self.night(session_id)
        if version is not None:
            require_version(night, version)
        taken, update = self._undo_plan(night, deal, whole_deal, request_id, change)
        try:
            if update is not None:
                self.store.append_streams([update], recorded_by=by, recorded_at=at)
            else:
                self._commit(session_id, night, by=by, at=at)
        except LedgerBusy as exc:
            if taken.change is None:
                raise prefixed(exc, msg("deal {deal} was not taken back", deal=taken.number)) from None
            raise prefixed(exc, msg("{change} was not taken back", change=taken.what)) from None
        return taken

    def to_take_back(
        self, session_id: str, *, deal: int | None = None, whole_deal: bool = False, change: int | None = None
    ) -> TakenBack:
        """What `undo` with the same arguments would take back now, without writing anything
        (for a front end that asks before it takes back)."""
        return self._undo_plan(self.night(session_id), deal, whole_deal, change=change)[0]

    def _undo_plan(
        self,
        night: Night,
        deal: int | None,
        whole_deal: bool,
        request_id: str | None = None,
        change: int | None = None,
    ) -> tuple[TakenBack, NewStreamEvents | None]:
        """What undo takes back, and the void of a card, call or penalty it appends; or, for a
        change or the whole last deal, None with it taken back in `night` (not written:
        `_commit` writes it)."""
        session_id = night.state.session_id
        newest = night.state.last_entry
        if isinstance(newest, Change) and newest.game_id is None:
            if deal is not None or (change is not None and change != newest.version):
                if deal is not None:
                    asked = msg("deal {deal}", deal=deal)
                else:
                    asked = msg("the change at version {version}", version=change)
                raise IllegalMove(
                    msg(
                        "the newest entry of card night {night} is a change (see `doko standings`), not {asked}:"
                        " nothing was taken back",
                        night=repr(session_id),
                        asked=asked,
                    )
                )
            from doko_ledger.doppelkopf.nights.changes import take_back_change

            row = take_back_change(night, newest, request_id)
            return TakenBack("", row.deal, row.text, change=newest.version), None
        if change is not None:
            raise IllegalMove(
                msg(
                    "the change at version {version} is not the newest entry of card night {night}"
                    " (was it taken back already? see `doko standings`)",
                    version=change,
                    night=repr(session_id),
                )
            )
        if not night.state.deals:
            raise IllegalMove(msg("card night {night} has nothing to take back", night=repr(session_id)))
        last = night.state.deals[-1]
        number = len(night.state.deals)
        if deal is not None and deal != number:
            raise IllegalMove(_not_the_last(session_id, deal, number))
        game = night.games[last]
        if not whole_deal and (
            game.penalties or (not game.finished and game.abandoned is None and game.summary is None)
        ):
            stream = game_stream(last)
            events = [r.event for r in self.store.read_stream(stream)]
            moves = [e for e in in_force(events) if not isinstance(e, AnnotationAdded)]
            if not isinstance(moves[-1], GameStarted | CardsDealt):
                voided = void_last(events)
                update = NewStreamEvents(stream, len(events), [voided])
                what = msg("{what} (deal {number}, {game})", what=taken_back(events, voided), number=number, game=last)
                return TakenBack(last, number, what), update
        night.void_last(request_id=request_id)  # refuses what the night refuses (a closed night)
        if isinstance(newest, Change):
            deal_words = msg("deal {number} ({game}) with the bock declared with it", number=number, game=last)
        else:
            deal_words = msg("deal {number} ({game})", number=number, game=last)
        return TakenBack(last, number, deal_words, deal_in_words(game)), None

    def deal_record(self, session_id: str, deal: str) -> tuple[int, GameRecord]:
        """Deal `deal` of the night (its number in the standings or its game id): its number and
        its record, whose `summary` holds the facts it was recorded with (None for a misdeal or
        a deal played card by card); what a correction starts from."""
        from doko_ledger.doppelkopf.game.record import from_events

        night = self.night(session_id)
        game_id = night.deal_named(deal)
        events = in_force([r.event for r in self.store.read_stream(game_stream(game_id))])
        return night.state.deals.index(game_id) + 1, from_events(events)

    def prepare_correction(
        self,
        session_id: str,
        deal: str,
        summary: DealEntry | None,
        *,
        misdeal: bool = False,
        version: int | None = None,
        request_id: str | None = None,
    ) -> PreparedCorrection:
        """Decide a correction of a deal (named by its number in the standings or its game id)
        from new facts, or make it a misdeal, without writing anything; with the deal's score
        before and after (each in its bock round); `commit` appends it. With `version` (a form
        made at that version), only if the night is still at it (else `ConcurrencyError`), and
        a deal corrected or taken back since is refused by its number first (`DealChanged`),
        whatever the version. With `request_id`, a correction sent again after it was appended
        is that correction (`repeated`), not refused and not made twice."""
        night = self.night(session_id)
        done = None if request_id is None else self._done_with(session_id, request_id)
        if isinstance(done, DealCorrected):
            return _repeated_correction(night, done)
        from doko_ledger.doppelkopf.nights.changes import require_version

        if version is not None:
            self._require_deal(night, deal)
            require_version(night, version)
        game_id = night.deal_named(deal)
        number = night.state.deals.index(game_id) + 1
        old = night.games[game_id]
        before = _score_or_none(old, night.places().get(game_id))
        _, game = night.correct(game_id, summary, misdeal=misdeal, request_id=request_id)
        unchanged = (game.summary, game.valued, game.abandoned) == (old.summary, old.valued, old.abandoned)
        after = _score_or_none(game, night.places().get(game.game_id))
        return PreparedCorrection(night, number, game_id, game, before, after, unchanged)

    def correct(
        self,
        session_id: str,
        deal: str,
        summary: DealEntry | None,
        *,
        by: str,
        at: str,
        misdeal: bool = False,
        version: int | None = None,
        request_id: str | None = None,
    ) -> PreparedCorrection:
        """`prepare_correction` and `commit`: the correction as appended."""
        prepared = self.prepare_correction(
            session_id, deal, summary, misdeal=misdeal, version=version, request_id=request_id
        )
        self.commit(prepared, by=by, at=at)
        return prepared

    # -- changes between deals (doppelkopf/nights/changes.py) -----------------------------

    def join(
        self,
        session_id: str,
        player: str,
        *,
        after: str | None = None,
        by: str,
        at: str,
        version: int | None = None,
        request_id: str | None = None,
    ) -> NightChange:
        """`player` takes a seat after `after` (None: after the last seat) from the next deal."""
        from doko_ledger.doppelkopf.nights.changes import make_change
        from doko_ledger.doppelkopf.nights.decide import JoinTable

        return make_change(self, session_id, JoinTable(player, after, request_id), by=by, at=at, version=version)

    def leave(
        self,
        session_id: str,
        player: str,
        *,
        by: str,
        at: str,
        version: int | None = None,
        request_id: str | None = None,
    ) -> NightChange:
        """`player` leaves the table from the next deal (never fewer than 4 stay)."""
        from doko_ledger.doppelkopf.nights.changes import make_change
        from doko_ledger.doppelkopf.nights.decide import LeaveTable

        return make_change(self, session_id, LeaveTable(player, request_id), by=by, at=at, version=version)

    def change_rules(
        self,
        session_id: str,
        rules: RuleSet,
        *,
        name: str | None = None,
        by: str,
        at: str,
        version: int | None = None,
        request_id: str | None = None,
    ) -> NightChange:
        """The night's rules from the next deal on (`name`: the named set they came from)."""
        from doko_ledger.doppelkopf.nights.changes import make_change
        from doko_ledger.doppelkopf.nights.decide import ChangeRules

        return make_change(self, session_id, ChangeRules(rules, name, request_id), by=by, at=at, version=version)

    def declare_bock(
        self,
        session_id: str,
        *,
        declared_by: str,
        reason: str,
        rounds: int = 1,
        with_deal: int | None = None,
        by: str,
        at: str,
        version: int | None = None,
        request_id: str | None = None,
    ) -> NightChange:
        """Bock by hand: `rounds` rounds, queued as a trigger's would be; `with_deal`: the number
        of the deal just recorded, which it comes with (and goes with when that deal is taken
        back), else from the next deal."""
        game_id = None
        if with_deal is not None:
            state = self.state(session_id)
            if not 1 <= with_deal <= len(state.deals):
                from doko_ledger.doppelkopf.nights.decide import no_such_deal

                raise IllegalMove(no_such_deal(session_id, with_deal, len(state.deals)))
            game_id = state.deals[with_deal - 1]
        from doko_ledger.doppelkopf.nights.changes import make_change
        from doko_ledger.doppelkopf.nights.decide import DeclareBock

        command = DeclareBock(declared_by, reason, rounds, game_id, request_id)
        return make_change(self, session_id, command, by=by, at=at, version=version)

    def close(self, session_id: str, *, by: str, at: str) -> None:
        night = self.night(session_id)
        night.close()
        self._commit(session_id, night, by=by, at=at)

    def play(self, session_id: str, tokens: Sequence[str], *, by: str, at: str) -> GameState:
        """Record more of the deal being played (cards, calls, reservations typed at the table).

        Without a deal in progress, the next deal starts without recorded hands. The whole
        game is decided again with the new entries, and only the new events are appended.
        """
        from doko_ledger.doppelkopf.files.quick_entry import extend_record
        from doko_ledger.doppelkopf.game.record import from_events, to_events

        night = self.night(session_id)
        last = _deal_in_play(night)
        if last is None:
            if not tokens:
                raise IllegalMove(
                    msg("no deal is being played: start one with `doko deal --seed TEXT` or give its cards")
                )
            base = night.deal_record(None, live=True)
            _, state = night.add(extend_record(base, tokens, reservations_open=True))
            self._commit(session_id, night, by=by, at=at)  # the new deal and its first entries, or nothing
            return state
        if not tokens:
            return night.games[last]
        stream = game_stream(last)
        stored = [r.event for r in self.store.read_stream(stream)]
        moves = [e for e in in_force(stored) if not isinstance(e, AnnotationAdded)]  # notes are not play
        record = extend_record(from_events(moves), tokens, reservations_open=night.games[last].game_type is None)
        events, state = to_events(record)
        if events[: len(moves)] != moves:
            raise IllegalMove(msg("the deal changed while recording; look at it again with `doko standings`"))
        self.store.append_streams(
            [NewStreamEvents(stream, len(stored), events[len(moves) :])], recorded_by=by, recorded_at=at
        )
        return state

    # -- reading -------------------------------------------------------------------

    def being_played(self, session_id: str) -> GameState | None:
        """The deal being played card by card, or None when none is."""
        night = self.night(session_id)
        last = _deal_in_play(night)
        return None if last is None else night.games[last]

    def deal_in_play(self, session_id: str) -> tuple[str, DealPlace] | None:
        """The night's deal being played card by card (its game id and place), or None: read
        from the night's own stream and its last deal's game only."""
        deals = self.state(session_id).deals
        last = _last_in_play(deals, self._game)
        return None if last is None else (last, DealPlace(session_id, len(deals)))

    def deals_in_play(self) -> dict[str, DealPlace]:
        """Each night's deal being played card by card, by its game id, with its place."""
        return dict(found for sid in self.session_ids() if (found := self.deal_in_play(sid)) is not None)

    def _game(self, game_id: str) -> GameState:
        return fold_game(in_force([r.event for r in self.store.read_stream(game_stream(game_id))]))

    def standings(self, session_id: str) -> Standings:
        return self._kept(session_id).derived("standings", lambda night: standings(night.state, night.schedule()))

    def page(self, session_id: str) -> NightPage:
        """Everything the night's page shows, derived once for each point of the log."""
        kept = self._kept(session_id)
        return kept.derived("page", lambda night: _page(night, kept.at[0]))

    # -- at a version (the web: a form carries the night's version it was made from) ------------

    def version(self, session_id: str) -> int:
        """The night's stream version: it changes with every deal added, taken back, corrected."""
        return self.store.stream_version(session_stream(session_id))

    def changes_since(self, session_id: str, version: int) -> list[Recorded]:
        """The night's events recorded after `version` (who recorded what since a form was made)."""
        since = min(max(version, 0), 2**62)  # a version a client made up still fits the database's integers
        return self.store.read_stream(session_stream(session_id), after_version=since)

    def state(self, session_id: str) -> NightState:
        """A night's players, rules and deals: the kept night's (caught up) when this process
        keeps it, else folded from the night's own stream (its games not read)."""
        if KEPT.get((self.store.where, session_id)) is not None:
            return self._kept(session_id).night.state
        return fold_session(r.event for r in self.changes_since(session_id, 0))

    def closed(self, session_id: str) -> bool:
        """Whether the night was closed: one look-up, however long the night."""
        return self.store.holds(session_stream(session_id), SessionClosed.event_name)

    def change_since(self, session_id: str, since: int) -> Message | None:
        """What happened to the night after version `since`, in words (`deal 5 was just recorded
        (by Ben)`), or None when nothing did: read from those events alone."""
        changes = self.changes_since(session_id, since)
        if not changes:
            return None
        numbers = self._kept(session_id).derived("numbers", lambda night: deal_numbers(night.history))
        from doko_ledger.doppelkopf.nights.changes import change_in_words

        out = []
        for recorded in changes:
            event, by = recorded.event, recorded.envelope.recorded_by
            if isinstance(event, DealAdded):
                out.append(msg("deal {deal} was just recorded (by {player})", deal=numbers[event.game_id], player=by))
            elif isinstance(event, DealVoided):
                out.append(msg("deal {deal} was just taken back (by {player})", deal=numbers[event.game_id], player=by))
            elif isinstance(event, DealCorrected):
                out.append(msg("deal {deal} was just corrected (by {player})", deal=numbers[event.game_id], player=by))
            elif isinstance(event, SessionClosed):
                out.append(msg("the night was closed (by {player})", player=by))
            elif isinstance(event, NightChangeEvent | ChangeTakenBack):
                out.append(msg("{change} (by {player})", change=change_in_words(event), player=by))
        return in_turn(out)

    def made_with(self, session_id: str, request_id: str) -> tuple[int, Any] | None:
        """The first session event a write with this request id appended, with its version, or
        None: a look-up, however long the night."""
        return self._kept(session_id).requests.get(request_id)

    def _done_with(self, session_id: str, request_id: str) -> DealVoided | DealCorrected | ChangeTakenBack | None:
        """The undo or correction a write with this request id appended, or None."""
        found = self.made_with(session_id, request_id)
        event = None if found is None else found[1]
        return event if isinstance(event, DealVoided | DealCorrected | ChangeTakenBack) else None

    def recorded_for(self, session_id: str, request_id: str) -> PreparedDeal | None:
        """The deal that a write with this request id recorded (in force or not), with its
        score as it stands now, or None when no deal carries that id."""
        found = self.made_with(session_id, request_id)
        if found is None or not isinstance(found[1], DealAdded):
            return None
        game_id = found[1].game_id
        night = self.night(session_id)
        game = night.games[game_id]
        place = night.places().get(game_id)
        number = place.number if place is not None else len(night.state.deals)
        from doko_ledger.doppelkopf.nights.changes import change_row

        marked = next(
            (
                row.text
                for version, event in enumerate(night.history, 1)
                if isinstance(event, BockDeclared)
                and event.game_id == game_id
                and (row := change_row(night, version)) is not None
            ),
            None,
        )  # the bock marked with it, while in force
        return PreparedDeal(night, game_id, game, _score_or_none(game, place), number, repeated=True, bock=marked)

    def recorded_deal(self, session_id: str, deal: int) -> RecordedDeal:
        """Deal `deal` of the night as recorded: its game, who recorded it, and its score."""
        night = self.night(session_id)
        game_id = night.state.deals[deal - 1]
        first = self.store.read_stream(game_stream(game_id))[:1]
        by = first[0].envelope.recorded_by if first else "someone"
        game = night.games[game_id]
        return RecordedDeal(deal, game_id, by, _score_or_none(game, night.places().get(game_id)))

    def play_state(self, session_id: str) -> DealInPlay | None:
        """The deal being played card by card (its number, who is to play, the trick), or None."""
        found = self.deal_in_play(session_id)
        if found is None:
            return None
        game_id, place = found
        return DealInPlay.of(place.number, self._game(game_id))

    def _require_deal(self, night: Night, game_id: str) -> None:
        """Refuse (`DealChanged`) a game that was one of the night's deals and was corrected or
        taken back since, naming the deal by its number and who changed it."""
        places = night.places()
        place = None if game_id in night.state.deals else places.get(game_id)
        if place is None:
            return  # a deal in force, or no deal of this night at all (the night says so)
        now = place.corrected_by
        while now is not None and now in places and places[now].corrected_by is not None:
            now = places[now].corrected_by  # corrected again since
        session_id = night.state.session_id
        change = DealCorrected if place.corrected_by is not None else DealVoided
        by = next(
            (
                r.envelope.recorded_by
                for r in self.changes_since(session_id, 0)
                if isinstance(r.event, change) and r.event.game_id == game_id
            ),
            "someone",
        )
        if place.corrected_by is not None:
            raise DealChanged(
                msg(
                    "deal {deal} was corrected meanwhile (by {player}; it is now {game}):"
                    " nothing was written; correct deal {deal} again if it still needs it",
                    deal=place.number,
                    player=by,
                    game=now,
                )
            )
        raise DealChanged(
            msg("deal {deal} was taken back meanwhile (by {player}): nothing was written", deal=place.number, player=by)
        )


CATCH_UP_LIMIT = 2000
"""A kept night catches up with at most this many events stored since; more, it is folded anew."""


def _page(night: Night, position: int) -> NightPage:
    """Everything the night's page shows, at `position` of the log."""
    schedule = night.schedule()
    table = standings(night.state, schedule)
    last = _deal_in_play(night)
    in_play = None if last is None else DealInPlay.of(len(night.state.deals), night.games[last])
    replaced = {e.game_id: e.new_game_id for e in night.history if isinstance(e, DealCorrected)}
    return NightPage(
        standings=table,
        version=len(night.history),
        position=position,
        match_length=night.state.match_length,
        places=night.places(schedule),
        replaced=replaced,
        voided=tuple(night.state.voided),
        in_play=in_play,
        game_types=night.game_types(),
        correction_game_types=allowed_game_types(night.state.rules),
        deal_players={game_id: game.players for game_id, game in night.games.items()},
        payments=tuple(payments(table)),
    )


def _not_the_last(session_id: str, deal: int, last: int) -> Message:
    if deal > last:
        return plural(
            "card night {night} has {count} deal, so deal {deal} is not taken back"
            " (was it taken back already? see `doko standings`)",
            "card night {night} has {count} deals, so deal {deal} is not taken back"
            " (was it taken back already? see `doko standings`)",
            last,
            night=repr(session_id),
            deal=deal,
        )
    return msg(
        "deal {deal} is not the last deal of card night {night} (deal {last} is): only the last deal is taken back",
        deal=deal,
        night=repr(session_id),
        last=last,
    )


def _not_recorded(prepared: PreparedDeal | PreparedCorrection) -> Message:
    if isinstance(prepared, PreparedCorrection):
        return msg("the correction of deal {deal} was not recorded", deal=prepared.number)
    return msg("deal {deal} was not recorded", deal=prepared.number)


def in_turn(parts: Sequence[Message]) -> Message | None:
    """Messages one after the other (`deal 5 was just recorded (by Ben); Erik joined (by
    Anna)`), or None when there are none."""
    if not parts:
        return None
    joined = parts[0]
    for part in parts[1:]:
        joined = msg("{before}; {after}", before=joined, after=part)
    return joined


def _deal_in_play(night: Night) -> str | None:
    """The night's last deal if it is still being played card by card, else None."""
    return _last_in_play(night.state.deals, night.games.__getitem__)


def _last_in_play(deals: Sequence[str], game: Callable[[str], GameState]) -> str | None:
    """The last of a night's deals while its game is not over, else None."""
    last = deals[-1] if deals else None
    return None if last is None or game(last).over else last


def deal_numbers(events: Iterable[object]) -> dict[str, int]:
    """Each game id a night's events name, by the number of the deal it was (a deal taken back
    keeps the number it had; a correction has the number of the deal it corrects)."""
    in_force: list[str] = []
    numbers: dict[str, int] = {}
    for event in events:
        if isinstance(event, DealAdded):
            in_force.append(event.game_id)
            numbers[event.game_id] = len(in_force)
        elif isinstance(event, DealVoided) and event.game_id in in_force:
            in_force.remove(event.game_id)
        elif isinstance(event, DealCorrected) and event.game_id in in_force:
            in_force[in_force.index(event.game_id)] = event.new_game_id
            numbers[event.new_game_id] = numbers[event.game_id]
    return numbers


def _repeated_correction(night: Night, done: DealCorrected) -> PreparedCorrection:
    """A correction already appended, as its first sending answered it (its score as it
    stands now)."""
    places = night.places()
    old, game = night.games[done.game_id], night.games[done.new_game_id]
    place = places.get(done.new_game_id)
    number = place.number if place is not None else places[done.game_id].number
    before = _score_or_none(old, places.get(done.game_id))
    return PreparedCorrection(night, number, done.game_id, game, before, _score_or_none(game, place), repeated=True)
