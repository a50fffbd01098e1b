"""Who plays with whom: true parties, what the table knew, announced levels (docs/rules.md §4-§5)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import MARRIAGE_DEAL, c, cards, play_any, run
from helpers import play_script as play

from doko_ledger.doppelkopf.game import (
    Announce,
    AnswerPoverty,
    DealCards,
    DeclareReservation,
    GameState,
    NameReservation,
    PassPovertyCards,
    ReturnPovertyCards,
    StartGame,
)
from doko_ledger.doppelkopf.game.parties import (
    Announced,
    announced,
    is_lone,
    marriage_status,
    public_parties,
    true_parties,
)
from doko_ledger.doppelkopf.game.state import Hand
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset

A = Announcement
G = GameType
K = ReservationKind
RE, KONTRA = Party.RE, Party.KONTRA
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
STANDARD = preset("standard")
NOBODY = (None, None, None, None)


# The old ones split: Anna (CQ SQ …) and Ben (… CQ) are Re.
NORMAL_DEAL = (
    cards("CQ SQ D9 D9 DK DK CA C9 SA S9 HA H9"),
    cards("H10 CQ SQ HQ DJ DA D10 C10 CK S10 SK HK"),
    MARRIAGE_DEAL[2],
    MARRIAGE_DEAL[3],
)
# Cleo holds three trumps (DA D10 HJ); the CQ are with Anna and Ben.
POVERTY_DEAL = (
    cards("H10 H10 CQ SQ SQ HQ HQ DQ CK C9 SK S9"),
    cards("CQ DQ CJ CJ SJ SJ HJ DJ CK C9 HK H9"),
    cards("DA D10 HJ CA CA C10 C10 SA SA S10 HA HA"),
    cards("DJ DA D10 DK DK D9 D9 S10 SK S9 HK H9"),
)


def started(deal: tuple[Hand, ...] | None, dealer: int = DIRK, rules: RuleSet = STANDARD) -> GameState:
    state = run(GameState(), StartGame("g1", PLAYERS, dealer, rules))
    return state if deal is None else run(state, DealCards(deal))


def declared(state: GameState, reserving: int | None = None) -> GameState:
    for seat in asking_order(state.dealer):
        state = run(state, DeclareReservation(seat, seat != reserving))
    return state


def game(
    deal: tuple[Hand, ...] | None = NORMAL_DEAL,
    dealer: int = DIRK,
    reservation: tuple[int, K, GameType | None] | None = None,
) -> GameState:
    state = declared(started(deal, dealer), None if reservation is None else reservation[0])
    if reservation is not None:
        state = run(state, NameReservation(*reservation))
    return state


def both(state: GameState) -> tuple[tuple[Party | None, ...], tuple[Party | None, ...]]:
    """(true parties, public parties)."""
    return true_parties(state), public_parties(state)


# --- before the game type is known ----------------------------------------------------------------


def test_nothing_is_known_before_the_reservations() -> None:
    state = started(NORMAL_DEAL)
    assert both(state) == (NOBODY, NOBODY)
    state = run(state, DeclareReservation(ANNA, True), DeclareReservation(BEN, True))
    assert both(state) == (NOBODY, NOBODY)
    assert not is_lone(state)
    assert marriage_status(state) == (None, None)


# --- normal game ---------------------------------------------------------------------------------


def test_normal_game_the_holders_of_the_old_ones_are_re() -> None:
    state = game()
    assert state.game_type is G.NORMAL
    assert true_parties(state) == (RE, RE, KONTRA, KONTRA)
    assert public_parties(state) == NOBODY
    assert not is_lone(state)


def test_normal_game_public_knowledge_grows() -> None:
    state = game()
    state = run(state, Announce(CLEO, A.KONTRA))
    assert public_parties(state) == (None, None, KONTRA, None)
    state = run(state, Announce(DIRK, A.KONTRA))
    # two known Kontra do not show the rest: a silent solo would look the same
    assert public_parties(state) == (None, None, KONTRA, KONTRA)
    state = play(state, "CQ")  # Anna
    assert public_parties(state) == (RE, None, KONTRA, KONTRA)
    state = play(state, "CQ")  # Ben
    assert public_parties(state) == (RE, RE, KONTRA, KONTRA)
    assert true_parties(state) == (RE, RE, KONTRA, KONTRA)


def test_normal_game_two_known_re_show_the_others_as_kontra() -> None:
    state = play(game(), "CQ")  # Anna
    assert public_parties(state) == (RE, None, None, None)
    state = play(state, "HQ")  # Ben follows trump without the CQ: nothing shown
    assert public_parties(state) == (RE, None, None, None)
    state = play(state, "DQ", "DQ")
    assert public_parties(state) == (RE, None, None, None)
    state = run(state, Announce(BEN, A.RE))  # Ben has played one card: in time
    assert public_parties(state) == (RE, RE, KONTRA, KONTRA)


def test_normal_game_an_announcement_shows_the_callers_party() -> None:
    state = run(game(), Announce(BEN, A.NO90))
    assert public_parties(state) == (None, RE, None, None)
    state = run(state, Announce(DIRK, A.KONTRA))
    assert public_parties(state) == (None, RE, None, KONTRA)


def test_normal_game_public_knowledge_is_never_wrong() -> None:
    state = game()
    for _ in range(48):
        truth, public = both(state)
        assert all(p is None or p is t for p, t in zip(public, truth, strict=True))
        state = play_any(state, 1)
    assert both(state) == ((RE, RE, KONTRA, KONTRA), (RE, RE, KONTRA, KONTRA))


# --- solos ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("solo", [G.CLUB_SOLO, G.DIAMOND_SOLO, G.QUEEN_SOLO, G.JACK_SOLO, G.ACE_SOLO])
def test_a_declared_solo_is_public_at_once(solo: GameType) -> None:
    state = game(reservation=(DIRK, K.SOLO, solo))
    assert both(state) == ((KONTRA, KONTRA, KONTRA, RE), (KONTRA, KONTRA, KONTRA, RE))
    assert is_lone(state)


def test_a_silent_solo_is_public_when_the_second_old_one_is_played() -> None:
    state = game(MARRIAGE_DEAL)
    assert (state.game_type, state.declarer) == (G.SILENT_SOLO, ANNA)
    assert true_parties(state) == (RE, KONTRA, KONTRA, KONTRA)
    assert public_parties(state) == NOBODY
    assert is_lone(state)
    state = play(state, "CQ")
    assert public_parties(state) == (RE, None, None, None)
    state = play(state, "SQ", "HQ", "DQ")
    assert state.tricks[0].winner == ANNA
    assert public_parties(state) == (RE, None, None, None)
    state = play(state, "CQ")
    assert public_parties(state) == (RE, KONTRA, KONTRA, KONTRA)
    assert true_parties(state) == (RE, KONTRA, KONTRA, KONTRA)


def test_a_silent_solo_stays_hidden_behind_kontra_calls() -> None:
    state = run(game(MARRIAGE_DEAL), Announce(BEN, A.KONTRA), Announce(CLEO, A.KONTRA))
    assert public_parties(state) == (None, KONTRA, KONTRA, None)
    state = run(state, Announce(ANNA, A.RE))
    assert public_parties(state) == (RE, KONTRA, KONTRA, None)
    assert true_parties(state) == (RE, KONTRA, KONTRA, KONTRA)


# --- marriage ------------------------------------------------------------------------------------

ANNA_WINS_CLUBS = ("CA", "CK", "CK", "C9")
ANNA_WINS_SPADES = ("SA", "SK", "SK", "S9")


@pytest.mark.parametrize(
    ("script", "partner", "trick"),
    [
        (("C9", "C10", "CK", "C9"), BEN, 1),
        ((*ANNA_WINS_CLUBS, "S9", "SK", "SA", "S10"), CLEO, 2),
        ((*ANNA_WINS_CLUBS, *ANNA_WINS_SPADES, "D9", "DJ", "DJ", "DQ"), DIRK, 3),
    ],
)
def test_the_marriage_partner_is_public_when_the_clarifying_trick_is_complete(
    script: tuple[str, ...], partner: int, trick: int
) -> None:
    state = game(MARRIAGE_DEAL, reservation=(ANNA, K.MARRIAGE, None))
    assert both(state) == ((RE, None, None, None), (RE, None, None, None))
    assert not is_lone(state)
    state = play(state, *script[:-1])
    assert both(state) == ((RE, None, None, None), (RE, None, None, None))
    assert marriage_status(state) == (None, None)
    state = play(state, script[-1])
    expected = tuple(RE if s in (ANNA, partner) else KONTRA for s in range(4))
    assert both(state) == (expected, expected)
    assert marriage_status(state) == (partner, trick)
    assert not is_lone(state)


def test_a_lone_marriage_is_public_after_trick_three() -> None:
    state = game(MARRIAGE_DEAL, reservation=(ANNA, K.MARRIAGE, None))
    state = play(state, *ANNA_WINS_CLUBS, *ANNA_WINS_SPADES, "HA", "HK", "HA")
    assert both(state) == ((RE, None, None, None), (RE, None, None, None))
    assert not is_lone(state)
    state = play(state, "H9")
    lone = (RE, KONTRA, KONTRA, KONTRA)
    assert both(state) == (lone, lone)
    assert marriage_status(state) == (None, 3)
    assert is_lone(state)


def test_marriage_status_outside_a_marriage() -> None:
    for state in (game(), game(MARRIAGE_DEAL), game(reservation=(BEN, K.SOLO, G.ACE_SOLO))):
        assert marriage_status(play_any(state, 12)) == (None, None)


# --- poverty -------------------------------------------------------------------------------------


def test_the_poverty_partner_is_public_on_acceptance() -> None:
    state = game(POVERTY_DEAL, dealer=ANNA, reservation=(CLEO, K.POVERTY, None))
    poor = (None, None, RE, None)
    assert both(state) == (poor, poor)
    state = run(state, PassPovertyCards(CLEO, cards("DA D10 HJ")), AnswerPoverty(DIRK, False))
    assert both(state) == (poor, poor)
    state = run(state, AnswerPoverty(ANNA, True))
    taken = (RE, KONTRA, RE, KONTRA)
    assert both(state) == (taken, taken)
    assert not is_lone(state)
    state = run(state, ReturnPovertyCards(ANNA, cards("CK C9 S9")))
    # Ben's CQ makes him nothing: the poor player and the acceptor are Re (docs/rules.md §4)
    state = play(state, "CQ")
    assert state.current is not None and state.current.plays == ((BEN, c("CQ")),)
    assert both(state) == (taken, taken)


# --- hands not recorded --------------------------------------------------------------------------


def test_unrecorded_hands_truth_from_the_cards_and_calls() -> None:
    state = game(None)
    assert state.game_type is G.NORMAL
    assert both(state) == (NOBODY, NOBODY)
    state = play(state, "CA", "CQ")  # Ben shows a CQ
    assert both(state) == ((None, RE, None, None), (None, RE, None, None))
    state = run(state, Announce(CLEO, A.KONTRA))
    assert true_parties(state) == (None, RE, KONTRA, None)
    state = run(state, Announce(DIRK, A.KONTRA))
    # two Kontra do not settle the rest: Anna or Ben could hold both CQ
    assert true_parties(state) == (None, RE, KONTRA, KONTRA)
    state = play(state, "C10", "C9")  # Ben's CQ wins trick 1
    state = play(state, "SA", "S9", "S10", "CQ")  # Anna shows the other CQ: two Re settle it
    assert both(state) == ((RE, RE, KONTRA, KONTRA), (RE, RE, KONTRA, KONTRA))


def test_unrecorded_hands_two_re_settle_the_parties() -> None:
    state = play(game(None), "CQ", "CQ")  # Anna and Ben
    assert both(state) == ((RE, RE, KONTRA, KONTRA), (RE, RE, KONTRA, KONTRA))


def test_unrecorded_hands_the_second_old_one_by_the_same_player_is_a_silent_solo() -> None:
    state = play(game(None), "CQ", "SQ", "HQ", "DQ")
    assert state.tricks[0].winner == ANNA
    assert true_parties(state) == (RE, None, None, None)
    assert state.game_type is G.NORMAL
    state = play(state, "CQ")
    assert (state.game_type, state.declarer) == (G.SILENT_SOLO, ANNA)
    assert both(state) == ((RE, KONTRA, KONTRA, KONTRA), (RE, KONTRA, KONTRA, KONTRA))
    assert is_lone(state)


def test_unrecorded_hands_marriage_partner_from_the_tricks() -> None:
    state = game(None, reservation=(ANNA, K.MARRIAGE, None))
    state = play(state, "CA", "CK", "CK", "C9")
    assert true_parties(state) == (RE, None, None, None)
    state = play(state, "D9", "DJ", "DQ", "DA")  # Cleo's DQ wins trick 2
    assert marriage_status(state) == (CLEO, 2)
    assert both(state) == ((RE, KONTRA, RE, KONTRA), (RE, KONTRA, RE, KONTRA))


def test_unrecorded_hands_poverty_partner_from_the_answers() -> None:
    state = game(None, dealer=ANNA, reservation=(CLEO, K.POVERTY, None))
    state = run(state, PassPovertyCards(CLEO), AnswerPoverty(DIRK, False), AnswerPoverty(ANNA, False))
    assert true_parties(state) == (None, None, RE, None)
    state = run(state, AnswerPoverty(BEN, True), ReturnPovertyCards(BEN))
    assert both(state) == ((KONTRA, RE, RE, KONTRA), (KONTRA, RE, RE, KONTRA))


# --- announced -----------------------------------------------------------------------------------


def test_announced_lists_skipped_levels_as_implied() -> None:
    state = play(game(), "CA")
    state = run(state, Announce(ANNA, A.NO60), Announce(BEN, A.RE), Announce(CLEO, A.KONTRA))
    state = play(state, "CK", "CK")
    state = run(state, Announce(BEN, A.NO30))
    assert announced(state) == [
        Announced(RE, A.RE, ANNA, 1, 1, True, "implied by Anna's no 60"),
        Announced(RE, A.NO90, ANNA, 1, 1, True, "implied by Anna's no 60"),
        Announced(RE, A.NO60, ANNA, 1, 1, False, "Anna"),
        Announced(KONTRA, A.KONTRA, CLEO, 0, 1, False, "Cleo"),
        Announced(RE, A.NO30, BEN, 1, 1, False, "Ben"),
    ]
    assert [(call.seat, call.announcement) for call in state.calls] == [
        (ANNA, A.NO60),
        (BEN, A.RE),
        (CLEO, A.KONTRA),
        (BEN, A.NO30),
    ]


def test_announced_is_empty_without_calls() -> None:
    assert announced(game()) == []
    assert announced(game(reservation=(BEN, K.SOLO, G.CLUB_SOLO))) == []


@pytest.mark.parametrize(
    ("state_of", "lone"),
    [
        (lambda: game(), False),
        (lambda: game(MARRIAGE_DEAL), True),
        (lambda: game(reservation=(CLEO, K.SOLO, G.HEART_SOLO)), True),
        (lambda: game(MARRIAGE_DEAL, reservation=(ANNA, K.MARRIAGE, None)), False),
        (lambda: game(POVERTY_DEAL, dealer=ANNA, reservation=(CLEO, K.POVERTY, None)), False),
    ],
    ids=["normal", "silent_solo", "heart_solo", "open_marriage", "poverty"],
)
def test_is_lone(state_of: Callable[[], GameState], lone: bool) -> None:
    assert is_lone(state_of()) is lone


def test_is_lone_under_other_rules() -> None:
    bistro = preset("bistro")
    state = declared(started(None, rules=bistro), reserving=BEN)
    state = run(state, NameReservation(BEN, K.SOLO, G.PURE_SPADE_SOLO))
    assert is_lone(state)
    assert both(state) == ((KONTRA, RE, KONTRA, KONTRA), (KONTRA, RE, KONTRA, KONTRA))
