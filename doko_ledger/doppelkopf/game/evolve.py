"""`evolve(state, event) -> state`: the fold of a game's events. Total; never validates."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from doko_ledger.doppelkopf.cards import ALTE, Card
from doko_ledger.doppelkopf.events import (
    AnnouncementMade,
    CardPlayed,
    CardsDealt,
    DealAbandoned,
    DealSummarized,
    DealValued,
    GameStarted,
    HyperschweinchenShown,
    PenaltyImposed,
    PovertyAnswered,
    PovertyCardsPassed,
    PovertyCardsReturned,
    ReservationDeclared,
    ReservationNamed,
    SchweinchenShown,
)
from doko_ledger.doppelkopf.game.state import Call, GameState, Hand, PovertyExchange, Trick, schweinchen_holder
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import (
    has_hyperschweinchen,
    has_schweinchen,
    hyperschweinchen_card,
    schweinchen_card,
)
from doko_ledger.doppelkopf.rules.play import SEATS, best_index, second_dulle_wins
from doko_ledger.doppelkopf.rules.reservations import Named, duel_marriage, resolve, silent_soloist
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.value import ValueDeal

DUEL_UNSCORED = "duel_marriage_unscored"
_START = GameState()


def evolve(state: GameState, event: Any) -> GameState:
    """The state after one event. Unknown events leave the state as it is."""
    match event:
        case CardPlayed(seat=seat, card=card):
            return _card_played(state, seat, card)
        case GameStarted():
            return _START.but(
                game_id=event.game_id,
                players=event.players,
                dealer=event.dealer,
                rules=event.rules,
                played_on=event.played_on,
                note=event.note,
                solo_owed_by=event.solo_owed_by,
                dealt_by=event.dealt_by,
                started=True,
            )
        case CardsDealt(hands=hands):
            rules = state.rules
            if not rules.schweinchen or rules.schweinchen_shown != "automatic":
                return state.but(dealt=hands, hands=hands)
            holder = schweinchen_holder(hands)
            hyper = _hyper_holder(hands, GameType.NORMAL, holder, rules)
            return state.but(dealt=hands, hands=hands, schweinchen_seat=holder, hyperschweinchen_seat=hyper)
        case ReservationDeclared(seat=seat, healthy=healthy):
            return _resolved(state, (*state.declared, (seat, healthy)), state.named)
        case ReservationNamed(seat=seat, kind=kind, solo=solo, throw=throw):
            return _resolved(state, state.declared, (*state.named, Named(seat, kind, solo, throw)))
        case PovertyCardsPassed(seat=seat, cards=cards):
            return _poverty_passed(state, seat, cards)
        case PovertyAnswered(seat=seat, accepted=accepted):
            return _poverty_answered(state, seat, accepted)
        case PovertyCardsReturned(seat=seat, cards=cards):
            return _poverty_returned(state, seat, cards)
        case DealAbandoned(reason=reason):
            return state.but(abandoned=reason.value)
        case AnnouncementMade(seat=seat, announcement=announcement, party=party):
            call = Call(
                seat, announcement, party, len(state.played_by(seat)), len(state.tricks) + 1, state.tricks_before
            )
            return state.but(calls=(*state.calls, call))
        case DealSummarized(game_type=game_type, re_seats=re_seats):
            declarer = re_seats[0] if len(re_seats) == 1 else None
            return state.but(summary=event, game_type=game_type, declarer=declarer)
        case DealValued(winners=winners, value=value, solo=solo):
            valued = ValueDeal(winners, value, solo)
            return state.but(valued=valued, declarer=valued.lone)
        case SchweinchenShown(seat=seat):
            return state.but(schweinchen_seat=seat)
        case HyperschweinchenShown(seat=seat):
            return state.but(hyperschweinchen_seat=seat)
        case PenaltyImposed():
            return state.but(penalties=(*state.penalties, event))
    return state


def _resolved(state: GameState, declared: tuple[tuple[int, bool], ...], named: tuple[Named, ...]) -> GameState:
    """The state with these reservations, and the game type once they decide it (a silent solo
    where the deal shows one)."""
    contract = None if len(declared) < SEATS else resolve(state.dealer, declared, named, state.rules, state.hands)
    if contract is None:
        return state.but(declared=declared, named=named)
    game_type, declarer = contract.game_type, contract.declarer
    if game_type is GameType.NORMAL and declarer is None and state.hands is not None:  # not a throw
        soloist = silent_soloist(state.hands)
        if soloist is not None:
            game_type, declarer = GameType.SILENT_SOLO, soloist
    poverty = PovertyExchange(declarer) if game_type is GameType.POVERTY and declarer is not None else None
    state = state.but(declared=declared, named=named, game_type=game_type, declarer=declarer, poverty=poverty)
    return _schweinchen_of_game(state)


def _schweinchen_of_game(state: GameState) -> GameState:
    """Once the game is known, who holds its Schweinchen as dealt, where the deal shows them
    (`schweinchen_shown: automatic`) and the game is not a normal one (docs/rules.md §2)."""
    rules, game_type = state.rules, state.game_type
    if not rules.schweinchen or rules.schweinchen_shown != "automatic" or state.hands is None:
        return state
    if game_type is None or game_type in (GameType.NORMAL, GameType.MARRIAGE):
        return state
    card = schweinchen_card(game_type)
    if card is None or not has_schweinchen(game_type, rules):
        return state
    holder = schweinchen_holder(state.hands, card)
    hyper = _hyper_holder(state.hands, game_type, holder, rules)
    return state.but(schweinchen_seat=holder, hyperschweinchen_seat=hyper)


def _hyper_holder(hands: tuple[Hand, ...], game_type: GameType, pigs: int | None, rules: RuleSet) -> int | None:
    """Who holds the Hyperschweinchen as dealt: both of the trump suit's nines (kings without
    nines), beside somebody's Schweinchen, and in another hand unless `hyperschweinchen_joint`."""
    card = hyperschweinchen_card(game_type, rules.with_nines)
    if pigs is None or card is None or not has_hyperschweinchen(game_type, rules):
        return None
    holder = schweinchen_holder(hands, card)
    return holder if holder != pigs or rules.hyperschweinchen_joint else None


def _moved(hands: tuple[Hand, ...] | None, seat: int, take: Iterable[Card], give: Iterable[Card]) -> Any:
    """Hands with `take` removed from and `give` added to one seat."""
    if hands is None:
        return None
    hand = list(hands[seat])
    for card in take:
        if card in hand:
            hand.remove(card)
    hand.extend(give)
    return (*hands[:seat], tuple(hand), *hands[seat + 1 :])


def _poverty_passed(state: GameState, seat: int, cards: tuple[Card, ...] | None) -> GameState:
    poverty = state.poverty or PovertyExchange(seat)
    hands = _moved(state.hands, seat, cards or (), ())
    return state.but(hands=hands, poverty=replace(poverty, passed=True, passed_cards=cards))


def _poverty_answered(state: GameState, seat: int, accepted: bool) -> GameState:
    if state.poverty is None:
        return state
    poverty = replace(state.poverty, answers=(*state.poverty.answers, (seat, accepted)))
    hands = _moved(state.hands, seat, (), poverty.passed_cards or ()) if accepted else state.hands
    return state.but(hands=hands, poverty=poverty)


def _poverty_returned(state: GameState, seat: int, cards: tuple[Card, ...] | None) -> GameState:
    if state.poverty is None:
        return state
    poverty = replace(state.poverty, returned=True, returned_cards=cards)
    hands = _moved(state.hands, seat, cards or (), ())
    hands = _moved(hands, poverty.poor, (), cards or ())
    return state.but(hands=hands, poverty=poverty)


def _card_played(state: GameState, seat: int, card: Card) -> GameState:
    hands = state.hands
    if hands is not None:
        hand = hands[seat]
        if card in hand:
            i = hand.index(card)
            hands = (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])
    elif card is ALTE and state.game_type is GameType.NORMAL and ALTE in state.played_by(seat):
        # Hands not recorded: the same player showing both CQ reveals a silent solo (docs/rules.md §4).
        state = state.but(game_type=GameType.SILENT_SOLO, declarer=seat)
    current = state.current
    if current is None:
        current = Trick(len(state.tricks) + 1, seat, (card,))
    else:
        current = Trick(current.number, current.leader, current.cards + (card,))
    if not current.complete:
        return state.but(hands=hands, current=current)
    order = state.order
    last = current.number == state.hand_size
    index = best_index(current.cards, order.keys, second_dulle_wins(state.rules, last, order.schweinchen))
    done = Trick(current.number, current.leader, current.cards, current.seat_of(index))
    state = state.but(hands=hands, current=None, tricks=state.tricks + (done,))
    if state.game_type is GameType.MARRIAGE and state.rules.computer_seats and done.number <= 3:
        assert state.declarer is not None
        led = [(t.cards[0], t.winner) for t in state.tricks if t.winner is not None]
        if duel_marriage(led, state.declarer, state.rules.computer_seats)[2]:
            return state.but(abandoned=DUEL_UNSCORED)  # the duel's marriage ends the game (docs/rules.md §8)
    return state


def cards_played(state: GameState, plays: Sequence[CardPlayed]) -> GameState:
    """The state after a run of `CardPlayed` events: exactly what evolving them one by one
    gives, without building a state per card (the fold's hot path: 48 of a game's ~54 events).

    The cards that need the state between two cards go through `evolve`'s own step: a CQ
    where hands were not recorded (it may reveal a silent solo), and every card of a
    marriage under duel rules (its partner search may end the game).
    """
    if state.game_type is GameType.MARRIAGE and state.rules.computer_seats:
        for event in plays:
            state = _card_played(state, event.seat, event.card)
        return state
    if state.hands is not None or state.game_type is not GameType.NORMAL:
        return _card_run(state, plays)
    start = 0
    for i, event in enumerate(plays):
        if event.card is ALTE and state.hands is None and state.game_type is GameType.NORMAL:
            state = _card_run(state, plays[start:i])
            state = _card_played(state, event.seat, event.card)
            start = i + 1
    return _card_run(state, plays[start:])


def _card_run(state: GameState, plays: Sequence[CardPlayed]) -> GameState:
    """`_card_played` over a run in which neither the card order nor the game can change."""
    if not plays:
        return state
    tricks = list(state.tricks)
    current = state.current  # never an empty trick: a trick starts with its first card
    if current is None:
        number = leader = 0
        cards: list[Card] = []
    else:
        number, leader, cards = current.number, current.leader, list(current.cards)
    order, size = state.order, state.hand_size
    keys = order.keys
    dulle = second_dulle_wins(state.rules, False, order.schweinchen)
    dulle_last = second_dulle_wins(state.rules, True, order.schweinchen)
    hands = state.hands
    held = None if hands is None else [list(hand) for hand in hands]
    for event in plays:
        seat, card = event.seat, event.card
        if held is not None:  # the same removals, seat by seat in the same order, as card by card
            try:  # noqa: SIM105 (contextlib.suppress costs a context manager per card)
                held[seat].remove(card)
            except ValueError:  # a card the record does not show in that hand
                pass
        if not cards:
            number, leader = len(tricks) + 1, seat
        cards.append(card)
        if len(cards) == SEATS:
            done = tuple(cards)
            index = best_index(done, keys, dulle_last if number == size else dulle)
            tricks.append(Trick(number, leader, done, (leader + index) % SEATS))
            cards = []
    return state.but(
        hands=None if held is None else tuple(map(tuple, held)),
        current=Trick(number, leader, tuple(cards)) if cards else None,
        tricks=tuple(tricks),
    )


def fold(events: Iterable[Any], state: GameState | None = None) -> GameState:
    """Replay: the state after all `events`, from `state` or from nothing (the same as
    `functools.reduce(evolve, events, state)`, with each run of cards played at once)."""
    state = state or _START
    run: list[CardPlayed] = []
    for event in events:
        if type(event) is CardPlayed:
            run.append(event)
            continue
        if run:
            state = cards_played(state, run)
            run = []
        state = evolve(state, event)
    return cards_played(state, run) if run else state
