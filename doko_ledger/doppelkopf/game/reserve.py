"""Decisions before the first card: reservations, the poverty exchange, a deal thrown in (docs/rules.md §4)."""

from __future__ import annotations

from collections import Counter

from doko_ledger.doppelkopf.cards import ALTE, Card, Cards, deck
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
from doko_ledger.i18n import Message, msg, plural

THROWN = {
    Throw.NINES: AbandonReason.THROWN_NINES,
    Throw.KINGS: AbandonReason.THROWN_KINGS,
    Throw.NINES_AND_KINGS: AbandonReason.THROWN_NINES_AND_KINGS,
    Throw.RICHNESS: AbandonReason.THROWN_RICHNESS,
    Throw.FOX_HIGHEST_TRUMP: AbandonReason.FOX_HIGHEST_TRUMP,
}
"""The reason a deal thrown in by each throw is recorded with."""


def _before_play(state: GameState, what: Message) -> None:
    if not state.started:
        raise IllegalMove(msg("the game has not started"))
    if state.abandoned is not None:
        reason = state.abandoned.replace("_", " ")
        raise IllegalMove(msg("no {what}: the deal was thrown in ({reason})", what=what, reason=reason))
    if state.cards_played:
        raise IllegalMove(msg("no {what} once the first card is played", what=what))


def declare(state: GameState, command: DeclareReservation) -> list[DoppelkopfEvent]:
    _before_play(state, msg("reservation"))
    turn = next_to_declare(state.dealer, state.declared)
    who = seat_name(state, command.seat)
    if turn is None:
        raise IllegalMove(msg("{who} cannot declare: every player has said healthy or reservation", who=who))
    if command.seat != turn:
        raise IllegalMove(
            msg(
                "{who} speaks out of turn: {next} is asked next (from the dealer's left, docs/rules.md §4)",
                who=who,
                next=seat_name(state, turn),
            )
        )
    hand = state.hands[command.seat] if state.hands is not None else ()
    if command.healthy and state.rules.is_computer(command.seat) and hand.count(ALTE) == 2:
        raise IllegalMove(
            msg(
                "{who} is a computer seat with both CQ: computers never play a solo, so not even a silent one"
                " (duel rules, docs/rules.md §8): announce the marriage",
                who=who,
            )
        )
    return [ReservationDeclared(command.seat, command.healthy)]


def name(state: GameState, command: NameReservation) -> list[DoppelkopfEvent]:
    _before_play(state, msg("reservation"))
    seat, kind, solo = command.seat, command.kind, command.solo
    who = seat_name(state, seat)
    turn = next_to_name(state.dealer, state.declared, state.named, state.rules, state.hands)
    if turn is None:
        if len(state.declared) < 4:
            raise IllegalMove(msg("{who} names a reservation before every player said healthy or reservation", who=who))
        raise IllegalMove(msg("{who} cannot name a reservation: the game is already decided", who=who))
    if seat != turn:
        raise IllegalMove(
            msg("{who} cannot name a reservation now: {next} names theirs first", who=who, next=seat_name(state, turn))
        )
    if kind is ReservationKind.SOLO:
        if state.rules.is_computer(seat):
            raise IllegalMove(
                msg("{who} is a computer seat: computers never play a solo (duel rules, docs/rules.md §8)", who=who)
            )
        if solo is None or not solo.is_declared_solo:
            raise IllegalMove(msg("{who}'s solo needs its type (club_solo, queen_solo, …)", who=who))
        problem = game_type_problem(solo, state.rules)
        if problem is not None:
            raise IllegalMove(problem)
    elif solo is not None:
        raise IllegalMove(msg("a {kind} has no solo type", kind=kind.value))
    hand = state.hands[seat] if state.hands is not None else None
    if kind is ReservationKind.THROW and command.throw is None:
        raise IllegalMove(msg("{who}'s throw needs its reason (nines, kings, …)", who=who))
    if kind is not ReservationKind.THROW and command.throw is not None:
        raise IllegalMove(msg("a {kind} has no throw reason", kind=kind.value))
    if command.throw is not None:
        why = may_throw(command.throw, hand, state.rules)
        if why is not None:
            raise IllegalMove(msg("{who} cannot throw the deal in: {why} (docs/rules.md §4)", who=who, why=why))
    if kind is ReservationKind.MARRIAGE and hand is not None and hand.count(ALTE) != 2:
        raise IllegalMove(msg("{who} cannot announce a marriage without both CQ (docs/rules.md §4)", who=who))
    if kind is ReservationKind.POVERTY:
        if not state.rules.poverty:
            raise IllegalMove(msg("these rules have no poverty (option poverty)"))
        trumps = poverty_trumps(hand, state.rules) if hand is not None else 0
        if trumps > POVERTY_MAX_TRUMPS:
            if state.rules.poverty_fox != "counted":
                held = plural("{count} trump besides the DA", "{count} trumps besides the DA", trumps)
            else:
                held = plural("{count} trump", "{count} trumps", trumps)
            raise IllegalMove(
                msg(
                    "{who} holds {held}: a poverty needs {most} or fewer (docs/rules.md §4)",
                    who=who,
                    held=held,
                    most=POVERTY_MAX_TRUMPS,
                )
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


def _three_cards(state: GameState, cards: tuple[Card, ...], who: str, passing: bool) -> None:
    wanted = _exchanged(state)
    if wanted is not None and len(cards) != wanted:
        if passing:
            given = plural("{who} passes {count} card", "{who} passes {count} cards", len(cards), who=who)
        else:
            given = plural("{who} returns {count} card", "{who} returns {count} cards", len(cards), who=who)
        many = _NUMBERS.get(wanted, wanted)
        raise IllegalMove(msg("{given}; a poverty passes {wanted} (docs/rules.md §4)", given=given, wanted=many))
    missing = [c for c in cards if c not in deck(state.rules.with_nines)]
    if missing:
        card = Cards(missing[:1])
        if passing:
            raise IllegalMove(msg("{who} passes {card}, which is not in this deck", who=who, card=card))
        raise IllegalMove(msg("{who} returns {card}, which is not in this deck", who=who, card=card))
    twice = [c for c, n in Counter(cards).items() if n > 2]
    if twice:
        card = Cards(twice[:1])
        if passing:
            raise IllegalMove(
                msg("{who} passes three copies of {card}; the deck has two (docs/rules.md §1)", who=who, card=card)
            )
        raise IllegalMove(
            msg("{who} returns three copies of {card}; the deck has two (docs/rules.md §1)", who=who, card=card)
        )


_NUMBERS = {0: msg("none"), 1: msg("one"), 2: msg("two"), 3: msg("three"), 4: msg("four"), 5: msg("five")}


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


def _check_exchange(state: GameState, seat: int, cards: tuple[Card, ...] | None, passing: bool) -> None:
    """The poverty's number of cards, of the deck; where the hands are recorded, given and held (docs/rules.md §4)."""
    who = seat_name(state, seat)
    if cards is not None:
        _three_cards(state, cards, who, passing)
    if state.hands is not None:
        hand = state.hands[seat]
        if cards is None:
            if passing:
                raise IllegalMove(msg("the hands are recorded, so the cards {who} passes must be too", who=who))
            raise IllegalMove(msg("the hands are recorded, so the cards {who} returns must be too", who=who))
        if Counter(cards) - Counter(hand):
            given, held = cards_text(cards), cards_text(hand)
            if passing:
                raise IllegalMove(msg("{who} passes {cards} but holds {held}", who=who, cards=given, held=held))
            raise IllegalMove(
                msg("{who} returns {cards} but holds {held} after taking the poverty", who=who, cards=given, held=held)
            )


def pass_cards(state: GameState, command: PassPovertyCards) -> list[DoppelkopfEvent]:
    _before_play(state, msg("poverty exchange"))
    poverty = state.poverty
    who = seat_name(state, command.seat)
    if state.game_type is not GameType.POVERTY or poverty is None:
        raise IllegalMove(msg("{who} cannot pass cards: no poverty is being played", who=who))
    if command.seat != poverty.poor:
        raise IllegalMove(
            msg("{who} cannot pass cards: {poor} declared the poverty", who=who, poor=seat_name(state, poverty.poor))
        )
    if poverty.passed:
        raise IllegalMove(msg("{who} already passed the poverty cards", who=who))
    cards = command.cards
    _check_exchange(state, command.seat, cards, passing=True)
    if state.hands is not None and cards is not None:
        hand = state.hands[command.seat]
        order = card_order(GameType.NORMAL)
        kept = list(hand)
        for card in cards:
            kept.remove(card)
        trumps_kept = [c for c in kept if order.is_trump(c)]
        if trumps_kept:
            raise IllegalMove(
                plural(
                    "{who} keeps the trump {cards}: the poverty passes all trumps (docs/rules.md §4)",
                    "{who} keeps the trumps {cards}: the poverty passes all trumps (docs/rules.md §4)",
                    len(trumps_kept),
                    who=who,
                    cards=cards_text(trumps_kept),
                )
            )
    return [PovertyCardsPassed(command.seat, cards)]


def answer(state: GameState, command: AnswerPoverty) -> list[DoppelkopfEvent]:
    _before_play(state, msg("poverty answer"))
    poverty = state.poverty
    who = seat_name(state, command.seat)
    if poverty is None or not poverty.passed:
        raise IllegalMove(msg("{who} cannot answer: no poverty cards have been passed", who=who))
    turn = poverty.next_to_answer
    if turn is None:
        raise IllegalMove(msg("{who} cannot answer: the poverty is already taken", who=who))
    if command.seat != turn:
        raise IllegalMove(
            msg(
                "{who} answers out of turn: {next} is asked next (docs/rules.md §4)",
                who=who,
                next=seat_name(state, turn),
            )
        )
    events: list[DoppelkopfEvent] = [PovertyAnswered(command.seat, command.accepted)]
    if not command.accepted and len(poverty.answers) == 2:
        events.append(DealAbandoned(AbandonReason.POVERTY_DECLINED))
    return events


def return_cards(state: GameState, command: ReturnPovertyCards) -> list[DoppelkopfEvent]:
    _before_play(state, msg("poverty exchange"))
    poverty = state.poverty
    who = seat_name(state, command.seat)
    if poverty is None or poverty.acceptor is None:
        raise IllegalMove(msg("{who} cannot return cards: nobody has taken a poverty", who=who))
    if command.seat != poverty.acceptor:
        taker = seat_name(state, poverty.acceptor)
        raise IllegalMove(msg("{who} cannot return cards: {taker} took the poverty", who=who, taker=taker))
    if poverty.returned:
        raise IllegalMove(msg("{who} already returned the poverty's cards", who=who))
    _check_exchange(state, command.seat, command.cards, passing=False)
    return [PovertyCardsReturned(command.seat, command.cards)]


def abandon(state: GameState, command: AbandonDeal) -> list[DoppelkopfEvent]:
    _before_play(state, msg("throw-in"))
    if state.declared:
        raise IllegalMove(msg("a misdeal is thrown in before the reservations: the players have already spoken"))
    return [DealAbandoned(command.reason)]
