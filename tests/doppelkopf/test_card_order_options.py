"""The card order and extra point options (docs/rules.md §2, §7): the Dullen, called Schweinchen,
Schweinchen in solos and poverty, and the extra points of the last trick, the Dulle and the
heart trick.

Whole games are written trick by trick in the order the cards are played, each with the seat
that must win it; the hands follow from the tricks and every card goes through `decide`, so a
trick the rules give to somebody else fails at once (the next card is out of turn).
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import c, cards

from doko_ledger.doppelkopf.cards import Card, deck
from doko_ledger.doppelkopf.events import SchweinchenShown, SummarySpecial
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game import (
    Command,
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    NameReservation,
    PlayCard,
    StartGame,
    decide,
    evolve,
)
from doko_ledger.doppelkopf.game.commands import ShowHyperschweinchen, ShowSchweinchen, SummarizeDeal
from doko_ledger.doppelkopf.game.facts import specials
from doko_ledger.doppelkopf.game.parties import true_parties
from doko_ledger.doppelkopf.game.record import from_events
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order, game_card_order, has_schweinchen, schweinchen_card
from doko_ledger.doppelkopf.rules.play import best_index, second_dulle_wins
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order
from doko_ledger.doppelkopf.rules.ruleset import PRESETS, RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.i18n import render

G = GameType
K = SpecialKind
RE, KONTRA = Party.RE, Party.KONTRA
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
DEALER = 3  # Anna (seat 0) leads the first trick
STANDARD = preset("standard")


def rules(**options: object) -> RuleSet:
    return rules_from_mapping({"preset": "standard", **options})


Trick = tuple[str, int]
"""The cards in the order played, from the leader, and the seat that takes the trick."""

# Anna (0) and Cleo (2) hold the CQ: Re. Tricks 1-5 go to Anna; trick 5 is four hearts.
OPENING: list[Trick] = [
    ("CA C9 CK C9", 0),
    ("CA C10 C10 CK", 0),
    ("SA S9 SK S9", 0),
    ("SA S10 S10 SK", 0),
    ("HA H9 HK H9", 0),
]

# The last trick: Anna's H10 first, Dirk's (Kontra) second, Ben's DA between them.
DULLEN_LAST = [
    *OPENING,
    ("HA HK D9 D9", 2),
    ("CQ SJ DA DK", 2),
    ("SQ HJ D10 D10", 2),
    ("HQ DJ CQ SJ", 0),
    ("SQ HQ DQ CJ", 0),
    ("DQ DJ HJ CJ", 0),
    ("H10 DA DK H10", 0),
]

# The last trick won by Anna's DA, her partner Cleo's DA played after it.
FOX_LAST = [
    *OPENING,
    ("HA HK D9 D9", 2),
    ("CQ SJ DQ DJ", 2),
    ("SQ HJ DK D10", 2),
    ("HQ DJ CQ SJ", 0),
    ("H10 HQ DQ H10", 0),
    ("SQ CJ HJ CJ", 0),
    ("DA D10 DA DK", 0),
]

# Anna holds both DA and leads them to the last two tricks.
BOTH_FOXES = [
    *OPENING,
    ("HA HK SQ HJ", 2),
    ("CQ SJ DQ DJ", 2),
    ("DQ DJ CQ SJ", 0),
    ("H10 HQ HQ H10", 0),
    ("SQ CJ CJ HJ", 0),
    ("DA D10 D9 DK", 0),
    ("DA D10 DK D9", 0),
]

# The last trick won by Anna's CJ, Cleo's CJ after it; Cleo catches Ben's DA in trick 8.
KARLCHEN_LAST = [
    *OPENING,
    ("HA HK D9 D9", 2),
    ("CQ SJ DQ DJ", 2),
    ("SQ HJ DA DA", 2),
    ("HQ DJ CQ SJ", 0),
    ("H10 HQ DQ H10", 0),
    ("SQ D10 HJ DK", 0),
    ("CJ DK CJ D10", 0),
]

# The last trick won by Anna's DQ; both of Kontra's CJ fall into it.
KARLCHEN_CAUGHT = [
    *OPENING,
    ("HA HK D9 D9", 2),
    ("CQ SJ D10 DJ", 2),
    ("SQ HJ DA DA", 2),
    ("HQ DJ CQ SJ", 0),
    ("H10 HQ DQ H10", 0),
    ("SQ D10 HJ DK", 0),
    ("DQ CJ DK CJ", 0),
]
# The same, the last trick won by Anna's SQ instead (the DQ goes into trick 11).
KARLCHEN_CAUGHT_WITH_SQ = [*KARLCHEN_CAUGHT[:10], ("DQ D10 HJ DK", 0), ("SQ CJ DK CJ", 0)]


def deal_of(tricks: list[Trick], with_nines: bool = True) -> tuple[tuple[Card, ...], ...]:
    hands: list[list[Card]] = [[] for _ in range(4)]
    leader = (DEALER + 1) % 4
    for text, winner in tricks:
        for i, card in enumerate(cards(text)):
            hands[(leader + i) % 4].append(card)
        leader = winner
    assert Counter(card for hand in hands for card in hand) == deck(with_nines)
    return tuple(tuple(hand) for hand in hands)


def start(tricks: list[Trick], rule_set: RuleSet = STANDARD, solo: tuple[int, GameType] | None = None) -> GameState:
    """The game dealt and its reservations said (a solo by `solo`'s seat), before the first card."""
    reserver = None if solo is None else solo[0]
    commands: list[Command] = [
        StartGame("options", PLAYERS, DEALER, rule_set),
        DealCards(deal_of(tricks, rule_set.with_nines)),
        *(DeclareReservation(seat, healthy=seat != reserver) for seat in asking_order(DEALER)),
    ]
    if solo is not None:
        commands.append(NameReservation(solo[0], ReservationKind.SOLO, solo[1]))
    return run(GameState(), commands)


def run(state: GameState, commands: list[Command]) -> GameState:
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def play(state: GameState, tricks: list[Trick], upto: int | None = None) -> GameState:
    """Play the tricks (the first `upto` of them), checking each winner."""
    leader = state.to_play
    assert leader is not None
    for number, (text, winner) in enumerate(tricks[:upto], 1):
        played = cards(text)
        state = run(state, [PlayCard((leader + i) % 4, card) for i, card in enumerate(played)])
        assert state.tricks[-1].winner == winner, f"trick {number}"
        leader = winner
    return state


def game(tricks: list[Trick], rule_set: RuleSet = STANDARD) -> GameState:
    state = play(start(tricks, rule_set), tricks)
    assert state.finished
    return state


def found(state: GameState) -> list[tuple[SpecialKind, Party]]:
    return [(s.kind, s.party) for s in specials(state, true_parties(state))]


def counted(state: GameState) -> list[tuple[str, Party | None, str]]:
    """The special lines of the score: what, for whom, why."""
    score = score_game(state).score
    assert score is not None
    return [(line.item, line.party, line.cause) for line in score.lines if line.special]


def said(state: GameState, language: str) -> list[str]:
    """The causes of the special lines of the score, in `language`."""
    score = score_game(state).score
    assert score is not None
    return [render(line.shown_cause, language) for line in score.lines if line.special]


def special_value(state: GameState, party: Party) -> int:
    return sum(1 for _, who, _ in counted(state) if who is party) - sum(
        1 for _, who, _ in counted(state) if who is party.other
    )


# --- defaults ---------------------------------------------------------------------------------


NEW_OPTIONS = {
    "dullen": True,
    "second_dulle_last_trick": False,
    "first_dulle_with_schweinchen": False,
    "schweinchen_shown": "automatic",
    "schweinchen_in_solo": False,
    "schweinchen_in_poverty": False,
    "fox_caught": True,
    "fox_caught_last_trick": False,
    "fox_last_trick": False,
    "double_fox_last_trick": False,
    "dulle_caught_dulle": False,
    "heart_trick_point": False,
    "karlchen": True,
    "double_karlchen": False,
    "karlchen_captured_twice": True,
    "karlchen_capture_with_dq": False,
    "hyperschweinchen": False,
    "hyperschweinchen_joint": False,
}


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_keeps_the_card_order_and_the_special_points_it_had(name: str) -> None:
    values = preset(name).to_dict()
    assert {option: values[option] for option in NEW_OPTIONS} == NEW_OPTIONS


def test_the_scripted_games_play_under_the_defaults() -> None:
    for tricks in (DULLEN_LAST, FOX_LAST, BOTH_FOXES, KARLCHEN_LAST, KARLCHEN_CAUGHT, KARLCHEN_CAUGHT_WITH_SQ):
        assert game(tricks).game_type is G.NORMAL


def test_by_default_the_last_trick_has_only_the_usual_special_points() -> None:
    assert found(game(DULLEN_LAST)) == [(K.FOX_CAUGHT, RE)]
    assert found(game(FOX_LAST)) == []
    assert found(game(KARLCHEN_LAST)) == [(K.FOX_CAUGHT, RE), (K.KARLCHEN, RE)]
    assert found(game(KARLCHEN_CAUGHT)) == [(K.FOX_CAUGHT, RE), (K.KARLCHEN_CAPTURED, RE), (K.KARLCHEN_CAPTURED, RE)]


# --- the Dullen (§2) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "last", "schweinchen", "first_with_pigs", "early", "in_last"),
    [
        (False, False, False, False, False, False),  # the defaults: the first H10 always wins
        (True, False, False, False, True, False),  # second_dulle_beats_first alone: not in the last trick
        (True, True, False, False, True, True),  # FreeDoko's default: the second always wins
        (False, True, False, False, False, True),  # only in the last trick
        (True, True, True, True, False, False),  # Schweinchen out: the first wins everywhere
        (True, True, False, True, True, True),  # no Schweinchen: the option changes nothing
    ],
)
def test_which_h10_wins(
    before: bool, last: bool, schweinchen: bool, first_with_pigs: bool, early: bool, in_last: bool
) -> None:
    rule_set = rules(
        second_dulle_beats_first=before, second_dulle_last_trick=last, first_dulle_with_schweinchen=first_with_pigs
    )
    assert second_dulle_wins(rule_set, False, schweinchen) is early
    assert second_dulle_wins(rule_set, True, schweinchen) is in_last


def test_the_second_h10_takes_the_last_trick_with_second_dulle_last_trick() -> None:
    changed = [*DULLEN_LAST[:11], ("H10 DA DK H10", 3)]
    state = game(changed, rules(second_dulle_beats_first=True, second_dulle_last_trick=True))
    assert state.tricks[-1].winner == 3
    assert found(state) == []  # Ben's DA is Dirk's partner's
    with pytest.raises(AssertionError, match="trick 12"):
        game(changed, rules(second_dulle_beats_first=True))  # the first H10 wins the last trick
    assert game(DULLEN_LAST, rules(second_dulle_beats_first=True)).tricks[-1].winner == 0


def test_the_first_h10_wins_once_schweinchen_are_out() -> None:
    both = rules(
        schweinchen=True,
        second_dulle_beats_first=True,
        second_dulle_last_trick=True,
        first_dulle_with_schweinchen=True,
    )
    state = game(BOTH_FOXES, both)  # Anna holds both DA: Schweinchen
    assert state.order.schweinchen and state.tricks[8].winner == 0  # trick 9: Anna's H10 first
    both_but_pigs = rules(schweinchen=False, second_dulle_beats_first=True, first_dulle_with_schweinchen=True)
    with pytest.raises(AssertionError, match="trick 9"):  # Dirk's second H10 wins
        game(BOTH_FOXES, both_but_pigs)


def test_without_dullen_the_h10_is_an_ordinary_heart() -> None:
    order = game_card_order(G.NORMAL, rules(dullen=False), False)
    assert c("H10") not in order.trumps and order.trumps[0] == c("CQ")
    hearts = [card for card in sorted(order.hearts, key=order.strength, reverse=True)]
    assert hearts == [c("HA"), c("H10"), c("HK"), c("H9")]
    assert len(order.trumps) == len(card_order(G.NORMAL).trumps) - 1


def test_without_dullen_the_h10_is_the_trump_ten_of_a_heart_solo() -> None:
    order = game_card_order(G.HEART_SOLO, rules(dullen=False), False)
    assert order.trumps[-4:] == cards("HA H10 HK H9")
    assert order.trumps[0] == c("CQ")


def test_without_dullen_the_pure_heart_solo_and_the_queen_solo_stay_as_they_are() -> None:
    for game_type in (G.PURE_HEART_SOLO, G.QUEEN_SOLO, G.ACE_SOLO):
        assert game_card_order(game_type, rules(dullen=False, pure_suit_solos=True), False) == card_order(game_type)


# --- Schweinchen: which games, which card (§2) -------------------------------------------------


@pytest.mark.parametrize(
    ("game_type", "options", "has"),
    [
        (G.NORMAL, {}, True),
        (G.MARRIAGE, {}, True),
        (G.POVERTY, {}, False),
        (G.POVERTY, {"schweinchen_in_poverty": True}, True),
        (G.CLUB_SOLO, {}, False),
        (G.CLUB_SOLO, {"schweinchen_in_solo": True}, True),
        (G.DIAMOND_SOLO, {"schweinchen_in_solo": True}, True),
        (G.SILENT_SOLO, {"schweinchen_in_solo": True}, False),
        (G.SILENT_SOLO, {"schweinchen_shown": "before_play"}, True),
        (G.QUEEN_SOLO, {"schweinchen_in_solo": True}, False),
        (G.ACE_SOLO, {"schweinchen_in_solo": True}, False),
        (G.PURE_CLUB_SOLO, {"schweinchen_in_solo": True}, False),
    ],
)
def test_which_games_have_schweinchen(game_type: GameType, options: dict[str, object], has: bool) -> None:
    assert has_schweinchen(game_type, rules(schweinchen=True, **options)) is has
    assert has_schweinchen(game_type, rules(schweinchen=False, **options)) is False


def test_the_schweinchen_of_a_suit_solo_are_its_aces() -> None:
    assert schweinchen_card(G.CLUB_SOLO) == c("CA")
    assert schweinchen_card(G.NORMAL) == c("DA")
    order = game_card_order(G.CLUB_SOLO, rules(schweinchen=True, schweinchen_in_solo=True), True)
    assert order.trumps[:2] == cards("CA H10") and order.trumps.count(c("CA")) == 1
    assert order.schweinchen
    plain = game_card_order(G.CLUB_SOLO, rules(schweinchen=True), True)
    assert plain == card_order(G.CLUB_SOLO)


@pytest.mark.parametrize("solo", [G.CLUB_SOLO, G.SPADE_SOLO, G.HEART_SOLO, G.DIAMOND_SOLO])
def test_a_suit_solo_has_the_schweinchen_of_its_aces_from_the_deal(solo: GameType) -> None:
    pigs = rules(schweinchen=True, schweinchen_in_solo=True)
    state = start(BOTH_FOXES, pigs, solo=(0, solo))  # Anna holds both of every ace
    ace = schweinchen_card(solo)
    assert state.schweinchen_seat == 0 and state.order.trumps[0] == ace
    assert best_index(cards(f"{ace} H10 CQ"), state.order.keys, False) == 0
    plain = start(BOTH_FOXES, rules(schweinchen=True), solo=(0, solo))
    assert plain.order == card_order(solo)


def test_nobody_has_the_schweinchen_of_a_suit_solo_whose_aces_are_split() -> None:
    pigs = rules(schweinchen=True, schweinchen_in_solo=True)
    state = start(FOX_LAST, pigs, solo=(0, G.DIAMOND_SOLO))  # Anna and Cleo hold a DA each
    assert state.schweinchen_seat is None and state.order == card_order(G.DIAMOND_SOLO)


# --- called Schweinchen (§2) ------------------------------------------------------------------


CALLED = rules(schweinchen=True, schweinchen_shown="before_play", fox_last_trick=True)


def test_called_schweinchen_come_only_from_the_call() -> None:
    state = start(BOTH_FOXES, CALLED)
    assert state.schweinchen_seat is None and not state.order.schweinchen
    called = run(state, [ShowSchweinchen(0)])
    assert called.schweinchen_seat == 0 and called.order.trumps[0] == c("DA")
    assert decide(state, ShowSchweinchen(0)) == [SchweinchenShown(0)]


def test_uncalled_schweinchen_are_foxes_and_called_ones_are_not() -> None:
    uncalled = play(start(BOTH_FOXES, CALLED), BOTH_FOXES)
    assert found(uncalled) == [(K.FOX_LAST_TRICK, RE)]
    called = play(run(start(BOTH_FOXES, CALLED), [ShowSchweinchen(0)]), BOTH_FOXES)
    assert called.order.schweinchen and found(called) == []


def test_a_call_needs_both_aces_in_time() -> None:
    before = rules(schweinchen=True, schweinchen_shown="before_play")
    with pytest.raises(IllegalMove, match="Ben does not hold both DA"):
        decide(start(BOTH_FOXES, before), ShowSchweinchen(1))
    first_card = run(start(BOTH_FOXES, before), [PlayCard(0, c("CA"))])
    with pytest.raises(IllegalMove, match="too late"):
        decide(first_card, ShowSchweinchen(0))
    held = play(start(BOTH_FOXES, rules(schweinchen=True, schweinchen_shown="while_held")), BOTH_FOXES, upto=10)
    one_led = run(held, [PlayCard(0, c("DA"))])
    with pytest.raises(IllegalMove, match="Anna does not hold both DA"):
        decide(one_led, ShowSchweinchen(0))


def test_while_held_schweinchen_may_be_called_late() -> None:
    state = play(start(BOTH_FOXES, rules(schweinchen=True, schweinchen_shown="while_held")), BOTH_FOXES, upto=9)
    state = run(state, [ShowSchweinchen(0)])
    state = play(state, BOTH_FOXES[9:])
    assert state.finished and state.schweinchen_seat == 0


def test_a_call_is_refused_in_a_game_without_schweinchen() -> None:
    queen_solo = start(BOTH_FOXES, rules(schweinchen=True, schweinchen_shown="before_play"), solo=(0, G.QUEEN_SOLO))
    with pytest.raises(IllegalMove, match="a queen solo has no Schweinchen"):
        decide(queen_solo, ShowSchweinchen(0))
    with pytest.raises(IllegalMove, match="these rules have no Schweinchen"):
        decide(start(BOTH_FOXES, rules(schweinchen=False)), ShowSchweinchen(0))


# --- extra points (§7) ------------------------------------------------------------------------


def test_fox_last_trick_and_its_double() -> None:
    once = game(FOX_LAST, rules(fox_last_trick=True))
    assert counted(once) == [("last trick won with DA (Fuchs)", RE, "trick 12: Anna won it with DA")]
    twice = game(FOX_LAST, rules(fox_last_trick=True, double_fox_last_trick=True))
    assert counted(twice) == [
        ("last trick won with DA (Fuchs)", RE, "trick 12: Anna won it with DA"),
        ("last trick won with DA (Fuchs)", RE, "trick 12: Cleo played the second DA too"),
    ]
    assert special_value(twice, RE) == 2
    assert counted(game(FOX_LAST, rules(double_fox_last_trick=True))) == []
    assert said(twice, "de") == ["Stich 12: Anna gewinnt ihn mit ♦A", "Stich 12: Cleo legt die zweite ♦A dazu"]
    assert said(twice, "fr") == ["pli 12 : Anna l'a gagné avec ♦A", "pli 12 : Cleo a aussi joué le second ♦A"]


def test_a_fox_caught_in_the_last_trick_counts_once_more() -> None:
    state = game(DULLEN_LAST, rules(fox_caught_last_trick=True))
    assert counted(state) == [
        ("fox caught (Fuchs)", RE, "trick 12: Anna caught Ben's DA"),
        ("DA caught in the last trick (Fuchs)", RE, "trick 12: Anna caught Ben's DA"),
    ]
    assert counted(game(DULLEN_LAST, rules(fox_caught=False, fox_caught_last_trick=True))) == []


def test_fox_caught_can_be_switched_off() -> None:
    assert counted(game(DULLEN_LAST, rules(fox_caught=False))) == []


def test_a_dulle_caught_with_the_other_dulle() -> None:
    state = game(DULLEN_LAST, rules(dulle_caught_dulle=True))
    assert (K.DULLE_CAUGHT_DULLE, RE) in found(state)
    assert ("H10 caught with H10 (Dulle)", RE, "trick 12: Anna caught Dirk's H10 with the other") in counted(state)
    assert "Stich 12: Anna fängt ♥10 von Dirk mit der anderen" in said(state, "de")
    assert "pli 12 : Anna a pris ♥10 à Dirk avec l'autre" in said(state, "fr")
    partners = game(FOX_LAST, rules(dulle_caught_dulle=True))  # trick 10: Anna's and Dirk's H10, Anna wins
    assert (K.DULLE_CAUGHT_DULLE, RE) in found(partners)
    own = game(BOTH_FOXES, rules(dulle_caught_dulle=True))  # trick 9: Anna's H10 over Dirk's
    assert [kind for kind, _ in found(own)] == [K.DULLE_CAUGHT_DULLE]


def test_a_heart_trick_scores_with_heart_trick_point() -> None:
    state = game(FOX_LAST, rules(heart_trick_point=True))
    assert counted(state) == [("trick of four hearts (heart trick)", RE, "trick 5: Anna took four hearts")]
    assert said(state, "de") == ["Stich 5: Anna holt vier Herz"]
    assert said(state, "fr") == ["pli 5 : Anna a pris quatre cœurs"]
    assert counted(game(FOX_LAST)) == []


def test_karlchen_can_be_switched_off_and_doubled() -> None:
    assert [item for item, _, _ in counted(game(KARLCHEN_LAST))] == [
        "fox caught (Fuchs)",
        "last trick won with CJ (Karlchen)",
    ]
    assert [item for item, _, _ in counted(game(KARLCHEN_LAST, rules(karlchen=False)))] == ["fox caught (Fuchs)"]
    doubled = game(KARLCHEN_LAST, rules(double_karlchen=True))
    assert [cause for item, _, cause in counted(doubled) if "CJ" in item] == [
        "trick 12: Anna won it with CJ",
        "trick 12: Cleo played the second CJ too",
    ]


def test_two_karlchen_caught_count_once_without_karlchen_captured_twice() -> None:
    caught = "CJ caught in the last trick (Karlchen)"
    assert [item for item, _, _ in counted(game(KARLCHEN_CAUGHT))].count(caught) == 2
    once = game(KARLCHEN_CAUGHT, rules(karlchen_captured_twice=False))
    assert [item for item, _, _ in counted(once)].count(caught) == 1


def test_only_a_dq_catches_a_karlchen_with_karlchen_capture_with_dq() -> None:
    with_dq = rules(karlchen_capture_with_dq=True)
    assert [k for k, _ in found(game(KARLCHEN_CAUGHT, with_dq))].count(K.KARLCHEN_CAPTURED) == 2
    assert [k for k, _ in found(game(KARLCHEN_CAUGHT_WITH_SQ))].count(K.KARLCHEN_CAPTURED) == 2
    assert K.KARLCHEN_CAPTURED not in [k for k, _ in found(game(KARLCHEN_CAUGHT_WITH_SQ, with_dq))]


def test_no_extra_points_in_a_solo() -> None:
    tricks = FOX_LAST
    everything = rules(fox_last_trick=True, double_fox_last_trick=True, heart_trick_point=True, dulle_caught_dulle=True)
    state = play(start(tricks, everything, solo=(0, G.DIAMOND_SOLO)), tricks)
    assert found(state) and counted(state) == []


# --- deals entered by their facts --------------------------------------------------------------


def summarized(rule_set: RuleSet, *special: SummarySpecial) -> GameState:
    state = run(GameState(), [StartGame("facts", PLAYERS, DEALER, rule_set)])
    return run(state, [SummarizeDeal(G.NORMAL, (0, 2), 130, 8, 4, (), special)])


def test_the_new_kinds_are_entered_with_the_facts_and_follow_the_options() -> None:
    entered = (
        SummarySpecial(K.FOX_LAST_TRICK, RE),
        SummarySpecial(K.FOX_LAST_TRICK, RE),
        SummarySpecial(K.DULLE_CAUGHT_DULLE, KONTRA, caught_from=0),
        SummarySpecial(K.HEART_TRICK, KONTRA),
        SummarySpecial(K.FOX_CAUGHT_LAST_TRICK, RE, caught_from=1),
    )
    assert counted(summarized(STANDARD, *entered)) == []
    every = rules(
        fox_last_trick=True,
        double_fox_last_trick=True,
        dulle_caught_dulle=True,
        heart_trick_point=True,
        fox_caught_last_trick=True,
    )
    assert [(item, party) for item, party, _ in counted(summarized(every, *entered))] == [
        ("last trick won with DA (Fuchs)", RE),
        ("last trick won with DA (Fuchs)", RE),
        ("H10 caught with H10 (Dulle)", KONTRA),
        ("trick of four hearts (heart trick)", KONTRA),
        ("DA caught in the last trick (Fuchs)", RE),
    ]


@pytest.mark.parametrize(
    ("special", "why"),
    [
        ((SummarySpecial(K.DULLE_CAUGHT_DULLE, RE),), "say whose card was caught"),
        ((SummarySpecial(K.HEART_TRICK, RE, caught_from=1),), "is not caught from anybody"),
        ((SummarySpecial(K.FOX_LAST_TRICK, RE), SummarySpecial(K.KARLCHEN, KONTRA)), "only one party wins"),
        ((SummarySpecial(K.KARLCHEN, RE), SummarySpecial(K.KARLCHEN, RE)), "at most 1"),
    ],
)
def test_entered_kinds_are_checked(special: tuple[SummarySpecial, ...], why: str) -> None:
    with pytest.raises(IllegalMove, match=why):
        summarized(STANDARD, *special)


def test_a_second_karlchen_may_be_entered_under_double_karlchen() -> None:
    state = summarized(rules(double_karlchen=True), SummarySpecial(K.KARLCHEN, RE), SummarySpecial(K.KARLCHEN, RE))
    assert [item for item, _, _ in counted(state)] == ["last trick won with CJ (Karlchen)"] * 2


def test_a_called_schweinchen_goes_through_a_game_file_and_back() -> None:
    state = run(start(BOTH_FOXES, CALLED), [ShowSchweinchen(0)])
    state = play(state, BOTH_FOXES)
    events = []
    replay = GameState()
    commands: list[Command] = [
        StartGame("options", PLAYERS, DEALER, CALLED),
        DealCards(deal_of(BOTH_FOXES)),
        *(DeclareReservation(seat, healthy=True) for seat in asking_order(DEALER)),
        ShowSchweinchen(0),
    ]
    leader = 0
    for text, winner in BOTH_FOXES:
        commands += [PlayCard((leader + i) % 4, card) for i, card in enumerate(cards(text))]
        leader = winner
    for command in commands:
        new = decide(replay, command)
        events += new
        for event in new:
            replay = evolve(replay, event)
    text = game_file.dumps(from_events(events))
    assert "schweinchen" in text
    loaded = game_file.read(text)
    assert loaded.state.schweinchen_seat == 0 and loaded.state.tricks == state.tricks
    assert [e for e in loaded.events if isinstance(e, SchweinchenShown)] == [SchweinchenShown(0)]


# --- Hyperschweinchen (§2) ---------------------------------------------------------------------

# Anna holds both DA, Dirk both D9: with Hyperschweinchen Dirk's D9 takes the last two tricks.
HYPER = [*BOTH_FOXES[:10], ("DA D10 DK D9", 3), ("D9 DA D10 DK", 3)]
PIGS = {"schweinchen": True, "hyperschweinchen": True}


def test_hyperschweinchen_from_the_deal_rank_above_the_schweinchen() -> None:
    state = game(HYPER, rules(**PIGS))
    assert (state.schweinchen_seat, state.hyperschweinchen_seat) == (0, 3)
    assert state.order.trumps[:3] == cards("D9 DA H10") and state.order.hyperschweinchen
    assert found(state) == []  # Dirk takes Anna's DA twice: a Schweinchen is no fox
    with pytest.raises(AssertionError, match="trick 11"):
        game(HYPER, rules(schweinchen=True))  # Anna's Schweinchen take trick 11


def test_hyperschweinchen_need_schweinchen_beside_them() -> None:
    state = start(HYPER, rules(hyperschweinchen=True))  # no Schweinchen under these rules
    assert state.hyperschweinchen_seat is None and state.order == card_order(G.NORMAL)
    split = start(FOX_LAST, rules(**PIGS))  # nobody holds both DA
    assert split.schweinchen_seat is None and split.hyperschweinchen_seat is None


def test_hyperschweinchen_without_nines_are_the_trump_kings() -> None:
    order = game_card_order(G.CLUB_SOLO, rules(with_nines=False, schweinchen_in_solo=True, **PIGS), True, True)
    assert order.trumps[:3] == cards("CK CA H10")


CALLED_PIGS = rules(schweinchen_shown="before_play", **PIGS)


def test_called_hyperschweinchen_come_after_the_schweinchen() -> None:
    state = start(HYPER, CALLED_PIGS)
    assert state.hyperschweinchen_seat is None
    with pytest.raises(IllegalMove, match="nobody has shown those"):
        decide(state, ShowHyperschweinchen(3))
    state = run(state, [ShowSchweinchen(0), ShowHyperschweinchen(3)])
    assert state.order.trumps[0] == c("D9")
    assert play(state, HYPER).tricks[-1].winner == 3


@pytest.mark.parametrize(
    ("seat", "joint", "why"),
    [
        (0, False, "Anna has the Schweinchen"),
        (0, True, "Anna does not hold both D9"),
        (1, False, "Ben does not hold both D9"),
    ],
)
def test_a_hyperschweinchen_call_is_checked(seat: int, joint: bool, why: str) -> None:
    state = run(
        start(HYPER, rules(schweinchen_shown="before_play", hyperschweinchen_joint=joint, **PIGS)), [ShowSchweinchen(0)]
    )
    with pytest.raises(IllegalMove, match=why):
        decide(state, ShowHyperschweinchen(seat))


def test_hyperschweinchen_from_the_deal_are_not_called() -> None:
    with pytest.raises(IllegalMove, match="known from the deal"):
        decide(start(HYPER, rules(**PIGS)), ShowHyperschweinchen(3))
    with pytest.raises(IllegalMove, match="no Hyperschweinchen"):
        decide(start(HYPER, rules(schweinchen=True)), ShowHyperschweinchen(3))


def test_a_hyperschweinchen_call_goes_through_a_game_file_and_back() -> None:
    commands: list[Command] = [
        StartGame("options", PLAYERS, DEALER, CALLED_PIGS),
        DealCards(deal_of(HYPER)),
        *(DeclareReservation(seat, healthy=True) for seat in asking_order(DEALER)),
        ShowSchweinchen(0),
        ShowHyperschweinchen(3),
    ]
    leader = 0
    for text, winner in HYPER:
        commands += [PlayCard((leader + i) % 4, card) for i, card in enumerate(cards(text))]
        leader = winner
    events = []
    state = GameState()
    for command in commands:
        new = decide(state, command)
        events += new
        for event in new:
            state = evolve(state, event)
    text = game_file.dumps(from_events(events))
    assert "hyperschweinchen" in text
    loaded = game_file.read(text)
    assert loaded.state.hyperschweinchen_seat == 3 and loaded.state.tricks == state.tricks
