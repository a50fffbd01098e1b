"""Deciding what may happen to a card night: start, add a deal, void, correct, close; and the
changes between deals: a player joins or leaves, the rules change, bock is declared by hand,
a change is taken back."""

from __future__ import annotations

import re
from collections import Counter

from doko_ledger.doppelkopf.game.illegal import IllegalMove
from doko_ledger.doppelkopf.nights.events import (
    BockDeclared,
    ChangeTakenBack,
    DealAdded,
    DealCorrected,
    DealVoided,
    NightEvent,
    PlayerJoined,
    PlayerLeft,
    RulesChanged,
    SessionClosed,
    SessionStarted,
)
from doko_ledger.doppelkopf.nights.outcome import DealOutcome
from doko_ledger.doppelkopf.nights.schedule import Schedule
from doko_ledger.doppelkopf.nights.state import Change, NightState
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, plural
from doko_ledger.names import find_player, name_problem, normalized, table_problem
from doko_ledger.numbers import shortened

MIN_PLAYERS, MAX_PLAYERS = 4, 7
MAX_BOCK_ROUNDS = 3
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
NIGHT_ID_TAKES = msg("letters, digits, '.', '_' and '-' (at most 100), starting with a letter or digit")
"""What a night's id may hold, in words (for the start form's hint too)."""
_RATE = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,4})?$")


@frozen
class StartNight:
    session_id: str
    players: tuple[str, ...]
    first_dealer: int
    rules: RuleSet
    match_length: int = 8
    played_on: str | None = None
    rate: str | None = None
    rules_name: str | None = None


@frozen
class AddDeal:
    """Add a recorded game as the next deal; `outcome` is what the game shows, `request_id`
    the id of the write that sent it (a phone's form, an API client), if any."""

    outcome: DealOutcome
    dealer: str
    request_id: str | None = None


@frozen
class VoidDeal:
    game_id: str
    reason: str = "undone"
    request_id: str | None = None


@frozen
class CorrectDeal:
    game_id: str
    outcome: DealOutcome
    reason: str = "corrected"
    request_id: str | None = None


@frozen
class CloseNight:
    pass


@frozen
class JoinTable:
    """`player` sits down from the next deal, after `after` (None: after the last seat)."""

    player: str
    after: str | None = None
    request_id: str | None = None


@frozen
class LeaveTable:
    player: str
    request_id: str | None = None


@frozen
class ChangeRules:
    rules: RuleSet
    name: str | None = None
    request_id: str | None = None


@frozen
class DeclareBock:
    """Bock by hand: `rounds` rounds declared by `by` for `reason`; `game_id`: with the night's
    last deal (it goes when that deal is taken back), None: from the next deal."""

    by: str
    reason: str = ""
    rounds: int = 1
    game_id: str | None = None
    request_id: str | None = None


@frozen
class TakeBackChange:
    """Take back the change made at stream version `version` (only the newest entry)."""

    version: int
    reason: str = "undone"
    request_id: str | None = None


NightCommand = (
    StartNight
    | AddDeal
    | VoidDeal
    | CorrectDeal
    | CloseNight
    | JoinTable
    | LeaveTable
    | ChangeRules
    | DeclareBock
    | TakeBackChange
)


def decide(state: NightState, command: NightCommand, schedule: Schedule) -> list[NightEvent]:
    """The events of a command, or `IllegalMove` with the reason."""
    if isinstance(command, StartNight):
        return [_start(state, command)]
    if not state.started:
        raise IllegalMove(msg("the session has not started"))
    if state.closed:
        raise IllegalMove(
            msg("session {night} is closed: nothing more can be added or changed", night=repr(state.session_id))
        )
    match command:
        case AddDeal():
            _check_next(state, command, schedule)
            return [DealAdded(command.outcome.game_id, command.request_id)]
        case VoidDeal(game_id=game_id, reason=reason, request_id=request_id):
            if game_id not in state.deals:
                raise _not_a_deal(game_id, state)
            later = state.timeline[state.timeline.index(game_id) + 1 :]
            change = next((e for e in later if isinstance(e, Change) and e.game_id != game_id), None)
            if change is not None:
                raise IllegalMove(
                    msg(
                        "the night changed after deal {deal}: take back that change first",
                        deal=state.deals.index(game_id) + 1,
                    )
                )
            return [DealVoided(game_id, reason, request_id)]
        case CorrectDeal(game_id=game_id, outcome=outcome, reason=reason):
            if game_id not in state.deals:
                raise _not_a_deal(game_id, state)
            row = next(r for r in schedule.rows if r.game_id == game_id)
            if set(outcome.players) != set(row.playing):
                raise IllegalMove(
                    msg("the corrected deal must have the same players: {players}", players=", ".join(row.playing))
                )
            after_it = row.number < len(schedule.rows)
            moves_dealer = row.outcome.abandoned != outcome.abandoned or (
                row.rules.compulsory_solo and row.outcome.solo_by != outcome.solo_by
            )
            if after_it and moves_dealer:
                raise IllegalMove(
                    msg(
                        "this correction would change who deals the later deals (a deal thrown in, or a "
                        "compulsory solo): take the later deals back first (`doko undo`)"
                    )
                )
            return [DealCorrected(game_id, outcome.game_id, reason, command.request_id)]
        case CloseNight():
            return [SessionClosed()]
        case TakeBackChange():
            return [_take_back(state, command)]
        case JoinTable() | LeaveTable() | ChangeRules() | DeclareBock():
            _check_between_deals(schedule)
            return [_change(state, command, schedule)]
    raise IllegalMove(msg("unknown command {command}", command=repr(command)))


def _check_between_deals(schedule: Schedule) -> None:
    """A change comes between two deals: refused while a deal is being played card by card."""
    last = schedule.rows[-1] if schedule.rows else None
    if last is not None and not (last.outcome.finished or last.outcome.abandoned):
        raise IllegalMove(
            msg(
                "deal {deal} is still being played card by card: finish it (or take it back) before the night changes",
                deal=last.number,
            )
        )


def _change(
    state: NightState, command: JoinTable | LeaveTable | ChangeRules | DeclareBock, schedule: Schedule
) -> NightEvent:
    match command:
        case JoinTable():
            return _join(state, command)
        case LeaveTable():
            return _leave(state, command)
        case ChangeRules():
            if command.name is not None and (problem := name_problem(command.name)):
                raise IllegalMove(_rules_name(command.name, problem))
            if command.rules == state.rules:
                raise IllegalMove(msg("these are the rules in force already: nothing changes"))
            return RulesChanged(command.rules, command.name, command.request_id)
        case DeclareBock():
            return _declare(state, command, schedule)


def _join(state: NightState, command: JoinTable) -> PlayerJoined:
    player = normalized(command.player)
    player = find_player(player, state.everyone) or player
    if state.seating.seated(player):
        raise IllegalMove(msg("{player} is already at the table", player=player))
    problem = table_problem((*state.everyone, player) if player not in state.everyone else state.everyone)
    if problem:
        raise IllegalMove(problem)
    if state.table_size >= MAX_PLAYERS:
        raise IllegalMove(
            msg(
                "{player} cannot join: {count} players are at the table already, and a card night has 4 to 7",
                player=player,
                count=MAX_PLAYERS,
            )
        )
    after = None
    if command.after is not None:
        after = find_player(command.after, state.players)
        if after is None:
            raise IllegalMove(
                msg(
                    "{name} is not at the table ({players}), so nobody joins after them",
                    name=repr(shortened(command.after, 40)),
                    players=", ".join(state.players),
                )
            )
    return PlayerJoined(player, after, command.request_id)


def _leave(state: NightState, command: LeaveTable) -> PlayerLeft:
    player = find_player(command.player, state.players)
    if player is None:
        gone = find_player(command.player, state.everyone)
        if gone is not None:
            raise IllegalMove(msg("{player} has left the table already", player=gone))
        raise IllegalMove(_not_seated(command.player, state))
    if state.table_size <= MIN_PLAYERS:
        raise IllegalMove(
            msg(
                "{player} cannot leave: that would leave {count} players, and a card night has 4 to 7",
                player=player,
                count=state.table_size - 1,
            )
        )
    return PlayerLeft(player, command.request_id)


def _declare(state: NightState, command: DeclareBock, schedule: Schedule) -> BockDeclared:
    if not 1 <= command.rounds <= MAX_BOCK_ROUNDS:
        raise IllegalMove(
            msg(
                "bock is declared for 1 to {most} rounds at once, not {rounds}",
                most=MAX_BOCK_ROUNDS,
                rounds=command.rounds,
            )
        )
    by = normalized(command.by)
    problem = name_problem(by)
    if problem:
        raise IllegalMove(msg("who declares bock: {name} {problem}", name=repr(shortened(by, 40)), problem=problem))
    seated = find_player(by, state.players)
    if seated is None:
        raise IllegalMove(msg("who declares bock: {problem}", problem=_not_seated(by, state)))
    by = seated
    reason = normalized(command.reason)
    problem = name_problem(reason) if reason else None
    if problem:
        raise IllegalMove(msg("the reason {reason} {problem}", reason=repr(shortened(reason, 40)), problem=problem))
    if command.game_id is not None:
        last = state.timeline[-1] if state.timeline else None
        bound_to_last = isinstance(last, Change) and last.game_id == command.game_id
        if state.deals and command.game_id == state.deals[-1] and not (last == command.game_id or bound_to_last):
            raise IllegalMove(
                msg(
                    "the night changed after deal {deal}: bock comes with a deal only before any change"
                    " after it; declare it without a deal to start from the next deal",
                    deal=len(schedule.rows),
                )
            )
        if not state.deals or command.game_id != state.deals[-1]:
            raise IllegalMove(
                msg(
                    "bock comes with the deal just recorded (deal {deal}), not with {game}:"
                    " declare it without a deal to start from the next deal",
                    deal=len(schedule.rows),
                    game=repr(command.game_id),
                )
            )
    return BockDeclared(by, reason, command.rounds, command.game_id, command.request_id)


def _take_back(state: NightState, command: TakeBackChange) -> ChangeTakenBack:
    last = state.last_entry
    if not isinstance(last, Change) or last.version != command.version:
        raise IllegalMove(
            msg(
                "the change at version {version} of session {night} is not the newest entry:"
                " only the newest deal or change is taken back",
                version=command.version,
                night=repr(state.session_id),
            )
        )
    return ChangeTakenBack(command.version, command.reason, command.request_id)


def _start(state: NightState, command: StartNight) -> SessionStarted:
    if state.started:
        raise IllegalMove(msg("session {night} has already started", night=repr(state.session_id)))
    if not _ID.match(command.session_id):
        raise IllegalMove(
            msg("a night's id holds {takes}, not {id}", takes=NIGHT_ID_TAKES, id=repr(command.session_id))
        )
    players = tuple(map(normalized, command.players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(msg("a card night has 4 to 7 players, not {count}", count=len(players)))
    problem = table_problem(players)
    if problem:
        raise IllegalMove(problem)
    twice = [p for p, n in Counter(players).items() if n > 1]
    if twice:
        raise IllegalMove(msg("player {player} is at the table twice", player=repr(twice[0])))
    if not 0 <= command.first_dealer < len(players):
        raise IllegalMove(msg("the first dealer must be one of the {count} players", count=len(players)))
    if not 1 <= command.match_length <= 100:
        raise IllegalMove(msg("a match has 1 to 100 deals, not {count}", count=command.match_length))
    if command.rules_name is not None and (problem := name_problem(command.rules_name)):
        raise IllegalMove(_rules_name(command.rules_name, problem))
    return SessionStarted(
        command.session_id,
        players,
        command.first_dealer,
        command.rules,
        command.match_length,
        command.played_on,
        None if command.rate is None else _rate(command.rate),
        command.rules_name,
    )


def _rate(typed: str) -> str:
    """The money rate as the night keeps it (`0.05`), typed with a decimal point or, as in
    German, a comma; IllegalMove for anything else."""
    rate = typed.replace(",", ".", 1)
    if not _RATE.match(rate):
        raise IllegalMove(
            msg(
                "the money rate must be a decimal amount per point such as 0.05, not {rate}",
                rate=repr(shortened(typed, 20)),
            )
        )
    return rate


def _check_next(state: NightState, command: AddDeal, schedule: Schedule) -> None:
    outcome, expected = command.outcome, schedule.next
    if schedule.rows and not (schedule.rows[-1].outcome.finished or schedule.rows[-1].outcome.abandoned):
        raise IllegalMove(
            msg("deal {game} is still being played: finish it first", game=repr(schedule.rows[-1].game_id))
        )
    if expected.over:
        raise IllegalMove(msg("the tournament is complete: every deal is played and every player has played a solo"))
    if outcome.game_id in state.deals or outcome.game_id in state.voided or outcome.game_id in state.replaced:
        raise IllegalMove(msg("game {game} is already a deal of this session", game=repr(outcome.game_id)))
    if set(outcome.players) != set(expected.playing):
        raise IllegalMove(
            msg(
                "deal {deal} is played by {players} (dealer {dealer}), not by {given}",
                deal=expected.number,
                players=", ".join(expected.playing),
                dealer=expected.dealer,
                given=", ".join(outcome.players),
            )
        )
    if command.dealer != expected.dealer:
        raise IllegalMove(
            msg(
                "deal {deal} is dealt by {dealer}, not {given}",
                deal=expected.number,
                dealer=expected.dealer,
                given=command.dealer,
            )
        )
    owing = expected.forced_solo_by
    if owing and (outcome.solo_by not in owing) and not outcome.abandoned:
        raise IllegalMove(
            msg("a forced solo is due (docs/rules.md §9): {players} must still play a solo", players=", ".join(owing))
        )


def _not_a_deal(game_id: str, state: NightState) -> IllegalMove:
    return IllegalMove(msg("{game} is not a deal of session {night}", game=repr(game_id), night=repr(state.session_id)))


def _not_seated(name: str, state: NightState) -> Message:
    return msg(
        "{name} is not at the table ({players})", name=repr(shortened(name, 40)), players=", ".join(state.players)
    )


def _rules_name(name: str, problem: Message) -> Message:
    return msg("the rules' name {name} {problem}", name=repr(shortened(name, 40)), problem=problem)


def no_such_deal(session_id: str, deal: int, count: int) -> Message:
    """A deal number past the night's deals, refused."""
    return plural(
        "card night {night} has no deal {deal}: it has {count} deal",
        "card night {night} has no deal {deal}: it has {count} deals",
        count,
        night=repr(session_id),
        deal=deal,
    )
