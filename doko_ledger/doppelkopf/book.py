"""Doppelkopf's book: what the ledger can do with a Doppelkopf game (replay, frames, what a
viewer may see, score, audit, its place in a card night, the record, penalties, taking back)
and with card nights (`nights`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from doko_ledger.doppelkopf.game.evolve import fold
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.errors import DokoError
from doko_ledger.events.voiding import in_force
from doko_ledger.games import DOPPELKOPF, Game, GameNotFound, game_starting_with
from doko_ledger.i18n import DEFAULT, Message, current, msg
from doko_ledger.names import normalized
from doko_ledger.store.errors import LedgerBusy
from doko_ledger.streams import SESSION_PREFIX, game_stream

if TYPE_CHECKING:  # what only some commands need is imported where it is used: `doko` starts faster
    from doko_ledger.doppelkopf.analysis.verdicts import GameAnalysis
    from doko_ledger.doppelkopf.audit import AuditReport
    from doko_ledger.doppelkopf.files.night_file import LoadedNight
    from doko_ledger.doppelkopf.game.commands import ImposePenalty
    from doko_ledger.doppelkopf.game.record import GameRecord
    from doko_ledger.doppelkopf.game.state import GameState
    from doko_ledger.doppelkopf.house_rules import HouseRulesBook
    from doko_ledger.doppelkopf.nights.book import CardNights
    from doko_ledger.doppelkopf.nights.place import DealPlace
    from doko_ledger.doppelkopf.nights.standings import Standings
    from doko_ledger.doppelkopf.replay import Replay
    from doko_ledger.doppelkopf.rules.ruleset import RuleSet
    from doko_ledger.events.annotations import AnnotationAdded
    from doko_ledger.events.envelope import Recorded
    from doko_ledger.games import ReadModels
    from doko_ledger.sight import Sight
    from doko_ledger.store.base import EventStore

SESSION_FIRST_EVENT = "SessionStarted"
"""The first event of a card night's stream (`doppelkopf.nights.events.SessionStarted`)."""


class DoppelkopfBook:
    """The Doppelkopf games and card nights of a ledger, whose read models `read_models` keeps
    (the ledger: they catch up before they are read)."""

    def __init__(self, store: EventStore, read_models: ReadModels | None = None) -> None:
        self.store = store
        self.read_models = read_models

    def refresh(self) -> None:
        """Bring the read models up to the end of the log (`Ledger.refresh`)."""
        if self.read_models is not None:
            self.read_models.refresh()

    @property
    def behind(self) -> str | None:
        """Why the read models are behind the log (None: they are not)."""
        return None if self.read_models is None else self.read_models.behind

    @cached_property
    def nights(self) -> CardNights:
        """The card nights (Doppelkopf sessions)."""
        from doko_ledger.doppelkopf.nights.book import CardNights

        return CardNights(self.store)

    @cached_property
    def house_rules(self) -> HouseRulesBook:
        """The named house-rule sets."""
        from doko_ledger.doppelkopf.house_rules import HouseRulesBook

        return HouseRulesBook(self.store)

    # -- what every game's book does (`games.Book`) ------------------------------------

    def import_session(self, loaded: LoadedNight, *, by: str, at: str) -> object:
        """Append a card night read from its file, whole."""
        return self.nights.import_night(loaded.night, by=by, at=at)

    def session_ids(self) -> list[str]:
        return self.nights.session_ids()

    def resolve_session(self, ref: str) -> str | None:
        from doko_ledger.doppelkopf.nights.book import NightNotFound

        try:
            return self.nights.resolve(ref)
        except NightNotFound:
            return None

    def standings(self, session_id: str) -> Standings:
        """The card night after every deal (`nights.standings`)."""
        return self.nights.standings(session_id)

    def session_game_ids(self, session_id: str) -> list[str]:
        return list(self.nights.game_ids(session_id))

    def _require_doppelkopf(self, game_id: str, what: str) -> None:
        """`what` (`penalties`, `replays`, `analyses`) is for Doppelkopf games only."""
        game = game_starting_with(self.store.first_event_type(game_stream(game_id)))
        if game is None:
            raise GameNotFound(msg("no game {game} in the ledger (see `doko games`)", game=repr(game_id)))
        if game is DOPPELKOPF:
            return
        if what == "penalties":
            only = msg("penalties are for Doppelkopf games; {game} is a {kind} game", game=game_id, kind=game.title)
        elif what == "analyses":
            only = msg("analyses are for Doppelkopf games; {game} is a {kind} game", game=game_id, kind=game.title)
        else:
            only = msg("this is for Doppelkopf games; {game} is a {kind} game", game=game_id, kind=game.title)
        raise DokoError(only)

    def impose_penalty(self, game_id: str, command: ImposePenalty, *, by: str, at: str) -> GameScore | None:
        """Record a penalty in a game (docs/rules.md §9) and return the game's new score (None while
        the game is still being played)."""
        from doko_ledger.doppelkopf.game.decide import decide

        self._require_doppelkopf(game_id, "penalties")
        stream = game_stream(game_id)
        stored = self.events(game_id)
        state = fold(in_force([r.event for r in stored]))
        events = decide(state, command)
        self.store.append(stream, events, expected_version=len(stored), recorded_by=by, recorded_at=at)
        self.refresh()
        try:
            return self.score(game_id)
        except NotScorable:
            return None

    def undo(self, game_id: str, *, by: str, at: str) -> int:
        """Take back the game's newest event in force (a card, a call, a penalty) by appending a
        void; returns the voided event's version."""
        return self._undo(game_id, by=by, at=at)[0]

    def take_back(self, game_id: str, *, by: str, at: str) -> Message:
        """`undo`, saying what was taken back ("Ben's CK in trick 4 (event 40 of g1)")."""
        version, what = self._undo(game_id, by=by, at=at)
        return _event_of(what, version, game_id)

    def to_take_back(self, game_id: str) -> Message:
        """What `take_back` would take back now, in the same words, without writing anything."""
        from doko_ledger.doppelkopf.game.undo import taken_back, void_last

        stored = [r.event for r in self.events(game_id)]
        voided = void_last(stored)
        return _event_of(taken_back(stored, voided), voided.version, game_id)

    def _undo(self, game_id: str, *, by: str, at: str) -> tuple[int, Message]:
        from doko_ledger.doppelkopf.game.undo import taken_back, void_last

        stored = [r.event for r in self.events(game_id)]
        voided = void_last(stored)
        self.store.append(game_stream(game_id), [voided], expected_version=len(stored), recorded_by=by, recorded_at=at)
        self.refresh()
        return voided.version, taken_back(stored, voided)

    def annotate(
        self, game_id: str, trick: int | None, card: int | None, text: str, *, by: str, at: str
    ) -> AnnotationAdded:
        """Add a note to a game: on the game, a trick, or one card of a trick."""
        from doko_ledger.doppelkopf.game.notes import annotate

        stored = [r.event for r in self.events(game_id)]
        note = annotate(fold(in_force(stored)), trick, card, text, author=by, written_at=at)
        self.store.append(game_stream(game_id), [note], expected_version=len(stored), recorded_by=by, recorded_at=at)
        return note

    def game_events(self, game_id: str) -> list[Any]:
        """The game's events in force (undone ones left out), in order: read without their
        envelopes, as the projections read them."""
        stream = self.store.read_stream_events(game_stream(game_id))
        return [] if stream is None else in_force(stream.events)

    def events(self, game_id: str) -> list[Recorded]:
        return self.store.read_stream(game_stream(game_id))

    def state(self, game_id: str) -> GameState:
        """The Doppelkopf game as it stands."""
        self._require_doppelkopf(game_id, "replays")
        return fold(self.game_events(game_id))

    def replay(self, game_id: str, before_trick: int | None = None) -> Replay:
        """The game for a replay, whole or as it stood before trick `before_trick`."""
        from doko_ledger.doppelkopf.replay import replay

        events = self.game_events(game_id)
        if before_trick is not None:
            size = fold(events).hand_size
            if before_trick > size:
                raise DokoError(
                    msg("there is no trick {trick}: a game has {size} tricks", trick=before_trick, size=size)
                )
        result = replay(events, before_trick)
        if before_trick is not None and before_trick > len(result.state.tricks) + 1:
            played = len(result.state.tricks)
            raise DokoError(
                msg(
                    "trick {trick} was not played: the game has {count} complete tricks",
                    trick=before_trick,
                    count=played,
                )
            )
        return result

    def notes(self, game_id: str) -> list[AnnotationAdded]:
        from doko_ledger.doppelkopf.frames import notes_in

        return notes_in(self.game_events(game_id))

    def frames(self, game_id: str, perspective: str = "all", *, player: str | None = None) -> dict[str, Any]:
        """The game as frames, card by card, as `perspective` saw it: `all`, `tournament` or a
        player of the game; `player` names a player even when the name is `all` or
        `tournament` (see `views.frames_view`)."""
        from doko_ledger.doppelkopf.frames import frames, notes_in
        from doko_ledger.doppelkopf.views import frames_view
        from doko_ledger.sight import ALL, TOURNAMENT

        events = self.game_events(game_id)
        shown = frames(events)
        players = shown[-1].state.players
        if player is not None:
            player = normalized(player)
        if player is not None and player not in players:
            raise DokoError(
                msg(
                    "{name} did not play in {game} (players: {players})",
                    name=repr(player),
                    game=game_id,
                    players=", ".join(players),
                )
            )
        if player is None and perspective not in (ALL, TOURNAMENT, *players):
            raise DokoError(
                msg(
                    "{name} did not play in {game} (players: {players})",
                    name=repr(perspective),
                    game=game_id,
                    players=", ".join(players),
                )
            )
        place = self.place(game_id)
        try:
            result: GameScore | None = score_game(shown[-1].state, place=place)
        except NotScorable:
            result = None
        return frames_view(shown, notes_in(events), perspective, result, place, player=player)

    def sight(self, game_id: str, viewer: str | None = None) -> Sight:
        """What `viewer` (the name of whoever looks, None for anyone) may see of the game: while
        it is a card night's deal being played, only the viewer's own view if they play in it;
        everything once it is over (`doppelkopf.sight`)."""
        from doko_ledger.doppelkopf import game_list
        from doko_ledger.sight import Sight

        state = self.state(game_id)
        name = None if viewer is None else normalized(viewer)
        seen_by = name if name in state.players else None
        if state.over:
            return Sight(game_id, state.players, viewer=seen_by)
        self.refresh()
        night = game_list.night_of(self.store.db, game_id)
        found = None if night is None else self.nights.deal_in_play(night)
        playing = found[1] if found is not None and found[0] == game_id else None
        return Sight(game_id, state.players, playing, seen_by)

    def public_games(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The game list `rows` as anyone may see them: each says whether it is a deal being played, and
        such a deal shows no party and no secret solo (`doppelkopf.sight.public_row`)."""
        from doko_ledger.doppelkopf.sight import public_row

        playing = self.nights.deals_in_play()
        return [public_row(row, playing.get(row["game_id"])) for row in rows]

    def place(self, game_id: str) -> DealPlace | None:
        """The game's place in the card night whose deal it is: deal number, voided or
        corrected, bock round (None for a game of no night)."""
        from doko_ledger.doppelkopf import game_list

        self.refresh()
        if self.behind is not None:  # the read models are behind the log: the night is found in the log
            night = self.nights.night_naming(game_id)
        else:
            scored = game_list.place_of(self.store.db, game_id)  # most look-ups: no fold of the night
            if scored is not None and (scored.bock is None or current() == DEFAULT):
                return scored  # the read models keep a bock's cause in English only
            night = game_list.night_of(self.store.db, game_id) if scored is None else scored.session_id
        return None if night is None else self.nights.night(night).places().get(game_id)

    def score(self, game_id: str, rules: RuleSet | None = None) -> GameScore:
        """The game's score under the rules it was played with, or under `rules` (what-if;
        nothing is written); a card night's deal keeps the night's bock round either way."""
        return score_game(self.state(game_id), rules, place=self.place(game_id))

    def audit(self, game_id: str, claimed: Mapping[str, int] | None = None) -> AuditReport:
        """Every disputable check of one game, and a claimed result explained."""
        from doko_ledger.doppelkopf.audit import audit

        problems = self.store.verify(game_stream(game_id)).problems
        recorded = self.events(game_id)
        return audit(in_force(recorded, [r.event for r in recorded]), problems, claimed, self.place_in_log(game_id))

    def place_in_log(self, game_id: str) -> DealPlace | None:
        """`place`, from the log alone (no read model): the card nights whose streams name the
        game, each folded with its games."""
        from doko_ledger.events.codec import dumps_canonical

        for stream in self.store.streams_mentioning(SESSION_PREFIX, dumps_canonical(game_id)):
            if self.store.first_event_type(stream) != SESSION_FIRST_EVENT:
                continue
            place = self.nights.night(stream[len(SESSION_PREFIX) :]).places().get(game_id)
            if place is not None:
                return place
        return None

    def analysis(self, game_id: str, from_trick: int = 1, *, worlds: int = 0) -> GameAnalysis:
        """The game's analysis from trick `from_trick` (`doppelkopf.analysis`), with `worlds` worlds
        sampled for each card: the one kept for the game as it stands and this solver, else
        computed now and kept (`analyses`). `NotAnalyzable` for a game without its cards."""
        from doko_ledger.doppelkopf import analyses
        from doko_ledger.doppelkopf.analysis import analyze, verdicts

        found = self.kept_analysis(game_id, from_trick, worlds=worlds)
        if found is not None:
            return found
        stored = self.events(game_id)
        state = fold(in_force([r.event for r in stored]))
        analysed = analyze.analyze_game(state, game_id=game_id, from_trick=from_trick, worlds=worlds)
        version = stored[-1].envelope.version
        key = analyses.AnalysisKey(game_id, verdicts.SOLVER_VERSION, from_trick, worlds, version)
        try:
            with self.store.transaction(derived=True):
                analyses.keep(self.store.db, key, verdicts.analysis_to_json(analysed))
        except LedgerBusy:  # another writer held the lock: kept by the next one who asks
            pass
        return analysed

    def kept_analysis(self, game_id: str, from_trick: int = 1, *, worlds: int = 0) -> GameAnalysis | None:
        """`analysis` if it is kept for the game as it stands and this solver, else None (nothing
        is computed)."""
        from doko_ledger.doppelkopf import analyses
        from doko_ledger.doppelkopf.analysis import verdicts

        self._require_doppelkopf(game_id, "analyses")
        version = self.store.stream_version(game_stream(game_id))
        key = analyses.AnalysisKey(game_id, verdicts.SOLVER_VERSION, from_trick, worlds, version)
        found = analyses.kept(self.store.db, key)
        return None if found is None else verdicts.analysis_from_json(found)

    def forget_analyses(self) -> None:
        """Drop every kept analysis (`doko rebuild`): each is computed again when next asked."""
        from doko_ledger.doppelkopf import analyses

        with self.store.transaction():
            analyses.drop(self.store.db)

    def record(self, game_id: str) -> GameRecord:
        from doko_ledger.doppelkopf.game.record import from_events

        return from_events(self.game_events(game_id))


class Books(Protocol):
    """What holds the books of the games: the ledger."""

    def book_of(self, game: Game[DoppelkopfBook]) -> DoppelkopfBook: ...


def card_nights(ledger: Books) -> CardNights:
    """The card nights of a ledger: its Doppelkopf book's."""
    return ledger.book_of(DOPPELKOPF).nights


def house_rules(ledger: Books) -> HouseRulesBook:
    """The named house-rule sets of a ledger: its Doppelkopf book's."""
    return ledger.book_of(DOPPELKOPF).house_rules


def _event_of(what: Message, version: int, game_id: str) -> Message:
    """What undo takes back with where it was: "Ben's CK in trick 4 (event 40 of g1)"."""
    return msg("{what} (event {version} of {game})", what=what, version=version, game=game_id)
