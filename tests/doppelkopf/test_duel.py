"""The duel rule set: two people (seats 0 and 2) against two computer seats (1 and 3) (docs/rules.md §8)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from helpers import cards, run

from doko_ledger.doppelkopf.cards import Card, deck, parse_card
from doko_ledger.doppelkopf.events import SummaryCall
from doko_ledger.doppelkopf.game import (
    Announce,
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    NameReservation,
    PlayCard,
    StartGame,
    decide,
)
from doko_ledger.doppelkopf.game.commands import SummarizeDeal
from doko_ledger.doppelkopf.game.evolve import DUEL_UNSCORED
from doko_ledger.doppelkopf.game.parties import is_lone, marriage_status, true_parties
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order, duel_marriage
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.doppelkopf.score import score_game

A = Announcement
G = GameType
RE, KONTRA = Party.RE, Party.KONTRA
DUEL = preset("duel")
PLAYERS = ("Anna", "Bot1", "Cleo", "Bot3")
ANNA, BOT1, CLEO, BOT3 = range(4)
DEALER = BOT3  # Anna leads the first trick

Hands = tuple[tuple[Card, ...], ...]


def swapped(hands: Hands, one: int, card: str, other: int, other_card: str) -> Hands:
    out = [list(hand) for hand in hands]
    out[one][out[one].index(parse_card(card))] = parse_card(other_card)
    out[other][out[other].index(parse_card(other_card))] = parse_card(card)
    return tuple(tuple(hand) for hand in out)


# Anna (a person) holds both CQ.
ANNA_MARRIES: Hands = (
    cards("CQ CQ H10 SQ HQ DQ CJ SJ CK SA HA HK"),
    cards("H10 SQ HQ CJ HJ DA D10 DK C9 S9 H9 HA"),
    cards("DQ SJ HJ DJ DA D10 CA C10 SK S10 HK H9"),
    cards("DJ DK D9 D9 CA C10 CK C9 SA S10 SK S9"),
)
# Bot1 (a computer) holds both CQ.
BOT_MARRIES = swapped(swapped(ANNA_MARRIES, ANNA, "CQ", BOT1, "HJ"), ANNA, "CQ", BOT1, "DK")
# A normal game: Anna (person) and Bot3 (computer) are Re, Bot1 and Cleo Kontra.
NORMAL = swapped(ANNA_MARRIES, ANNA, "CQ", BOT3, "DJ")
# Anna and Cleo, the two people, would be Re together.
PEOPLE_TOGETHER = swapped(ANNA_MARRIES, ANNA, "CQ", CLEO, "DQ")


def test_the_deals_are_whole_decks() -> None:
    for hands in (ANNA_MARRIES, BOT_MARRIES, NORMAL, PEOPLE_TOGETHER):
        assert Counter(c for hand in hands for c in hand) == deck()
    assert ANNA_MARRIES[ANNA].count(parse_card("CQ")) == 2
    assert BOT_MARRIES[BOT1].count(parse_card("CQ")) == 2


def test_the_duel_preset() -> None:
    assert DUEL.computer_seats == (1, 3)
    assert [DUEL.is_computer(s) for s in range(4)] == [False, True, False, True]


def dealt(hands: Hands) -> GameState:
    return run(GameState(), StartGame("duel-1", PLAYERS, DEALER, DUEL), DealCards(hands))


def declared(hands: Hands, reserving: int | None = None) -> GameState:
    """Dealt and every player asked; `reserving` says reservation (not named yet)."""
    return run(dealt(hands), *(DeclareReservation(s, healthy=s != reserving) for s in asking_order(DEALER)))


def married(hands: Hands, seat: int) -> GameState:
    return run(declared(hands, seat), NameReservation(seat, ReservationKind.MARRIAGE))


def plays(state: GameState, *tricks: str) -> GameState:
    """Play whole tricks, each written in play order from its leader."""
    for trick in tricks:
        for card in cards(trick):
            seat = state.to_play
            assert seat is not None
            state = run(state, PlayCard(seat, card))
    return state


# -- deal, solo, announcements -----------------------------------------------------------------


def test_a_deal_putting_both_people_in_one_party_is_refused() -> None:
    state = run(GameState(), StartGame("duel-1", PLAYERS, DEALER, DUEL))
    with pytest.raises(IllegalMove, match="never"):
        decide(state, DealCards(PEOPLE_TOGETHER))
    # the same deal is fine without computer seats
    standard = run(GameState(), StartGame("std", PLAYERS, DEALER, preset("standard")))
    assert decide(standard, DealCards(PEOPLE_TOGETHER))


@pytest.mark.parametrize("hands", [NORMAL, ANNA_MARRIES, BOT_MARRIES], ids=["normal", "anna-both", "bot-both"])
def test_deals_keeping_the_people_apart_are_accepted(hands: Hands) -> None:
    assert dealt(hands).dealt == hands


def test_in_a_normal_game_the_people_are_on_different_parties() -> None:
    state = declared(NORMAL)
    assert state.game_type is G.NORMAL
    assert true_parties(state) == (RE, KONTRA, KONTRA, RE)


@pytest.mark.parametrize("seat", [BOT1, BOT3])
def test_a_computer_cannot_name_a_solo(seat: int) -> None:
    state = declared(NORMAL, seat)
    with pytest.raises(IllegalMove, match="computer"):
        decide(state, NameReservation(seat, ReservationKind.SOLO, G.CLUB_SOLO))


@pytest.mark.parametrize("seat", [ANNA, CLEO])
def test_a_person_may_name_a_solo(seat: int) -> None:
    state = run(declared(NORMAL, seat), NameReservation(seat, ReservationKind.SOLO, G.QUEEN_SOLO))
    assert state.game_type is G.QUEEN_SOLO and state.declarer == seat


@pytest.mark.parametrize(
    ("seat", "announcement"),
    [
        pytest.param(BOT3, A.RE, id="bot3-re"),
        pytest.param(BOT1, A.KONTRA, id="bot1-kontra"),
        pytest.param(BOT3, A.NO90, id="bot3-no90-implies-re"),
        pytest.param(BOT1, A.NO60, id="bot1-no60-implies-kontra"),
        pytest.param(BOT1, A.SCHWARZ, id="bot1-schwarz-implies-kontra"),
    ],
)
def test_a_computer_cannot_announce_re_or_kontra(seat: int, announcement: Announcement) -> None:
    with pytest.raises(IllegalMove, match="computer"):
        decide(declared(NORMAL), Announce(seat, announcement))


@pytest.mark.parametrize(
    ("person", "computer"), [pytest.param(ANNA, BOT3, id="re"), pytest.param(CLEO, BOT1, id="kontra")]
)
def test_a_computer_may_deny_after_its_partner_said_the_party_word(person: int, computer: int) -> None:
    state = declared(NORMAL)
    word = A.RE if person == ANNA else A.KONTRA
    state = run(state, Announce(person, word))
    state = run(state, Announce(computer, A.NO90))
    assert [(c.seat, c.announcement) for c in state.calls] == [(person, word), (computer, A.NO90)]


def test_a_computer_never_plays_a_silent_solo() -> None:
    """Bot1 holds both CQ: saying healthy would make a silent solo, which is a solo (docs/rules.md §4),
    and computers never play one (§8); it may announce its marriage instead."""
    state = dealt(BOT_MARRIES)
    try:
        state = run(state, *(DeclareReservation(s, healthy=True) for s in asking_order(DEALER)))
    except IllegalMove:
        return
    assert state.game_type is not G.SILENT_SOLO


def test_people_announce_freely() -> None:
    state = run(declared(NORMAL), Announce(ANNA, A.NO90), Announce(CLEO, A.KONTRA))
    assert [c.party for c in state.calls] == [RE, KONTRA]


# -- duel marriages: the rule (docs/rules.md §8) -----------------------------------------------------

CA = parse_card("CA")
COMPUTERS = (1, 3)

DUEL_MARRIAGES: list[Any] = [
    # a person's marriage (Anna, seat 0)
    pytest.param(ANNA, [BOT1], (BOT1, 1, False), id="person-computer-wins-1"),
    pytest.param(ANNA, [ANNA, BOT3], (BOT3, 2, False), id="person-computer-wins-2"),
    pytest.param(ANNA, [ANNA, ANNA, BOT1], (BOT1, 3, False), id="person-computer-wins-3"),
    pytest.param(ANNA, [CLEO], (None, 1, True), id="person-other-person-wins-1"),
    pytest.param(ANNA, [ANNA, CLEO], (None, 2, True), id="person-other-person-wins-2"),
    pytest.param(ANNA, [ANNA, ANNA, CLEO], (None, 3, True), id="person-other-person-wins-3"),
    pytest.param(ANNA, [CLEO, BOT1], (None, 1, True), id="person-other-person-first"),
    pytest.param(ANNA, [ANNA, ANNA, ANNA], (None, 3, False), id="person-wins-all-three-alone"),
    pytest.param(ANNA, [ANNA, ANNA], (None, None, False), id="person-still-open"),
    pytest.param(ANNA, [ANNA, ANNA, ANNA, CLEO], (None, 3, False), id="person-trick-4-does-not-count"),
    pytest.param(CLEO, [ANNA], (None, 1, True), id="cleo-marriage-anna-wins"),
    pytest.param(CLEO, [BOT3], (BOT3, 1, False), id="cleo-marriage-computer-wins"),
    # a computer's marriage (Bot1, seat 1)
    pytest.param(BOT1, [ANNA], (ANNA, 1, False), id="computer-person-wins-1"),
    pytest.param(BOT1, [BOT3, CLEO], (CLEO, 2, False), id="computer-other-computer-does-not-count"),
    pytest.param(BOT1, [BOT1, BOT3, ANNA], (ANNA, 3, False), id="computer-person-wins-3"),
    pytest.param(BOT1, [BOT1, BOT3, BOT1], (None, 3, True), id="computer-no-person-unscored"),
    pytest.param(BOT1, [BOT3, BOT3, BOT3], (None, 3, True), id="computer-other-computer-all-unscored"),
    pytest.param(BOT1, [BOT1, BOT1, BOT1], (None, 3, True), id="computer-wins-all-unscored"),
    pytest.param(BOT1, [BOT3, BOT3], (None, None, False), id="computer-still-open"),
    pytest.param(BOT3, [BOT1, CLEO], (CLEO, 2, False), id="bot3-marriage-bot1-does-not-count"),
]


@pytest.mark.parametrize(("declarer", "winners", "expected"), DUEL_MARRIAGES)
def test_duel_marriage(declarer: int, winners: list[int], expected: tuple[int | None, int | None, bool]) -> None:
    assert duel_marriage([(CA, w) for w in winners], declarer, COMPUTERS) == expected


# -- duel marriages in play ---------------------------------------------------------------------


def test_the_other_person_winning_ends_a_persons_marriage_unscored() -> None:
    state = plays(married(ANNA_MARRIES, ANNA), "CK C9 CA C9")  # Cleo's CA wins trick 1
    assert state.tricks[0].winner == CLEO
    assert state.abandoned == DUEL_UNSCORED == "duel_marriage_unscored"
    assert state.to_play is None
    with pytest.raises(IllegalMove):
        decide(state, PlayCard(CLEO, parse_card("C10")))
    with pytest.raises(IllegalMove):
        decide(state, Announce(ANNA, A.RE))
    game = score_game(state)
    assert game.score is None
    assert game.deltas == (0, 0, 0, 0)


def test_a_computer_clarifies_a_persons_marriage() -> None:
    state = plays(married(ANNA_MARRIES, ANNA), "CK C9 C10 CA")  # Bot3's CA wins trick 1
    assert state.abandoned is None
    assert marriage_status(state) == (BOT3, 1)
    assert true_parties(state) == (RE, KONTRA, KONTRA, RE)
    assert not is_lone(state)


def test_a_computer_clarifies_a_persons_marriage_in_trick_2() -> None:
    # Anna wins trick 1 with H10; Bot3 trumps her HA in trick 2
    state = plays(married(ANNA_MARRIES, ANNA), "H10 DK D10 D9", "HA H9 HK D9")
    assert [t.winner for t in state.tricks] == [ANNA, BOT3]
    assert state.abandoned is None
    assert marriage_status(state) == (BOT3, 2)


def test_the_other_person_winning_trick_2_ends_the_game() -> None:
    state = plays(married(ANNA_MARRIES, ANNA), "H10 DK D10 D9", "CK C9 CA C9")
    assert [t.winner for t in state.tricks] == [ANNA, CLEO]
    assert state.abandoned == DUEL_UNSCORED
    assert score_game(state).deltas == (0, 0, 0, 0)


def test_a_person_winning_the_first_three_tricks_plays_alone() -> None:
    state = plays(married(ANNA_MARRIES, ANNA), "H10 DK D10 D9", "CQ D10 DJ D9", "CQ DA DA DK")
    assert [t.winner for t in state.tricks] == [ANNA, ANNA, ANNA]
    assert state.abandoned is None
    assert is_lone(state)
    assert true_parties(state) == (RE, KONTRA, KONTRA, KONTRA)
    assert state.to_play == ANNA


def test_a_person_clarifies_a_computers_marriage() -> None:
    state = plays(married(BOT_MARRIES, BOT1), "CK C9 CA C9")  # Cleo's CA wins trick 1
    assert state.abandoned is None
    assert marriage_status(state) == (CLEO, 1)
    assert true_parties(state) == (KONTRA, RE, RE, KONTRA)


def test_the_other_computers_trick_does_not_clarify() -> None:
    # Bot3 wins tricks 1 and 2, Anna trumps the clubs of trick 3 with H10
    state = plays(married(BOT_MARRIES, BOT1), "CK C9 C10 CA", "SA SA S9 S10", "C9 H10 H9 CA")
    assert [t.winner for t in state.tricks] == [BOT3, BOT3, ANNA]
    assert state.abandoned is None
    assert marriage_status(state) == (ANNA, 3)
    assert true_parties(state) == (RE, RE, KONTRA, KONTRA)


def test_no_person_in_three_tricks_ends_a_computers_marriage_unscored() -> None:
    married_bot = married(BOT_MARRIES, BOT1)
    state = plays(married_bot, "CK C9 C10 CA", "SA SA S9 S10")
    assert state.abandoned is None  # still open after two tricks
    state = plays(state, "D9 DK CQ DJ")  # Bot1's CQ wins trick 3
    assert [t.winner for t in state.tricks] == [BOT3, BOT3, BOT1]
    assert state.abandoned == DUEL_UNSCORED
    with pytest.raises(IllegalMove):
        decide(state, PlayCard(BOT1, parse_card("CQ")))
    game = score_game(state)
    assert game.score is None
    assert game.deltas == (0, 0, 0, 0)


# -- summaries follow the duel rules too (docs/rules.md §8) -----------------------------------------


def summarized(command: SummarizeDeal) -> None:
    state = run(GameState(), StartGame("duel-sheet", PLAYERS, DEALER, DUEL))
    with pytest.raises(IllegalMove):
        decide(state, command)


def test_a_summary_cannot_give_a_computer_a_solo() -> None:
    summarized(SummarizeDeal(G.CLUB_SOLO, (BOT1,), 130))


def test_a_summary_cannot_put_both_people_in_one_party_of_a_normal_game() -> None:
    summarized(SummarizeDeal(G.NORMAL, (ANNA, CLEO), 130))


def test_a_summary_cannot_have_a_computer_say_re() -> None:
    summarized(SummarizeDeal(G.NORMAL, (ANNA, BOT1), 130, announcements=(SummaryCall(BOT1, A.RE),)))
