"""Deciding an announcement against the deadlines and the parties (docs/rules.md §5)."""

from __future__ import annotations

from doko_ledger.doppelkopf.events import AnnouncementMade, DoppelkopfEvent
from doko_ledger.doppelkopf.game.commands import Announce, IllegalMove, seat_name
from doko_ledger.doppelkopf.game.parties import announcement_shift, party_calls, public_parties, solo_no90, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party, announcement_problem


def _party(state: GameState, command: Announce) -> Party:
    """The announcer's party: from the record where it tells, else from the call itself."""
    who = seat_name(state, command.seat)
    known = true_parties(state)[command.seat]
    word = {Announcement.RE: Party.RE, Announcement.KONTRA: Party.KONTRA}.get(command.announcement)
    said = command.party or word
    if known is not None:
        if said is not None and said is not known:
            if public_parties(state)[command.seat] is known:
                raise IllegalMove(f"{who} is {known.title}: a {known.title} player cannot speak for {said.title}")
            # the table does not know the party yet: the refusal must not tell it
            what = command.announcement.label + ("" if command.party is None else f" for {said.title}")
            raise IllegalMove(
                f"{who} cannot announce {what}: a player announces only for their own party (docs/rules.md §5)"
            )
        return known
    if said is None:
        raise IllegalMove(f"{who}'s party is not known from the record: say it with the call (e.g. {{{who}: re no90}})")
    return said


def announce(state: GameState, command: Announce) -> list[DoppelkopfEvent]:
    who = seat_name(state, command.seat)
    label = command.announcement.label
    if state.void:
        raise IllegalMove(f"{who} cannot announce {label}: a severe penalty voided the game (docs/rules.md §9)")
    if not state.ready:
        raise IllegalMove(f"{who} cannot announce {label} before the reservations are settled")
    if state.finished:
        raise IllegalMove(f"{who} cannot announce {label}: the game is over")
    shift = announcement_shift(state)
    if shift is None:
        raise IllegalMove(f"no announcement before the marriage is clarified (docs/rules.md §5): {who} said {label}")
    party = _party(state, command)
    own_levels = [c.announcement.level for c in state.calls if c.seat == command.seat]
    if solo_no90(state) and command.seat == state.declarer:
        own_levels.append(1)  # the solo rule's no 90 is the soloist's own (docs/rules.md §5)
    if any(level >= command.announcement.level for level in own_levels):
        raise IllegalMove(f"{who} already announced {label} (or more)")
    calls = party_calls(state)
    if state.rules.is_computer(command.seat) and calls[party].level < 0:
        raise IllegalMove(
            f"{who} is a computer seat: computers never announce Re or Kontra (duel rules, docs/rules.md §8)"
        )
    played = len(state.played_by(command.seat))
    said_party = command.party is not None or command.announcement.level == 0
    public = said_party or public_parties(state)[command.seat] is not None
    problem = announcement_problem(
        command.announcement, party, played, shift, calls[party], calls[party.other], party_public=public
    )
    if problem is not None:
        raise IllegalMove(f"{who}: {problem}")
    return [AnnouncementMade(command.seat, command.announcement, party)]
