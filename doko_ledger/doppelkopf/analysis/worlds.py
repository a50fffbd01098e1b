"""Deals the player could not tell from the real one, and how often a card was worse in them.

A sampled world keeps what the player saw: the own hand, every card played, the number of
cards each hand still holds, the suits a player showed to be out of (by not following), in a
game the table sees as a normal game what the calls and the CQs played showed of the parties
(a player who called Re holds a CQ, one who called Kontra holds none), and the cards the
contract shows in a hand: a marriage's CQs stay with the one who announced it, and of a
poverty's exchange the poor player knows the cards passed that the partner kept, the partner
the cards returned. The other cards are dealt at random among the other three hands within
those bounds, seeded, so the same question gets the same deals.

A normal game and a silent solo look alike to everybody but the soloist, so in either a
world's parties are the holders of its CQs: two holders play a normal game, one holder of both
a silent solo (`world_deal`), whichever the real deal was.

What "worse" means in a world is the caller's to say (`analyze.py` judges a card there by the
measure of its cost in the real deal); `beaten` is the measure of card points.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from doko_ledger.doppelkopf.analysis.position import CARD_TYPES, Position, add_card
from doko_ledger.doppelkopf.analysis.solver import Solver
from doko_ledger.doppelkopf.cards import ALTE, Card
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.analysis.analyze import Deal

_AS_NORMAL = (GameType.NORMAL, GameType.SILENT_SOLO)
"""The games the table sees as a normal game: only the CQs and the calls show the parties."""

_TRIES = 200
"""Deals tried for one world before the world is given up (the bounds may leave few deals)."""


Judge = Callable[[Position], "bool | None"]
"""Whether the card played was worse in a world than the best card there (None: no answer,
the search passed its limit)."""


def sample_worlds(state: GameState, deal: Deal, pos: Position, worlds: int, seed: int) -> list[Position]:
    """Up to `worlds` deals the player to move at `pos` could not tell from the real one, each
    a position with its own parties: the same `seed`, the same deals."""
    rng = random.Random(seed)
    seat = pos.to_play
    voids = _voids(state, deal, pos)
    shown = _shown_parties(state, deal, pos)
    known = _known(state, deal, pos)
    found = (_sample(deal, pos, seat, voids, shown, known, rng) for _ in range(worlds))
    return [world for world in found if world is not None]


def worse_share(state: GameState, deal: Deal, pos: Position, worlds: int, seed: int, worse: Judge) -> float | None:
    """The share of the sampled deals (`sample_worlds`) in which the card played was `worse`
    than the best card the player had, of those `worse` answers for (None: no deal fits what
    the player saw, or none was answered)."""
    answers = [worse(world) for world in sample_worlds(state, deal, pos, worlds, seed)]
    judged = [answer for answer in answers if answer is not None]
    return sum(judged) / len(judged) if judged else None


def world_deal(deal: Deal, re: tuple[bool, bool, bool, bool]) -> Deal:
    """The real deal with a world's parties `re`, and in a game the table sees as a normal game
    the contract they make there: a silent solo where one player holds both CQ, else a normal
    game (docs/rules.md §4)."""
    if deal.game_type not in _AS_NORMAL:
        return replace(deal, re=re)
    lone = sum(re) == 1
    return replace(deal, re=re, game_type=GameType.SILENT_SOLO if lone else GameType.NORMAL, lone=lone)


def beaten(solver: Solver, pos: Position, played: int) -> bool:
    """Whether another legal card secures more card points than `played` for the player to
    move at `pos`, every hand known (`solver`: one of the world's parties)."""
    mine = pos.re[pos.to_play]
    value = solver.value_after(pos, played)
    for group in solver.classes(pos):
        card = group[0]
        if card == played or played in group:
            continue
        done = solver.trick_points(pos, card)
        gain = 0 if done is None or not pos.re[done[0]] else done[1]
        after = solver.play(pos, card)
        if mine and solver.reaches(after, value - gain + 1):
            return True
        if not mine and not solver.reaches(after, value - gain):
            return True
    return False


def _voids(state: GameState, deal: Deal, pos: Position) -> list[int]:
    """Per seat, the bits of the suits it showed it does not hold (suit numbers of the tables)."""
    t = deal.tables
    voids = [0] * SEATS
    plays = [trick.plays for trick in state.all_tricks]
    seen = 0
    total = _played(state, pos)
    for trick in plays:
        led = None
        for seat, card in trick:
            if seen == total:
                return voids
            suit = t.suit[t.number[card]]
            if led is None:
                led = suit
            elif suit != led:
                voids[seat] |= 1 << led
            seen += 1
    return voids


def _known(state: GameState, deal: Deal, pos: Position) -> dict[int, list[int]]:
    """Per seat other than the one to move, card numbers it holds for certain (each copy once):
    what the contract showed, less the copies that seat has played since."""
    t = deal.tables
    seat = pos.to_play
    given: dict[int, list[Card]] = {}
    if deal.game_type is GameType.MARRIAGE and state.declarer is not None:
        given[state.declarer] = [ALTE, ALTE]
    exchange = state.poverty
    if deal.game_type is GameType.POVERTY and exchange is not None and exchange.acceptor is not None:
        passed, returned = list(exchange.passed_cards or ()), list(exchange.returned_cards or ())
        if seat == exchange.poor:
            given[exchange.acceptor] = _less(passed, returned)
        elif seat == exchange.acceptor:
            given[exchange.poor] = returned
    played = _played(state, pos)
    plays = [play for trick in state.all_tricks for play in trick.plays][:played]
    known: dict[int, list[int]] = {}
    for holder, cards in given.items():
        if holder != seat:
            left = _less(cards, [card for s, card in plays if s == holder])
            known[holder] = [t.number[card] for card in left]
    return known


def _less(cards: list[Card], gone: list[Card]) -> list[Card]:
    """`cards` without one copy of each card of `gone` (as far as it has them)."""
    left = list(cards)
    for card in gone:
        if card in left:
            left.remove(card)
    return left


def _played(state: GameState, pos: Position) -> int:
    """How many cards were played before the card to play at `pos` (its trick's included)."""
    return SEATS * state.hand_size - sum(bin(h).count("1") for h in pos.hands)


class _Shown(NamedTuple):
    """What the cards and the calls showed of the parties, per seat, in a game the table sees as
    a normal game (all False in another)."""

    must_re: list[bool]
    """It must still hold a CQ: it called Re and has played none."""
    no_queen: list[bool]
    """It holds no CQ: it called Kontra."""
    played_queen: list[bool]
    """It played a CQ (the one on the table included): Re by that card."""


def _shown_parties(state: GameState, deal: Deal, pos: Position) -> _Shown:
    """What the player to move at `pos` saw of the parties (`_Shown`)."""
    shown = _Shown([False] * SEATS, [False] * SEATS, [False] * SEATS)
    if deal.game_type not in _AS_NORMAL:
        return shown
    played = _played(state, pos)
    plays = [play for trick in state.all_tricks for play in trick.plays][:played]
    for seat, card in plays:
        if card is ALTE:
            shown.played_queen[seat] = True
    trick_now = played // SEATS + 1
    for call in state.calls:
        if call.trick >= trick_now:
            continue
        if call.party is Party.RE and not shown.played_queen[call.seat]:
            shown.must_re[call.seat] = True
        elif call.party is Party.KONTRA:
            shown.no_queen[call.seat] = True
    return shown


def _sample(
    deal: Deal,
    pos: Position,
    seat: int,
    voids: list[int],
    shown: _Shown,
    known: dict[int, list[int]],
    rng: random.Random,
) -> Position | None:
    """One deal of the hidden cards within the bounds, or None after `_TRIES` failed tries."""
    t = deal.tables
    queen = t.number[ALTE]
    others = [s for s in range(SEATS) if s != seat]
    hidden: list[int] = []
    sizes = {}
    for s in others:
        hand = pos.hands[s]
        sizes[s] = bin(hand).count("1")
        hidden += [b >> 1 for b in range(2 * CARD_TYPES) if hand >> b & 1]
    placed = {s: 0 for s in others}
    for s, cards in known.items():
        for card in cards:
            if card in hidden and sizes[s]:  # else the record and the contract disagree
                hidden.remove(card)
                placed[s] = add_card(placed[s], card)
                sizes[s] -= 1
    for _ in range(_TRIES):
        rng.shuffle(hidden)
        room = dict(sizes)
        hands = dict(placed)
        ok = True
        for card in hidden:
            fits = [
                s
                for s in others
                if room[s] and not voids[s] >> t.suit[card] & 1 and not (card == queen and shown.no_queen[s])
            ]
            if not fits:
                ok = False
                break
            weights = [room[s] for s in fits]
            s = rng.choices(fits, weights)[0]
            hands[s] = add_card(hands[s], card)
            room[s] -= 1
        if not ok:
            continue
        if any(shown.must_re[s] and not hands[s] >> (2 * queen) & 3 for s in others):
            continue
        full = [pos.hands[s] if s == seat else hands[s] for s in range(SEATS)]
        re = pos.re
        if deal.game_type in _AS_NORMAL:  # the CQs' holders: two in a normal game, one in a silent solo
            re_seats = [shown.played_queen[s] or bool(full[s] >> (2 * queen) & 3) for s in range(SEATS)]
            re = (re_seats[0], re_seats[1], re_seats[2], re_seats[3])
        return Position((full[0], full[1], full[2], full[3]), pos.leader, pos.trick, re)
    return None
