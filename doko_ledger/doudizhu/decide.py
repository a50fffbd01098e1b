"""`decide(state, command) -> events`: validate a command against the deal so far.

Raises an `IllegalMove` (a `DokoError` and `ValueError`) naming the player and the rule: an
`IllegalBid` for the bidding, an `IllegalPlay` for a combination or pass, a plain
`IllegalMove` for a deal or kitty that cannot be, an `IllegalSummary` for facts of a deal that
cannot all be true. Returns the events to append otherwise.
"""

from __future__ import annotations

from collections import Counter

from doko_ledger.doudizhu.bidding import PASS, check_call
from doko_ledger.doudizhu.cards import Hand, Rank, cards_text, deck, hand, hand_size, kitty_size, not_in_deck
from doko_ledger.doudizhu.combinations import (
    Combination,
    describe,
    no_reading_reason,
    readings,
    why_not_beats,
    with_article,
)
from doko_ledger.doudizhu.commands import Bid, Command, Deal, PassBid, PassTurn, Play, Summarize, TakeKitty
from doko_ledger.doudizhu.errors import IllegalMove, IllegalPlay
from doko_ledger.doudizhu.events import (
    AbandonReason,
    BidMade,
    BidPassed,
    CombinationPlayed,
    DouDizhuAbandoned,
    DouDizhuDealt,
    DouDizhuEvent,
    KittyTaken,
    TurnPassed,
)
from doko_ledger.doudizhu.state import DealState, Phase
from doko_ledger.doudizhu.summary import summarize
from doko_ledger.names import normalized, table_problem


def decide(state: DealState, command: Command) -> list[DouDizhuEvent]:
    """The events a command produces in `state`, or an `IllegalMove` saying why not."""
    match command:
        case Deal():
            return [_deal(state, command)]
        case Bid(seat=seat, bid=bid):
            return _call(state, seat, bid)
        case PassBid(seat=seat):
            return _call(state, seat, PASS)
        case TakeKitty(cards=cards):
            return [_take_kitty(state, cards)]
        case Play():
            return [_play(state, command)]
        case PassTurn(seat=seat):
            return [_pass_turn(state, seat)]
        case Summarize():
            return [summarize(state, command)]
    raise IllegalMove(f"unknown command {command!r}")


def _deal(state: DealState, command: Deal) -> DouDizhuDealt:
    if state.dealt:
        raise IllegalMove(f"deal {state.game_id!r} was already dealt")
    if not command.game_id.strip():
        raise IllegalMove("a deal needs an id")
    players, n = tuple(map(normalized, command.players)), len(command.players)
    if n not in (3, 4):
        raise IllegalMove(f"Dou Dizhu is played by 3 or 4 players, not {n}")
    problem = table_problem(players)
    if problem:
        raise IllegalMove(problem)
    twice = [p for p, count in Counter(players).items() if count > 1]
    if twice:
        raise IllegalMove(f"player {twice[0]!r} sits at the table twice")
    for role, seat in (("dealer", command.dealer), ("opener", command.opener)):
        if not 0 <= seat < n:
            raise IllegalMove(f"the {role} must be seat 0-{n - 1}, not {seat}")
    hands = tuple(hand(h) for h in command.hands) if command.hands is not None else None
    kitty = hand(command.kitty) if command.kitty is not None else None
    if hands is not None:
        if len(hands) != n:
            raise IllegalMove(f"a deal for {n} players has {n} hands, not {len(hands)}")
        for seat, cards in enumerate(hands):
            if len(cards) != hand_size(n):
                raise IllegalMove(f"{players[seat]}'s hand has {len(cards)} cards; each hand has {hand_size(n)}", seat)
    if kitty is not None and len(kitty) != kitty_size(n):
        raise IllegalMove(f"the kitty has {len(kitty)} cards; with {n} players it has {kitty_size(n)}")
    dealt = [c for h in hands or () for c in h] + list(kitty or ())
    extra = not_in_deck(dealt, n)
    if extra:
        raise IllegalMove(f"the deal has {extra}")
    if hands is not None and kitty is None:
        kitty = hand((deck(n) - Counter(dealt)).elements())
    return DouDizhuDealt(
        command.game_id, players, command.dealer, command.opener, hands, kitty, command.played_on, command.note
    )


def _require_dealt(state: DealState) -> None:
    if not state.dealt:
        raise IllegalMove("the cards have not been dealt")
    if state.summary is not None:
        raise IllegalMove("the deal was recorded by its facts: no bidding or play follows")


def _call(state: DealState, seat: int, bid: int) -> list[DouDizhuEvent]:
    _require_dealt(state)
    bidding = state.bidding
    check_call(bidding, seat, bid, state.players)
    event: DouDizhuEvent = BidPassed(seat) if bid == PASS else BidMade(seat, bid)
    if bidding.after(seat, bid).abandoned:
        return [event, DouDizhuAbandoned(AbandonReason.NOBODY_BID)]
    return [event]


def _take_kitty(state: DealState, cards: Hand | None) -> KittyTaken:
    _require_dealt(state)
    phase = state.phase
    if phase is Phase.BIDDING:
        raise IllegalMove(f"the bidding is not over: {state.name(state.to_bid or 0)} is to bid")
    if phase is Phase.ABANDONED:
        raise IllegalMove("the deal was abandoned: nobody bid")
    landlord = state.landlord
    assert landlord is not None
    who = state.name(landlord)
    if phase is not Phase.KITTY:
        raise IllegalMove(f"{who} already took the kitty", landlord)
    if cards is None:
        return KittyTaken(landlord, state.kitty)
    cards = hand(cards)
    n = len(state.players)
    if len(cards) != kitty_size(n):
        raise IllegalMove(f"the kitty has {kitty_size(n)} cards, not {len(cards)}", landlord)
    if state.kitty is not None and cards != state.kitty:
        raise IllegalMove(f"the kitty is {cards_text(state.kitty)}, not {cards_text(cards)}", landlord)
    problem = not_in_deck(cards, n)
    if problem:
        raise IllegalMove(f"the kitty has {problem}", landlord)
    return KittyTaken(landlord, cards)


def _require_turn(state: DealState, seat: int) -> str:
    """The player's name, once it is their turn in play; otherwise `IllegalPlay` saying why not."""
    _require_dealt(state)
    who = state.name(seat)
    phase = state.phase
    if phase is Phase.ABANDONED:
        raise IllegalPlay("the deal was abandoned: nobody bid", seat)
    if phase is Phase.OVER:
        raise IllegalPlay(f"the deal is over: {state.name(state.out_first or 0)} went out first", seat)
    if phase is Phase.BIDDING:
        raise IllegalPlay(f"{who} cannot play yet: the bidding is not over", seat)
    if phase is Phase.KITTY:
        landlord = state.name(state.landlord or 0)
        raise IllegalPlay(f"{who} cannot play yet: the landlord, {landlord}, takes the kitty first", seat)
    if not 0 <= seat < len(state.players):
        raise IllegalPlay(f"there is no seat {seat} at a table of {len(state.players)}", seat)
    turn = state.to_play
    if seat != turn:
        raise IllegalPlay(f"not {who}'s turn to play: {state.name(turn or 0)}'s", seat)
    return who


def choose_reading(cards: Hand, options: tuple[Combination, ...], declared: Combination | None) -> Combination:
    """The combination the cards are played as: the declared one, which must be among the
    readings `options` (non-empty), or the only reading. Raises `IllegalPlay` when the declared
    combination is no reading, or when the cards read several ways and none is declared."""
    text = cards_text(cards)
    choices = " or ".join(with_article(describe(c)) for c in options)
    if declared is not None:
        if declared not in options:
            raise IllegalPlay(f"{text} is {choices}, not {with_article(describe(declared))}")
        return declared
    if len(options) > 1:
        raise IllegalPlay(f"{text} can be played as {choices}: declare which")
    return options[0]


def _not_held(state: DealState, seat: int, cards: Hand) -> str | None:
    """Why the seat cannot play these cards from what it holds, or None."""
    who, n = state.name(seat), len(state.players)
    if state.hands is None:
        if len(cards) > state.left[seat]:
            return f"{who} has {state.left[seat]} cards left and cannot play {len(cards)}"
        problem = not_in_deck(state.cards_played + cards, n)
        return f"{who} cannot play {cards_text(cards)}: that makes {problem}" if problem else None
    held = state.hands[seat]
    missing = Counter(cards) - Counter(held)
    if not missing:
        return None
    rank = min(missing)
    need = Counter(cards)[rank]
    what = f"{need} {rank.plural}" if need > 1 else ("an " if rank in (Rank.EIGHT, Rank.ACE) else "a ") + str(rank)
    return f"{who} does not hold {what} (holds {cards_text(held)})"


def _play(state: DealState, command: Play) -> CombinationPlayed:
    seat = command.seat
    who = _require_turn(state, seat)
    cards = hand(command.cards)
    if not cards:
        raise IllegalPlay(f"{who} must play at least one card, or pass", seat)
    problem = _not_held(state, seat, cards)
    if problem:
        raise IllegalPlay(problem, seat)
    n = len(state.players)
    options = readings(cards, n)
    if not options:
        raise IllegalPlay(f"{who} cannot play: {no_reading_reason(cards, n)}", seat)
    try:
        combination = choose_reading(cards, options, command.declared)
    except IllegalPlay as exc:
        raise IllegalPlay(f"{who} cannot play: {exc}", seat) from None
    on_table = state.to_beat
    if on_table is not None and on_table.combination is not None:
        reason = why_not_beats(combination, on_table.combination, n)
        if reason is not None:
            raise IllegalPlay(
                f"{who}'s {describe(combination)} does not beat {state.name(on_table.seat)}'s "
                f"{describe(on_table.combination)}: {reason}",
                seat,
            )
    return CombinationPlayed(seat, cards, combination.kind, combination.rank, combination.size)


def _pass_turn(state: DealState, seat: int) -> TurnPassed:
    who = _require_turn(state, seat)
    if state.to_beat is None:
        raise IllegalPlay(f"{who} leads and may not pass", seat)
    return TurnPassed(seat)
