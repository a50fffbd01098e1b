"""decide/evolve of one Doppelkopf game, given/when/then (docs/rules.md §1-§4)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from helpers import c, cards, run

from doko_ledger.doppelkopf.cards import ALTE, Card, card_points, deck
from doko_ledger.doppelkopf.events import (
    AbandonReason,
    CardPlayed,
    CardsDealt,
    DealAbandoned,
    DoppelkopfEvent,
    GameStarted,
    PovertyAnswered,
    PovertyCardsPassed,
    PovertyCardsReturned,
    ReservationDeclared,
    ReservationNamed,
    SchweinchenShown,
)
from doko_ledger.doppelkopf.game import (
    AbandonDeal,
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    NameReservation,
    PassPovertyCards,
    PlayCard,
    ReturnPovertyCards,
    ShowSchweinchen,
    StartGame,
    decide,
    evolve,
    fold,
)
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import legal_plays, winning_index
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping

G = GameType
K = ReservationKind
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
STANDARD = preset("standard")
BISTRO = preset("bistro")

Hands = tuple[tuple[Card, ...], ...]


def swapped(hands: Hands, one: int, card: str, other: int, other_card: str) -> Hands:
    """`hands` with `card` from seat `one` and `other_card` from seat `other` exchanged."""
    out = [list(hand) for hand in hands]
    out[one][out[one].index(c(card))] = c(other_card)
    out[other][out[other].index(c(other_card))] = c(card)
    return tuple(tuple(hand) for hand in out)


# A full 48-card deal of a normal game: the two CQ with Anna and Dirk (the Re party); the two DA
# split (Anna, Dirk); H10 with Anna and Dirk.
DEAL = (
    cards("CQ H10 DA D10 CA C10 CK SA S10 HA HA HK"),
    cards("SQ SQ HQ DK CJ CA C9 SK S9 H9 HK D9"),
    cards("HQ DQ DQ SJ SJ HJ C10 CK C9 SA S10 H9"),
    cards("H10 CQ CJ HJ DJ DJ DA D10 DK D9 SK S9"),
)
# Anna holds both CQ: a marriage, or a silent solo if she says healthy (docs/rules.md §4).
QUEENS_DEAL = swapped(DEAL, ANNA, "HA", DIRK, "CQ")
# Anna holds three trumps (CQ H10 D10): she may declare a poverty.
POVERTY_DEAL = swapped(DEAL, ANNA, "DA", DIRK, "SK")
# A 40-card deal (no nines), suit by suit: Anna clubs, Ben spades, Cleo hearts, Dirk diamonds (both DA);
# Anna and Ben swapped a CQ for a SQ, so that nobody holds both CQ.
SHORT_DEAL = (
    cards("CA CA C10 C10 CK CK CQ SQ CJ CJ"),
    cards("SA SA S10 S10 SK SK SQ CQ SJ SJ"),
    cards("HA HA H10 H10 HK HK HQ HQ HJ HJ"),
    cards("DA DA D10 D10 DK DK DQ DQ DJ DJ"),
)
# Suit by suit without the swap: Anna holds both CQ.
SHORT_QUEENS_DEAL = swapped(SHORT_DEAL, ANNA, "SQ", BEN, "CQ")


def test_the_fixed_deals_are_whole_decks() -> None:
    for hands in (DEAL, QUEENS_DEAL, POVERTY_DEAL):
        assert Counter(card for hand in hands for card in hand) == deck()
    for hands in (SHORT_DEAL, SHORT_QUEENS_DEAL):
        assert Counter(card for hand in hands for card in hand) == deck(with_nines=False)
    for hands in (DEAL, POVERTY_DEAL, SHORT_DEAL):
        assert all(hand.count(ALTE) == 1 for hand in hands if ALTE in hand)
    assert QUEENS_DEAL[ANNA].count(ALTE) == SHORT_QUEENS_DEAL[ANNA].count(ALTE) == 2


# --- given / when / then -------------------------------------------------------------------------


def started(rules: RuleSet = STANDARD, dealer: int = DIRK) -> GameStarted:
    return GameStarted("g1", PLAYERS, dealer, rules, None)


def given(*events: DoppelkopfEvent) -> GameState:
    return fold(events)


def plays(*moves: tuple[int, str]) -> list[PlayCard]:
    return [PlayCard(seat, c(card)) for seat, card in moves]


def refused(state: GameState, command: Command, message: str) -> None:
    with pytest.raises(IllegalMove) as raised:
        decide(state, command)
    assert str(raised.value) == message


def declarations(dealer: int = DIRK, reserving: tuple[int, ...] = ()) -> list[DoppelkopfEvent]:
    """All four say healthy or (`reserving`) reservation, asked from the dealer's left."""
    return [ReservationDeclared(seat, seat not in reserving) for seat in asking_order(dealer)]


def healthy(dealer: int = DIRK) -> list[DoppelkopfEvent]:
    """All four say healthy: a normal game, or the silent solo of a player dealt both CQ."""
    return declarations(dealer)


def reserved(
    seat: int, kind: ReservationKind, solo: GameType | None = None, dealer: int = DIRK
) -> list[DoppelkopfEvent]:
    """`seat` says reservation and names it; the three others say healthy."""
    return [*declarations(dealer, reserving=(seat,)), ReservationNamed(seat, kind, solo)]


def solo(game_type: GameType, soloist: int, dealer: int = DIRK) -> list[DoppelkopfEvent]:
    return reserved(soloist, K.SOLO, game_type, dealer)


def declare(dealer: int = DIRK, reserving: tuple[int, ...] = ()) -> list[Command]:
    """The four DeclareReservation commands in asking order; `reserving` say reservation."""
    return [DeclareReservation(seat, seat not in reserving) for seat in asking_order(dealer)]


def normal_game(rules: RuleSet = STANDARD, dealer: int = DIRK, hands: Hands = DEAL) -> GameState:
    state = given(started(rules, dealer), CardsDealt(hands), *healthy(dealer))
    assert state.game_type is G.NORMAL
    return state


# --- StartGame -----------------------------------------------------------------------------------


def test_start_game_records_players_dealer_and_rules() -> None:
    command = StartGame("g1", PLAYERS, 2, BISTRO, "2024-05-01")

    events = decide(GameState(), command)

    assert events == [GameStarted("g1", PLAYERS, 2, BISTRO, "2024-05-01")]
    state = fold(events)
    assert state.started
    assert state.players == PLAYERS
    assert state.dealer == 2
    assert state.rules == BISTRO
    assert state.hand_size == 10
    assert state.to_play is None


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("Anna", "Ben", "Cleo"), "a game has 4 players, not 3"),
        (("Anna", "Ben", "Cleo", "Dirk", "Eva"), "a game has 4 players, not 5"),
        ((), "a game has 4 players, not 0"),
        (("Anna", "Ben", "Anna", "Dirk"), "player 'Anna' sits at the table twice"),
        (("Anna", "Ben", "", "Dirk"), "player name '' is empty"),
        (("Anna", "Ben", "  ", "Dirk"), "player name '  ' is empty"),
        (("Anna", " Ben", "Clara", "Dirk"), "player name ' Ben' starts or ends with white space"),
        (("Anna", "Ben", "Cla\nra", "Dirk"), "player name 'Cla\\nra' holds a control character or line break"),
    ],
)
def test_start_refuses_bad_players(players: tuple[str, ...], message: str) -> None:
    refused(GameState(), StartGame("g1", players, 0, STANDARD), message)


@pytest.mark.parametrize("dealer", [-1, 4, 7])
def test_start_refuses_a_dealer_who_is_not_a_seat(dealer: int) -> None:
    refused(GameState(), StartGame("g1", PLAYERS, dealer, STANDARD), f"the dealer must be seat 0-3, not {dealer}")


def test_start_refuses_an_empty_id() -> None:
    refused(GameState(), StartGame(" ", PLAYERS, 0, STANDARD), "a game needs an id")


def test_start_refuses_a_second_start() -> None:
    refused(given(started()), StartGame("g2", PLAYERS, 0, STANDARD), "game 'g1' has already started")


@pytest.mark.parametrize(
    "command",
    [
        DealCards(DEAL),
        DeclareReservation(ANNA, True),
        NameReservation(ANNA, K.SOLO, G.CLUB_SOLO),
        PassPovertyCards(ANNA),
        AnswerPoverty(BEN, True),
        ReturnPovertyCards(BEN),
        AbandonDeal(),
        ShowSchweinchen(0),
        PlayCard(0, c("CA")),
    ],
    ids=lambda cmd: type(cmd).__name__,
)
def test_nothing_before_the_start(command: Command) -> None:
    refused(GameState(), command, "the game has not started")


# --- DealCards -----------------------------------------------------------------------------------


def test_deal_records_the_hands() -> None:
    state = given(started())

    events = decide(state, DealCards(DEAL))

    assert events == [CardsDealt(DEAL)]
    after = evolve(state, events[0])
    assert after.hands == DEAL
    assert after.dealt == DEAL


def test_deal_refuses_a_third_copy_of_a_card() -> None:
    ben = cards("SQ SQ HQ DK CJ CA CA SK S9 H9 HK D9")  # C9 became a third CA
    hands = (DEAL[0], ben, DEAL[2], DEAL[3])

    refused(
        given(started()),
        DealCards(hands),
        "the deal has 3 copies of CA (Anna, Ben); the deck has two (docs/rules.md §1)",
    )


def test_deal_refuses_a_wrong_hand_size() -> None:
    hands = (DEAL[0], DEAL[1], DEAL[2][:-1], DEAL[3])

    refused(given(started()), DealCards(hands), "Cleo's hand has 11 cards; each hand has 12 (docs/rules.md §1)")


def test_deal_refuses_12_cards_when_the_rules_have_no_nines() -> None:
    refused(
        given(started(BISTRO)),
        DealCards(DEAL),
        "Anna's hand has 12 cards; each hand has 10 (docs/rules.md §1)",
    )


def test_deal_refuses_nines_when_the_rules_have_none() -> None:
    anna = cards("C9 CA C10 C10 CK CK CQ SQ CJ CJ")  # one CA became C9
    hands = (anna, *SHORT_DEAL[1:])

    refused(
        given(started(BISTRO)),
        DealCards(hands),
        "C9 is not in the deck: this game is played without nines (docs/rules.md §1)",
    )


def test_deal_without_nines_is_accepted() -> None:
    assert decide(given(started(BISTRO)), DealCards(SHORT_DEAL)) == [CardsDealt(SHORT_DEAL)]


def test_deal_refuses_three_hands() -> None:
    refused(given(started()), DealCards(DEAL[:3]), "a deal has 4 hands, not 3")


def test_deal_refuses_dealing_twice() -> None:
    refused(given(started(), CardsDealt(DEAL)), DealCards(DEAL), "the cards were already dealt")


def test_deal_refuses_after_a_reservation_is_said() -> None:
    refused(
        given(started(), ReservationDeclared(ANNA, True)),
        DealCards(DEAL),
        "the deal comes before the reservations and the first card",
    )


# --- reservations (docs/rules.md §4) ------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_reservations_are_said_in_turn_from_the_dealers_left(dealer: int) -> None:
    state = given(started(dealer=dealer), CardsDealt(DEAL))

    for seat in [(dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4, dealer]:
        other = (seat + 1) % 4
        refused(
            state,
            DeclareReservation(other, True),
            f"{PLAYERS[other]} speaks out of turn: {PLAYERS[seat]} is asked next"
            " (from the dealer's left, docs/rules.md §4)",
        )
        events = decide(state, DeclareReservation(seat, True))
        assert events == [ReservationDeclared(seat, True)]
        assert state.game_type is None
        state = evolve(state, events[0])

    assert state.game_type is G.NORMAL
    assert state.declarer is None
    assert state.to_play == (dealer + 1) % 4


@pytest.mark.parametrize("seat", [-1, 4])
def test_a_seat_that_does_not_exist_is_never_asked(seat: int) -> None:
    refused(
        given(started(), CardsDealt(DEAL)),
        DeclareReservation(seat, True),
        f"seat {seat} speaks out of turn: Anna is asked next (from the dealer's left, docs/rules.md §4)",
    )
    refused(
        given(started(), CardsDealt(DEAL), *declarations(reserving=(ANNA,))),
        NameReservation(seat, K.SOLO, G.CLUB_SOLO),
        f"seat {seat} cannot name a reservation now: Anna names theirs first",
    )


def test_nobody_speaks_twice() -> None:
    state = normal_game()

    refused(state, DeclareReservation(ANNA, False), "Anna cannot declare: every player has said healthy or reservation")
    refused(
        state, NameReservation(ANNA, K.SOLO, G.CLUB_SOLO), "Anna cannot name a reservation: the game is already decided"
    )


def test_a_solo_is_named_once_every_player_has_spoken() -> None:
    state = given(started(), CardsDealt(DEAL), ReservationDeclared(ANNA, True), ReservationDeclared(BEN, True))
    state = run(state, DeclareReservation(CLEO, False))

    refused(
        state,
        NameReservation(CLEO, K.SOLO, G.CLUB_SOLO),
        "Cleo names a reservation before every player said healthy or reservation",
    )
    refused(
        state, PlayCard(ANNA, c("CA")), "Anna cannot play CA: the reservations are not settled yet (docs/rules.md §4)"
    )
    state = run(state, DeclareReservation(DIRK, True))
    assert state.game_type is None

    events = decide(state, NameReservation(CLEO, K.SOLO, G.CLUB_SOLO))

    assert events == [ReservationNamed(CLEO, K.SOLO, G.CLUB_SOLO)]
    after = evolve(state, events[0])
    assert after.game_type is G.CLUB_SOLO
    assert after.declarer == CLEO
    assert after.order.is_trump(c("C9"))
    assert after.to_play == ANNA


@pytest.mark.parametrize("solo_type", [None, G.SILENT_SOLO, G.NORMAL, G.MARRIAGE, G.POVERTY])
def test_a_solo_needs_its_type(solo_type: GameType | None) -> None:
    refused(
        given(started(), CardsDealt(DEAL), *declarations(reserving=(CLEO,))),
        NameReservation(CLEO, K.SOLO, solo_type),
        "Cleo's solo needs its type (club_solo, queen_solo, …)",
    )


@pytest.mark.parametrize("kind", [K.MARRIAGE, K.POVERTY])
def test_marriage_and_poverty_have_no_solo_type(kind: ReservationKind) -> None:
    refused(
        given(started(), CardsDealt(QUEENS_DEAL), *declarations(reserving=(ANNA,))),
        NameReservation(ANNA, kind, G.CLUB_SOLO),
        f"a {kind.value} has no solo type",
    )


@pytest.mark.parametrize("game_type", [G.PURE_CLUB_SOLO, G.PURE_SPADE_SOLO, G.PURE_HEART_SOLO, G.PURE_DIAMOND_SOLO])
def test_pure_suit_solo_only_where_the_rules_allow_it(game_type: GameType) -> None:
    refused(
        given(started(STANDARD), CardsDealt(DEAL), *declarations(reserving=(BEN,))),
        NameReservation(BEN, K.SOLO, game_type),
        f"{game_type.value} is not allowed under these rules (option pure_suit_solos)",
    )
    bistro = given(started(BISTRO), CardsDealt(SHORT_DEAL), *declarations(reserving=(BEN,)))
    assert decide(bistro, NameReservation(BEN, K.SOLO, game_type)) == [ReservationNamed(BEN, K.SOLO, game_type)]


@pytest.mark.parametrize(
    ("hands", "seat"),
    [(QUEENS_DEAL, BEN), (QUEENS_DEAL, CLEO), (QUEENS_DEAL, DIRK), (DEAL, ANNA), (DEAL, DIRK)],
    ids=["Ben", "Cleo", "Dirk", "Anna-one-CQ", "Dirk-one-CQ"],
)
def test_a_marriage_needs_both_queens_of_clubs(hands: Hands, seat: int) -> None:
    refused(
        given(started(), CardsDealt(hands), *declarations(reserving=(seat,))),
        NameReservation(seat, K.MARRIAGE),
        f"{PLAYERS[seat]} cannot announce a marriage without both CQ (docs/rules.md §4)",
    )


def test_a_marriage_by_the_holder_of_both_queens_of_clubs() -> None:
    rules = rules_from_mapping({"soloist_leads": True})
    state = run(given(started(rules, dealer=BEN), CardsDealt(QUEENS_DEAL)), *declare(BEN, reserving=(ANNA,)))

    events = decide(state, NameReservation(ANNA, K.MARRIAGE))

    assert events == [ReservationNamed(ANNA, K.MARRIAGE)]
    after = evolve(state, events[0])
    assert after.game_type is G.MARRIAGE
    assert after.declarer == ANNA
    assert after.to_play == CLEO  # a marriage is no solo: the dealer's left leads


def test_a_marriage_without_recorded_hands_is_taken_on_trust() -> None:
    state = given(started(), *declarations(reserving=(BEN,)))

    assert decide(state, NameReservation(BEN, K.MARRIAGE)) == [ReservationNamed(BEN, K.MARRIAGE)]


def test_a_healthy_holder_of_both_queens_of_clubs_plays_a_silent_solo() -> None:
    state = given(started(), CardsDealt(QUEENS_DEAL), *healthy())

    assert state.game_type is G.SILENT_SOLO
    assert state.declarer == ANNA
    assert state.to_play == ANNA


def test_a_silent_solo_without_recorded_hands_shows_when_both_queens_of_clubs_are_played() -> None:
    state = run(given(started(), *healthy()), *plays((ANNA, "CA"), (BEN, "CQ"), (CLEO, "C9"), (DIRK, "CK")))
    assert state.game_type is G.NORMAL
    assert state.to_play == BEN

    state = run(state, PlayCard(BEN, c("CQ")))

    assert state.game_type is G.SILENT_SOLO
    assert state.declarer == BEN


# Asked from the dealer's left: the higher kind wins (solo > poverty > marriage), the earlier player between equals.
PRECEDENCE = [
    (DIRK, [(BEN, K.MARRIAGE, None), (DIRK, K.POVERTY, None)], G.POVERTY, DIRK),
    (DIRK, [(ANNA, K.POVERTY, None), (CLEO, K.POVERTY, None)], G.POVERTY, ANNA),
    (DIRK, [(BEN, K.MARRIAGE, None), (CLEO, K.MARRIAGE, None)], G.MARRIAGE, BEN),
    (DIRK, [(BEN, K.MARRIAGE, None), (CLEO, K.SOLO, G.CLUB_SOLO)], G.CLUB_SOLO, CLEO),
    (DIRK, [(ANNA, K.POVERTY, None), (DIRK, K.SOLO, G.QUEEN_SOLO)], G.QUEEN_SOLO, DIRK),
    (BEN, [(DIRK, K.POVERTY, None), (ANNA, K.POVERTY, None)], G.POVERTY, DIRK),
    (CLEO, [(DIRK, K.MARRIAGE, None), (ANNA, K.MARRIAGE, None)], G.MARRIAGE, DIRK),
]


@pytest.mark.parametrize(
    ("dealer", "names", "game_type", "declarer"),
    PRECEDENCE,
    ids=[
        "poverty-beats-marriage",
        "earlier-poverty",
        "earlier-marriage",
        "solo-beats-marriage",
        "solo-beats-poverty",
        "earlier-from-the-dealers-left-poverty",
        "earlier-from-the-dealers-left-marriage",
    ],
)
def test_the_highest_reservation_sets_the_game(
    dealer: int, names: list[tuple[int, ReservationKind, GameType | None]], game_type: GameType, declarer: int
) -> None:
    state = run(given(started(dealer=dealer)), *declare(dealer, reserving=tuple(seat for seat, _, _ in names)))
    first, second = names
    refused(
        state,
        NameReservation(second[0], second[1], second[2]),
        f"{PLAYERS[second[0]]} cannot name a reservation now: {PLAYERS[first[0]]} names theirs first",
    )

    state = run(state, NameReservation(*first))
    assert state.game_type is None
    state = run(state, NameReservation(*second))

    assert state.game_type is game_type
    assert state.declarer == declarer


def test_the_first_solo_decides_before_later_reservations_are_named() -> None:
    state = run(given(started(), CardsDealt(DEAL)), *declare(reserving=(ANNA, CLEO)))

    state = run(state, NameReservation(ANNA, K.SOLO, G.ACE_SOLO))

    assert state.game_type is G.ACE_SOLO
    assert state.declarer == ANNA
    refused(
        state,
        NameReservation(CLEO, K.SOLO, G.QUEEN_SOLO),
        "Cleo cannot name a reservation: the game is already decided",
    )


def test_reservations_are_refused_once_the_first_card_is_played() -> None:
    state = run(normal_game(), PlayCard(ANNA, c("CA")))

    refused(state, DeclareReservation(ANNA, False), "no reservation once the first card is played")
    refused(state, NameReservation(ANNA, K.SOLO, G.CLUB_SOLO), "no reservation once the first card is played")


def test_a_misdeal_throws_the_deal_in_before_the_reservations() -> None:
    state = given(started(), CardsDealt(DEAL))

    events = decide(state, AbandonDeal())

    assert events == [DealAbandoned(AbandonReason.MISDEAL)]
    after = evolve(state, events[0])
    assert after.to_play is None
    refused(after, DeclareReservation(ANNA, True), "no reservation: the deal was thrown in (misdeal)")
    refused(after, PlayCard(ANNA, c("CA")), "Anna cannot play CA: the deal was thrown in")


# --- poverty -------------------------------------------------------------------------------------


def test_a_poverty_needs_three_trumps_or_fewer() -> None:
    # Anna holds CQ H10 DA D10
    refused(
        given(started(), CardsDealt(DEAL), *declarations(reserving=(ANNA,))),
        NameReservation(ANNA, K.POVERTY),
        "Anna holds 4 trumps: a poverty needs 3 or fewer (docs/rules.md §4)",
    )


def test_a_poverty_only_where_the_rules_have_one() -> None:
    refused(
        given(started(preset("ddv")), CardsDealt(POVERTY_DEAL), *declarations(reserving=(ANNA,))),
        NameReservation(ANNA, K.POVERTY),
        "these rules have no poverty (option poverty)",
    )


def test_a_poverty_is_passed_taken_and_returned_before_the_first_card() -> None:
    state = run(
        given(started(), CardsDealt(POVERTY_DEAL)), *declare(reserving=(ANNA,)), NameReservation(ANNA, K.POVERTY)
    )
    assert state.game_type is G.POVERTY
    assert state.declarer == ANNA
    refused(
        state, PlayCard(ANNA, c("CA")), "Anna cannot play CA: the reservations are not settled yet (docs/rules.md §4)"
    )
    refused(state, PassPovertyCards(BEN, cards("SQ SQ HQ")), "Ben cannot pass cards: Anna declared the poverty")
    refused(
        state,
        PassPovertyCards(ANNA, cards("CQ H10 CA")),
        "Anna keeps the trump D10: the poverty passes all trumps (docs/rules.md §4)",
    )

    passed = cards("CQ H10 D10")
    assert decide(state, PassPovertyCards(ANNA, passed)) == [PovertyCardsPassed(ANNA, passed)]
    state = run(state, PassPovertyCards(ANNA, passed))
    refused(state, AnswerPoverty(CLEO, True), "Cleo answers out of turn: Ben is asked next (docs/rules.md §4)")
    assert decide(state, AnswerPoverty(BEN, False)) == [PovertyAnswered(BEN, False)]
    state = run(state, AnswerPoverty(BEN, False), AnswerPoverty(CLEO, True))
    assert state.hands is not None
    assert len(state.hands[CLEO]) == 15
    refused(
        state, PlayCard(ANNA, c("CA")), "Anna cannot play CA: the reservations are not settled yet (docs/rules.md §4)"
    )

    returned = cards("C9 S10 H9")
    assert decide(state, ReturnPovertyCards(CLEO, returned)) == [PovertyCardsReturned(CLEO, returned)]
    state = run(state, ReturnPovertyCards(CLEO, returned))

    assert state.hands is not None
    assert Counter(state.hands[ANNA]) == Counter(POVERTY_DEAL[ANNA]) - Counter(passed) + Counter(returned)
    assert Counter(state.hands[CLEO]) == Counter(POVERTY_DEAL[CLEO]) + Counter(passed) - Counter(returned)
    assert state.to_play == ANNA
    assert decide(state, PlayCard(ANNA, c("CA"))) == [CardPlayed(ANNA, c("CA"))]


def test_a_poverty_nobody_takes_throws_the_deal_in() -> None:
    state = run(given(started(), *reserved(BEN, K.POVERTY)), PassPovertyCards(BEN))
    state = run(state, AnswerPoverty(CLEO, False), AnswerPoverty(DIRK, False))

    events = decide(state, AnswerPoverty(ANNA, False))

    assert events == [PovertyAnswered(ANNA, False), DealAbandoned(AbandonReason.POVERTY_DECLINED)]
    after = fold(events, state)
    assert after.abandoned == "poverty_declined"
    assert after.to_play is None
    refused(after, PlayCard(ANNA, c("CA")), "Anna cannot play CA: the deal was thrown in")


# --- who leads -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "leader"), [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_the_player_left_of_the_dealer_leads_the_first_trick(dealer: int, leader: int) -> None:
    state = given(started(dealer=dealer), *healthy(dealer))

    assert state.to_play == leader
    refused(
        state,
        PlayCard((leader + 1) % 4, c("CA")),
        f"{PLAYERS[(leader + 1) % 4]} played CA out of turn: it is {PLAYERS[leader]}'s turn (docs/rules.md §3)",
    )


@pytest.mark.parametrize("game_type", [G.CLUB_SOLO, G.DIAMOND_SOLO, G.QUEEN_SOLO, G.JACK_SOLO, G.ACE_SOLO])
def test_soloist_leads_a_declared_solo_under_soloist_leads(game_type: GameType) -> None:
    rules = rules_from_mapping({"soloist_leads": True})

    state = given(started(rules, dealer=DIRK), *solo(game_type, CLEO))

    assert state.to_play == CLEO


def test_soloist_leads_a_pure_suit_solo_under_bistro_rules() -> None:
    state = given(started(BISTRO, dealer=DIRK), *solo(G.PURE_SPADE_SOLO, BEN))

    assert state.to_play == BEN


def test_without_soloist_leads_the_left_of_the_dealer_leads_a_solo() -> None:
    state = given(started(STANDARD, dealer=DIRK), *solo(G.CLUB_SOLO, CLEO))

    assert state.to_play == ANNA


def test_silent_solo_is_led_from_the_dealers_left_even_under_soloist_leads() -> None:
    rules = rules_from_mapping({"soloist_leads": True})
    state = run(given(started(rules, dealer=BEN), CardsDealt(QUEENS_DEAL)), *declare(BEN))

    assert state.game_type is G.SILENT_SOLO
    assert state.declarer == ANNA
    assert state.to_play == CLEO


def test_the_trick_winner_leads_the_next_trick() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "C9"), (CLEO, "CK"), (DIRK, "DJ")))

    assert state.tricks[0].winner == DIRK
    assert state.current is None
    assert state.to_play == DIRK
    refused(state, PlayCard(ANNA, c("C10")), "Anna played C10 out of turn: it is Dirk's turn (docs/rules.md §3)")
    assert run(state, PlayCard(DIRK, c("DJ"))).current.leader == DIRK  # type: ignore[union-attr]


def test_play_goes_clockwise_from_the_leader() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "C9")))

    assert state.to_play == CLEO
    refused(state, PlayCard(DIRK, c("DJ")), "Dirk played DJ out of turn: it is Cleo's turn (docs/rules.md §3)")


# --- PlayCard ------------------------------------------------------------------------------------


def test_play_card_removes_it_from_the_hand() -> None:
    state = normal_game()

    events = decide(state, PlayCard(ANNA, c("CA")))

    assert events == [CardPlayed(ANNA, c("CA"))]
    after = evolve(state, events[0])
    assert after.hands is not None
    assert len(after.hands[ANNA]) == 11
    assert Counter(after.hands[ANNA]) == Counter(DEAL[ANNA]) - Counter([c("CA")])
    assert after.hands[1:] == DEAL[1:]
    assert after.dealt == DEAL
    assert after.current is not None
    assert after.current.cards == (c("CA"),)
    assert after.current.leader == ANNA


def test_hands_shrink_by_one_card_per_play() -> None:
    state = run(normal_game(), *plays((ANNA, "CQ"), (BEN, "SQ"), (CLEO, "HQ"), (DIRK, "H10")))

    assert state.hands is not None
    assert [len(h) for h in state.hands] == [11, 11, 11, 11]
    assert c("CQ") not in state.hands[ANNA]
    assert state.hands[BEN].count(c("SQ")) == 1  # Ben held two
    assert c("H10") not in state.hands[DIRK]


def test_play_refuses_a_card_not_held() -> None:
    refused(
        normal_game(),
        PlayCard(ANNA, c("DQ")),
        "Anna does not hold DQ (holds H10 CQ DA D10 CA C10 CK SA S10 HA HA HK)",
    )


def test_play_refuses_a_card_already_played_from_the_hand() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "CA"), (CLEO, "C10"), (DIRK, "DJ")))
    state = run(state, *plays((DIRK, "DJ"), (ANNA, "H10"), (BEN, "SQ"), (CLEO, "DQ")))

    assert state.tricks[1].winner == ANNA
    refused(
        state,
        PlayCard(ANNA, c("H10")),
        "Anna does not hold H10 (holds CQ DA D10 C10 CK SA S10 HA HA HK)",
    )


def test_play_refuses_a_revoke_of_a_plain_suit() -> None:
    state = run(normal_game(), PlayCard(ANNA, c("CA")))

    refused(
        state,
        PlayCard(BEN, c("SK")),
        "revoke: Ben must follow the led suit of CA with one of CA C9, not SK (docs/rules.md §3)",
    )
    refused(  # CJ is trump, not a club
        state,
        PlayCard(BEN, c("CJ")),
        "revoke: Ben must follow the led suit of CA with one of CA C9, not CJ (docs/rules.md §3)",
    )
    assert decide(state, PlayCard(BEN, c("C9"))) == [CardPlayed(BEN, c("C9"))]


def test_play_refuses_a_revoke_of_trump() -> None:
    state = run(normal_game(), PlayCard(ANNA, c("H10")))

    refused(
        state,
        PlayCard(BEN, c("CA")),
        "revoke: Ben must follow trump with one of SQ SQ HQ CJ DK D9, not CA (docs/rules.md §3)",
    )
    assert decide(state, PlayCard(BEN, c("DK"))) == [CardPlayed(BEN, c("DK"))]


def test_without_the_led_suit_any_card_may_be_played() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "C9"), (CLEO, "CK")))

    # Dirk has no plain club (his CJ is trump): he may discard or trump.
    assert decide(state, PlayCard(DIRK, c("SK"))) == [CardPlayed(DIRK, c("SK"))]
    assert decide(state, PlayCard(DIRK, c("CJ"))) == [CardPlayed(DIRK, c("CJ"))]


@pytest.mark.parametrize(
    ("game_type", "declarer", "must"),
    [
        (G.NORMAL, None, "SQ SQ HQ CJ DK D9"),  # DA is trump: every trump follows
        (G.ACE_SOLO, ANNA, "DK D9"),  # DA is a plain diamond: no queen follows
        (G.CLUB_SOLO, ANNA, "DK D9"),  # diamonds plain; SQ HQ are trump
    ],
)
def test_what_follows_a_diamond_lead_depends_on_the_game_type(
    game_type: GameType, declarer: int | None, must: str
) -> None:
    contract = healthy() if declarer is None else solo(game_type, declarer)
    state = run(given(started(), CardsDealt(DEAL), *contract), PlayCard(ANNA, c("DA")))
    assert state.game_type is game_type
    kind = "trump" if game_type is G.NORMAL else "the led suit of DA"

    refused(
        state, PlayCard(BEN, c("SK")), f"revoke: Ben must follow {kind} with one of {must}, not SK (docs/rules.md §3)"
    )


@pytest.mark.parametrize(
    "so_far",
    [
        [],
        declarations()[:3],
        declarations(reserving=(CLEO,)),
        declarations(reserving=(BEN, CLEO)) + [ReservationNamed(BEN, K.MARRIAGE)],
    ],
    ids=["nobody-asked", "three-asked", "reservation-not-named", "second-reservation-not-named"],
)
def test_play_refuses_before_the_reservations_are_settled(so_far: list[DoppelkopfEvent]) -> None:
    refused(
        given(started(), CardsDealt(QUEENS_DEAL), *so_far),
        PlayCard(ANNA, c("CA")),
        "Anna cannot play CA: the reservations are not settled yet (docs/rules.md §4)",
    )


def test_play_without_recorded_hands_refuses_a_third_copy() -> None:
    state = run(given(started(), *healthy()), *plays((ANNA, "CA"), (BEN, "CA")))

    refused(state, PlayCard(CLEO, c("CA")), "Cleo played a third CA: both copies are already played")


def test_play_without_recorded_hands_accepts_any_card_in_turn() -> None:
    state = run(given(started(), *healthy()), PlayCard(ANNA, c("CA")))

    # Ben's hand is unknown: a card that might be a revoke is recorded (audit proves it later).
    assert decide(state, PlayCard(BEN, c("SK"))) == [CardPlayed(BEN, c("SK"))]


def test_play_without_recorded_hands_refuses_a_nine_when_the_rules_have_none() -> None:
    refused(
        given(started(BISTRO), *healthy()),
        PlayCard(ANNA, c("C9")),
        "Anna played C9, which is not in the deck: this game has no nines",
    )


# --- Schweinchen ---------------------------------------------------------------------------------

SCHWEINCHEN_STANDARD = rules_from_mapping({"schweinchen": True})


def test_schweinchen_is_refused_where_the_rules_have_none() -> None:
    refused(
        given(started(STANDARD), *healthy()),
        ShowSchweinchen(BEN),
        "these rules have no Schweinchen (option schweinchen)",
    )


@pytest.mark.parametrize(
    ("so_far", "game_type"),
    [
        (solo(G.DIAMOND_SOLO, BEN), G.DIAMOND_SOLO),
        ([CardsDealt(SHORT_QUEENS_DEAL), *healthy()], G.SILENT_SOLO),
        (solo(G.CLUB_SOLO, BEN), G.CLUB_SOLO),
    ],
    ids=["diamond_solo", "silent_solo", "club_solo"],
)
def test_schweinchen_only_in_a_normal_or_marriage_game(so_far: list[DoppelkopfEvent], game_type: GameType) -> None:
    state = given(started(BISTRO), *so_far)
    assert state.game_type is game_type
    refused(
        state,
        ShowSchweinchen(BEN),
        "Schweinchen counts only in a normal or marriage game (docs/rules.md §2)",
    )


def test_schweinchen_is_refused_before_the_game_type() -> None:
    refused(
        given(started(BISTRO)),
        ShowSchweinchen(BEN),
        "Schweinchen counts only in a normal or marriage game (docs/rules.md §2)",
    )


def test_schweinchen_refuses_a_seat_that_does_not_exist() -> None:
    refused(given(started(BISTRO), *healthy()), ShowSchweinchen(4), "there is no seat 4")


def test_schweinchen_shown_without_recorded_hands_puts_da_on_top() -> None:
    state = given(started(BISTRO), *healthy())

    events = decide(state, ShowSchweinchen(BEN))

    assert events == [SchweinchenShown(BEN)]
    after = evolve(state, events[0])
    assert after.schweinchen_seat == BEN
    assert after.order.trumps[:2] == (c("DA"), c("H10"))
    refused(after, ShowSchweinchen(CLEO), "Ben already showed the Schweinchen")


def test_schweinchen_in_a_marriage_is_accepted() -> None:
    state = given(started(BISTRO), *reserved(ANNA, K.MARRIAGE))
    assert state.game_type is G.MARRIAGE

    assert decide(state, ShowSchweinchen(BEN)) == [SchweinchenShown(BEN)]


def test_schweinchen_is_refused_after_a_da_was_played() -> None:
    state = run(given(started(BISTRO), *healthy()), PlayCard(ANNA, c("DA")))

    refused(state, ShowSchweinchen(BEN), "a DA was already played: the Schweinchen is shown with the first one")


@pytest.mark.parametrize(
    ("rules", "hands", "seat"),
    [(SCHWEINCHEN_STANDARD, DEAL, ANNA), (BISTRO, SHORT_DEAL, DIRK), (BISTRO, SHORT_DEAL, BEN)],
    ids=["nobody-holds-both", "holder", "not-the-holder"],
)
def test_schweinchen_call_is_refused_where_hands_are_recorded(
    rules: RuleSet, hands: tuple[tuple[Card, ...], ...], seat: int
) -> None:
    refused(
        normal_game(rules, hands=hands),
        ShowSchweinchen(seat),
        "the hands are recorded, so the Schweinchen is known from the deal; leave the call out",
    )


def test_a_dealt_schweinchen_is_known_from_the_hands() -> None:
    assert normal_game(BISTRO, hands=SHORT_DEAL).schweinchen_seat == DIRK
    assert normal_game(SCHWEINCHEN_STANDARD, hands=DEAL).schweinchen_seat is None
    assert normal_game(replace(BISTRO, schweinchen=False), hands=SHORT_DEAL).schweinchen_seat is None


def test_after_a_schweinchen_call_only_its_holder_plays_a_da() -> None:
    state = run(given(started(BISTRO), *healthy()), ShowSchweinchen(BEN), PlayCard(ANNA, c("CA")))

    assert decide(state, PlayCard(BEN, c("DA"))) == [CardPlayed(BEN, c("DA"))]
    state = run(state, *plays((BEN, "C10"), (CLEO, "CK"), (DIRK, "CK")))
    refused(state, PlayCard(ANNA, c("DA")), "Anna cannot hold DA: Ben showed both (Schweinchen)")


@pytest.mark.parametrize(("schweinchen", "winner"), [(True, DIRK), (False, CLEO)])
def test_dealt_schweinchen_wins_over_the_dulle(schweinchen: bool, winner: int) -> None:
    rules = replace(BISTRO, schweinchen=schweinchen)

    state = run(normal_game(rules, hands=SHORT_DEAL), *plays((ANNA, "CQ"), (BEN, "SQ"), (CLEO, "H10"), (DIRK, "DA")))

    assert state.tricks[0].winner == winner


# --- the Dulle option through evolve -------------------------------------------------------------


@pytest.mark.parametrize(("option", "winner"), [(False, ANNA), (True, DIRK)])
def test_second_dulle_in_a_trick(option: bool, winner: int) -> None:
    rules = rules_from_mapping({"second_dulle_beats_first": option})

    state = run(normal_game(rules), *plays((ANNA, "H10"), (BEN, "D9"), (CLEO, "DQ"), (DIRK, "H10")))

    assert state.tricks[0].winner == winner


@pytest.mark.parametrize("option", [False, True])
def test_first_dulle_wins_the_last_trick_even_under_the_option(option: bool) -> None:
    rules = rules_from_mapping({"second_dulle_beats_first": option})
    state = given(started(rules), *healthy())
    rest = Counter(deck()) - Counter(cards("H10 H10 C9 C9"))
    for card in sorted(rest.elements(), key=str):
        assert state.to_play is not None
        state = run(state, PlayCard(state.to_play, card))
    assert len(state.tricks) == 11
    leader = state.to_play
    assert leader is not None

    state = run(state, *[PlayCard((leader + i) % 4, card) for i, card in enumerate(cards("H10 C9 H10 C9"))])

    assert state.finished
    assert state.tricks[-1].winner == leader


# --- whole games ---------------------------------------------------------------------------------


def random_game(
    rules: RuleSet, game_type: GameType, declarer: int | None, seed: int, dealer: int = 0
) -> tuple[GameState, list[DoppelkopfEvent], list[GameState]]:
    """A full game of random legal plays; the events and every state on the way."""
    rng = random.Random(seed)
    pack = list(deck(rules.with_nines).elements())
    size = rules.hand_size
    while True:  # a normal game needs the two CQ in two hands (else it is a silent solo)
        rng.shuffle(pack)
        hands = tuple(tuple(pack[i * size : (i + 1) * size]) for i in range(4))
        if game_type is not GameType.NORMAL or all(h.count(ALTE) < 2 for h in hands):
            break
    commands: list[Command] = [
        StartGame(f"game-{seed}", PLAYERS, dealer, rules),
        DealCards(hands),
        *declare(dealer, reserving=() if declarer is None else (declarer,)),
    ]
    if declarer is not None:
        commands.append(NameReservation(declarer, K.SOLO, game_type))
    state = GameState()
    states = [state]
    events: list[DoppelkopfEvent] = []
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
            states.append(state)
    assert state.game_type is game_type
    assert state.declarer == declarer
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        trick = state.current.cards if state.current is not None else ()
        card = rng.choice(sorted(legal_plays(state.hands[seat], trick, state.order), key=str))
        for event in decide(state, PlayCard(seat, card)):
            state = evolve(state, event)
            events.append(event)
            states.append(state)
    return state, events, states


GAMES = [
    (STANDARD, G.NORMAL, None, 1),
    (STANDARD, G.NORMAL, None, 2),
    (STANDARD, G.NORMAL, None, 3),
    (rules_from_mapping({"second_dulle_beats_first": True}), G.NORMAL, None, 4),
    (rules_from_mapping({"soloist_leads": True}), G.CLUB_SOLO, CLEO, 5),
    (STANDARD, G.QUEEN_SOLO, BEN, 6),
    (STANDARD, G.JACK_SOLO, DIRK, 7),
    (STANDARD, G.ACE_SOLO, ANNA, 8),
    (STANDARD, G.HEART_SOLO, ANNA, 9),
    (BISTRO, G.NORMAL, None, 10),
    (BISTRO, G.PURE_HEART_SOLO, BEN, 11),
    (BISTRO, G.DIAMOND_SOLO, CLEO, 12),
]


@pytest.mark.parametrize(
    ("rules", "game_type", "declarer", "seed"), GAMES, ids=[f"{g[0].preset}-{g[1].value}-{g[3]}" for g in GAMES]
)
def test_a_random_legal_game_deals_out_240_card_points(
    rules: RuleSet, game_type: GameType, declarer: int | None, seed: int
) -> None:
    state, events, _ = random_game(rules, game_type, declarer, seed)

    assert state.finished
    assert state.to_play is None
    assert len(state.tricks) == rules.hand_size
    assert sum(state.points_won()) == 240
    assert sum(card_points(t.cards) for t in state.tricks) == 240
    assert sum(state.tricks_won()) == rules.hand_size
    assert Counter(state.cards_played) == deck(rules.with_nines)
    assert state.hands is not None
    assert all(hand == () for hand in state.hands)
    assert sum(isinstance(e, CardPlayed) for e in events) == 4 * rules.hand_size


@pytest.mark.parametrize(
    ("rules", "game_type", "declarer", "seed"), GAMES, ids=[f"{g[0].preset}-{g[1].value}-{g[3]}" for g in GAMES]
)
def test_each_trick_is_led_by_the_previous_winner(
    rules: RuleSet, game_type: GameType, declarer: int | None, seed: int
) -> None:
    state, _, _ = random_game(rules, game_type, declarer, seed, dealer=2)

    assert state.tricks[0].leader == state.first_leader
    for before, after in zip(state.tricks, state.tricks[1:], strict=False):
        assert after.leader == before.winner
    for trick in state.tricks:
        index = winning_index(
            trick.cards,
            state.order,
            second_dulle_beats_first=rules.second_dulle_beats_first,
            last_trick=trick.number == rules.hand_size,
        )
        assert trick.winner == (trick.leader + index) % 4


def test_the_first_leader_of_a_random_game() -> None:
    soloist_leads = rules_from_mapping({"soloist_leads": True})

    normal, _, _ = random_game(STANDARD, G.NORMAL, None, 21, dealer=2)
    solo, _, _ = random_game(soloist_leads, G.CLUB_SOLO, BEN, 22, dealer=2)

    assert normal.tricks[0].leader == DIRK
    assert solo.tricks[0].leader == BEN


@pytest.mark.parametrize("seed", [31, 32])
def test_fold_equals_step_by_step_evolve(seed: int) -> None:
    final, events, states = random_game(STANDARD, G.NORMAL, None, seed)

    assert fold(events) == final
    for k in range(len(events) + 1):
        assert fold(events[:k]) == states[k]
    middle = 20
    assert fold(events[middle:], states[middle]) == final


def test_play_after_the_last_trick_is_refused() -> None:
    final, _, _ = random_game(STANDARD, G.NORMAL, None, 41)

    refused(final, PlayCard(ANNA, c("CA")), "Anna cannot play CA: all 12 tricks are played")


def test_play_after_the_last_trick_of_a_short_game_is_refused() -> None:
    final, _, _ = random_game(BISTRO, G.NORMAL, None, 42)

    refused(final, PlayCard(CLEO, c("HA")), "Cleo cannot play HA: all 10 tricks are played")


# --- evolve never validates ----------------------------------------------------------------------


def test_evolve_applies_an_event_decide_would_refuse() -> None:
    state = normal_game()

    after = evolve(state, CardPlayed(BEN, c("DQ")))  # out of turn and not in Ben's hand

    assert after.current is not None
    assert after.current.cards == (c("DQ"),)
    assert after.current.leader == BEN
    assert after.hands == state.hands


def test_evolve_ignores_unknown_events() -> None:
    state = normal_game()

    assert evolve(state, object()) is state
