"""A game prepared for replay: the state, when parties became public, the announcements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.game.evolve import evolve, fold
from doko_ledger.doppelkopf.game.parties import Announced, Parties, announced, public_parties, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.revelations import Revelation, revelations
from doko_ledger.frozen import frozen


@frozen
class Replay:
    """Everything a replay shows of a game at one point: the state, the parties as the table
    knew them and as they were, each revelation, and every announced level."""

    state: GameState
    public: Parties
    truth: Parties
    revelations: list[Revelation]
    announced: list[Announced]


def replay(events: Sequence[Any], before_trick: int | None = None) -> Replay:
    """The whole game, or the game as it stood before the first card of trick `before_trick`.

    The truth is always that of the whole record: what the table could not know yet.
    """
    final = fold(events)
    state = final if before_trick is None else state_before_trick(events, before_trick)
    shown = [r for r in revelations(events) if before_trick is None or r.trick < before_trick]
    return Replay(state, public_parties(state), true_parties(final), shown, announced(state))


def state_before_trick(events: Sequence[Any], number: int) -> GameState:
    """The game as it stood before the first card of trick `number` (1-based)."""
    state = GameState()
    for event in events:
        if isinstance(event, CardPlayed) and len(state.tricks) >= number - 1 and state.current is None:
            break
        state = evolve(state, event)
    return state
