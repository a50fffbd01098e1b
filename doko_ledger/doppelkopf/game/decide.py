"""`decide(state, command) -> events`: validate a command against the game so far.

Raises `IllegalMove` (a `ValueError`) with the rule it breaks; returns the
events to append otherwise. The rules in force come from the game's own
`GameStarted` snapshot.
"""

from __future__ import annotations

from collections import Counter

from doko_ledger.doppelkopf.cards import ALTE, FUCHS, Card, deck
from doko_ledger.doppelkopf.events import CardPlayed, CardsDealt, DoppelkopfEvent, GameStarted, SchweinchenShown
from doko_ledger.doppelkopf.game import reserve
from doko_ledger.doppelkopf.game.announce import announce, first_trick_owed
from doko_ledger.doppelkopf.game.commands import (
    AbandonDeal,
    Announce,
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    EnterValue,
    IllegalMove,
    ImposePenalty,
    NameReservation,
    PassPovertyCards,
    PlayCard,
    ReturnPovertyCards,
    ShowHyperschweinchen,
    ShowSchweinchen,
    StartGame,
    SummarizeDeal,
    seat_name,
)
from doko_ledger.doppelkopf.game.penalty import impose
from doko_ledger.doppelkopf.game.schweinchen import call_schweinchen, show_hyperschweinchen
from doko_ledger.doppelkopf.game.state import GameState, Hand
from doko_ledger.doppelkopf.game.summary import summarize
from doko_ledger.doppelkopf.game.value import enter_value
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import hyperschweinchen_card, schweinchen_card
from doko_ledger.doppelkopf.rules.play import SEATS, must_follow
from doko_ledger.names import name_problem, normalized, table_problem


def decide(state: GameState, command: Command) -> list[DoppelkopfEvent]:
    """The events a command produces in `state`, or `IllegalMove` saying why not."""
    match command:
        case StartGame():
            return [_start(state, command)]
        case DealCards(hands=hands):
            return [_deal(state, hands)]
        case DeclareReservation():
            return reserve.declare(state, command)
        case NameReservation():
            return reserve.name(state, command)
        case PassPovertyCards():
            return reserve.pass_cards(state, command)
        case AnswerPoverty():
            return reserve.answer(state, command)
        case ReturnPovertyCards():
            return reserve.return_cards(state, command)
        case AbandonDeal():
            return reserve.abandon(state, command)
        case Announce():
            return announce(state, command)
        case SummarizeDeal():
            return summarize(state, command)
        case EnterValue():
            return enter_value(state, command)
        case ImposePenalty():
            return impose(state, command)
        case ShowSchweinchen(seat=seat):
            return [_show_schweinchen(state, seat)]
        case ShowHyperschweinchen(seat=seat):
            _require_started(state)
            return [show_hyperschweinchen(state, seat)]
        case PlayCard(seat=seat, card=card):
            return [_play(state, seat, card)]
    raise IllegalMove(f"unknown command {command!r}")


def _require_started(state: GameState) -> None:
    if not state.started:
        raise IllegalMove("the game has not started")


def _start(state: GameState, command: StartGame) -> GameStarted:
    if state.started:
        raise IllegalMove(f"game {state.game_id!r} has already started")
    if not command.game_id.strip():
        raise IllegalMove("a game needs an id")
    players = tuple(map(normalized, command.players))
    if len(players) != SEATS:
        raise IllegalMove(f"a game has 4 players, not {len(players)}")
    problem = table_problem(players)
    if problem:
        raise IllegalMove(problem)
    twice = [p for p, n in Counter(players).items() if n > 1]
    if twice:
        raise IllegalMove(f"player {twice[0]!r} sits at the table twice")
    if not 0 <= command.dealer < SEATS:
        raise IllegalMove(f"the dealer must be seat 0-3, not {command.dealer}")
    owed_by = tuple(map(normalized, command.solo_owed_by))
    unknown = [p for p in owed_by if p not in players]
    if unknown:
        raise IllegalMove(f"{unknown[0]!r} owes a solo but does not play this game")
    dealt_by = None if command.dealt_by is None else normalized(command.dealt_by)
    if dealt_by is not None and (dealt_by in players or name_problem(dealt_by)):
        raise IllegalMove(f"the dealer who sits out, {dealt_by!r}, must be someone not at the table")
    return GameStarted(
        command.game_id,
        players,
        command.dealer,
        command.rules,
        command.played_on,
        command.note,
        owed_by,
        dealt_by,
    )


def _deal(state: GameState, hands: tuple[Hand, ...]) -> CardsDealt:
    _require_started(state)
    if state.dealt is not None:
        raise IllegalMove("the cards were already dealt")
    if state.declared or state.cards_played:
        raise IllegalMove("the deal comes before the reservations and the first card")
    if len(hands) != SEATS:
        raise IllegalMove(f"a deal has 4 hands, not {len(hands)}")
    size = state.hand_size
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise IllegalMove(
                f"{seat_name(state, seat)}'s hand has {len(hand)} cards; each hand has {size} (docs/rules.md §1)", seat
            )
    full = deck(state.rules.with_nines)
    dealt: Counter[Card] = Counter(c for hand in hands for c in hand)
    for card, count in dealt.items():
        holders = [s for s, h in enumerate(hands) if card in h]
        if card not in full:
            raise IllegalMove(
                f"{card} is not in the deck: this game is played without nines (docs/rules.md §1)", holders[0]
            )
        if count > 2:
            names = ", ".join(seat_name(state, s) for s in holders)
            raise IllegalMove(
                f"the deal has {count} copies of {card} ({names}); the deck has two (docs/rules.md §1)", holders[-1]
            )
    people = [s for s in range(SEATS) if not state.rules.is_computer(s)]
    if state.rules.computer_seats and all(ALTE in hands[s] and hands[s].count(ALTE) == 1 for s in people):
        names = " and ".join(seat_name(state, s) for s in people)
        raise IllegalMove(f"{names} would be one party: in a duel the two people never are (docs/rules.md §8)")
    return CardsDealt(tuple(tuple(h) for h in hands))


def _show_schweinchen(state: GameState, seat: int) -> SchweinchenShown:
    _require_started(state)
    if not state.rules.schweinchen:
        raise IllegalMove("these rules have no Schweinchen (option schweinchen)")
    if state.rules.schweinchen_shown != "automatic":
        return call_schweinchen(state, seat)
    if state.game_type not in (GameType.NORMAL, GameType.MARRIAGE):
        raise IllegalMove("Schweinchen counts only in a normal or marriage game (docs/rules.md §2)")
    if not 0 <= seat < SEATS:
        raise IllegalMove(f"there is no seat {seat}")
    if state.hands is not None:
        raise IllegalMove("the hands are recorded, so the Schweinchen is known from the deal; leave the call out")
    if state.schweinchen_seat is not None:
        raise IllegalMove(f"{seat_name(state, state.schweinchen_seat)} already showed the Schweinchen")
    if FUCHS in state.cards_played:
        raise IllegalMove("a DA was already played: the Schweinchen is shown with the first one")
    return SchweinchenShown(seat)


def _play(state: GameState, seat: int, card: Card) -> CardPlayed:
    _require_started(state)
    who = seat_name(state, seat)
    if not state.ready:
        if state.void:
            raise IllegalMove(f"{who} cannot play {card}: a severe penalty voided the game (docs/rules.md §9)")
        if state.abandoned is not None:
            raise IllegalMove(f"{who} cannot play {card}: the deal was thrown in")
        raise IllegalMove(f"{who} cannot play {card}: the reservations are not settled yet (docs/rules.md §4)")
    if state.finished:
        raise IllegalMove(f"{who} cannot play {card}: all {state.hand_size} tricks are played")
    turn = state.to_play
    if seat != turn:
        assert turn is not None
        raise IllegalMove(f"{who} played {card} out of turn: it is {seat_name(state, turn)}'s turn (docs/rules.md §3)")
    if card not in deck(state.rules.with_nines):
        raise IllegalMove(f"{who} played {card}, which is not in the deck: this game has no nines")
    owed = first_trick_owed(state)
    if owed is not None:
        raise IllegalMove(f"{who} cannot lead {card} yet: {owed}")
    trick = state.current.cards if state.current is not None else ()
    if state.hands is None:
        if state.cards_played.count(card) >= 2:
            raise IllegalMove(f"{who} played a third {card}: both copies are already played")
        holder = state.schweinchen_seat
        pig = FUCHS if state.game_type is None else schweinchen_card(state.game_type)
        if card == pig and holder is not None and holder != seat:
            raise IllegalMove(f"{who} cannot hold {card}: {seat_name(state, holder)} showed both (Schweinchen)")
        hyper = state.hyperschweinchen_seat
        game = state.game_type
        if hyper not in (None, seat) and game and card == hyperschweinchen_card(game, state.rules.with_nines):
            raise IllegalMove(f"{who} cannot hold {card}: {seat_name(state, hyper)} showed both (Hyperschweinchen)")
        married = state.declarer if state.game_type is GameType.MARRIAGE else None
        if card is ALTE and married is not None and married != seat:
            raise IllegalMove(f"{who} cannot hold {card}: {seat_name(state, married)} announced a marriage with both")
        return CardPlayed(seat, card)
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove(f"{who} does not hold {card} (holds {' '.join(str(c) for c in state.order.sorted(hand))})")
    if trick:
        following = must_follow(trick[0], hand, state.order)
        if following and card not in following:
            suit = "trump" if state.order.is_trump(trick[0]) else f"the led suit of {trick[0]}"
            raise IllegalMove(
                f"revoke: {who} must follow {suit} with one of "
                f"{' '.join(str(c) for c in state.order.sorted(following))}, not {card} (docs/rules.md §3)"
            )
    return CardPlayed(seat, card)
