"""Reservations (*Vorbehalt*), the poverty exchange and the marriage partner (docs/rules.md §4)."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import pytest
from helpers import MARRIAGE_DEAL, c, cards, play_any, play_script, run, swap

from doko_ledger.doppelkopf.cards import Card, deck
from doko_ledger.doppelkopf.events import (
    AbandonReason,
    DealAbandoned,
    PovertyAnswered,
    PovertyCardsPassed,
    PovertyCardsReturned,
    ReservationDeclared,
    ReservationNamed,
)
from doko_ledger.doppelkopf.game import (
    AbandonDeal,
    Announce,
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
    StartGame,
    decide,
    evolve,
)
from doko_ledger.doppelkopf.game.parties import is_lone, marriage_status, true_parties
from doko_ledger.doppelkopf.game.state import Hand
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.reservations import (
    Contract,
    Named,
    ReservationKind,
    asking_order,
    marriage_partner,
    next_to_declare,
    next_to_name,
    resolve,
    trump_count,
)
from doko_ledger.doppelkopf.rules.ruleset import MarriageClarification, RuleSet, preset

G = GameType
K = ReservationKind
RE, KONTRA = Party.RE, Party.KONTRA
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
STANDARD = preset("standard")
NORMAL_ORDER = card_order(G.NORMAL)


# Cleo holds three trumps (DA D10 HJ): a poverty. CQ with Anna and Ben.
POVERTY_DEAL = (
    cards("H10 H10 CQ SQ SQ HQ HQ DQ CK C9 SK S9"),
    cards("CQ DQ CJ CJ SJ SJ HJ DJ CK C9 HK H9"),
    cards("DA D10 HJ CA CA C10 C10 SA SA S10 HA HA"),
    cards("DJ DA D10 DK DK D9 D9 S10 SK S9 HK H9"),
)
# Anna holds both CQ and Cleo three trumps: a marriage and a poverty are both possible.
MIXED_DEAL = swap(POVERTY_DEAL, ANNA, "DQ", BEN, "CQ")
FOUR_TRUMPS_DEAL = swap(POVERTY_DEAL, CLEO, "C10", DIRK, "DK")
NO_TRUMPS_DEAL = swap(
    swap(swap(POVERTY_DEAL, CLEO, "DA", DIRK, "S10"), CLEO, "D10", DIRK, "SK"), CLEO, "HJ", DIRK, "S9"
)


@pytest.mark.parametrize(
    "deal",
    [MARRIAGE_DEAL, POVERTY_DEAL, MIXED_DEAL, FOUR_TRUMPS_DEAL, NO_TRUMPS_DEAL],
    ids=["marriage", "poverty", "mixed", "four_trumps", "no_trumps"],
)
def test_the_fixed_deals_are_whole_decks(deal: tuple[Hand, ...]) -> None:
    assert Counter(card for hand in deal for card in hand) == deck()
    assert all(len(hand) == 12 for hand in deal)


def test_the_fixed_deals_have_what_their_names_say() -> None:
    assert MARRIAGE_DEAL[ANNA].count(c("CQ")) == 2
    assert MIXED_DEAL[ANNA].count(c("CQ")) == 2
    assert [trump_count(h) for h in POVERTY_DEAL] == [8, 8, 3, 7]
    assert trump_count(MIXED_DEAL[CLEO]) == 3
    assert trump_count(FOUR_TRUMPS_DEAL[CLEO]) == 4
    assert trump_count(NO_TRUMPS_DEAL[CLEO]) == 0


# --- helpers -------------------------------------------------------------------------------------


def refused(state: GameState, command: Command, message: str | None = None) -> IllegalMove:
    with pytest.raises(IllegalMove) as raised:
        decide(state, command)
    if message is not None:
        assert str(raised.value) == message
    return raised.value


def started(deal: tuple[Hand, ...] | None = MARRIAGE_DEAL, dealer: int = DIRK, rules: RuleSet = STANDARD) -> GameState:
    state = run(GameState(), StartGame("g1", PLAYERS, dealer, rules))
    return state if deal is None else run(state, DealCards(deal))


def declared(state: GameState, reserving: tuple[int, ...] = ()) -> GameState:
    """Everyone says healthy or reservation, in asking order."""
    for seat in asking_order(state.dealer):
        state = run(state, DeclareReservation(seat, seat not in reserving))
    return state


def table_cards(state: GameState) -> Counter[Card]:
    """Every card in a hand, on the table, or passed face down and not yet taken."""
    assert state.hands is not None
    total: Counter[Card] = Counter(card for hand in state.hands for card in hand)
    total.update(state.cards_played)
    poverty = state.poverty
    if poverty is not None and poverty.passed and poverty.acceptor is None and poverty.passed_cards is not None:
        total.update(poverty.passed_cards)
    return total


# --- asking order and precedence (pure) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "order"), [(0, (1, 2, 3, 0)), (1, (2, 3, 0, 1)), (2, (3, 0, 1, 2)), (3, (0, 1, 2, 3))]
)
def test_asking_order_starts_left_of_the_dealer(dealer: int, order: tuple[int, ...]) -> None:
    assert asking_order(dealer) == order
    declared_so_far: list[tuple[int, bool]] = []
    for seat in order:
        assert next_to_declare(dealer, declared_so_far) == seat
        declared_so_far.append((seat, True))
    assert next_to_declare(dealer, declared_so_far) is None


SOLO_OF_SEAT = (G.CLUB_SOLO, G.QUEEN_SOLO, G.ACE_SOLO, G.HEART_SOLO)
_RANK = {K.MARRIAGE: 1, K.POVERTY: 2, K.SOLO: 3}


def _named(seat: int, kind: K) -> Named:
    return Named(seat, kind, SOLO_OF_SEAT[seat] if kind is K.SOLO else None)


def _expected_contract(dealer: int, wants: tuple[K | None, ...]) -> Contract:
    """docs/rules.md §4 rewritten: solo > poverty > marriage, then the earlier seat from the dealer's left."""
    order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
    reserving = [s for s in order if wants[s] is not None]
    if not reserving:
        return Contract(G.NORMAL)
    kinds = {s: k for s, k in enumerate(wants) if k is not None}
    best = max(_RANK[k] for k in kinds.values())
    seat = next(s for s in reserving if _RANK[kinds[s]] == best)
    kind = kinds[seat]
    if kind is K.SOLO:
        return Contract(SOLO_OF_SEAT[seat], seat)
    return Contract(G.MARRIAGE if kind is K.MARRIAGE else G.POVERTY, seat)


ALL_WANTS = list(itertools.product([None, K.MARRIAGE, K.POVERTY, K.SOLO], repeat=4))


@pytest.mark.parametrize("dealer", range(4))
def test_precedence_over_every_combination_of_reservations(dealer: int) -> None:
    """All 256 combinations of healthy / marriage / poverty / solo at each seat, for each dealer."""
    for wants in ALL_WANTS:
        order = asking_order(dealer)
        calls = [(seat, wants[seat] is None) for seat in order]
        for n in range(4):
            assert resolve(dealer, calls[:n], []) is None, (dealer, wants, n)
        named: list[Named] = []
        while (seat := next_to_name(dealer, calls, named)) is not None:
            assert resolve(dealer, calls, named) is None
            kind = wants[seat]
            assert kind is not None, "only reserving players name"
            named.append(_named(seat, kind))
        # naming goes in asking order and stops at the first solo
        reserving = [s for s in order if wants[s] is not None]
        solo_at = next((i for i, s in enumerate(reserving) if wants[s] is K.SOLO), None)
        expected_names = reserving if solo_at is None else reserving[: solo_at + 1]
        assert [n.seat for n in named] == expected_names, (dealer, wants)
        assert resolve(dealer, calls, named) == _expected_contract(dealer, wants), (dealer, wants)


@pytest.mark.parametrize(
    ("dealer", "wants", "contract"),
    [
        (3, (None, None, None, None), Contract(G.NORMAL)),
        (3, (K.MARRIAGE, None, K.POVERTY, None), Contract(G.POVERTY, 2)),
        (3, (K.MARRIAGE, K.SOLO, K.POVERTY, None), Contract(G.QUEEN_SOLO, 1)),
        (3, (K.POVERTY, None, K.POVERTY, None), Contract(G.POVERTY, 0)),
        (1, (K.POVERTY, None, K.POVERTY, None), Contract(G.POVERTY, 2)),
        (3, (None, K.SOLO, None, K.SOLO), Contract(G.QUEEN_SOLO, 1)),
        (1, (None, K.SOLO, None, K.SOLO), Contract(G.HEART_SOLO, 3)),
        (2, (K.SOLO, K.SOLO, K.SOLO, K.SOLO), Contract(G.HEART_SOLO, 3)),
        (0, (K.SOLO, K.MARRIAGE, K.POVERTY, K.MARRIAGE), Contract(G.CLUB_SOLO, 0)),
        (0, (None, K.MARRIAGE, None, None), Contract(G.MARRIAGE, 1)),
        (0, (K.MARRIAGE, None, None, K.MARRIAGE), Contract(G.MARRIAGE, 3)),
    ],
)
def test_precedence_table(dealer: int, wants: tuple[K | None, ...], contract: Contract) -> None:
    order = asking_order(dealer)
    calls = [(seat, wants[seat] is None) for seat in order]
    named: list[Named] = []
    while (seat := next_to_name(dealer, calls, named)) is not None:
        kind = wants[seat]
        assert kind is not None
        named.append(_named(seat, kind))
    assert resolve(dealer, calls, named) == contract


@pytest.mark.parametrize(
    ("dealer", "reserving", "kinds", "names"),
    [
        # reserving seats name in asking order ...
        (0, (3, 1), (K.MARRIAGE, K.POVERTY), [1, 3]),
        (2, (3, 1), (K.MARRIAGE, K.POVERTY), [3, 1]),
        (2, (0, 1, 3), (K.POVERTY, K.POVERTY, K.MARRIAGE), [3, 0, 1]),
        # ... and the first solo ends the naming
        (2, (0, 1, 3), (K.SOLO, K.SOLO, K.SOLO), [3]),
        (2, (3, 0, 1), (K.MARRIAGE, K.SOLO, K.SOLO), [3, 0]),
        (2, (3, 0, 1), (K.MARRIAGE, K.POVERTY, K.SOLO), [3, 0, 1]),
        (2, (0, 1, 3), (K.SOLO, K.MARRIAGE, K.POVERTY), [3, 0]),
        (0, (1, 2, 3, 0), (K.MARRIAGE, K.SOLO, K.SOLO, K.SOLO), [1, 2]),
    ],
)
def test_naming_order(dealer: int, reserving: tuple[int, ...], kinds: tuple[K, ...], names: list[int]) -> None:
    kind_of = dict(zip(reserving, kinds, strict=True))
    calls = [(seat, seat not in reserving) for seat in asking_order(dealer)]
    assert next_to_name(dealer, calls[:3], []) is None, "nobody names before all four have spoken"
    named: list[Named] = []
    while (seat := next_to_name(dealer, calls, named)) is not None:
        named.append(_named(seat, kind_of[seat]))
    assert [n.seat for n in named] == names


# --- declaring and naming through decide ---------------------------------------------------------


def test_declarations_are_recorded_in_asking_order() -> None:
    state = started(dealer=BEN)

    events = decide(state, DeclareReservation(CLEO, True))

    assert events == [ReservationDeclared(CLEO, True)]
    state = run(state, DeclareReservation(CLEO, True), DeclareReservation(DIRK, False))
    assert state.declared == ((CLEO, True), (DIRK, False))
    assert state.game_type is None


@pytest.mark.parametrize("dealer", range(4))
def test_declaring_out_of_turn_is_refused(dealer: int) -> None:
    state = started(dealer=dealer)
    first = (dealer + 1) % 4
    for seat in range(4):
        if seat != first:
            refused(
                state,
                DeclareReservation(seat, True),
                f"{PLAYERS[seat]} speaks out of turn: {PLAYERS[first]} is asked next (from the dealer's left, "
                "docs/rules.md §4)",
            )
    state = run(state, DeclareReservation(first, True))
    refused(state, DeclareReservation(first, True))
    refused(state, DeclareReservation(dealer, True))


def test_declaring_after_everyone_has_spoken_is_refused() -> None:
    state = declared(started(), reserving=(BEN,))
    refused(state, DeclareReservation(ANNA, True), "Anna cannot declare: every player has said healthy or reservation")


def test_all_healthy_is_a_normal_game() -> None:
    state = declared(started(POVERTY_DEAL))
    assert state.game_type is G.NORMAL
    assert state.declarer is None
    assert state.ready
    assert state.to_play == ANNA


def test_naming_before_everyone_declared_is_refused() -> None:
    state = run(started(), DeclareReservation(ANNA, False), DeclareReservation(BEN, True))
    refused(
        state,
        NameReservation(ANNA, K.MARRIAGE),
        "Anna names a reservation before every player said healthy or reservation",
    )


def test_naming_out_of_turn_is_refused() -> None:
    state = declared(started(MIXED_DEAL), reserving=(ANNA, CLEO))
    refused(state, NameReservation(CLEO, K.POVERTY), "Cleo cannot name a reservation now: Anna names theirs first")
    refused(
        state, NameReservation(BEN, K.SOLO, G.CLUB_SOLO), "Ben cannot name a reservation now: Anna names theirs first"
    )


def test_naming_after_the_game_is_decided_is_refused() -> None:
    state = declared(started(MIXED_DEAL), reserving=(ANNA, BEN, CLEO))
    state = run(state, NameReservation(ANNA, K.MARRIAGE), NameReservation(BEN, K.SOLO, G.JACK_SOLO))
    assert (state.game_type, state.declarer) == (G.JACK_SOLO, BEN)
    refused(state, NameReservation(CLEO, K.POVERTY), "Cleo cannot name a reservation: the game is already decided")

    normal = declared(started(POVERTY_DEAL))
    refused(
        normal, NameReservation(ANNA, K.SOLO, G.ACE_SOLO), "Anna cannot name a reservation: the game is already decided"
    )


def test_a_healthy_player_cannot_name() -> None:
    state = declared(started(MIXED_DEAL), reserving=(CLEO,))
    refused(state, NameReservation(ANNA, K.MARRIAGE), "Anna cannot name a reservation now: Cleo names theirs first")


def test_a_named_reservation_is_recorded() -> None:
    state = declared(started(MIXED_DEAL), reserving=(ANNA,))

    events = decide(state, NameReservation(ANNA, K.MARRIAGE))

    assert events == [ReservationNamed(ANNA, K.MARRIAGE, None)]
    state = evolve(state, events[0])
    assert (state.game_type, state.declarer) == (G.MARRIAGE, ANNA)


def test_marriage_needs_both_old_ones() -> None:
    state = declared(started(POVERTY_DEAL), reserving=(ANNA,))  # Anna holds one CQ
    refused(
        state, NameReservation(ANNA, K.MARRIAGE), "Anna cannot announce a marriage without both CQ (docs/rules.md §4)"
    )


def test_poverty_needs_three_trumps_or_fewer() -> None:
    state = declared(started(FOUR_TRUMPS_DEAL), reserving=(CLEO,))
    refused(
        state, NameReservation(CLEO, K.POVERTY), "Cleo holds 4 trumps: a poverty needs 3 or fewer (docs/rules.md §4)"
    )
    for deal in (POVERTY_DEAL, NO_TRUMPS_DEAL):
        ok = declared(started(deal), reserving=(CLEO,))
        assert run(ok, NameReservation(CLEO, K.POVERTY)).game_type is G.POVERTY


def test_no_poverty_under_rules_without_it() -> None:
    state = declared(started(POVERTY_DEAL, rules=preset("ddv")), reserving=(CLEO,))
    refused(state, NameReservation(CLEO, K.POVERTY), "these rules have no poverty (option poverty)")


def test_pure_suit_solo_needs_the_option() -> None:
    state = declared(started(), reserving=(BEN,))
    refused(
        state,
        NameReservation(BEN, K.SOLO, G.PURE_HEART_SOLO),
        "pure_heart_solo is not allowed under these rules (option pure_suit_solos)",
    )
    allowed = declared(started(rules=replace(STANDARD, pure_suit_solos=True)), reserving=(BEN,))
    state = run(allowed, NameReservation(BEN, K.SOLO, G.PURE_HEART_SOLO))
    assert (state.game_type, state.declarer) == (G.PURE_HEART_SOLO, BEN)


@pytest.mark.parametrize("solo", [None, G.NORMAL, G.SILENT_SOLO, G.MARRIAGE, G.POVERTY])
def test_a_solo_needs_its_type(solo: GameType | None) -> None:
    state = declared(started(), reserving=(BEN,))
    refused(state, NameReservation(BEN, K.SOLO, solo), "Ben's solo needs its type (club_solo, queen_solo, …)")


@pytest.mark.parametrize("kind", [K.MARRIAGE, K.POVERTY])
def test_only_a_solo_has_a_solo_type(kind: K) -> None:
    state = declared(started(MIXED_DEAL), reserving=(ANNA, CLEO))
    if kind is K.POVERTY:
        state = run(state, NameReservation(ANNA, K.MARRIAGE))
        refused(state, NameReservation(CLEO, kind, G.CLUB_SOLO), "a poverty has no solo type")
    else:
        refused(state, NameReservation(ANNA, kind, G.CLUB_SOLO), "a marriage has no solo type")


@pytest.mark.parametrize(
    "solo",
    [G.CLUB_SOLO, G.SPADE_SOLO, G.HEART_SOLO, G.DIAMOND_SOLO, G.QUEEN_SOLO, G.JACK_SOLO, G.ACE_SOLO],
)
def test_every_solo_type_can_be_named(solo: GameType) -> None:
    state = run(declared(started(), reserving=(CLEO,)), NameReservation(CLEO, K.SOLO, solo))
    assert (state.game_type, state.declarer) == (solo, CLEO)
    assert state.ready
    assert true_parties(state) == (KONTRA, KONTRA, RE, KONTRA)


@pytest.mark.parametrize(
    ("dealer", "reserving", "names", "contract"),
    [
        # Anna can marry, Cleo is poor: poverty beats marriage whoever is asked first.
        (DIRK, (ANNA, CLEO), [(ANNA, K.MARRIAGE, None), (CLEO, K.POVERTY, None)], (G.POVERTY, CLEO)),
        (BEN, (ANNA, CLEO), [(CLEO, K.POVERTY, None), (ANNA, K.MARRIAGE, None)], (G.POVERTY, CLEO)),
        # a solo beats both, even named last
        (
            DIRK,
            (ANNA, CLEO, DIRK),
            [(ANNA, K.MARRIAGE, None), (CLEO, K.POVERTY, None), (DIRK, K.SOLO, G.SPADE_SOLO)],
            (G.SPADE_SOLO, DIRK),
        ),
        # two solos: the first asked from the dealer's left wins (the second never names)
        (DIRK, (BEN, DIRK), [(BEN, K.SOLO, G.ACE_SOLO)], (G.ACE_SOLO, BEN)),
        (BEN, (BEN, DIRK), [(DIRK, K.SOLO, G.QUEEN_SOLO)], (G.QUEEN_SOLO, DIRK)),
    ],
)
def test_precedence_through_decide(
    dealer: int,
    reserving: tuple[int, ...],
    names: list[tuple[int, K, GameType | None]],
    contract: tuple[GameType, int],
) -> None:
    state = declared(started(MIXED_DEAL, dealer=dealer), reserving=reserving)
    for seat, kind, solo in names:
        assert state.game_type is None
        state = run(state, NameReservation(seat, kind, solo))
    assert (state.game_type, state.declarer) == contract


# --- silent solo ---------------------------------------------------------------------------------


def test_both_old_ones_and_healthy_is_a_silent_solo() -> None:
    state = declared(started(MARRIAGE_DEAL))
    assert (state.game_type, state.declarer) == (G.SILENT_SOLO, ANNA)
    assert true_parties(state) == (RE, KONTRA, KONTRA, KONTRA)
    assert is_lone(state)


def test_both_old_ones_with_a_named_marriage_is_a_marriage() -> None:
    state = run(declared(started(MARRIAGE_DEAL), reserving=(ANNA,)), NameReservation(ANNA, K.MARRIAGE))
    assert (state.game_type, state.declarer) == (G.MARRIAGE, ANNA)


def test_no_silent_solo_when_another_players_solo_wins() -> None:
    state = run(declared(started(MARRIAGE_DEAL), reserving=(CLEO,)), NameReservation(CLEO, K.SOLO, G.HEART_SOLO))
    assert (state.game_type, state.declarer) == (G.HEART_SOLO, CLEO)
    assert true_parties(state) == (KONTRA, KONTRA, RE, KONTRA)


def test_no_silent_solo_when_another_players_poverty_wins() -> None:
    state = run(declared(started(MIXED_DEAL), reserving=(CLEO,)), NameReservation(CLEO, K.POVERTY))
    assert (state.game_type, state.declarer) == (G.POVERTY, CLEO)


def test_no_silent_solo_when_the_old_ones_are_split() -> None:
    assert declared(started(POVERTY_DEAL)).game_type is G.NORMAL


def test_the_holder_of_both_old_ones_may_declare_a_solo() -> None:
    state = run(declared(started(MARRIAGE_DEAL), reserving=(ANNA,)), NameReservation(ANNA, K.SOLO, G.JACK_SOLO))
    assert (state.game_type, state.declarer) == (G.JACK_SOLO, ANNA)


# --- poverty -------------------------------------------------------------------------------------

POOR_TRUMPS = "DA D10 HJ"


def poverty_named(deal: tuple[Hand, ...] = POVERTY_DEAL) -> GameState:
    """Dealer Anna; Cleo (asked second) declares a poverty. Answers come from Dirk, Anna, Ben."""
    state = declared(started(deal, dealer=ANNA), reserving=(CLEO,))
    state = run(state, NameReservation(CLEO, K.POVERTY))
    assert (state.game_type, state.declarer) == (G.POVERTY, CLEO)
    return state


def test_poverty_waits_for_the_exchange() -> None:
    state = poverty_named()
    assert not state.ready
    assert state.to_play is None
    refused(
        state, PlayCard(BEN, c("CK")), "Ben cannot play CK: the reservations are not settled yet (docs/rules.md §4)"
    )
    refused(state, Announce(ANNA, Announcement.RE))


def test_poverty_cards_are_passed_with_all_trumps() -> None:
    state = poverty_named()

    events = decide(state, PassPovertyCards(CLEO, cards(POOR_TRUMPS)))

    assert events == [PovertyCardsPassed(CLEO, cards(POOR_TRUMPS))]
    state = evolve(state, events[0])
    assert state.hands is not None
    assert len(state.hands[CLEO]) == 9
    assert trump_count(state.hands[CLEO]) == 0
    assert table_cards(state) == deck()


@pytest.mark.parametrize(
    ("passed", "message"),
    [
        ("DA D10", "Cleo passes 2 cards; a poverty passes three (docs/rules.md §4)"),
        ("DA D10 HJ CA", "Cleo passes 4 cards; a poverty passes three (docs/rules.md §4)"),
        ("DA D10 CA", "Cleo keeps the trump HJ: the poverty passes all trumps (docs/rules.md §4)"),
        ("CA C10 SA", "Cleo keeps the trumps DA D10 HJ: the poverty passes all trumps (docs/rules.md §4)"),
        ("DA D10 DK", "Cleo passes DA D10 DK but holds DA D10 HJ CA CA C10 C10 SA SA S10 HA HA"),
        ("DA DA D10", "Cleo passes DA DA D10 but holds DA D10 HJ CA CA C10 C10 SA SA S10 HA HA"),
    ],
)
def test_poverty_pass_refusals(passed: str, message: str) -> None:
    refused(poverty_named(), PassPovertyCards(CLEO, cards(passed)), message)


def test_poverty_pass_needs_the_cards_when_hands_are_recorded() -> None:
    refused(
        poverty_named(),
        PassPovertyCards(CLEO, None),
        "the hands are recorded, so the cards Cleo passes must be too",
    )


def test_only_the_poor_player_passes_and_only_once() -> None:
    state = poverty_named()
    refused(state, PassPovertyCards(DIRK, cards("DJ DA D10")), "Dirk cannot pass cards: Cleo declared the poverty")
    state = run(state, PassPovertyCards(CLEO, cards(POOR_TRUMPS)))
    refused(state, PassPovertyCards(CLEO, cards("CA CA C10")), "Cleo already passed the poverty cards")


def test_no_pass_without_a_poverty() -> None:
    refused(declared(started(POVERTY_DEAL)), PassPovertyCards(CLEO, cards(POOR_TRUMPS)))


def test_a_poverty_without_trumps_passes_three_plain_cards() -> None:
    state = poverty_named(NO_TRUMPS_DEAL)
    state = run(state, PassPovertyCards(CLEO, cards("CA SA HA")))
    assert state.poverty is not None and state.poverty.passed


def test_answers_go_round_from_the_poor_players_left() -> None:
    state = poverty_named()
    refused(state, AnswerPoverty(DIRK, True), "Dirk cannot answer: no poverty cards have been passed")
    state = run(state, PassPovertyCards(CLEO, cards(POOR_TRUMPS)))
    for seat in (ANNA, BEN, CLEO):
        refused(
            state,
            AnswerPoverty(seat, True),
            f"{PLAYERS[seat]} answers out of turn: Dirk is asked next (docs/rules.md §4)",
        )
    state = run(state, AnswerPoverty(DIRK, False))
    refused(state, AnswerPoverty(BEN, True), "Ben answers out of turn: Anna is asked next (docs/rules.md §4)")
    state = run(state, AnswerPoverty(ANNA, False))
    assert state.poverty is not None and state.poverty.next_to_answer == BEN
    assert table_cards(state) == deck()


@pytest.mark.parametrize(("declines", "acceptor"), [(0, DIRK), (1, ANNA), (2, BEN)])
def test_the_first_accept_takes_the_poverty(declines: int, acceptor: int) -> None:
    state = run(poverty_named(), PassPovertyCards(CLEO, cards(POOR_TRUMPS)))
    for seat in (DIRK, ANNA, BEN)[:declines]:
        state = run(state, AnswerPoverty(seat, False))
        assert table_cards(state) == deck()

    events = decide(state, AnswerPoverty(acceptor, True))

    assert events == [PovertyAnswered(acceptor, True)]
    state = evolve(state, events[0])
    assert state.poverty is not None and state.poverty.acceptor == acceptor
    assert state.hands is not None
    assert len(state.hands[acceptor]) == 15
    assert Counter(cards(POOR_TRUMPS)) <= Counter(state.hands[acceptor])
    assert table_cards(state) == deck()
    assert not state.ready
    # nobody else answers once it is taken
    for seat in (DIRK, ANNA, BEN):
        refused(state, AnswerPoverty(seat, True), f"{PLAYERS[seat]} cannot answer: the poverty is already taken")
    assert true_parties(state) == tuple(RE if s in (CLEO, acceptor) else KONTRA for s in range(4))


def accepted_by_anna() -> GameState:
    state = run(poverty_named(), PassPovertyCards(CLEO, cards(POOR_TRUMPS)))
    return run(state, AnswerPoverty(DIRK, False), AnswerPoverty(ANNA, True))


def test_the_acceptor_returns_three_cards_of_the_hand_after_taking() -> None:
    state = accepted_by_anna()
    # HJ came from Cleo: Anna may give it straight back, with cards of her own
    returned = cards("HJ CK SK")

    events = decide(state, ReturnPovertyCards(ANNA, returned))

    assert events == [PovertyCardsReturned(ANNA, returned)]
    state = evolve(state, events[0])
    assert state.ready
    assert state.to_play == BEN
    assert state.hands is not None
    assert [len(h) for h in state.hands] == [12, 12, 12, 12]
    assert Counter(returned) <= Counter(state.hands[CLEO])
    assert table_cards(state) == deck()
    assert true_parties(state) == (RE, KONTRA, RE, KONTRA)


@pytest.mark.parametrize(
    ("seat", "returned", "message"),
    [
        (BEN, "CK C9 HK", "Ben cannot return cards: Anna took the poverty"),
        (ANNA, "CK SK", "Anna returns 2 cards; a poverty passes three (docs/rules.md §4)"),
        (
            ANNA,
            "CK SK HK",
            "Anna returns CK SK HK but holds H10 H10 CQ SQ SQ HQ HQ DQ CK C9 SK S9 DA D10 HJ after taking the poverty",
        ),
        (
            ANNA,
            "HJ HJ CK",
            "Anna returns HJ HJ CK but holds H10 H10 CQ SQ SQ HQ HQ DQ CK C9 SK S9 DA D10 HJ after taking the poverty",
        ),
    ],
)
def test_poverty_return_refusals(seat: int, returned: str, message: str) -> None:
    refused(accepted_by_anna(), ReturnPovertyCards(seat, cards(returned)), message)


def test_no_return_before_acceptance_or_twice() -> None:
    passed = run(poverty_named(), PassPovertyCards(CLEO, cards(POOR_TRUMPS)))
    refused(
        passed, ReturnPovertyCards(DIRK, cards("DJ DA D10")), "Dirk cannot return cards: nobody has taken a poverty"
    )
    state = run(accepted_by_anna(), ReturnPovertyCards(ANNA, cards("CK SK S9")))
    refused(state, ReturnPovertyCards(ANNA, cards("C9 HQ HQ")), "Anna already returned the poverty's cards")
    refused(accepted_by_anna(), ReturnPovertyCards(ANNA, None))


def test_card_conservation_through_a_poverty_game() -> None:
    """The four hands and the cards played always make the deck — but for the three cards
    lying face down between passing and acceptance."""
    state = started(POVERTY_DEAL, dealer=ANNA)
    steps: list[Command] = [
        DeclareReservation(BEN, True),
        DeclareReservation(CLEO, False),
        DeclareReservation(DIRK, True),
        DeclareReservation(ANNA, True),
        NameReservation(CLEO, K.POVERTY),
        PassPovertyCards(CLEO, cards(POOR_TRUMPS)),
        AnswerPoverty(DIRK, False),
        AnswerPoverty(ANNA, False),
        AnswerPoverty(BEN, True),
        ReturnPovertyCards(BEN, cards("DA HK H9")),
    ]
    assert table_cards(state) == deck()
    for step in steps:
        state = run(state, step)
        assert table_cards(state) == deck(), step
    for _ in range(48):
        state = play_any(state, 1)
        assert table_cards(state) == deck()
    assert state.finished
    assert sum(state.points_won()) == 240
    assert true_parties(state) == (KONTRA, RE, RE, KONTRA)


def test_three_declines_abandon_the_deal() -> None:
    state = run(poverty_named(), PassPovertyCards(CLEO, cards(POOR_TRUMPS)))
    state = run(state, AnswerPoverty(DIRK, False), AnswerPoverty(ANNA, False))

    events = decide(state, AnswerPoverty(BEN, False))

    assert events == [PovertyAnswered(BEN, False), DealAbandoned(AbandonReason.POVERTY_DECLINED)]
    for event in events:
        state = evolve(state, event)
    assert state.abandoned == "poverty_declined"
    assert not state.ready
    assert state.to_play is None
    refused(state, PlayCard(BEN, c("CK")), "Ben cannot play CK: the deal was thrown in")
    refused(state, PlayCard(CLEO, c("CA")), "Cleo cannot play CA: the deal was thrown in")
    refused(state, Announce(ANNA, Announcement.RE))
    refused(state, AnswerPoverty(BEN, True), "no poverty answer: the deal was thrown in (poverty declined)")
    refused(state, ReturnPovertyCards(BEN, cards("CK C9 HK")))
    refused(state, DeclareReservation(BEN, True))


def test_a_misdeal_throws_the_deal_in() -> None:
    state = started()

    events = decide(state, AbandonDeal())

    assert events == [DealAbandoned(AbandonReason.MISDEAL)]
    state = evolve(state, events[0])
    assert state.abandoned == "misdeal"
    assert not state.ready
    refused(state, DeclareReservation(ANNA, True), "no reservation: the deal was thrown in (misdeal)")
    refused(state, PlayCard(ANNA, c("CA")), "Anna cannot play CA: the deal was thrown in")
    refused(state, Announce(ANNA, Announcement.RE))
    refused(state, AbandonDeal(), "no throw-in: the deal was thrown in (misdeal)")


def test_a_misdeal_is_thrown_in_before_the_reservations_only() -> None:
    assert decide(started(None), AbandonDeal()) == [DealAbandoned(AbandonReason.MISDEAL)]
    spoken = run(started(), DeclareReservation(ANNA, True))
    message = "a misdeal is thrown in before the reservations: the players have already spoken"
    refused(spoken, AbandonDeal(), message)
    ready = declared(started(POVERTY_DEAL))
    refused(ready, AbandonDeal(), message)
    playing = run(ready, PlayCard(ANNA, c("CK")))
    refused(playing, AbandonDeal(), "no throw-in once the first card is played")
    refused(playing, DeclareReservation(ANNA, True), "no reservation once the first card is played")


def test_poverty_with_unrecorded_hands() -> None:
    state = declared(started(None, dealer=ANNA), reserving=(CLEO,))
    state = run(state, NameReservation(CLEO, K.POVERTY))
    assert (state.game_type, state.declarer) == (G.POVERTY, CLEO)
    refused(
        state, PassPovertyCards(CLEO, cards("DA D10")), "Cleo passes 2 cards; a poverty passes three (docs/rules.md §4)"
    )
    state = run(
        state,
        PassPovertyCards(CLEO, None),
        AnswerPoverty(DIRK, False),
        AnswerPoverty(ANNA, True),
    )
    assert true_parties(state) == (RE, KONTRA, RE, KONTRA)
    assert not state.ready
    state = run(state, ReturnPovertyCards(ANNA, None))
    assert state.ready
    assert state.hands is None
    state = play_script(state, "CA", "C10", "C9", "CK")  # Ben leads
    assert state.tricks[0].winner == BEN
    state = run(state, Announce(ANNA, Announcement.RE))
    assert state.calls[-1].party is RE


def test_poverty_with_unrecorded_hands_all_declined() -> None:
    state = declared(started(None, dealer=ANNA), reserving=(CLEO,))
    state = run(state, NameReservation(CLEO, K.POVERTY), PassPovertyCards(CLEO, None))
    state = run(state, AnswerPoverty(DIRK, False), AnswerPoverty(ANNA, False), AnswerPoverty(BEN, False))
    assert state.abandoned == "poverty_declined"
    refused(state, PlayCard(BEN, c("CA")), "Ben cannot play CA: the deal was thrown in")


# --- the marriage partner ------------------------------------------------------------------------
# MARRIAGE_DEAL, dealer Dirk: Anna (both CQ) leads the first trick.

ANNA_WINS_CLUBS = ("CA", "CK", "CK", "C9")
ANNA_WINS_SPADES = ("SA", "SK", "SK", "S9")
ANNA_WINS_HEARTS = ("HA", "HK", "HA", "H9")


def marriage(rules: RuleSet = STANDARD) -> GameState:
    state = declared(started(MARRIAGE_DEAL, rules=rules), reserving=(ANNA,))
    return run(state, NameReservation(ANNA, K.MARRIAGE))


@pytest.mark.parametrize(
    ("script", "partner", "trick"),
    [
        (("C9", "C10", "CK", "C9"), BEN, 1),
        (("C9", "CK", "CA", "C10"), CLEO, 1),
        ((*ANNA_WINS_CLUBS, "S9", "SK", "SA", "S10"), CLEO, 2),
        ((*ANNA_WINS_CLUBS, *ANNA_WINS_SPADES, "D9", "DJ", "DJ", "DQ"), DIRK, 3),
        ((*ANNA_WINS_CLUBS, *ANNA_WINS_SPADES, "H9", "HK", "HA", "HK"), CLEO, 3),
    ],
)
def test_the_marriage_partner_is_the_first_other_winner(script: tuple[str, ...], partner: int, trick: int) -> None:
    state = marriage()
    for i, card in enumerate(script[:-1]):
        state = play_script(state, card)
        assert marriage_status(state) == (None, None), i
        assert true_parties(state)[partner] is None
    state = play_script(state, script[-1])
    assert state.tricks[-1].winner == partner
    assert marriage_status(state) == (partner, trick)
    assert true_parties(state) == tuple(RE if s in (ANNA, partner) else KONTRA for s in range(4))
    assert not is_lone(state)
    # later tricks change nothing
    state = play_any(state, 8)
    assert marriage_status(state) == (partner, trick)


def test_a_lone_marriage_after_three_tricks() -> None:
    state = play_script(marriage(), *ANNA_WINS_CLUBS, *ANNA_WINS_SPADES, *ANNA_WINS_HEARTS[:3])
    assert marriage_status(state) == (None, None)
    assert not is_lone(state)
    state = play_script(state, ANNA_WINS_HEARTS[3])
    assert [t.winner for t in state.tricks] == [ANNA, ANNA, ANNA]
    assert marriage_status(state) == (None, 3)
    assert is_lone(state)
    assert true_parties(state) == (RE, KONTRA, KONTRA, KONTRA)
    # a fourth trick won by someone else does not make a partner
    state = play_script(state, "D9", "H10", "DJ", "DA")
    assert state.tricks[-1].winner == BEN
    assert marriage_status(state) == (None, 3)


# Cleo wins a plain trick 1, then Ben a trump trick 2 (led by Cleo).
PLAIN_THEN_TRUMP = ("C9", "CK", "CA", "C10", "DJ", "D10", "D9", "H10")
# Cleo wins a trump trick 1 (led by Anna), then a plain trick 2.
TRUMP_THEN_PLAIN = ("D9", "DA", "H10", "D10", "CA", "C9", "C9", "CK")
# Cleo wins three plain tricks.
THREE_PLAIN = ("C9", "CK", "CA", "C10", "SA", "S9", "S9", "SK", "HA", "H9", "H9", "HK")


@pytest.mark.parametrize(
    ("clarification", "script", "partner", "trick"),
    [
        ("any", PLAIN_THEN_TRUMP, CLEO, 1),
        ("trump", PLAIN_THEN_TRUMP, BEN, 2),
        ("plain", PLAIN_THEN_TRUMP, CLEO, 1),
        ("any", TRUMP_THEN_PLAIN, CLEO, 1),
        ("trump", TRUMP_THEN_PLAIN, CLEO, 1),
        ("plain", TRUMP_THEN_PLAIN, CLEO, 2),
        ("any", THREE_PLAIN, CLEO, 1),
        ("plain", THREE_PLAIN, CLEO, 1),
        ("trump", THREE_PLAIN, None, 3),
    ],
)
def test_marriage_clarification_option(
    clarification: MarriageClarification, script: tuple[str, ...], partner: int | None, trick: int
) -> None:
    rules = replace(STANDARD, marriage_clarification=clarification)
    state = play_script(marriage(rules), *script[: 4 * trick - 1])
    assert marriage_status(state) == (None, None)
    state = play_script(state, script[4 * trick - 1])
    assert marriage_status(state) == (partner, trick)
    assert is_lone(state) is (partner is None)
    rest = play_script(state, *script[4 * trick :])
    assert marriage_status(rest) == (partner, trick)


@pytest.mark.parametrize(
    ("tricks", "clarification", "result"),
    [
        ([], "any", (None, None)),
        ([("C9", 0)], "any", (None, None)),
        ([("C9", 0), ("D9", 0)], "any", (None, None)),
        ([("C9", 0), ("D9", 0), ("HA", 0)], "any", (None, 3)),
        ([("C9", 2)], "any", (2, 1)),
        ([("C9", 0), ("D9", 3)], "any", (3, 2)),
        ([("C9", 0), ("D9", 0), ("HA", 1)], "any", (1, 3)),
        ([("C9", 0), ("D9", 0), ("HA", 0), ("S9", 1)], "any", (None, 3)),
        ([("C9", 2), ("D9", 3)], "trump", (3, 2)),
        ([("C9", 2), ("C10", 3), ("SA", 1)], "trump", (None, 3)),
        ([("C9", 2), ("C10", 3)], "trump", (None, None)),
        ([("DQ", 2), ("D9", 3), ("SA", 1)], "plain", (1, 3)),
        ([("DQ", 2), ("CQ", 3), ("H10", 1)], "plain", (None, 3)),
        ([("DQ", 2), ("D9", 0), ("SA", 1)], "trump", (2, 1)),
    ],
)
def test_marriage_partner_table(
    tricks: list[tuple[str, int]], clarification: str, result: tuple[int | None, ...]
) -> None:
    led = [(c(card), winner) for card, winner in tricks]
    trumps = frozenset(NORMAL_ORDER.trumps)
    assert marriage_partner(led, 0, clarification, trumps) == result
