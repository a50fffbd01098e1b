"""Dou Dizhu in the ledger: its games (streams `game/<id>` that start with `DouDizhuDealt`)
and its sessions (streams `doudizhu-session/<id>`), on the same store as Doppelkopf."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from doko_ledger.doudizhu.events import DouDizhuDealt, DouDizhuSessionStarted
from doko_ledger.doudizhu.evolve import fold
from doko_ledger.doudizhu.state import DealState
from doko_ledger.errors import DokoError
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.sessions import DealAdded, SessionClosed
from doko_ledger.events.voiding import in_force
from doko_ledger.games import DOUDIZHU
from doko_ledger.i18n import Message, msg, render
from doko_ledger.names import name_problem
from doko_ledger.store.base import ConcurrencyError, EventStore, LedgerBusy, NewStreamEvents
from doko_ledger.streams import game_stream

if TYPE_CHECKING:  # the commands, files, audit and sight: imported where used, not by the standings
    from doko_ledger.doudizhu.files import DouDizhuRecord, DouDizhuSummary, LoadedDouDizhuSession
    from doko_ledger.doudizhu.projection import DouDizhuAudit
    from doko_ledger.games import ReadModels
    from doko_ledger.sight import Sight

DOUDIZHU_SESSION_PREFIX = DOUDIZHU.session_prefix
"""The streams of Dou Dizhu sessions: `doudizhu-session/<id>`."""


class DouDizhuSessionNotFound(DokoError, LookupError):
    """A session reference that names no Dou Dizhu session."""


class DouDizhuSessionError(DokoError):
    """A session that cannot be started, or a session that takes no more deals."""


SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
"""A session's id: its deals are `<id>-01`, `<id>-02`, ... (ids of at most 100 characters)."""

PLAYED_ON = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True, slots=True)
class RecordedDeal:
    """A deal added to a session: its game id, the deal as decided (stake, payments), the
    session's stream version after it (what the next form carries)."""

    session_id: str
    game_id: str
    state: DealState
    version: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal of a session in the standings: its game, landlord, stake and payments."""

    game_id: str
    landlord: str | None
    stake: int
    winner: str | None
    payments: dict[str, int]
    totals: dict[str, int]


@dataclass(frozen=True, slots=True)
class DouDizhuStandings:
    """A session's running table: every deal and each player's total (the sum of payments)."""

    session_id: str
    players: tuple[str, ...]
    played_on: str | None
    closed: bool
    rows: tuple[DealResult, ...]

    @property
    def totals(self) -> dict[str, int]:
        return self.rows[-1].totals if self.rows else dict.fromkeys(self.players, 0)


class DouDizhuBook:
    """Dou Dizhu's book: reading, auditing and session-keeping of Dou Dizhu games (`games.Book`)."""

    def __init__(self, store: EventStore, read_models: ReadModels | None = None) -> None:
        self.store = store

    def sight(self, game_id: str, viewer: str | None = None) -> Sight:
        """Anyone may see all of a Dou Dizhu game: it is recorded whole."""
        from doko_ledger.sight import Sight

        return Sight(game_id, self.state(game_id).players)

    def annotate(
        self, game_id: str, trick: int | None, card: int | None, text: str, *, by: str, at: str
    ) -> AnnotationAdded:
        """Add a note to the whole game (a Dou Dizhu note is on no trick or card)."""
        from doko_ledger.events.annotations import game_note

        if trick is not None:
            raise DokoError(msg("a note on a Dou Dizhu game is on the whole game: leave out --trick and --card"))
        stored = self.store.read_stream(game_stream(game_id))
        added = game_note(text, author=by, written_at=at)
        self.store.append(game_stream(game_id), [added], expected_version=len(stored), recorded_by=by, recorded_at=at)
        return added

    def events(self, game_id: str) -> list[Any]:
        return in_force([r.event for r in self.store.read_stream(game_stream(game_id))])

    def state(self, game_id: str) -> DealState:
        return fold(self.events(game_id))

    def notes(self, game_id: str) -> list[AnnotationAdded]:
        return [e for e in self.events(game_id) if isinstance(e, AnnotationAdded)]

    def record(self, game_id: str) -> DouDizhuRecord:
        from doko_ledger.doudizhu.files import from_events

        return from_events(self.events(game_id))

    def audit(self, game_id: str, claimed: Mapping[str, int] | None = None) -> DouDizhuAudit:
        from doko_ledger.doudizhu.projection import audit

        stream = game_stream(game_id)
        recorded = self.store.read_stream(stream)
        kept = in_force(recorded, [r.event for r in recorded])
        return audit(kept, self.store.verify(stream).problems, None if claimed is None else dict(claimed))

    # -- sessions ------------------------------------------------------------------

    def session_events(self, session_id: str) -> list[Any]:
        return [r.event for r in self.store.read_stream(DOUDIZHU_SESSION_PREFIX + session_id)]

    def session_version(self, session_id: str) -> int:
        """The session stream's version: a form made from it carries it as `expected_version`."""
        return self.store.stream_version(DOUDIZHU_SESSION_PREFIX + session_id)

    def open_session_ids(self) -> list[str]:
        return [
            sid for sid in self.session_ids() if not any(isinstance(e, SessionClosed) for e in self.session_events(sid))
        ]

    def session_for(self, ref: str | None) -> str:
        """The session `ref` names (an id or a unique prefix); without `ref`, the open one."""
        if ref is not None:
            found = self.resolve_session(ref)
            if found is None:
                raise DouDizhuSessionNotFound(
                    msg("no Dou Dizhu session {ref} in the ledger (see `doko session list`)", ref=repr(ref))
                )
            return found
        open_ids = self.open_session_ids()
        if not open_ids:
            raise DouDizhuSessionNotFound(
                msg("no Dou Dizhu session is open: start one with `doko ddz start ID --players A,B,C`")
            )
        return open_ids[0]

    def start_session(
        self, session_id: str, players: Sequence[str], *, played_on: str | None = None, by: str, at: str
    ) -> None:
        """Start a Dou Dizhu session of 3 or 4 players; refused while another one is open."""
        if not SESSION_ID.match(session_id):
            raise DouDizhuSessionError(
                msg(
                    "session id {id}: letters, digits, '.', '_' and '-', starting with a letter or digit (at most 96)",
                    id=repr(session_id),
                )
            )
        if len(players) not in (3, 4):
            raise DouDizhuSessionError(msg("Dou Dizhu is played by 3 or 4 players, not {count}", count=len(players)))
        if played_on is not None and not PLAYED_ON.match(played_on):
            raise DouDizhuSessionError(msg("the day is written YYYY-MM-DD, not {day}", day=repr(played_on)))
        for player in players:
            problem = name_problem(player)
            if problem:
                raise DouDizhuSessionError(msg("player name {name} {problem}", name=repr(player), problem=problem))
            if len(player) > 40:
                raise DouDizhuSessionError(msg("player name {name} is longer than 40 characters", name=repr(player)))
        twice = [p for p, count in Counter(players).items() if count > 1]
        if twice:
            raise DouDizhuSessionError(msg("player {name} sits at the table twice", name=repr(twice[0])))
        if session_id in self.session_ids():
            raise DouDizhuSessionError(msg("Dou Dizhu session {id} is already in the ledger", id=repr(session_id)))
        open_ids = self.open_session_ids()
        if open_ids:
            raise DouDizhuSessionError(
                msg("Dou Dizhu session {id} is still open: close it first (`doko ddz close`)", id=repr(open_ids[0]))
            )
        started = DouDizhuSessionStarted(session_id, tuple(players), played_on)
        self.store.append(
            DOUDIZHU_SESSION_PREFIX + session_id, [started], expected_version=0, recorded_by=by, recorded_at=at
        )

    def close_session(self, session_id: str, *, by: str, at: str) -> None:
        """Close a session: it takes no more deals."""
        events = self._open_session(session_id)
        stream = DOUDIZHU_SESSION_PREFIX + session_id
        self.store.append(stream, [SessionClosed()], expected_version=len(events), recorded_by=by, recorded_at=at)

    def _open_session(self, session_id: str) -> list[Any]:
        events = self.session_events(session_id)
        if not any(isinstance(e, DouDizhuSessionStarted) for e in events):
            raise DouDizhuSessionNotFound(msg("no Dou Dizhu session {id} in the ledger", id=repr(session_id)))
        if any(isinstance(e, SessionClosed) for e in events):
            raise DouDizhuSessionError(
                msg("Dou Dizhu session {id} is closed: it takes no more deals", id=repr(session_id))
            )
        return events

    def summary_deal(
        self, session_id: str, facts: DouDizhuSummary, *, dealer: str | None = None, opener: str | None = None
    ) -> tuple[str, list[Any], DealState]:
        """The session's next deal recorded by its facts, decided but not written: its game id
        (`<session>-NN`, the next free number), events and state. The dealer is the next player
        after the last deal's dealer (the first player for the first deal) unless given; the
        opener is the dealer unless given. Raises the rules' `IllegalMove` (an `IllegalSummary`
        for facts that cannot be)."""
        from doko_ledger.doudizhu.commands import Deal
        from doko_ledger.doudizhu.decide import decide
        from doko_ledger.doudizhu.files import summary_command

        events = self._open_session(session_id)
        start = next(e for e in events if isinstance(e, DouDizhuSessionStarted))
        players = start.players
        deals = [e.game_id for e in events if isinstance(e, DealAdded)]
        number = len(deals) + 1
        while self.store.stream_version(game_stream(f"{session_id}-{number:02d}")) > 0:
            number += 1  # a game of that name is in the ledger already (another file, another session)
        game_id = f"{session_id}-{number:02d}"
        seat = self._next_dealer(players, deals) if dealer is None else _seat(players, dealer)
        opens = seat if opener is None else _seat(players, opener, opener=True)
        dealt = decide(DealState(), Deal(game_id, players, seat, opens, played_on=start.played_on))
        summarized = decide(fold(dealt), summary_command(players, facts))
        return game_id, [*dealt, *summarized], fold(summarized, fold(dealt))

    def _next_dealer(self, players: tuple[str, ...], deals: Sequence[str]) -> int:
        """The seat after the last deal's dealer (the deal passes counter-clockwise); seat 0 first."""
        if not deals:
            return 0
        first = self.store.read_stream(game_stream(deals[-1]))[:1]
        dealt = first[0].event if first else None
        if not isinstance(dealt, DouDizhuDealt) or dealt.players[dealt.dealer] not in players:
            return 0
        return (players.index(dealt.players[dealt.dealer]) + 1) % len(players)

    def record_summary(
        self,
        session_id: str,
        facts: DouDizhuSummary,
        *,
        expected_version: int | None = None,
        dealer: str | None = None,
        opener: str | None = None,
        by: str,
        at: str,
    ) -> RecordedDeal:
        """Add the session's next deal by its facts (landlord, bid, bombs, rockets, who went out
        first): its game and the session's `DealAdded`, in one transaction. With
        `expected_version` (the session version the form was made from), a deal recorded since
        raises `ConcurrencyError` naming it, and nothing is written."""
        stream = DOUDIZHU_SESSION_PREFIX + session_id
        version = self.store.stream_version(stream)
        if expected_version is not None and expected_version != version:
            raise self._stale(session_id, expected_version)
        game_id, events, state = self.summary_deal(session_id, facts, dealer=dealer, opener=opener)
        batches = [
            NewStreamEvents(stream, version, [DealAdded(game_id)]),
            NewStreamEvents(game_stream(game_id), 0, events),
        ]
        try:
            self.store.append_streams(batches, recorded_by=by, recorded_at=at)
        except LedgerBusy:  # the lock, not the session: said as it is
            raise
        except ConcurrencyError:
            raise self._stale(session_id, version) from None
        return RecordedDeal(session_id, game_id, state, version + 1)

    def change_since(self, session_id: str, version: int) -> str:
        """What happened to the session after `version`, in words (`deal dorm-03 was just recorded
        by Wang`), or "" when nothing did."""
        since = self.store.read_stream(DOUDIZHU_SESSION_PREFIX + session_id)[max(version, 0) :]
        return "; ".join(render(change) for change in self._changes_since(since))

    @staticmethod
    def _changes_since(since: Sequence[Any]) -> list[Message]:
        out = []
        for recorded in since:
            event, by = recorded.event, recorded.envelope.recorded_by
            if isinstance(event, DealAdded):
                out.append(msg("deal {game} was just recorded by {by}", game=event.game_id, by=by))
            elif isinstance(event, SessionClosed):
                out.append(msg("the session was closed by {by}", by=by))
        return out

    def _stale(self, session_id: str, version: int) -> ConcurrencyError:
        """The refusal of a write made from the session at `version`, naming what came since."""
        since = self.store.read_stream(DOUDIZHU_SESSION_PREFIX + session_id)[max(version, 0) :]
        changes = self._changes_since(since)
        what = changes[0] if changes else msg("the session changed")
        for change in changes[1:]:
            what = msg("{first}; {second}", first=what, second=change)
        return ConcurrencyError(msg("{what}: look at the session again; nothing was written", what=what))

    def session_ids(self) -> list[str]:
        return [s[len(DOUDIZHU_SESSION_PREFIX) :] for s in self.store.streams(DOUDIZHU_SESSION_PREFIX)]

    def resolve_session(self, ref: str) -> str | None:
        """The session `ref` names (exactly or by a unique prefix), or None: index look-ups."""
        return DOUDIZHU.session_named(self.store, ref)

    def session_game_ids(self, session_id: str) -> list[str]:
        """The games of a session's deals, in order."""
        events = [r.event for r in self.store.read_stream(DOUDIZHU_SESSION_PREFIX + session_id)]
        return [e.game_id for e in events if isinstance(e, DealAdded)]

    def import_session(self, loaded: LoadedDouDizhuSession, *, by: str, at: str) -> int:
        """Append a whole session (its stream and every deal's game) atomically; refused when
        the session or one of its games is in the ledger already, or the log holds events this
        doko_ledger does not know. Returns the number of deals."""
        self.store.check_log_types()
        if self.store.stream_version(DOUDIZHU_SESSION_PREFIX + loaded.session_id) > 0:
            raise DokoError(msg("Dou Dizhu session {id} is already in the ledger", id=repr(loaded.session_id)))
        taken = [d.game_id for d in loaded.deals if self.store.stream_version(game_stream(d.game_id)) > 0]
        if taken:
            raise DokoError(
                msg(
                    "game {game} of session {id} is already in the ledger",
                    game=repr(taken[0]),
                    id=repr(loaded.session_id),
                )
            )
        session: list[Any] = [DouDizhuSessionStarted(loaded.session_id, loaded.players, loaded.played_on)]
        session += [DealAdded(d.game_id) for d in loaded.deals]
        if loaded.closed:
            session.append(SessionClosed())
        batches = [NewStreamEvents(DOUDIZHU_SESSION_PREFIX + loaded.session_id, 0, session)]
        batches += [NewStreamEvents(game_stream(d.game_id), 0, d.events) for d in loaded.deals]
        self.store.append_streams(batches, recorded_by=by, recorded_at=at)
        return len(loaded.deals)

    def standings(self, session_id: str) -> DouDizhuStandings:
        """The session after every deal: payments and running totals."""
        events = [r.event for r in self.store.read_stream(DOUDIZHU_SESSION_PREFIX + session_id)]
        start = next((e for e in events if isinstance(e, DouDizhuSessionStarted)), None)
        if start is None:
            raise DouDizhuSessionNotFound(msg("no Dou Dizhu session {id} in the ledger", id=repr(session_id)))
        totals = dict.fromkeys(start.players, 0)
        rows = []
        for game_id in (e.game_id for e in events if isinstance(e, DealAdded)):
            state = self.state(game_id)
            payments = dict(zip(state.players, state.payments or (0,) * len(state.players), strict=True))
            for player, amount in payments.items():
                totals[player] += amount
            landlord = None if state.landlord is None else state.players[state.landlord]
            winner = None if state.winner_side is None else state.winner_side.value
            rows.append(DealResult(game_id, landlord, state.stake.amount, winner, payments, dict(totals)))
        closed = any(isinstance(e, SessionClosed) for e in events)
        return DouDizhuStandings(session_id, start.players, start.played_on, closed, tuple(rows))


def _seat(players: Sequence[str], name: str, opener: bool = False) -> int:
    if name not in players:
        named, everyone = repr(name), ", ".join(players)
        if opener:
            problem = msg("the opener {name} does not play in this session ({players})", name=named, players=everyone)
        else:
            problem = msg("the dealer {name} does not play in this session ({players})", name=named, players=everyone)
        raise DouDizhuSessionError(problem)
    return players.index(name)


def standings_view(table: DouDizhuStandings) -> dict[str, Any]:
    return {
        "game": "doudizhu",
        "session": table.session_id,
        "players": list(table.players),
        "played_on": table.played_on,
        "closed": table.closed,
        "deals": [
            {
                "game_id": r.game_id,
                "landlord": r.landlord,
                "stake": r.stake,
                "winner": r.winner,
                "payments": r.payments,
                "totals": r.totals,
            }
            for r in table.rows
        ],
        "totals": table.totals,
    }
