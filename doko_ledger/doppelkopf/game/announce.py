"""Deciding an announcement against the deadlines and the parties (docs/rules.md §5)."""

from __future__ import annotations

from doko_ledger.doppelkopf.events import AnnouncementMade, DoppelkopfEvent
from doko_ledger.doppelkopf.game.commands import Announce, IllegalMove, seat_name
from doko_ledger.doppelkopf.game.parties import (
    announcement_shift,
    deadline_count,
    party_calls,
    public_parties,
    solo_no90,
    true_parties,
)
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import (
    Announcement,
    Party,
    announcement_problem,
    at_level,
    deadlines_of,
    first_trick_due,
    too_late_for_any,
)
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.i18n import Message, msg


def _party(state: GameState, command: Announce) -> Party:
    """The announcer's party: from the record where it tells, else from the call itself."""
    who = seat_name(state, command.seat)
    known = true_parties(state)[command.seat]
    word = {Announcement.RE: Party.RE, Announcement.KONTRA: Party.KONTRA}.get(command.announcement)
    said = command.party or word
    if known is not None:
        if said is not None and said is not known:
            if public_parties(state)[command.seat] is known:
                raise IllegalMove(
                    msg("{who} is {party}: a {party} player cannot speak for {said}", who=who, party=known, said=said)
                )
            # the table does not know the party yet: the refusal must not tell it
            call = command.announcement
            what = call.word if command.party is None else msg("{call} for {party}", call=call, party=said)
            raise IllegalMove(
                msg(
                    "{who} cannot announce {call}: a player announces only for their own party (docs/rules.md §5)",
                    who=who,
                    call=what,
                )
            )
        return known
    if said is None:
        raise IllegalMove(
            msg(
                "{who}'s party is not known from the record: say it with the call (e.g. {example})",
                who=who,
                example=f"{{{who}: re no90}}",
            )
        )
    return said


def announce(state: GameState, command: Announce) -> list[DoppelkopfEvent]:
    who = seat_name(state, command.seat)
    call = command.announcement
    if state.void:
        raise IllegalMove(
            msg("{who} cannot announce {call}: a severe penalty voided the game (docs/rules.md §9)", who=who, call=call)
        )
    if not state.ready:
        raise IllegalMove(msg("{who} cannot announce {call} before the reservations are settled", who=who, call=call))
    if state.finished:
        raise IllegalMove(msg("{who} cannot announce {call}: the game is over", who=who, call=call))
    closed = too_late_for_any(len(state.tricks) + 1, state.rules.last_announcement_trick)
    if closed is not None:
        raise IllegalMove(msg("{who} cannot announce {call}: {why}", who=who, call=call, why=closed))
    shift = announcement_shift(state)
    if shift is None:
        raise IllegalMove(
            msg(
                "no announcement before the marriage is clarified (docs/rules.md §5): {who} said {call}",
                who=who,
                call=call,
            )
        )
    party = _party(state, command)
    own_levels = [c.announcement.level for c in state.calls if c.seat == command.seat]
    if solo_no90(state) and command.seat == state.declarer:
        own_levels.append(1)  # the solo rule's no 90 is the soloist's own (docs/rules.md §5)
    if any(level >= command.announcement.level for level in own_levels):
        raise IllegalMove(msg("{who} already announced {call} (or more)", who=who, call=call))
    calls = party_calls(state)
    if state.rules.is_computer(command.seat) and calls[party].level < 0:
        raise IllegalMove(
            msg(
                "{who} is a computer seat: computers never announce Re or Kontra (duel rules, docs/rules.md §8)",
                who=who,
            )
        )
    played = deadline_count(state, command.seat)
    said_party = command.party is not None or command.announcement.level == 0
    public = said_party or public_parties(state)[command.seat] is not None
    problem = announcement_problem(
        command.announcement,
        party,
        played,
        shift,
        calls[party],
        calls[party.other],
        party_public=public,
        deadlines=deadlines_of(state.rules),
    )
    if problem is not None:
        raise IllegalMove(msg("{who}: {problem}", who=who, problem=problem))
    return [AnnouncementMade(command.seat, command.announcement, party)]


def first_trick_owed(state: GameState) -> Message | None:
    """What the winner of the first trick still owes before the second trick is led (option
    `first_trick_thirty`, docs/rules.md §5), or None: in a normal game a first trick of 30
    card points or more makes its winner announce their party's next level, if that call
    would be allowed the moment the trick was completed."""
    rules = state.rules
    if rules.first_trick_thirty == "off" or state.game_type is not GameType.NORMAL:
        return None
    if len(state.tricks) != 1 or state.current is not None or too_late_for_any(2, rules.last_announcement_trick):
        return None
    trick = state.tricks[0]
    winner = trick.winner
    party = None if winner is None else true_parties(state)[winner]
    if winner is None or party is None:
        return None  # without the hands, the winner's party is not known yet
    calls = party_calls(state, [c for c in state.calls if c.trick == 1])
    due = first_trick_due(trick.points, calls[party], calls[party.other], rules.first_trick_thirty)
    if due is None or any(c.seat == winner and c.announcement.level >= due for c in state.calls):
        return None
    if rules.is_computer(winner) and calls[party].level < 0:
        return None  # a computer seat never says Re or Kontra (duel rules)
    owed = at_level(party, due)
    played = 1 if rules.deadlines_count == "cards" else 0  # the winner's one card; or no trick before
    if announcement_problem(owed, party, played, 0, calls[party], calls[party.other], deadlines=deadlines_of(rules)):
        return None
    who = seat_name(state, winner)
    return msg(
        "{who} took the first trick with {points} card points and must announce {call}"
        " before the second trick is led (docs/rules.md §5)",
        who=who,
        points=trick.points,
        call=owed,
    )
