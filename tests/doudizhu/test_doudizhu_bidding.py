"""The bidding for the landlord (docs/rules.md §D2)."""

from __future__ import annotations

import pytest

from doko_ledger.doudizhu.bidding import PASS, Bidding, check_call
from doko_ledger.doudizhu.errors import IllegalBid
from doko_ledger.errors import DokoError

NAMES3 = ("Anna", "Ben", "Cleo")
NAMES4 = ("Anna", "Ben", "Cleo", "Dirk")


def bids(seats: int, opener: int, *calls: int) -> Bidding:
    """Make the calls in turn order from the opener, checking each (0: a pass)."""
    bidding = Bidding(seats, opener)
    names = NAMES4[:seats]
    for bid in calls:
        seat = bidding.to_bid
        assert seat is not None
        check_call(bidding, seat, bid, names)
        bidding = bidding.after(seat, bid)
    return bidding


def test_the_opener_bids_first_and_the_turn_goes_counter_clockwise() -> None:
    bidding = Bidding(3, 2)
    assert bidding.to_bid == 2
    assert bidding.after(2, PASS).to_bid == 0
    assert bidding.after(2, PASS).after(0, 1).to_bid == 1


def test_a_three_ends_the_bidding_at_once() -> None:
    bidding = bids(3, 1, 3)
    assert bidding.finished and bidding.landlord == 1 and bidding.highest == 3
    assert bidding.to_bid is None


def test_a_three_after_other_bids_ends_it_too() -> None:
    bidding = bids(4, 0, 1, 2, PASS, 3)
    assert bidding.finished and bidding.landlord == 3 and bidding.highest == 3


def test_after_a_bid_two_passes_in_a_row_end_the_three_player_bidding() -> None:
    bidding = bids(3, 0, 1, PASS)
    assert not bidding.finished and bidding.to_bid == 2
    bidding = bids(3, 0, 1, PASS, PASS)
    assert bidding.finished and bidding.landlord == 0 and bidding.highest == 1


def test_four_players_need_three_passes_in_a_row() -> None:
    bidding = bids(4, 0, 1, PASS, PASS)
    assert not bidding.finished and bidding.to_bid == 3
    bidding = bids(4, 0, 1, PASS, PASS, PASS)
    assert bidding.finished and bidding.landlord == 0


def test_a_player_who_passed_may_bid_when_the_turn_comes_round() -> None:
    bidding = bids(3, 0, PASS, 1, PASS, 2)  # Anna passed, then outbid Ben
    assert not bidding.finished and bidding.high_bidder == 0 and bidding.highest == 2
    bidding = bids(3, 0, PASS, 1, PASS, 2, PASS, PASS)
    assert bidding.finished and bidding.landlord == 0


def test_passes_before_the_first_bid_do_not_end_it() -> None:
    bidding = bids(3, 0, PASS, PASS, 1)
    assert not bidding.finished and not bidding.abandoned
    bidding = bids(3, 0, PASS, PASS, 1, PASS, PASS)
    assert bidding.finished and bidding.landlord == 2


@pytest.mark.parametrize("seats", [3, 4])
def test_everyone_passing_abandons_the_deal(seats: int) -> None:
    bidding = bids(seats, 1, *[PASS] * seats)
    assert bidding.abandoned and bidding.over and not bidding.finished
    assert bidding.landlord is None and bidding.to_bid is None


def test_nobody_has_bid_yet_means_no_landlord_and_no_high_bid() -> None:
    bidding = Bidding(3, 0)
    assert (bidding.highest, bidding.high_bidder, bidding.landlord) == (0, None, None)
    assert not bidding.over


@pytest.mark.parametrize(
    ("calls", "seat", "bid", "message"),
    [
        ((), 1, 1, "not Ben's turn to bid: Anna's"),
        ((2,), 1, 2, "Ben bid 2 but the bid is already 2: a bid must be higher"),
        ((2,), 1, 1, "Ben bid 1 but the bid is already 2: a bid must be higher"),
        ((), 0, 4, "Anna bid 4: a bid must be 1, 2 or 3"),
        ((), 0, -1, "Anna bid -1: a bid must be 1, 2 or 3"),
        ((3,), 1, 0, "the bidding is over: Anna is the landlord at 3"),
        ((1, 0, 0), 0, 2, "the bidding is over: Anna is the landlord at 1"),
        ((0, 0, 0), 0, 1, "the bidding is over: everyone passed and the deal is abandoned"),
        ((), 7, 1, "there is no seat 7 at a table of 3"),
    ],
)
def test_refused_calls_say_why(calls: tuple[int, ...], seat: int, bid: int, message: str) -> None:
    bidding = bids(3, 0, *calls)
    with pytest.raises(IllegalBid) as info:
        check_call(bidding, seat, bid, NAMES3)
    assert str(info.value) == message
    assert info.value.seat == seat
    assert isinstance(info.value, DokoError) and isinstance(info.value, ValueError)


def test_a_pass_is_always_open_to_the_player_whose_turn_it_is() -> None:
    check_call(bids(3, 0, 2), 1, PASS, NAMES3)  # does not raise
