"""The facts of a played game that scoring needs (docs/rules.md §7): points, tricks, calls, specials."""

from __future__ import annotations

from doko_ledger.doppelkopf.cards import FUCHS, KARLCHEN
from doko_ledger.doppelkopf.events import DealSummarized
from doko_ledger.doppelkopf.game.parties import (
    Parties,
    announced,
    is_lone,
    marriage_status,
    party_calls,
    solo_no90,
    true_parties,
)
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import is_heart_trick
from doko_ledger.doppelkopf.rules.scoring import DealFacts, Special, SpecialKind
from doko_ledger.errors import DokoError


class NotScorable(DokoError):
    """A game that cannot be scored (yet): unfinished, or its parties unknown."""


def specials(state: GameState, parties: tuple[Party | None, ...], upto: int | None = None) -> tuple[Special, ...]:
    """Every special point earned in play (in the first `upto` tricks), by the party of the
    trick's winner (docs/rules.md §7)."""
    names = state.players
    last = state.hand_size
    out: list[Special] = []
    for trick in state.tricks[:upto]:
        winner = trick.winner
        assert winner is not None
        side = parties[winner]
        if side is None:
            continue
        cards, leader = trick.cards, trick.leader
        if FUCHS in cards:  # most tricks hold no DA: look before walking the cards
            for i, card in enumerate(cards):
                seat = (leader + i) % 4
                if card is FUCHS and parties[seat] is not side:
                    out.append(
                        Special(
                            SpecialKind.FOX_CAUGHT,
                            side,
                            f"trick {trick.number}: {names[winner]} caught {names[seat]}'s DA",
                        )
                    )
        if trick.points >= 40:
            out.append(
                Special(SpecialKind.DOPPELKOPF, side, f"trick {trick.number}: {names[winner]} took {trick.points}")
            )
        if trick.number == last:
            if cards[(winner - leader) % 4] is KARLCHEN:
                out.append(Special(SpecialKind.KARLCHEN, side, f"trick {trick.number}: {names[winner]} won it with CJ"))
            for i, card in enumerate(cards):
                seat = (leader + i) % 4
                if card is KARLCHEN and parties[seat] is not side:
                    out.append(
                        Special(
                            SpecialKind.KARLCHEN_CAPTURED,
                            side,
                            f"trick {trick.number}: {names[winner]} caught {names[seat]}'s CJ",
                        )
                    )
    return tuple(out)


def _lone_marriage_tricks(state: GameState) -> int | None:
    """The tricks whose special points count in a lone marriage under `lone_marriage_specials`
    (up to the one that left the marriage player alone); None: every trick (docs/rules.md §4)."""
    if state.game_type is not GameType.MARRIAGE or not state.rules.lone_marriage_specials:
        return None
    partner, clarified = marriage_status(state)
    return clarified if partner is None else None


def summary_facts(state: GameState, summary: DealSummarized) -> DealFacts:
    """The facts of a deal recorded without cards. Unknown tricks: a party with card points won one."""
    names = state.players
    re_seats = summary.re_seats
    level = {Party.RE: -1, Party.KONTRA: -1}
    causes: dict[tuple[Party, int], str] = {}
    for call in summary.announcements:
        party = Party.RE if call.seat in re_seats else Party.KONTRA
        for step in range(level[party] + 1, call.announcement.level + 1):
            implied = step < call.announcement.level
            causes[(party, step)] = (
                f"implied by {names[call.seat]}'s {call.announcement.label}" if implied else names[call.seat]
            )
        level[party] = max(level[party], call.announcement.level)
    re_tricks, kontra_tricks = summary.re_tricks, summary.kontra_tricks
    known = re_tricks is not None and kontra_tricks is not None
    if re_tricks is None or kontra_tricks is None:
        re_tricks, kontra_tricks = int(summary.re_points > 0), int(summary.re_points < 240)
    specials = tuple(
        Special(s.kind, s.party, "recorded" if s.caught_from is None else f"recorded: from {names[s.caught_from]}")
        for s in summary.specials
    )
    return DealFacts(
        game_type=summary.game_type,
        lone=len(re_seats) == 1,
        re_points=summary.re_points,
        re_tricks=re_tricks,
        kontra_tricks=kontra_tricks,
        announced=level,
        specials=specials,
        causes=causes,
        tricks_known=known,
        heart_trick=summary.heart_trick,
    )


def deal_facts(
    state: GameState,
    parties: Parties | None = None,
    won: tuple[int, ...] | None = None,
    tricks: tuple[int, ...] | None = None,
) -> DealFacts:
    """The facts of a finished game; `NotScorable` when it is not finished or its parties are unknown.

    `parties`, `won` and `tricks` are `true_parties(state)`, `state.points_won()` and
    `state.tricks_won()`, when the caller has them already.
    """
    if state.summary is not None:
        return summary_facts(state, state.summary)
    if state.game_type is None or not state.finished:
        raise NotScorable(f"game {state.game_id!r} is not finished: {len(state.tricks)} of {state.hand_size} tricks")
    parties = true_parties(state) if parties is None else parties
    if None in parties:
        raise NotScorable(f"game {state.game_id!r}: the record does not show every player's party")
    won = state.points_won() if won is None else won
    tricks = state.tricks_won() if tricks is None else tricks
    re_seats = [s for s, p in enumerate(parties) if p is Party.RE]
    causes: dict[tuple[Party, int], str] = {}
    if state.calls or solo_no90(state):
        for a in announced(state):
            who = "" if a.seat is None else state.players[a.seat]
            causes.setdefault(
                (a.party, a.announcement.level),
                a.cause
                if a.implied
                else f"{who}, after {a.played} card(s), trick {a.trick}",  # as the read models keep it
            )
        levels = {party: calls.level for party, calls in party_calls(state).items()}
    else:  # nothing announced: what `party_calls` gives then
        levels = {Party.RE: -1, Party.KONTRA: -1}
    return DealFacts(
        game_type=state.game_type,
        lone=is_lone(state),
        re_points=sum([won[s] for s in re_seats]),
        re_tricks=sum([tricks[s] for s in re_seats]),
        kontra_tricks=sum([tricks[s] for s in range(4) if s not in re_seats]),
        announced=levels,
        specials=specials(state, parties, _lone_marriage_tricks(state)),
        causes=causes,
        heart_trick=heart_trick(state),
    )


def heart_trick(state: GameState) -> bool:
    """A trick of four hearts that are not trumps was played (a bock trigger, docs/rules.md §9)."""
    order = state.order
    return any(is_heart_trick(trick.cards, order) for trick in state.tricks)
