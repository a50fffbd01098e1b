"""Dou Dizhu in the ledger: its games (streams `game/<id>` that start with `DouDizhuDealt`)
and its sessions (streams `doudizhu-session/<id>`), on the same store as Doppelkopf."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from doko_ledger.doudizhu import DealState, fold
from doko_ledger.doudizhu.events import DouDizhuSessionStarted
from doko_ledger.errors import DokoError
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.session import DealAdded, SessionClosed
from doko_ledger.events.store import EventStore, NewStreamEvents
from doko_ledger.events.voiding import in_force
from doko_ledger.formats.doudizhu_file import DouDizhuRecord, LoadedDouDizhuSession, from_events
from doko_ledger.projections.doudizhu import DouDizhuAudit, audit
from doko_ledger.streams import DOUDIZHU_SESSION_PREFIX, game_stream


class DouDizhuSessionNotFound(DokoError, LookupError):
    """A session reference that names no Dou Dizhu session."""


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


class DouDizhuGames:
    """Reading, auditing and session-keeping of Dou Dizhu games."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def events(self, game_id: str) -> list[Any]:
        return in_force([r.event for r in self.store.read_stream(game_stream(game_id))])

    def state(self, game_id: str) -> DealState:
        return fold(self.events(game_id))

    def notes(self, game_id: str) -> list[AnnotationAdded]:
        return [e for e in self.events(game_id) if isinstance(e, AnnotationAdded)]

    def record(self, game_id: str) -> DouDizhuRecord:
        return from_events(self.events(game_id))

    def audit(self, game_id: str, claimed: Mapping[str, int] | None = None) -> DouDizhuAudit:
        stream = game_stream(game_id)
        recorded = self.store.read_stream(stream)
        kept = in_force(recorded, [r.event for r in recorded])
        return audit(kept, self.store.verify(stream).problems, None if claimed is None else dict(claimed))

    # -- sessions ------------------------------------------------------------------

    def session_ids(self) -> list[str]:
        return [s[len(DOUDIZHU_SESSION_PREFIX) :] for s in self.store.streams(DOUDIZHU_SESSION_PREFIX)]

    def resolve_session(self, ref: str) -> str | None:
        """The session `ref` names (exactly or by a unique prefix), or None: index look-ups."""
        stream = DOUDIZHU_SESSION_PREFIX + ref
        if self.store.stream_version(stream) > 0:
            return ref
        matches = self.store.stream_names(stream, 2)
        return matches[0][len(DOUDIZHU_SESSION_PREFIX) :] if len(matches) == 1 else None

    def session_game_ids(self, session_id: str) -> list[str]:
        """The games of a session's deals, in order."""
        events = [r.event for r in self.store.read_stream(DOUDIZHU_SESSION_PREFIX + session_id)]
        return [e.game_id for e in events if isinstance(e, DealAdded)]

    def import_session(self, loaded: LoadedDouDizhuSession, *, by: str, at: str) -> int:
        """Append a whole session (its stream and every deal's game) atomically; refused when
        the session or one of its games is in the ledger already. Returns the number of deals."""
        if self.store.stream_version(DOUDIZHU_SESSION_PREFIX + loaded.session_id) > 0:
            raise DokoError(f"Dou Dizhu session {loaded.session_id!r} is already in the ledger")
        taken = [d.game_id for d in loaded.deals if self.store.stream_version(game_stream(d.game_id)) > 0]
        if taken:
            raise DokoError(f"game {taken[0]!r} of session {loaded.session_id!r} is already in the ledger")
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
            raise DouDizhuSessionNotFound(f"no Dou Dizhu session {session_id!r} in the ledger")
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
