"""Plain-data views of a game for scripts (`--json`) and for the renderers."""

from __future__ import annotations

from typing import Any

from doko_ledger.events.codec import to_payload
from doko_ledger.events.envelope import Recorded
from doko_ledger.game.state import GameState, Trick
from doko_ledger.rules.play import SEATS


def running_points(state: GameState) -> list[tuple[int, ...]]:
    """Card points per seat after each completed trick."""
    totals = [0] * SEATS
    out = []
    for trick in state.tricks:
        assert trick.winner is not None
        totals[trick.winner] += trick.points
        out.append(tuple(totals))
    return out


def trick_view(state: GameState, trick: Trick) -> dict[str, Any]:
    players = state.players
    return {
        "number": trick.number,
        "leader": players[trick.leader],
        "plays": [{"player": players[s], "card": str(c)} for s, c in trick.plays],
        "winner": None if trick.winner is None else players[trick.winner],
        "points": trick.points,
    }


def hands_view(state: GameState) -> dict[str, list[str]] | None:
    if state.hands is None:
        return None
    return {p: [str(c) for c in state.order.sorted(h)] for p, h in zip(state.players, state.hands, strict=True)}


def game_view(state: GameState) -> dict[str, Any]:
    """The whole game: header, every trick, card points and tricks per player."""
    players = state.players
    return {
        "game_id": state.game_id,
        "played_on": state.played_on,
        "players": list(players),
        "dealer": players[state.dealer],
        "rules": state.rules.to_dict(),
        "game_type": None if state.game_type is None else state.game_type.value,
        "declarer": None if state.declarer is None else players[state.declarer],
        "hands_dealt": None
        if state.dealt is None
        else {p: [str(c) for c in h] for p, h in zip(players, state.dealt, strict=True)},
        "tricks": [trick_view(state, t) for t in state.all_tricks],
        "card_points": dict(zip(players, state.points_won(), strict=True)),
        "tricks_won": dict(zip(players, state.tricks_won(), strict=True)),
        "finished": state.finished,
    }


def position_view(state: GameState, number: int) -> dict[str, Any]:
    """The game before trick `number`: hands as they stood, tricks so far, who leads."""
    leader = state.to_play
    return {
        "game_id": state.game_id,
        "before_trick": number,
        "leader": None if leader is None else state.players[leader],
        "hands": hands_view(state),
        "card_points": dict(zip(state.players, state.points_won(), strict=True)),
        "tricks": [trick_view(state, t) for t in state.tricks],
    }


def event_view(recorded: Recorded) -> dict[str, Any]:
    e = recorded.envelope
    return {
        "position": e.position,
        "stream": e.stream,
        "version": e.version,
        "type": e.event_type,
        "schema_version": e.schema_version,
        "recorded_at": e.recorded_at,
        "recorded_by": e.recorded_by,
        "hash": e.hash,
        "payload": to_payload(recorded.event),
    }
