"""Decisions before the first card: reservations, the poverty exchange, a deal thrown in (docs/rules.md §4)."""

from __future__ import annotations

from collections import Counter

from doko_ledger.doppelkopf.cards import ALTE, Card, deck
from doko_ledger.doppelkopf.events import (
    AbandonReason,
    DealAbandoned,
    DoppelkopfEvent,
    PovertyAnswered,
    PovertyCardsPassed,
    PovertyCardsReturned,
    ReservationDeclared,
    ReservationNamed,
)
from doko_ledger.doppelkopf.game.commands import (
    AbandonDeal,
    AnswerPoverty,
    DeclareReservation,
    IllegalMove,
    NameReservation,
    PassPovertyCards,
    ReturnPovertyCards,
    cards_text,
    seat_name,
)
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.game_types import GameType, game_type_problem
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.reservations import (
    POVERTY_CARDS,
    POVERTY_MAX_TRUMPS,
    Named,
    ReservationKind,
    Throw,
    may_throw,
    next_to_declare,
    next_to_name,
    poverty_cards,
    poverty_throws,
    poverty_trumps,
    resolve,
    winning,
)

THROWN = {
    Throw.NINES: AbandonReason.THROWN_NINES,
    Throw.KINGS: AbandonReason.THROWN_KINGS,
    Throw.NINES_AND_KINGS: AbandonReason.THROWN_NINES_AND_KINGS,
    Throw.RICHNESS: AbandonReason.THROWN_RICHNESS,
    Throw.FOX_HIGHEST_TRUMP: AbandonReason.FOX_HIGHEST_TRUMP,
}
"""The reason a deal thrown in by each throw is recorded with."""


def _before_play(state: GameState, what: str) -> None:
    if not state.started:
        raise IllegalMove("the game has not started")
    if state.abandoned is not None:
        raise IllegalMove(f"no {what}: the deal was thrown in ({state.abandoned.replace('_', ' ')})")
    if state.cards_played:
        raise IllegalMove(f"no {what} once the first card is played")


def declare(state: GameState, command: DeclareReservation) -> list[DoppelkopfEvent]:
    _before_play(state, "reservation")
    turn = next_to_declare(state.dealer, state.declared)
    who = seat_name(state, command.seat)
    if turn is None:
        raise IllegalMove(f"{who} cannot declare: every player has said healthy or reservation")
    if command.seat != turn:
        raise IllegalMove(
            f"{who} speaks out of turn: {seat_name(state, turn)} is asked next"
            " (from the dealer's left, docs/rules.md §4)"
        )
    hand = state.hands[command.seat] if state.hands is not None else ()
    if command.healthy and state.rules.is_computer(command.seat) and hand.count(ALTE) == 2:
        raise IllegalMove(
            f"{who} is a computer seat with both CQ: computers never play a solo, so not even a silent one "
            "(duel rules, docs/rules.md §8): announce the marriage"
        )
    return [ReservationDeclared(command.seat, command.healthy)]


def name(state: GameState, command: NameReservation) -> list[DoppelkopfEvent]:
    _before_play(state, "reservation")
    seat, kind, solo = command.seat, command.kind, command.solo
    who = seat_name(state, seat)
    turn = next_to_name(state.dealer, state.declared, state.named, state.rules, state.hands)
    if turn is None:
        if len(state.declared) < 4:
            raise IllegalMove(f"{who} names a reservation before every player said healthy or reservation")
        raise IllegalMove(f"{who} cannot name a reservation: the game is already decided")
    if seat != turn:
        raise IllegalMove(f"{who} cannot name a reservation now: {seat_name(state, turn)} names theirs first")
    if kind is ReservationKind.SOLO:
        if state.rules.is_computer(seat):
            raise IllegalMove(f"{who} is a computer seat: computers never play a solo (duel rules, docs/rules.md §8)")
        if solo is None or not solo.is_declared_solo:
            raise IllegalMove(f"{who}'s solo needs its type (club_solo, queen_solo, …)")
        problem = game_type_problem(solo, state.rules)
        if problem is not None:
            raise IllegalMove(problem)
    elif solo is not None:
        raise IllegalMove(f"a {kind.value} has no solo type")
    hand = state.hands[seat] if state.hands is not None else None
    if kind is ReservationKind.THROW and command.throw is None:
        raise IllegalMove(f"{who}'s throw needs its reason (nines, kings, …)")
    if kind is not ReservationKind.THROW and command.throw is not None:
        raise IllegalMove(f"a {kind.value} has no throw reason")
    if command.throw is not None:
        why = may_throw(command.throw, hand, state.rules)
        if why is not None:
            raise IllegalMove(f"{who} cannot throw the deal in: {why} (docs/rules.md §4)")
    if kind is ReservationKind.MARRIAGE and hand is not None and hand.count(ALTE) != 2:
        raise IllegalMove(f"{who} cannot announce a marriage without both CQ (docs/rules.md §4)")
    if kind is ReservationKind.POVERTY:
        if not state.rules.poverty:
            raise IllegalMove("these rules have no poverty (option poverty)")
        if hand is not None and poverty_trumps(hand, state.rules) > POVERTY_MAX_TRUMPS:
            counted = " besides the DA" if state.rules.poverty_fox != "counted" else ""
            raise IllegalMove(
                f"{who} holds {poverty_trumps(hand, state.rules)} trumps{counted}:"
                f" a poverty needs {POVERTY_MAX_TRUMPS} or fewer (docs/rules.md §4)"
            )
    events: list[DoppelkopfEvent] = [ReservationNamed(seat, kind, solo, command.throw)]
    thrown = _thrown(state, Named(seat, kind, solo, command.throw))
    if thrown is not None:
        events.append(DealAbandoned(thrown))
    return events


def _thrown(state: GameState, named: Named) -> AbandonReason | None:
    """Why the deal is thrown in once `named` is said, if the reservations are then settled
    on a throw or on a poverty that throws (docs/rules.md §4)."""
    so_far = (*state.named, named)
    if resolve(state.dealer, state.declared, so_far, state.rules, state.hands) is None:
        return None
    best = winning(state.dealer, so_far, state.rules, state.hands)
    if best is None:
        return None
    if best.throw is not None:
        return THROWN[best.throw]
    hand = state.hands[best.seat] if state.hands is not None else None
    if best.kind is ReservationKind.POVERTY and poverty_throws(hand, state.rules):
        return AbandonReason.POVERTY_THROWN
    return None


def _three_cards(state: GameState, cards: tuple[Card, ...], who: str, verb: str) -> None:
    wanted = _exchanged(state)
    if wanted is not None and len(cards) != wanted:
        raise IllegalMove(
            f"{who} {verb} {len(cards)} card{'' if len(cards) == 1 else 's'};"
            f" a poverty passes {_NUMBERS.get(wanted, wanted)} (docs/rules.md §4)"
        )
    missing = [c for c in cards if c not in deck(state.rules.with_nines)]
    if missing:
        raise IllegalMove(f"{who} {verb} {missing[0]}, which is not in this deck")
    twice = [c for c, n in Counter(cards).items() if n > 2]
    if twice:
        raise IllegalMove(f"{who} {verb} three copies of {twice[0]}; the deck has two (docs/rules.md §1)")


_NUMBERS = {0: "none", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _exchanged(state: GameState) -> int | None:
    """How many cards the poverty passes and gets back: three, or as the rules count them from the
    poor hand (docs/rules.md §4); None where neither the hand nor the cards passed tell."""
    poverty = state.poverty
    if poverty is not None and poverty.passed_cards is not None:
        return len(poverty.passed_cards)
    rules = state.rules
    if rules.poverty_passes == "three" and rules.poverty_fox == "counted":
        return POVERTY_CARDS
    if poverty is None or state.dealt is None:
        return None
    return poverty_cards(state.dealt[poverty.poor], rules)


def _check_exchange(state: GameState, seat: int, cards: tuple[Card, ...] | None, verb: str, when: str = "") -> None:
    """The poverty's number of cards, of the deck; where the hands are recorded, given and held (docs/rules.md §4)."""
    who = seat_name(state, seat)
    if cards is not None:
        _three_cards(state, cards, who, verb)
    if state.hands is not None:
        hand = state.hands[seat]
        if cards is None:
            raise IllegalMove(f"the hands are recorded, so the cards {who} {verb} must be too")
        if Counter(cards) - Counter(hand):
            raise IllegalMove(f"{who} {verb} {cards_text(cards)} but holds {cards_text(hand)}{when}")


def pass_cards(state: GameState, command: PassPovertyCards) -> list[DoppelkopfEvent]:
    _before_play(state, "poverty exchange")
    poverty = state.poverty
    who = seat_name(state, command.seat)
    if state.game_type is not GameType.POVERTY or poverty is None:
        raise IllegalMove(f"{who} cannot pass cards: no poverty is being played")
    if command.seat != poverty.poor:
        raise IllegalMove(f"{who} cannot pass cards: {seat_name(state, poverty.poor)} declared the poverty")
    if poverty.passed:
        raise IllegalMove(f"{who} already passed the poverty cards")
    cards = command.cards
    _check_exchange(state, command.seat, cards, "passes")
    if state.hands is not None and cards is not None:
        hand = state.hands[command.seat]
        order = card_order(GameType.NORMAL)
        kept = list(hand)
        for card in cards:
            kept.remove(card)
        trumps_kept = [c for c in kept if order.is_trump(c)]
        if trumps_kept:
            trumps = "trump" if len(trumps_kept) == 1 else "trumps"
            raise IllegalMove(
                f"{who} keeps the {trumps} {cards_text(trumps_kept)}: the poverty passes all trumps (docs/rules.md §4)"
            )
    return [PovertyCardsPassed(command.seat, cards)]


def answer(state: GameState, command: AnswerPoverty) -> list[DoppelkopfEvent]:
    _before_play(state, "poverty answer")
    poverty = state.poverty
    who = seat_name(state, command.seat)
    if poverty is None or not poverty.passed:
        raise IllegalMove(f"{who} cannot answer: no poverty cards have been passed")
    turn = poverty.next_to_answer
    if turn is None:
        raise IllegalMove(f"{who} cannot answer: the poverty is already taken")
    if command.seat != turn:
        raise IllegalMove(f"{who} answers out of turn: {seat_name(state, turn)} is asked next (docs/rules.md §4)")
    events: list[DoppelkopfEvent] = [PovertyAnswered(command.seat, command.accepted)]
    if not command.accepted and len(poverty.answers) == 2:
        events.append(DealAbandoned(AbandonReason.POVERTY_DECLINED))
    return events


def return_cards(state: GameState, command: ReturnPovertyCards) -> list[DoppelkopfEvent]:
    _before_play(state, "poverty exchange")
    poverty = state.poverty
    who = seat_name(state, command.seat)
    if poverty is None or poverty.acceptor is None:
        raise IllegalMove(f"{who} cannot return cards: nobody has taken a poverty")
    if command.seat != poverty.acceptor:
        raise IllegalMove(f"{who} cannot return cards: {seat_name(state, poverty.acceptor)} took the poverty")
    if poverty.returned:
        raise IllegalMove(f"{who} already returned the poverty's cards")
    _check_exchange(state, command.seat, command.cards, "returns", " after taking the poverty")
    return [PovertyCardsReturned(command.seat, command.cards)]


def abandon(state: GameState, command: AbandonDeal) -> list[DoppelkopfEvent]:
    _before_play(state, "throw-in")
    if state.declared:
        raise IllegalMove("a misdeal is thrown in before the reservations: the players have already spoken")
    return [DealAbandoned(command.reason)]
