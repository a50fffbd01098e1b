"""decide/evolve of one Dou Dizhu deal, given/when/then (docs/rules.md §D1-§D5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from doko_ledger.doppelkopf.cards import FUCHS
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doudizhu.cards import Hand, Rank, deal, deck, hand, hand_size, parse_cards
from doko_ledger.doudizhu.combinations import Combination, Kind, readings
from doko_ledger.doudizhu.commands import Bid, Command, Deal, PassBid, PassTurn, Play, TakeKitty
from doko_ledger.doudizhu.decide import choose_reading, decide
from doko_ledger.doudizhu.errors import IllegalBid, IllegalMove, IllegalPlay
from doko_ledger.doudizhu.events import (
    AbandonReason,
    BidMade,
    BidPassed,
    CombinationPlayed,
    DouDizhuAbandoned,
    KittyTaken,
    TurnPassed,
)
from doko_ledger.doudizhu.evolve import evolve, fold
from doko_ledger.doudizhu.moves import legal_calls, legal_moves
from doko_ledger.doudizhu.payment import Doubling, doubles, payments, stake
from doko_ledger.doudizhu.state import DealState, Phase, Side

NAMES = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)


def cards(text: str) -> Hand:
    return parse_cards(text)


def the(text: str, players: int = 3) -> Combination:
    (combination,) = readings(cards(text), players)
    return combination


def run(state: DealState, *commands: Command) -> DealState:
    """Decide and evolve each command in turn."""
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def stacked(players: int, given: Mapping[int, str]) -> tuple[tuple[Hand, ...], Hand]:
    """Hands where the given seats hold the given cards; the rest of the deck fills the other
    seats (low cards first) and then the kitty."""
    rest = deck(players) - Counter(c for text in given.values() for c in cards(text))
    pool = sorted(rest.elements())
    hands = []
    for seat in range(players):
        if seat in given:
            hands.append(cards(given[seat]))
        else:
            hands.append(hand(pool[: hand_size(players)]))
            pool = pool[hand_size(players) :]
    return tuple(hands), hand(pool)


def start(
    players: int = 3, given: Mapping[int, str] | None = None, *, known: bool = True, opener: int = 0
) -> DealState:
    hands, kitty = stacked(players, given or {})
    command = Deal("deal-1", NAMES[:players], 0, opener, hands if known else None, kitty if known else None)
    return run(DealState(), command)


def landlord(state: DealState, seat: int, bid: int = 3) -> DealState:
    """Bid until `seat` is the landlord at `bid` (others pass), then take the kitty."""
    while state.phase is Phase.BIDDING:
        to_bid = state.to_bid
        assert to_bid is not None
        state = run(state, Bid(to_bid, bid) if to_bid == seat else PassBid(to_bid))
    assert state.landlord == seat
    return run(state, TakeKitty())


def refused(state: DealState, command: Command) -> str:
    with pytest.raises(IllegalMove) as info:
        decide(state, command)
    return str(info.value)


ANNA_HAND = "3 3 3 4 5 6 7 8 9 J Q K A 2 2 BJ RJ"
BEN_HAND = "4 4 5 5 7 9 9 10 10 J J Q Q K K A A"


@pytest.fixture
def play3() -> DealState:
    """Three players, hands known; Anna is the landlord at 3 and holds the kitty."""
    return landlord(start(3, {ANNA: ANNA_HAND, BEN: BEN_HAND}), ANNA)


# --- the deal -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_a_deal_records_hands_and_kitty_and_opens_the_bidding(players: int) -> None:
    hands, kitty = deal(7, players)
    state = run(DealState(), Deal("d", NAMES[:players], 1, 2, hands, kitty, "2026-11-28", "first"))
    assert state.phase is Phase.BIDDING and state.to_bid == 2
    assert state.hands == hands and state.kitty == kitty
    assert state.left == (hand_size(players),) * players
    assert (state.dealer, state.opener, state.played_on, state.note) == (1, 2, "2026-11-28", "first")


def test_the_kitty_is_derived_when_only_the_hands_are_given() -> None:
    hands, kitty = deal(3, 3)
    (event,) = decide(DealState(), Deal("d", NAMES[:3], 0, 0, hands))
    assert event.kitty == kitty  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Deal("d", NAMES[:2], 0, 0), "Dou Dizhu is played by 3 or 4 players, not 2"),
        (Deal("d", ("Anna", "Ben", "Anna"), 0, 0), "player 'Anna' sits at the table twice"),
        (Deal("d", ("Anna", "Ben", " "), 0, 0), "player name ' ' is empty"),
        (Deal(" ", NAMES[:3], 0, 0), "a deal needs an id"),
        (Deal("d", NAMES[:3], 3, 0), "the dealer must be seat 0-2, not 3"),
        (Deal("d", NAMES[:4], 0, 4), "the opener must be seat 0-3, not 4"),
        (Deal("d", NAMES[:3], 0, 0, deal(1, 3)[0][:2]), "a deal for 3 players has 3 hands, not 2"),
        (Deal("d", NAMES[:3], 0, 0, None, cards("3 4")), "the kitty has 2 cards; with 3 players it has 3"),
        (Deal("d", NAMES[:3], 0, 0, None, cards("BJ BJ 3")), "the deal has 2 BJs; the deck has 1"),
    ],
)
def test_refused_deals(command: Deal, message: str) -> None:
    assert refused(DealState(), command) == message


def test_a_hand_of_the_wrong_size_is_refused_naming_the_player() -> None:
    hands, _ = deal(1, 3)
    short = (hands[0], hands[1][:-1], hands[2])
    assert refused(DealState(), Deal("d", NAMES[:3], 0, 0, short)) == "Ben's hand has 16 cards; each hand has 17"


def test_a_deal_is_dealt_once() -> None:
    state = start()
    assert refused(state, Deal("again", NAMES[:3], 0, 0)) == "deal 'deal-1' was already dealt"


def test_nothing_happens_before_the_deal() -> None:
    assert refused(DealState(), Bid(0, 1)) == "the cards have not been dealt"
    assert refused(DealState(), Play(0, cards("3"))) == "the cards have not been dealt"
    assert DealState().phase is Phase.NEW


# --- bidding --------------------------------------------------------------------------------------


def test_bids_and_passes_become_events() -> None:
    state = start(3, opener=BEN)
    assert decide(state, Bid(BEN, 2)) == [BidMade(BEN, 2)]
    assert decide(state, PassBid(BEN)) == [BidPassed(BEN)]


def test_the_last_pass_of_a_deal_nobody_bid_on_abandons_it() -> None:
    state = run(start(3), PassBid(ANNA), PassBid(BEN))
    events = decide(state, PassBid(CLEO))
    assert events == [BidPassed(CLEO), DouDizhuAbandoned(AbandonReason.NOBODY_BID)]
    state = run(state, PassBid(CLEO))
    assert state.phase is Phase.ABANDONED and state.abandoned == "nobody_bid"
    assert refused(state, Bid(ANNA, 1)) == "the bidding is over: everyone passed and the deal is abandoned"
    assert refused(state, Play(ANNA, cards("3"))) == "the deal was abandoned: nobody bid"
    assert refused(state, TakeKitty()) == "the deal was abandoned: nobody bid"


def test_bidding_ends_with_n_minus_1_passes_and_the_landlord_takes_the_kitty() -> None:
    state = run(start(4), Bid(ANNA, 1), Bid(BEN, 2), PassBid(CLEO), PassBid(DIRK))
    assert state.phase is Phase.BIDDING
    state = run(state, PassBid(ANNA))
    assert state.phase is Phase.KITTY and state.landlord == BEN and state.bid == 2
    assert refused(state, Bid(BEN, 3)) == "the bidding is over: Ben is the landlord at 2"


def test_bidding_refusals_name_the_player() -> None:
    state = run(start(3), Bid(ANNA, 2))
    with pytest.raises(IllegalBid, match="Ben bid 2 but the bid is already 2: a bid must be higher"):
        decide(state, Bid(BEN, 2))
    assert refused(state, Bid(CLEO, 3)) == "not Cleo's turn to bid: Ben's"
    assert refused(state, Bid(BEN, 5)) == "Ben bid 5: a bid must be 1, 2 or 3"


def test_no_play_and_no_kitty_before_the_bidding_is_over() -> None:
    state = run(start(3), Bid(ANNA, 1))
    assert refused(state, Play(ANNA, cards("3"))) == "Anna cannot play yet: the bidding is not over"
    assert refused(state, PassTurn(ANNA)) == "Anna cannot play yet: the bidding is not over"
    assert refused(state, TakeKitty()) == "the bidding is not over: Ben is to bid"


# --- the kitty ------------------------------------------------------------------------------------


def test_with_hands_known_the_kitty_joins_the_landlords_hand() -> None:
    state = run(start(3, {ANNA: ANNA_HAND}), Bid(ANNA, 3))
    kitty = state.kitty
    assert kitty is not None and state.hands is not None
    assert refused(state, Play(ANNA, cards("3"))) == "Anna cannot play yet: the landlord, Anna, takes the kitty first"
    assert decide(state, TakeKitty()) == [KittyTaken(ANNA, kitty)]
    after = run(state, TakeKitty())
    assert after.hands is not None and after.hands[ANNA] == hand(state.hands[ANNA] + kitty)
    assert after.left == (20, 17, 17) and after.phase is Phase.PLAY
    assert after.to_play == after.leader == ANNA
    assert refused(after, TakeKitty()) == "Anna already took the kitty"


def test_a_kitty_that_differs_from_the_recorded_one_is_refused() -> None:
    state = run(start(3), Bid(ANNA, 3))
    kitty = state.kitty
    assert kitty is not None
    wrong = cards("3 3 3") if kitty != cards("3 3 3") else cards("4 4 4")
    assert refused(state, TakeKitty(wrong)).startswith("the kitty is ")
    assert refused(state, TakeKitty(cards("3 3"))) == "the kitty has 3 cards, not 2"


def test_with_hands_unknown_the_kitty_adds_to_the_landlords_count() -> None:
    state = run(start(4, known=False), Bid(ANNA, 3))
    assert decide(state, TakeKitty()) == [KittyTaken(ANNA, None)]
    state = run(state, TakeKitty())
    assert state.left == (33, 25, 25, 25) and state.hands is None
    recorded = run(run(start(3, known=False), Bid(ANNA, 3)), TakeKitty(cards("K 2 BJ")))
    assert recorded.kitty == cards("K 2 BJ") and recorded.left == (20, 17, 17)


# --- play -----------------------------------------------------------------------------------------


def test_a_play_records_its_combination(play3: DealState) -> None:
    assert decide(play3, Play(ANNA, cards("4 3 3 3"))) == [
        CombinationPlayed(ANNA, cards("3 3 3 4"), Kind.TRIO_SINGLE, Rank.THREE, 4)
    ]
    state = run(play3, Play(ANNA, cards("3 3 3 4")))
    assert state.to_play == BEN and state.left[ANNA] == 16
    assert state.to_beat is not None and state.to_beat.seat == ANNA


def test_a_player_cannot_play_cards_they_do_not_hold(play3: DealState) -> None:
    state = run(play3, Play(ANNA, cards("5")))
    message = refused(state, Play(BEN, cards("7 7")))
    assert message.startswith("Ben does not hold 2 7s (holds 4 4 5 5 7 9")
    assert refused(state, Play(BEN, cards("8"))).startswith("Ben does not hold an 8")
    assert refused(state, Play(BEN, cards("2"))).startswith("Ben does not hold a 2")


def test_cards_that_are_no_combination_are_refused(play3: DealState) -> None:
    assert refused(play3, Play(ANNA, cards("7 8 9 J Q"))) == "Anna cannot play: 7 8 9 J Q is no combination"
    assert refused(play3, Play(ANNA, ())) == "Anna must play at least one card, or pass"


def test_a_declared_combination_must_be_a_reading_of_the_cards(play3: DealState) -> None:
    wrong = Combination(Kind.SEQUENCE, Rank.TEN, 5)
    message = refused(play3, Play(ANNA, cards("5 6 7 8 9"), wrong))
    assert message == "Anna cannot play: 5 6 7 8 9 is a sequence 5 to 9, not a sequence 6 to 10"
    right = Combination(Kind.SEQUENCE, Rank.NINE, 5)
    assert decide(play3, Play(ANNA, cards("5 6 7 8 9"), right))[0] == CombinationPlayed(
        ANNA, cards("5 6 7 8 9"), Kind.SEQUENCE, Rank.NINE, 5
    )


def test_cards_with_several_readings_need_a_declaration() -> None:
    """No multiset has two readings under §4 today; the chooser is ready for one that does."""
    sample = cards("3 3 3 4 4 4 5 5 5 6 6 6")
    options = (Combination(Kind.AIRPLANE, Rank.SIX, 12), Combination(Kind.AIRPLANE_SINGLES, Rank.FIVE, 12))
    with pytest.raises(IllegalPlay) as info:
        choose_reading(sample, options, None)
    assert str(info.value) == (
        "3 3 3 4 4 4 5 5 5 6 6 6 can be played as an airplane 3 to 6 or an airplane with singles 3 to 5: declare which"
    )
    assert choose_reading(sample, options, options[1]) == options[1]
    assert choose_reading(sample, options[:1], None) == options[0]


def test_a_play_must_beat_the_combination_on_the_table(play3: DealState) -> None:
    state = run(play3, Play(ANNA, cards("3 3 3 4")))
    assert refused(state, Play(BEN, cards("9 9"))) == (
        "Ben's pair of 9s does not beat Anna's trio of 3s with a single: a pair does not beat a trio with a single: "
        "play a higher trio with a single, a bomb or the rocket"
    )
    state = run(play3, Play(ANNA, cards("5")))
    assert refused(state, Play(BEN, cards("5"))) == (
        "Ben's single 5 does not beat Anna's single 5: 5 is not higher than 5: equal ranks never beat"
    )


def test_the_four_player_game_has_no_trio_with_a_single() -> None:
    state = landlord(start(4, {ANNA: "3 3 3 4 5 6 7 8 9 10 J Q K A 2 5 6 7 8 9 10 J Q K A"}), ANNA)
    assert refused(state, Play(ANNA, cards("3 3 3 4"))) == (
        "Anna cannot play: 3 3 3 4 is no combination (the four-player game has no trio with a single)"
    )


def test_the_leader_may_not_pass_and_turns_are_kept(play3: DealState) -> None:
    assert refused(play3, PassTurn(ANNA)) == "Anna leads and may not pass"
    assert refused(play3, Play(BEN, cards("4"))) == "not Ben's turn to play: Anna's"
    assert refused(play3, PassTurn(CLEO)) == "not Cleo's turn to play: Anna's"


def test_after_all_others_pass_the_last_player_leads_anew(play3: DealState) -> None:
    state = run(play3, Play(ANNA, cards("3")), Play(BEN, cards("4")), PassTurn(CLEO))
    assert state.current is not None and state.to_play == ANNA  # one pass short: Anna may still beat the 4
    state = run(state, PassTurn(ANNA))
    assert state.current is None and len(state.tricks) == 1 and state.tricks[0].winner == BEN
    assert [(m.seat, m.passed) for m in state.tricks[0].moves] == [(0, False), (1, False), (2, True), (0, True)]
    assert state.leader == state.to_play == BEN and state.to_beat is None
    assert refused(state, PassTurn(BEN)) == "Ben leads and may not pass"


def test_a_player_who_passed_may_play_when_the_turn_comes_round(play3: DealState) -> None:
    state = run(play3, Play(ANNA, cards("3")), PassTurn(BEN), Play(CLEO, cards("6")), Play(ANNA, cards("7")))
    state = run(state, Play(BEN, cards("9")))
    assert [(m.seat, m.passed) for m in state.moves] == [(0, False), (1, True), (2, False), (0, False), (1, False)]
    assert state.to_beat is not None and state.to_beat.seat == BEN


# --- hands not recorded ---------------------------------------------------------------------------


def test_without_hands_a_player_cannot_play_more_cards_than_they_hold() -> None:
    state = landlord(start(3, known=False), ANNA)
    state = run(state, Play(ANNA, cards("3 4 5 6 7 8 9 10 J Q K A")), PassTurn(BEN), PassTurn(CLEO))
    assert state.left == (8, 17, 17)
    assert refused(state, Play(ANNA, cards("5 5 5 6 6 6 7 7 8 8"))) == "Anna has 8 cards left and cannot play 10"


def test_without_hands_the_deck_still_limits_each_rank() -> None:
    state = run(landlord(start(3, known=False), ANNA), Play(ANNA, cards("3 3 3 3")))
    assert refused(state, Play(BEN, cards("3"))) == "Ben cannot play 3: that makes 5 3s; the deck has 4"


def test_three_players_landlord_wins_and_every_bomb_and_rocket_doubles() -> None:
    state = landlord(start(3, known=False), ANNA, bid=3)
    state = run(
        state,
        Play(ANNA, cards("3 3 3 3")),
        Play(BEN, cards("4 4 4 4")),
        Play(CLEO, cards("BJ RJ")),
        PassTurn(ANNA),
        PassTurn(BEN),
        Play(CLEO, cards("5")),
        Play(ANNA, cards("2")),
        PassTurn(BEN),
        PassTurn(CLEO),
    )
    assert state.left == (15, 13, 14) and state.to_play == ANNA
    state = run(state, Play(ANNA, cards("6 6 6 7 7 7 8 8 8 9 9 10 10 J J")))
    assert state.phase is Phase.OVER and state.finished and state.out_first == ANNA
    assert state.winner_side is Side.LANDLORD
    assert [d.move for d in state.stake.doublings] == [1, 2, 3]
    assert state.stake.amount == 3 * 8
    assert state.payments == (48, -24, -24) and sum(state.payments) == 0
    assert state.current is None and len(state.tricks) == 3
    assert refused(state, Play(BEN, cards("3"))) == "the deal is over: Anna went out first"
    assert refused(state, PassTurn(BEN)) == "the deal is over: Anna went out first"


def test_four_players_team_wins_and_only_big_bombs_and_the_rocket_double() -> None:
    state = run(start(4, known=False), Bid(ANNA, 1), PassBid(BEN), PassBid(CLEO), PassBid(DIRK), TakeKitty())
    state = run(
        state,
        Play(ANNA, cards("3 3 3 3 3")),
        Play(BEN, cards("4 4 4 4 4 4")),
        PassTurn(CLEO),
        Play(DIRK, cards("BJ BJ RJ RJ")),
        PassTurn(ANNA),
        PassTurn(BEN),
        PassTurn(CLEO),
        Play(DIRK, cards("5 6 7 8 9 10 J Q K A")),
        PassTurn(ANNA),
        PassTurn(BEN),
        PassTurn(CLEO),
        Play(DIRK, cards("5 5 5 6 6 6 7 7 8 8")),
        PassTurn(ANNA),
        PassTurn(BEN),
        PassTurn(CLEO),
    )
    assert state.left == (28, 19, 25, 1)
    state = run(state, Play(DIRK, cards("2")))
    assert state.out_first == DIRK and state.winner_side is Side.FARMERS
    assert state.stake.doublings == (Doubling(2, BEN, the("4 4 4 4 4 4", 4)), Doubling(3, DIRK, the("BJ BJ RJ RJ", 4)))
    assert state.stake.amount == 4
    assert state.payments == (-12, 4, 4, 4)


# --- payment --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "landlord_seat", "out_first", "amount", "expected"),
    [
        (3, 0, 0, 2, (4, -2, -2)),
        (3, 1, 2, 3, (3, -6, 3)),
        (4, 2, 2, 1, (-1, -1, 3, -1)),
        (4, 3, 0, 8, (8, 8, 8, -24)),
    ],
)
def test_payments_sum_to_zero(
    players: int, landlord_seat: int, out_first: int, amount: int, expected: tuple[int, ...]
) -> None:
    assert payments(players, landlord_seat, out_first, amount) == expected
    assert sum(expected) == 0


@pytest.mark.parametrize(
    ("text", "players", "expected"),
    [
        ("3 3 3 3", 3, True),
        ("BJ RJ", 3, True),
        ("2 2", 3, False),
        ("3 3 3 3", 4, False),
        ("3 3 3 3 3", 4, False),
        ("3 3 3 3 3 3", 4, True),
        ("2 2 2 2 2 2 2 2", 4, True),
        ("BJ BJ RJ RJ", 4, True),
        ("BJ BJ", 4, False),
    ],
)
def test_what_doubles_the_stake(text: str, players: int, expected: bool) -> None:
    assert doubles(the(text, players), players) is expected


def test_the_stake_counts_each_doubling_move() -> None:
    plays = [(0, the("3 3 3 3")), (1, the("5")), (2, the("BJ RJ"))]
    result = stake(2, plays, 3)
    assert result.amount == 8
    assert [(d.move, d.seat) for d in result.doublings] == [(1, 0), (3, 2)]


# --- whole deals ----------------------------------------------------------------------------------


def greedy(state: DealState) -> Command:
    """The lowest legal play (singles first, low ranks first); pass only when nothing beats."""
    calls = legal_calls(state)
    if calls:
        return calls[-1]  # bid 3 at once
    moves = legal_moves(state)
    return moves[0]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (3, 2), (4, 1), (4, 2)])
def test_whole_seeded_deals_play_to_the_end(players: int, seed: int) -> None:
    hands, kitty = deal(seed, players)
    state = run(DealState(), Deal(f"seed-{seed}", NAMES[:players], 0, seed % players, hands, kitty))
    events: list[Any] = []
    for _ in range(500):
        if state.phase is Phase.OVER:
            break
        command = TakeKitty() if state.phase is Phase.KITTY else greedy(state)
        new = decide(state, command)
        events.extend(new)
        for event in new:
            state = evolve(state, event)
    assert state.phase is Phase.OVER and state.out_first is not None
    assert state.left[state.out_first] == 0
    assert state.payments is not None and sum(state.payments) == 0
    assert state.stake.bid == 3
    expected_side = Side.LANDLORD if state.out_first == state.landlord else Side.FARMERS
    assert state.winner_side is expected_side
    sign = 1 if expected_side is Side.LANDLORD else -1
    assert state.payments[state.landlord or 0] == sign * state.stake.amount * (players - 1)
    assert state.hands is not None
    assert Counter(state.cards_played) + Counter(c for h in state.hands for c in h) == deck(players)
    assert any(isinstance(e, TurnPassed) for e in events)


# --- evolve is total ------------------------------------------------------------------------------


def test_evolve_ignores_events_it_does_not_know() -> None:
    state = start(3)
    assert evolve(state, CardPlayed(0, FUCHS)) is state
    assert evolve(state, object()) is state


def test_evolve_records_what_an_inconsistent_log_says_without_raising() -> None:
    events = [
        CombinationPlayed(5, cards("3"), Kind.SINGLE, Rank.THREE, 1),
        TurnPassed(1),
        KittyTaken(9, None),
        BidMade(0, 3),
    ]
    state = fold(events)
    assert state.phase is Phase.NEW and len(state.moves) == 2
    assert state.to_play is None and state.payments is None
