"""Who plays with whom: the true parties, what the table knew, and the parties' announcements.

Everything here is derived from a `GameState` (docs/rules.md §4-§5); nothing is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field

from doko_ledger.doppelkopf.cards import ALTE, Card, deck
from doko_ledger.doppelkopf.game.state import Call, GameState
from doko_ledger.doppelkopf.rules.announcements import (
    Announcement,
    Deadlines,
    Party,
    PartyCalls,
    after,
    at_level,
    deadlines_of,
    marriage_shift,
)
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.reservations import duel_marriage, finds_partner, marriage_partner
from doko_ledger.frozen import frozen

Parties = tuple[Party | None, ...]


def marriage_status(state: GameState) -> tuple[int | None, int | None]:
    """(partner, clarifying trick) of a marriage; (None, 3) for a lone marriage; (None, None) while open."""
    if state.game_type is not GameType.MARRIAGE or state.declarer is None:
        return None, None
    led = [(t.cards[0], t.winner) for t in state.tricks if t.winner is not None]
    if state.rules.computer_seats:
        partner, clarified, _ = duel_marriage(led, state.declarer, state.rules.computer_seats)
        return partner, clarified
    rules = state.rules
    trumps = frozenset(state.order.trumps)
    return marriage_partner(
        led,
        state.declarer,
        rules.marriage_clarification,
        trumps,
        within=min(rules.marriage_tricks, state.hand_size),
        first_decides=rules.marriage_first_decides,
        exhausted=_exhausted(state, trumps),
    )


def _exhausted(state: GameState, trumps: frozenset[Card]) -> list[bool]:
    """After each trick, whether every card that could lead a trick finding the partner is played."""
    clarification = state.rules.marriage_clarification
    if clarification == "any":
        return []
    left = sum(n for card, n in deck(state.rules.with_nines).items() if finds_partner(card, clarification, trumps))
    out = []
    for trick in state.tricks:
        left -= sum(1 for card in trick.cards if finds_partner(card, clarification, trumps))
        out.append(left == 0)
    return out


def is_lone(state: GameState) -> bool:
    """One against three: any solo (silent included) or a marriage that found no partner."""
    if state.summary is not None:
        return len(state.summary.re_seats) == 1
    if state.valued is not None:
        return state.declarer is not None
    if state.game_type is None:
        return False
    if state.game_type is GameType.MARRIAGE:
        partner, clarified = marriage_status(state)
        return clarified is not None and partner is None
    return state.game_type.is_solo


def soloist(state: GameState) -> int | None:
    """The lone player of a solo (silent solo and lone marriage included), if any."""
    return state.declarer if is_lone(state) else None


def _contract_parties(state: GameState, public: bool) -> dict[int, Party]:
    """The parties the contract itself settles (and, when `public`, makes known)."""
    game_type, declarer = state.game_type, state.declarer
    if game_type is None or declarer is None or game_type is GameType.NORMAL:
        return {}
    if game_type.is_solo and (not public or game_type.is_declared_solo):
        return {s: Party.RE if s == declarer else Party.KONTRA for s in range(SEATS)}
    known = {declarer: Party.RE} if game_type in (GameType.MARRIAGE, GameType.POVERTY) else {}
    partner, settled = None, False
    if game_type is GameType.MARRIAGE:
        partner, clarified = marriage_status(state)
        settled = clarified is not None
    elif game_type is GameType.POVERTY and state.poverty is not None:
        partner = state.poverty.acceptor
        settled = partner is not None
    if partner is not None:
        known[partner] = Party.RE
    if settled:
        known.update({s: Party.KONTRA for s in range(SEATS) if s not in known})
    return known


def queens_played(state: GameState) -> list[int]:
    """The seat of each CQ played so far (the trick on the table included), in play order."""
    seats: list[int] = []
    for trick in state.all_tricks:
        cards = trick.cards
        if ALTE in cards:  # most tricks hold none: look before walking the plays
            leader = trick.leader
            seats += [(leader + i) % SEATS for i, card in enumerate(cards) if card is ALTE]
    return seats


def _evidence(known: dict[int, Party], queens: Sequence[int], calls: Sequence[Call], eliminate: bool) -> None:
    """Add to `known` what the cards and calls show: a CQ played is Re, a call shows its party;
    in a normal game two known Re make the other two Kontra (two known Kontra do not:
    a silent solo looks the same)."""
    for seat in queens:
        known.setdefault(seat, Party.RE)
    for call in calls:
        known.setdefault(call.seat, call.party)
    if eliminate and list(known.values()).count(Party.RE) == 2:
        known.update({s: Party.KONTRA for s in range(SEATS) if s not in known})


def _by_seat(known: dict[int, Party]) -> Parties:
    """`known` as a party (or None) per seat."""
    get = known.get
    return (get(0), get(1), get(2), get(3))


_NOBODY: Parties = (None,) * SEATS


def _summary_parties(state: GameState) -> Parties | None:
    if state.summary is None:
        return None
    re_seats = state.summary.re_seats
    return tuple(Party.RE if s in re_seats else Party.KONTRA for s in range(SEATS))


def true_parties(state: GameState) -> Parties:
    """Each seat's party as far as the record shows (None: not yet determinable)."""
    summarized = _summary_parties(state)
    if summarized is not None:
        return summarized
    game_type = state.game_type
    if game_type is None:
        return _NOBODY
    if game_type is GameType.NORMAL:
        if state.dealt is not None:
            return _by_seat({s: Party.RE if ALTE in hand else Party.KONTRA for s, hand in enumerate(state.dealt)})
        known: dict[int, Party] = {}
        _evidence(known, queens_played(state), state.calls, eliminate=True)
        return _by_seat(known)
    return _by_seat(_contract_parties(state, public=False))


def public_parties(state: GameState) -> Parties:
    """Each seat's party as the table knew it at this point (docs/rules.md §4: a CQ played, an
    announcement, a marriage partner found, a poverty taken)."""
    summarized = _summary_parties(state)
    if summarized is not None:
        return summarized
    game_type = state.game_type
    if game_type is None:
        return _NOBODY
    if game_type is GameType.NORMAL or game_type is GameType.SILENT_SOLO:
        return shown_parties(game_type, state.declarer, queens_played(state), state.calls)
    return _by_seat(_contract_parties(state, public=True))


def shown_parties(game_type: GameType, declarer: int | None, queens: Sequence[int], calls: Sequence[Call]) -> Parties:
    """What the table knows in a normal game or a silent solo (`declarer`: its soloist), where
    only the cards and the calls show a party: `queens` are the seats of the CQs played so
    far, in play order (docs/rules.md §4). A silent solo is public once its soloist has played both."""
    if game_type is GameType.SILENT_SOLO and declarer is not None and queens.count(declarer) == 2:
        return tuple([Party.RE if s == declarer else Party.KONTRA for s in range(SEATS)])
    known: dict[int, Party] = {}
    _evidence(known, queens, calls, eliminate=game_type is GameType.NORMAL)
    return _by_seat(known)


def announcement_shift(state: GameState) -> int | None:
    """Cards every deadline moves by (marriages, docs/rules.md §5); None before a marriage is clarified."""
    if state.game_type is not GameType.MARRIAGE:
        return 0
    _, clarified = marriage_status(state)
    if clarified is None:
        return None
    return marriage_shift(clarified, state.rules.marriage_shift)


def solo_no90(state: GameState) -> bool:
    """Option `solo_must_announce_no90`: a declared solo carries the soloist's no 90 from the start."""
    return state.rules.solo_must_announce_no90 and state.game_type is not None and state.game_type.is_declared_solo


def party_calls(state: GameState, calls_made: Sequence[Call] | None = None) -> dict[Party, PartyCalls]:
    """What each party has announced so far (implied steps included); `calls_made`: only these."""
    calls = {Party.RE: PartyCalls(1, True) if solo_no90(state) else PartyCalls(), Party.KONTRA: PartyCalls()}
    shift = announcement_shift(state) or 0
    deadlines = deadlines_of(state.rules)
    for call in state.calls if calls_made is None else calls_made:
        calls[call.party] = after(calls[call.party], call.announcement, call_count(call, deadlines), shift, deadlines)
    return calls


def call_count(call: Call, deadlines: Deadlines) -> int:
    """What the deadlines count for a call made: the announcer's cards, or the tricks before it."""
    return call.played if deadlines.count == "cards" else call.tricks_before


def deadline_count(state: GameState, seat: int) -> int:
    """What the deadlines count for a call `seat` makes now (docs/rules.md §5)."""
    if state.rules.deadlines_count == "cards":
        return len(state.played_by(seat))
    return state.tricks_before


@frozen
class Announced:
    """One level a party has announced, and why: a player's call, or implied by one (or by the rules)."""

    party: Party
    announcement: Announcement
    seat: int | None
    played: int | None
    trick: int | None
    implied: bool
    cause: str
    by_call: Announcement | None = field(default=None, compare=False, repr=False)
    """The call that implied this level (None: said, or implied by the solo rule)."""


def announced(state: GameState) -> list[Announced]:
    """Every level each party announced, in order, with skipped levels listed as implied."""
    out: list[Announced] = []
    level = {Party.RE: -1, Party.KONTRA: -1}
    if solo_no90(state):
        for step in (0, 1):
            out.append(Announced(Party.RE, at_level(Party.RE, step), state.declarer, 0, None, True, "solo rule"))
        level[Party.RE] = 1
    for call in state.calls:
        who = state.players[call.seat]
        for step in range(level[call.party] + 1, call.announcement.level + 1):
            implied = step < call.announcement.level
            cause = f"implied by {who}'s {call.announcement.label}" if implied else f"{who}"
            out.append(
                Announced(
                    call.party,
                    at_level(call.party, step),
                    call.seat,
                    call.played,
                    call.trick,
                    implied,
                    cause,
                    call.announcement if implied else None,
                )
            )
        level[call.party] = max(level[call.party], call.announcement.level)
    return out
