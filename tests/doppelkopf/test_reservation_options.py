"""The reservation options: how a poverty is counted and passed, how long a marriage looks for
its partner, which reservation goes first, and the hands that throw the deal in (docs/rules.md §4)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import MARRIAGE_DEAL, c, cards, play_any, play_script, run, swap

from doko_ledger.doppelkopf.audit import command_of
from doko_ledger.doppelkopf.events import AbandonReason, DealAbandoned, ReservationNamed
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game import (
    AnswerPoverty,
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    NameReservation,
    PassPovertyCards,
    ReturnPovertyCards,
    StartGame,
    decide,
)
from doko_ledger.doppelkopf.game.facts import deal_facts
from doko_ledger.doppelkopf.game.parties import is_lone, marriage_status
from doko_ledger.doppelkopf.game.record import from_events
from doko_ledger.doppelkopf.game.state import Hand
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.reservations import (
    Named,
    ReservationKind,
    Throw,
    asking_order,
    marriage_partner,
    may_throw,
    next_to_name,
    poverty_cards,
    poverty_trumps,
    resolve,
)
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, RuleSetError, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import score
from doko_ledger.events.codec import decode_event, encode_event
from doko_ledger.formats.yaml_source import SourceError

K = ReservationKind
G = GameType
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
STANDARD = preset("standard")
TRUMPS = frozenset(card_order(G.NORMAL).trumps)

# Cleo holds three trumps (DA D10 HJ): a poverty. CQ with Anna and Ben.
POVERTY_DEAL = (
    cards("H10 H10 CQ SQ SQ HQ HQ DQ CK C9 SK S9"),
    cards("CQ DQ CJ CJ SJ SJ HJ DJ CK C9 HK H9"),
    cards("DA D10 HJ CA CA C10 C10 SA SA S10 HA HA"),
    cards("DJ DA D10 DK DK D9 D9 S10 SK S9 HK H9"),
)
# Cleo: four trumps, the DA among them (DA D10 HJ DK).
FOUR_WITH_FOX = swap(POVERTY_DEAL, CLEO, "C10", DIRK, "DK")
# Cleo: two trumps and the DA (DA D10 and, for HJ, a plain card).
TWO_WITH_FOX = swap(POVERTY_DEAL, CLEO, "HJ", DIRK, "S9")
# Cleo: one trump (DA).
ONE_TRUMP = swap(TWO_WITH_FOX, CLEO, "D10", DIRK, "SK")


def started(deal: tuple[Hand, ...], rules: RuleSet = STANDARD, dealer: int = ANNA) -> GameState:
    return run(GameState(), StartGame("g1", PLAYERS, dealer, rules), DealCards(deal))


def reserved(state: GameState, *named: NameReservation) -> GameState:
    """Everyone declares (the players of `named` a reservation) and names in asking order."""
    seats = {n.seat for n in named}
    for seat in asking_order(state.dealer):
        state = run(state, DeclareReservation(seat, seat not in seats))
    by_seat = {n.seat: n for n in named}
    while (seat := next_to_name(state.dealer, state.declared, state.named, state.rules, state.hands)) is not None:
        state = run(state, by_seat[seat])
    return state


def refused(state: GameState, command: NameReservation | PassPovertyCards | ReturnPovertyCards, text: str) -> None:
    with pytest.raises(IllegalMove) as raised:
        decide(state, command)
    assert text in str(raised.value)


def poverty(deal: tuple[Hand, ...], **options: object) -> GameState:
    return reserved(started(deal, replace(STANDARD, **options)), NameReservation(CLEO, K.POVERTY))


# --- poverty: counting the trumps and the cards passed ---


def test_the_defaults_leave_every_reservation_as_before() -> None:
    rules = RuleSet()
    assert (rules.poverty_fox, rules.poverty_passes, rules.poverty_exchange, rules.poverty_throw_one_trump) == (
        "counted",
        "three",
        True,
        False,
    )
    assert (rules.marriage_tricks, rules.marriage_first_decides, rules.marriage_before_poverty) == (3, False, False)
    assert (rules.throw_nines, rules.throw_kings, rules.throw_nines_and_kings, rules.throw_richness) == (0, 0, 0, 0)
    assert not rules.throw_fox_highest_trump and not rules.throws_before_solo
    for name in ("standard", "bistro", "ddv", "duel", "tournament"):
        assert preset(name).marriage_tricks == 3 and preset(name).poverty_fox == "counted"


@pytest.mark.parametrize(
    ("fox", "hand", "trumps", "passed"),
    [
        ("counted", POVERTY_DEAL[CLEO], 3, 3),
        ("counted", FOUR_WITH_FOX[CLEO], 4, 3),
        ("not_counted", FOUR_WITH_FOX[CLEO], 3, 4),
        ("not_counted", TWO_WITH_FOX[CLEO], 1, 3),
        ("passed_extra", TWO_WITH_FOX[CLEO], 1, 4),
        ("passed_extra", FOUR_WITH_FOX[CLEO], 3, 4),
    ],
)
def test_poverty_counts_and_passes(fox: str, hand: Hand, trumps: int, passed: int) -> None:
    rules = rules_from_mapping({"poverty_fox": fox})
    assert (poverty_trumps(hand, rules), poverty_cards(hand, rules)) == (trumps, passed)


def test_four_trumps_with_the_fox_are_a_poverty_only_when_the_fox_does_not_count() -> None:
    counted = started(FOUR_WITH_FOX)
    for seat in asking_order(ANNA):
        counted = run(counted, DeclareReservation(seat, seat != CLEO))
    refused(counted, NameReservation(CLEO, K.POVERTY), "Cleo holds 4 trumps: a poverty needs 3 or fewer")
    state = poverty(FOUR_WITH_FOX, poverty_fox="not_counted")
    assert state.game_type is G.POVERTY


def test_a_fox_not_counted_passes_all_four_trumps() -> None:
    state = poverty(FOUR_WITH_FOX, poverty_fox="not_counted")
    refused(state, PassPovertyCards(CLEO, cards("DA D10 HJ")), "Cleo passes 3 cards; a poverty passes four")
    state = run(state, PassPovertyCards(CLEO, cards("DA D10 HJ DK")), AnswerPoverty(DIRK, True))
    refused(state, ReturnPovertyCards(DIRK, cards("S10 SK S9")), "Dirk returns 3 cards; a poverty passes four")
    state = run(state, ReturnPovertyCards(DIRK, cards("S10 SK S9 HK")))
    assert state.ready and state.hands is not None and len(state.hands[CLEO]) == 12


def test_a_fox_passed_extra_goes_on_top_of_three_cards() -> None:
    state = poverty(TWO_WITH_FOX, poverty_fox="passed_extra")
    refused(state, PassPovertyCards(CLEO, cards("DA D10 CA")), "Cleo passes 3 cards; a poverty passes four")
    state = run(state, PassPovertyCards(CLEO, cards("DA D10 CA CA")), AnswerPoverty(DIRK, True))
    assert run(state, ReturnPovertyCards(DIRK, cards("S10 SK HK H9"))).ready


def test_passing_only_the_trumps_gets_as_many_back() -> None:
    state = poverty(TWO_WITH_FOX, poverty_passes="trumps")
    refused(state, PassPovertyCards(CLEO, cards("DA D10 CA")), "Cleo passes 3 cards; a poverty passes two")
    state = run(state, PassPovertyCards(CLEO, cards("DA D10")), AnswerPoverty(DIRK, True))
    refused(state, ReturnPovertyCards(DIRK, cards("S10 SK S9")), "Dirk returns 3 cards; a poverty passes two")
    assert run(state, ReturnPovertyCards(DIRK, cards("S10 SK"))).ready


def test_the_poor_player_keeps_no_trump_whatever_the_count() -> None:
    state = poverty(FOUR_WITH_FOX, poverty_fox="not_counted")
    refused(state, PassPovertyCards(CLEO, cards("DA D10 HJ CA")), "keeps the trump DK")


@pytest.mark.parametrize(
    ("deal", "options", "thrown"),
    [
        (POVERTY_DEAL, {"poverty_exchange": False}, True),
        (ONE_TRUMP, {"poverty_throw_one_trump": True}, True),
        (TWO_WITH_FOX, {"poverty_throw_one_trump": True}, False),
        (ONE_TRUMP, {}, False),
    ],
)
def test_a_poverty_that_throws_the_deal_in(deal: tuple[Hand, ...], options: dict[str, object], thrown: bool) -> None:
    state = started(deal, replace(STANDARD, **options))  # type: ignore[arg-type]
    for seat in asking_order(ANNA):
        state = run(state, DeclareReservation(seat, seat != CLEO))
    events = decide(state, NameReservation(CLEO, K.POVERTY))
    assert (DealAbandoned(AbandonReason.POVERTY_THROWN) in events) == thrown
    after = run(state, NameReservation(CLEO, K.POVERTY))
    assert after.over == thrown


def test_everybody_declining_still_throws_the_deal_in() -> None:
    state = poverty(TWO_WITH_FOX, poverty_passes="trumps")
    state = run(state, PassPovertyCards(CLEO, cards("DA D10")))
    state = run(state, AnswerPoverty(DIRK, False), AnswerPoverty(ANNA, False), AnswerPoverty(BEN, False))
    assert state.abandoned == "poverty_declined" and state.over


# --- which reservation goes first ---


MIXED_DEAL = swap(POVERTY_DEAL, ANNA, "DQ", BEN, "CQ")  # Anna: both CQ; Cleo: a poverty


@pytest.mark.parametrize(("first", "game"), [(False, G.POVERTY), (True, G.MARRIAGE)])
def test_marriage_before_poverty(first: bool, game: GameType) -> None:
    state = started(MIXED_DEAL, replace(STANDARD, marriage_before_poverty=first), dealer=DIRK)
    state = reserved(state, NameReservation(ANNA, K.MARRIAGE), NameReservation(CLEO, K.POVERTY))
    assert state.game_type is game


def test_resolve_orders_solo_throw_poverty_marriage() -> None:
    declared = tuple((s, False) for s in (1, 2, 3, 0))
    named = (
        Named(1, K.MARRIAGE),
        Named(2, K.THROW, throw=Throw.NINES),
        Named(3, K.SOLO, G.JACK_SOLO),
    )
    assert resolve(0, declared, named) is not None
    assert resolve(0, declared, named).game_type is G.JACK_SOLO  # type: ignore[union-attr]
    first = replace(STANDARD, throws_before_solo=True)
    assert next_to_name(0, declared, named[:2], first) is None  # the throw cannot be beaten
    contract = resolve(0, declared, named[:2], first)
    assert contract is not None and (contract.game_type, contract.declarer) == (G.NORMAL, 2)


# --- throwing in ---


NINES_DEAL = (
    cards("C9 C9 S9 S9 H9 CQ DQ CA SA HA HK DA"),
    cards("H9 D9 D9 CQ SQ SQ HQ HQ DQ CJ CJ SJ"),
    cards("H10 H10 SJ HJ HJ DJ DJ DA D10 D10 DK DK"),
    cards("CA C10 C10 CK CK SA S10 S10 SK SK HA HK"),
)


@pytest.mark.parametrize(("least", "allowed"), [(5, True), (6, False), (0, False)])
def test_throwing_in_with_nines(least: int, allowed: bool) -> None:
    state = started(NINES_DEAL, replace(STANDARD, throw_nines=least))
    for seat in asking_order(ANNA):
        state = run(state, DeclareReservation(seat, seat != ANNA))
    command = NameReservation(ANNA, K.THROW, throw=Throw.NINES)
    if not allowed:
        with pytest.raises(IllegalMove, match="Anna cannot throw the deal in"):
            decide(state, command)
        return
    assert decide(state, command) == [
        ReservationNamed(ANNA, K.THROW, None, Throw.NINES),
        DealAbandoned(AbandonReason.THROWN_NINES),
    ]
    state = run(state, command)
    assert state.over and state.abandoned == "thrown_nines" and state.game_type is G.NORMAL


def test_a_solo_goes_before_a_throw_unless_throws_go_first() -> None:
    for first, thrown in ((False, False), (True, True)):
        state = started(NINES_DEAL, replace(STANDARD, throw_nines=5, throws_before_solo=first), dealer=DIRK)
        state = reserved(
            state, NameReservation(ANNA, K.THROW, throw=Throw.NINES), NameReservation(BEN, K.SOLO, G.QUEEN_SOLO)
        )
        assert (state.abandoned == "thrown_nines") == thrown
        assert state.game_type is (G.NORMAL if thrown else G.QUEEN_SOLO)


def test_a_throw_goes_before_a_poverty() -> None:
    state = started(NINES_DEAL, replace(STANDARD, throw_nines=5), dealer=BEN)  # Dirk holds no trump
    state = reserved(state, NameReservation(DIRK, K.POVERTY), NameReservation(ANNA, K.THROW, throw=Throw.NINES))
    assert state.abandoned == "thrown_nines" and state.declarer == ANNA


@pytest.mark.parametrize(
    ("throw", "options", "hand", "why"),
    [
        (Throw.KINGS, {"throw_kings": 5}, "CK CK SK SK HK C9 S9 H9 CA SA HA DA", None),
        (Throw.KINGS, {"throw_kings": 5}, "CK CK SK SK HA C9 S9 H9 CA SA HA DA", "the hand has 4 kings"),
        (Throw.NINES_AND_KINGS, {"throw_nines_and_kings": 7}, "CK CK SK SK C9 S9 H9 CA SA HA DA D10", None),
        (Throw.NINES_AND_KINGS, {"throw_nines_and_kings": 8}, "CK CK SK SK C9 S9 H9 CA SA HA DA D10", "has 7"),
        (Throw.RICHNESS, {"throw_richness": 70}, "CA CA SA SA HA HA DA DA C10 C10 S10 S10", None),
        (Throw.RICHNESS, {"throw_richness": 130}, "CA CA SA SA HA HA DA DA C10 C10 S10 S10", "has 128 card points"),
        (Throw.FOX_HIGHEST_TRUMP, {"throw_fox_highest_trump": True}, "DA D10 DK CA CA SA SA HA HA C9 S9 H9", None),
        (Throw.FOX_HIGHEST_TRUMP, {"throw_fox_highest_trump": True}, "DA DJ DK CA CA SA SA HA HA C9 S9 H9", "DJ"),
        (Throw.FOX_HIGHEST_TRUMP, {}, "DA D10 DK CA CA SA SA HA HA C9 S9 H9", "option throw_fox_highest_trump"),
        (Throw.RICHNESS, {}, "CA CA SA SA HA HA DA DA C10 C10 S10 S10", "option throw_richness"),
    ],
)
def test_which_hands_may_throw_in(throw: Throw, options: dict[str, object], hand: str, why: str | None) -> None:
    found = may_throw(throw, cards(hand), replace(STANDARD, **options))  # type: ignore[arg-type]
    assert found is None if why is None else why in str(found or "")


def test_a_throw_names_its_reason_and_nothing_else_does() -> None:
    state = started(NINES_DEAL, replace(STANDARD, throw_nines=5))
    for seat in asking_order(ANNA):
        state = run(state, DeclareReservation(seat, seat != ANNA))
    with pytest.raises(IllegalMove, match="needs its reason"):
        decide(state, NameReservation(ANNA, K.THROW))
    with pytest.raises(IllegalMove, match="has no throw reason"):
        decide(state, NameReservation(ANNA, K.POVERTY, throw=Throw.NINES))


def test_throw_options_take_their_bounds() -> None:
    assert rules_from_mapping({"throw_richness": 240}).throw_richness == 240
    with pytest.raises(RuleSetError):
        rules_from_mapping({"throw_nines": 9})
    with pytest.raises(RuleSetError):
        rules_from_mapping({"marriage_tricks": 0})


# --- marriage: how long and by which tricks the partner is found ---


def marriage(**options: object) -> GameState:
    """Anna (both CQ) announces a marriage and leads."""
    rules = replace(STANDARD, **options)  # type: ignore[arg-type]
    return reserved(started(MARRIAGE_DEAL, rules, dealer=DIRK), NameReservation(ANNA, K.MARRIAGE))


# Anna takes the first three tricks (clubs, spades, hearts led by her), Ben the fourth (a trump).
ANNA_THREE_THEN_BEN = (
    "CA", "C10", "CK", "C9",
    "SA", "S10", "SK", "S9",
    "HA", "HK", "HA", "H9",
    "D9", "SQ", "DQ", "DA",
)  # fmt: skip


def test_a_marriage_player_taking_the_first_three_tricks_plays_alone_by_default() -> None:
    state = play_script(marriage(), *ANNA_THREE_THEN_BEN[:12])
    assert marriage_status(state) == (None, 3) and is_lone(state)


def test_more_tricks_can_find_the_partner_with_marriage_tricks() -> None:
    state = play_script(marriage(marriage_tricks=12), *ANNA_THREE_THEN_BEN[:12])
    assert marriage_status(state) == (None, None)
    state = play_script(state, *ANNA_THREE_THEN_BEN[12:])
    assert marriage_status(state) == (BEN, 4) and not is_lone(state)


def test_one_trick_to_find_the_partner() -> None:
    state = play_script(marriage(marriage_tricks=1), *ANNA_THREE_THEN_BEN[:4])
    assert marriage_status(state) == (None, 1)


def test_a_trick_of_another_suit_does_not_find_a_clubs_partner() -> None:
    led = [(c("SA"), BEN), (c("D9"), CLEO), (c("CA"), DIRK)]
    assert marriage_partner(led, ANNA, "clubs", TRUMPS) == (DIRK, 3)
    assert marriage_partner(led, ANNA, "spades", TRUMPS) == (BEN, 1)
    assert marriage_partner(led, ANNA, "hearts", TRUMPS) == (None, 3)
    assert marriage_partner(led[:2], ANNA, "hearts", TRUMPS) == (None, None)
    assert marriage_partner(led, ANNA, "trump", TRUMPS) == (CLEO, 2)


def test_the_first_trick_that_counts_decides() -> None:
    led = [(c("SA"), BEN), (c("D9"), ANNA), (c("CA"), DIRK)]
    assert marriage_partner(led, ANNA, "trump", TRUMPS, within=12) == (None, None)
    assert marriage_partner(led, ANNA, "trump", TRUMPS, within=12, first_decides=True) == (None, 2)
    assert marriage_partner(led, ANNA, "any", TRUMPS, within=12, first_decides=True) == (BEN, 1)


def test_no_card_of_the_kind_left_makes_the_marriage_player_alone() -> None:
    led = [(c("SA"), ANNA), (c("SK"), ANNA)]
    assert marriage_partner(led, ANNA, "spades", TRUMPS, within=12, exhausted=[False, False]) == (None, None)
    assert marriage_partner(led, ANNA, "spades", TRUMPS, within=12, exhausted=[False, True]) == (None, 2)


@pytest.mark.parametrize(
    ("clarification", "first_decides", "status"),
    [("clubs", False, (None, None)), ("clubs", True, (None, 1)), ("trump", True, (BEN, 4)), ("plain", True, (None, 1))],
)
def test_a_marriage_played_out_under_each_choice(
    clarification: str, first_decides: bool, status: tuple[int | None, int | None]
) -> None:
    state = marriage(marriage_tricks=12, marriage_clarification=clarification, marriage_first_decides=first_decides)
    state = play_script(state, *ANNA_THREE_THEN_BEN)
    assert marriage_status(state) == status


# --- the events ---


def test_a_stored_version_1_reservation_reads_without_a_throw() -> None:
    named = decode_event("ReservationNamed", 1, '{"kind":"marriage","seat":0,"solo":null}')
    assert named == ReservationNamed(0, K.MARRIAGE)
    name, version, _ = encode_event(ReservationNamed(1, K.THROW, None, Throw.RICHNESS))
    assert (name, version) == ("ReservationNamed", 2)
    assert decode_event("DealAbandoned", 1, '{"reason":"misdeal"}') == DealAbandoned(AbandonReason.MISDEAL)
    text = encode_event(DealAbandoned(AbandonReason.FOX_HIGHEST_TRUMP))[2]
    assert decode_event("DealAbandoned", 2, text) == DealAbandoned(AbandonReason.FOX_HIGHEST_TRUMP)


@pytest.mark.parametrize(("keep", "foxes"), [(False, 0), (True, 2)])
def test_a_lone_marriage_keeps_its_first_tricks_specials_only_by_option(keep: bool, foxes: int) -> None:
    state = marriage(marriage_tricks=1, lone_marriage_specials=keep)
    state = play_script(state, "CQ", "DA", "DQ", "DA")  # Anna takes both DA in trick 1: alone
    assert marriage_status(state) == (None, 1)
    state = play_any(state, 44)
    facts = deal_facts(state)
    assert facts.lone
    lines = score(facts, state.rules).lines
    caught = [line for line in lines if line.item.startswith("fox caught")]
    assert len(caught) == foxes and all(line.party is Party.RE for line in caught)
    assert all(line.cause.startswith("trick 1:") for line in lines if line.special)  # none of the later tricks


# --- a game file ---

THROWN_FILE = """\
format: doko-game/1
id: thrown-1
players: [Anna, Ben, Cleo, Dirk]
dealer: Dirk
rules: {preset: standard, throw_nines: 5}
reservations: {Anna: thrown_nines}
hands:
  Anna: [C9, C9, S9, S9, H9, CQ, DQ, CA, SA, HA, HK, DA]
  Ben: [H9, D9, D9, CQ, SQ, SQ, HQ, HQ, DQ, CJ, CJ, SJ]
  Cleo: [H10, H10, SJ, HJ, HJ, DJ, DJ, DA, D10, D10, DK, DK]
  Dirk: [CA, C10, C10, CK, CK, SA, S10, S10, SK, SK, HA, HK]
tricks: []
"""


def test_a_throw_is_written_in_a_game_file_and_read_back() -> None:
    loaded = game_file.read(THROWN_FILE)
    assert loaded.state.abandoned == "thrown_nines" and loaded.state.over
    assert from_events(loaded.events) == loaded.record
    named = next(e for e in loaded.events if isinstance(e, ReservationNamed))
    assert command_of(named) == NameReservation(ANNA, K.THROW, throw=Throw.NINES)  # what the audit decides again
    assert game_file.dumps(loaded.record) == THROWN_FILE
    with pytest.raises(SourceError, match="the hand has 5 nines; throwing in needs 6"):
        game_file.read(THROWN_FILE.replace("throw_nines: 5", "throw_nines: 6"))


@pytest.mark.parametrize(("first", "game"), [(False, G.QUEEN_SOLO), (True, G.POVERTY)])
def test_a_poverty_that_throws_goes_before_a_solo_only_when_throws_go_first(first: bool, game: GameType) -> None:
    rules = replace(STANDARD, poverty_throw_one_trump=True, throws_before_solo=first)
    state = reserved(
        started(ONE_TRUMP, rules, dealer=BEN),
        NameReservation(CLEO, K.POVERTY),
        NameReservation(DIRK, K.SOLO, G.QUEEN_SOLO),
    )
    assert state.game_type is game
    assert (state.abandoned == "poverty_thrown") == first


NO_TRUMP = swap(ONE_TRUMP, CLEO, "DA", DIRK, "HK")


def test_a_poverty_without_trumps_passing_only_trumps_passes_nothing() -> None:
    state = poverty(NO_TRUMP, poverty_passes="trumps")
    refused(state, PassPovertyCards(CLEO, cards("CA")), "Cleo passes 1 card; a poverty passes none")
    state = run(state, PassPovertyCards(CLEO, ()), AnswerPoverty(DIRK, True), ReturnPovertyCards(DIRK, ()))
    assert state.ready and state.hands is not None and len(state.hands[DIRK]) == 12
