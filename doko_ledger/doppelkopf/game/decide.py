"""`decide(state, command) -> events`: validate a command against the game so far.

Raises `IllegalMove` (a `ValueError`) with the rule it breaks; returns the
events to append otherwise. The rules in force come from the game's own
`GameStarted` snapshot.
"""

from __future__ import annotations

from collections import Counter

from doko_ledger.doppelkopf.cards import ALTE, FUCHS, Card, Cards, deck
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
from doko_ledger.i18n import msg
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
    raise IllegalMove(msg("unknown command {command}", command=repr(command)))


def _require_started(state: GameState) -> None:
    if not state.started:
        raise IllegalMove(msg("the game has not started"))


def _start(state: GameState, command: StartGame) -> GameStarted:
    if state.started:
        raise IllegalMove(msg("game {game} has already started", game=repr(state.game_id)))
    if not command.game_id.strip():
        raise IllegalMove(msg("a game needs an id"))
    players = tuple(map(normalized, command.players))
    if len(players) != SEATS:
        raise IllegalMove(msg("a game has 4 players, not {count}", count=len(players)))
    problem = table_problem(players)
    if problem:
        raise IllegalMove(problem)
    twice = [p for p, n in Counter(players).items() if n > 1]
    if twice:
        raise IllegalMove(msg("player {name} sits at the table twice", name=repr(twice[0])))
    if not 0 <= command.dealer < SEATS:
        raise IllegalMove(msg("the dealer must be seat 0-3, not {seat}", seat=command.dealer))
    owed_by = tuple(map(normalized, command.solo_owed_by))
    unknown = [p for p in owed_by if p not in players]
    if unknown:
        raise IllegalMove(msg("{name} owes a solo but does not play this game", name=repr(unknown[0])))
    dealt_by = None if command.dealt_by is None else normalized(command.dealt_by)
    if dealt_by is not None and (dealt_by in players or name_problem(dealt_by)):
        raise IllegalMove(msg("the dealer who sits out, {name}, must be someone not at the table", name=repr(dealt_by)))
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
        raise IllegalMove(msg("the cards were already dealt"))
    if state.declared or state.cards_played:
        raise IllegalMove(msg("the deal comes before the reservations and the first card"))
    if len(hands) != SEATS:
        raise IllegalMove(msg("a deal has 4 hands, not {count}", count=len(hands)))
    size = state.hand_size
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise IllegalMove(
                msg(
                    "{who}'s hand has {count} cards; each hand has {size} (docs/rules.md §1)",
                    who=seat_name(state, seat),
                    count=len(hand),
                    size=size,
                ),
                seat,
            )
    full = deck(state.rules.with_nines)
    dealt: Counter[Card] = Counter(c for hand in hands for c in hand)
    for card, count in dealt.items():
        holders = [s for s, h in enumerate(hands) if card in h]
        if card not in full:
            raise IllegalMove(
                msg(
                    "{card} is not in the deck: this game is played without nines (docs/rules.md §1)",
                    card=Cards([card]),
                ),
                holders[0],
            )
        if count > 2:
            names = ", ".join(seat_name(state, s) for s in holders)
            raise IllegalMove(
                msg(
                    "the deal has {count} copies of {card} ({names}); the deck has two (docs/rules.md §1)",
                    count=count,
                    card=Cards([card]),
                    names=names,
                ),
                holders[-1],
            )
    people = [s for s in range(SEATS) if not state.rules.is_computer(s)]
    if state.rules.computer_seats and all(ALTE in hands[s] and hands[s].count(ALTE) == 1 for s in people):
        raise IllegalMove(
            msg(
                "{first} and {second} would be one party: in a duel the two people never are (docs/rules.md §8)",
                first=seat_name(state, people[0]),
                second=seat_name(state, people[-1]),
            )
        )
    return CardsDealt(tuple(tuple(h) for h in hands))


def _show_schweinchen(state: GameState, seat: int) -> SchweinchenShown:
    _require_started(state)
    if not state.rules.schweinchen:
        raise IllegalMove(msg("these rules have no Schweinchen (option schweinchen)"))
    if state.rules.schweinchen_shown != "automatic":
        return call_schweinchen(state, seat)
    if state.game_type not in (GameType.NORMAL, GameType.MARRIAGE):
        raise IllegalMove(msg("Schweinchen counts only in a normal or marriage game (docs/rules.md §2)"))
    if not 0 <= seat < SEATS:
        raise IllegalMove(msg("there is no seat {seat}", seat=seat))
    if state.hands is not None:
        raise IllegalMove(msg("the hands are recorded, so the Schweinchen is known from the deal; leave the call out"))
    if state.schweinchen_seat is not None:
        raise IllegalMove(msg("{who} already showed the Schweinchen", who=seat_name(state, state.schweinchen_seat)))
    if FUCHS in state.cards_played:
        raise IllegalMove(msg("a DA was already played: the Schweinchen is shown with the first one"))
    return SchweinchenShown(seat)


def _play(state: GameState, seat: int, card: Card) -> CardPlayed:
    _require_started(state)
    who = seat_name(state, seat)
    shown = Cards([card])
    if not state.ready:
        if state.void:
            raise IllegalMove(
                msg(
                    "{who} cannot play {card}: a severe penalty voided the game (docs/rules.md §9)", who=who, card=shown
                )
            )
        if state.abandoned is not None:
            raise IllegalMove(msg("{who} cannot play {card}: the deal was thrown in", who=who, card=shown))
        raise IllegalMove(
            msg(
                "{who} cannot play {card}: the reservations are not settled yet (docs/rules.md §4)", who=who, card=shown
            )
        )
    if state.finished:
        raise IllegalMove(
            msg("{who} cannot play {card}: all {count} tricks are played", who=who, card=shown, count=state.hand_size)
        )
    turn = state.to_play
    if seat != turn:
        assert turn is not None
        raise IllegalMove(
            msg(
                "{who} played {card} out of turn: it is {turn}'s turn (docs/rules.md §3)",
                who=who,
                card=shown,
                turn=seat_name(state, turn),
            )
        )
    if card not in deck(state.rules.with_nines):
        raise IllegalMove(
            msg("{who} played {card}, which is not in the deck: this game has no nines", who=who, card=shown)
        )
    owed = first_trick_owed(state)
    if owed is not None:
        raise IllegalMove(msg("{who} cannot lead {card} yet: {owed}", who=who, card=shown, owed=owed))
    trick = state.current.cards if state.current is not None else ()
    if state.hands is None:
        if state.cards_played.count(card) >= 2:
            raise IllegalMove(msg("{who} played a third {card}: both copies are already played", who=who, card=shown))
        holder = state.schweinchen_seat
        pig = FUCHS if state.game_type is None else schweinchen_card(state.game_type)
        if card == pig and holder is not None and holder != seat:
            raise IllegalMove(
                msg(
                    "{who} cannot hold {card}: {holder} showed both (Schweinchen)",
                    who=who,
                    card=shown,
                    holder=seat_name(state, holder),
                )
            )
        hyper = state.hyperschweinchen_seat
        game = state.game_type
        if hyper not in (None, seat) and game and card == hyperschweinchen_card(game, state.rules.with_nines):
            raise IllegalMove(
                msg(
                    "{who} cannot hold {card}: {holder} showed both (Hyperschweinchen)",
                    who=who,
                    card=shown,
                    holder=seat_name(state, hyper),
                )
            )
        married = state.declarer if state.game_type is GameType.MARRIAGE else None
        if card is ALTE and married is not None and married != seat:
            raise IllegalMove(
                msg(
                    "{who} cannot hold {card}: {holder} announced a marriage with both",
                    who=who,
                    card=shown,
                    holder=seat_name(state, married),
                )
            )
        return CardPlayed(seat, card)
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove(
            msg(
                "{who} does not hold {card} (holds {held})",
                who=who,
                card=shown,
                held=Cards(state.order.sorted(hand)),
            )
        )
    if trick:
        following = must_follow(trick[0], hand, state.order)
        if following and card not in following:
            if state.order.is_trump(trick[0]):
                suit = msg("trump")
            else:
                suit = msg("the led suit of {card}", card=Cards(trick[:1]))
            raise IllegalMove(
                msg(
                    "revoke: {who} must follow {suit} with one of {cards}, not {card} (docs/rules.md §3)",
                    who=who,
                    suit=suit,
                    cards=Cards(state.order.sorted(following)),
                    card=shown,
                )
            )
    return CardPlayed(seat, card)
