"""Small helpers the rule and game test modules share."""

from __future__ import annotations

from doko_ledger.doppelkopf.cards import Card, parse_card
from doko_ledger.doppelkopf.game import Command, GameState, PlayCard, decide, evolve
from doko_ledger.doppelkopf.game.state import Hand
from doko_ledger.doppelkopf.rules.play import legal_plays


def cards(text: str) -> tuple[Card, ...]:
    """`"CQ H10 DA"` → the cards."""
    return tuple(parse_card(t) for t in text.split())


def c(text: str) -> Card:
    return parse_card(text)


def run(state: GameState, *commands: Command) -> GameState:
    """Decide and evolve each command in turn."""
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def play_script(state: GameState, *texts: str) -> GameState:
    """Play the given cards in turn order (whoever is to play)."""
    for text in texts:
        seat = state.to_play
        assert seat is not None
        state = run(state, PlayCard(seat, c(text)))
    return state


def play_any(state: GameState, count: int) -> GameState:
    """Play `count` legal cards (the first legal one each turn)."""
    for _ in range(count):
        seat = state.to_play
        assert seat is not None and state.hands is not None
        trick = state.current.cards if state.current is not None else ()
        state = run(state, PlayCard(seat, legal_plays(state.hands[seat], trick, state.order)[0]))
    return state


def swap(deal: tuple[Hand, ...], a: int, card_a: str, b: int, card_b: str) -> tuple[Hand, ...]:
    """The deal with one card of seat `a` and one of seat `b` exchanged."""
    hands = [list(h) for h in deal]
    hands[a].remove(c(card_a))
    hands[b].remove(c(card_b))
    hands[a].append(c(card_b))
    hands[b].append(c(card_a))
    return tuple(tuple(h) for h in hands)


# Anna (seat 0) holds both CQ: a marriage, or a silent solo if she says healthy. Every seat
# holds a little of each plain suit, so scripted tricks can be won by whoever a test needs.
MARRIAGE_DEAL = (
    cards("CQ CQ D9 D9 DK DK CA C9 SA S9 HA H9"),
    cards("H10 SQ SQ HQ DJ DA D10 C10 CK S10 SK HK"),
    cards("H10 HQ DQ CJ SJ HJ DJ CA CK SA SK HA"),
    cards("DQ CJ SJ HJ DA D10 C10 C9 S10 S9 HK H9"),
)
