"""Deciding what may happen to a card night: start, add a deal, void, correct, close."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.nights.events import (
    DealAdded,
    DealCorrected,
    DealVoided,
    NightEvent,
    SessionClosed,
    SessionStarted,
)
from doko_ledger.doppelkopf.nights.outcome import DealOutcome
from doko_ledger.doppelkopf.nights.schedule import Schedule
from doko_ledger.doppelkopf.nights.state import NightState
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.names import normalized, table_problem
from doko_ledger.numbers import shortened

MIN_PLAYERS, MAX_PLAYERS = 4, 7
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
NIGHT_ID_TAKES = "letters, digits, '.', '_' and '-' (at most 100), starting with a letter or digit"
"""What a night's id may hold, in words (for the start form's hint too)."""
_RATE = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,4})?$")


@dataclass(frozen=True, slots=True)
class StartNight:
    session_id: str
    players: tuple[str, ...]
    first_dealer: int
    rules: RuleSet
    match_length: int = 8
    played_on: str | None = None
    rate: str | None = None


@dataclass(frozen=True, slots=True)
class AddDeal:
    """Add a recorded game as the next deal; `outcome` is what the game shows, `request_id`
    the id of the write that sent it (a phone's form, an API client), if any."""

    outcome: DealOutcome
    dealer: str
    request_id: str | None = None


@dataclass(frozen=True, slots=True)
class VoidDeal:
    game_id: str
    reason: str = "undone"
    request_id: str | None = None


@dataclass(frozen=True, slots=True)
class CorrectDeal:
    game_id: str
    outcome: DealOutcome
    reason: str = "corrected"
    request_id: str | None = None


@dataclass(frozen=True, slots=True)
class CloseNight:
    pass


NightCommand = StartNight | AddDeal | VoidDeal | CorrectDeal | CloseNight


def decide(state: NightState, command: NightCommand, schedule: Schedule) -> list[NightEvent]:
    """The events of a command, or `IllegalMove` with the reason."""
    if isinstance(command, StartNight):
        return [_start(state, command)]
    if not state.started:
        raise IllegalMove("the session has not started")
    if state.closed:
        raise IllegalMove(f"session {state.session_id!r} is closed: nothing more can be added or changed")
    match command:
        case AddDeal():
            _check_next(state, command, schedule)
            return [DealAdded(command.outcome.game_id, command.request_id)]
        case VoidDeal(game_id=game_id, reason=reason, request_id=request_id):
            if game_id not in state.deals:
                raise IllegalMove(f"{game_id!r} is not a deal of session {state.session_id!r}")
            return [DealVoided(game_id, reason, request_id)]
        case CorrectDeal(game_id=game_id, outcome=outcome, reason=reason):
            if game_id not in state.deals:
                raise IllegalMove(f"{game_id!r} is not a deal of session {state.session_id!r}")
            row = next(r for r in schedule.rows if r.game_id == game_id)
            if set(outcome.players) != set(row.playing):
                raise IllegalMove(f"the corrected deal must have the same players: {', '.join(row.playing)}")
            later = row.number < len(schedule.rows)
            moves_dealer = row.outcome.abandoned != outcome.abandoned or (
                state.rules.compulsory_solo and row.outcome.solo_by != outcome.solo_by
            )
            if later and moves_dealer:
                raise IllegalMove(
                    "this correction would change who deals the later deals (a deal thrown in, or a "
                    "compulsory solo): take the later deals back first (`doko undo`)"
                )
            return [DealCorrected(game_id, outcome.game_id, reason, command.request_id)]
        case CloseNight():
            return [SessionClosed()]
    raise IllegalMove(f"unknown command {command!r}")


def _start(state: NightState, command: StartNight) -> SessionStarted:
    if state.started:
        raise IllegalMove(f"session {state.session_id!r} has already started")
    if not _ID.match(command.session_id):
        raise IllegalMove(f"a night's id holds {NIGHT_ID_TAKES}, not {command.session_id!r}")
    players = tuple(map(normalized, command.players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(f"a card night has 4 to 7 players, not {len(players)}")
    problem = table_problem(players)
    if problem:
        raise IllegalMove(problem)
    twice = [p for p, n in Counter(players).items() if n > 1]
    if twice:
        raise IllegalMove(f"player {twice[0]!r} is at the table twice")
    if not 0 <= command.first_dealer < len(players):
        raise IllegalMove(f"the first dealer must be one of the {len(players)} players")
    if not 1 <= command.match_length <= 100:
        raise IllegalMove(f"a match has 1 to 100 deals, not {command.match_length}")
    if command.rate is not None and not _RATE.match(command.rate):
        raise IllegalMove(
            f"the money rate must be a decimal amount per point such as 0.05, not {shortened(command.rate, 20)!r}"
        )
    return SessionStarted(
        command.session_id,
        players,
        command.first_dealer,
        command.rules,
        command.match_length,
        command.played_on,
        command.rate,
    )


def _check_next(state: NightState, command: AddDeal, schedule: Schedule) -> None:
    outcome, expected = command.outcome, schedule.next
    if schedule.rows and not (schedule.rows[-1].outcome.finished or schedule.rows[-1].outcome.abandoned):
        raise IllegalMove(f"deal {schedule.rows[-1].game_id!r} is still being played: finish it first")
    if expected.over:
        raise IllegalMove("the tournament is complete: every deal is played and every player has played a solo")
    if outcome.game_id in state.deals or outcome.game_id in state.voided or outcome.game_id in state.replaced:
        raise IllegalMove(f"game {outcome.game_id!r} is already a deal of this session")
    if set(outcome.players) != set(expected.playing):
        raise IllegalMove(
            f"deal {expected.number} is played by {', '.join(expected.playing)} (dealer {expected.dealer}), "
            f"not by {', '.join(outcome.players)}"
        )
    if command.dealer != expected.dealer:
        raise IllegalMove(f"deal {expected.number} is dealt by {expected.dealer}, not {command.dealer}")
    owing = expected.forced_solo_by
    if owing and (outcome.solo_by not in owing) and not outcome.abandoned:
        raise IllegalMove(f"a forced solo is due (docs/rules.md §9): {', '.join(owing)} must still play a solo")
