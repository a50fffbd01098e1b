"""Invariants over random legal Dou Dizhu deals (Hypothesis): cards, payments, replay, round trips."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko_ledger.doudizhu.candidates import candidate_plays
from doko_ledger.doudizhu.cards import RANKS, Rank, deal, deck
from doko_ledger.doudizhu.combinations import Kind, beats, readings
from doko_ledger.doudizhu.commands import Deal, TakeKitty
from doko_ledger.doudizhu.decide import decide
from doko_ledger.doudizhu.events import (
    AbandonReason,
    BidMade,
    BidPassed,
    CombinationPlayed,
    DouDizhuAbandoned,
    DouDizhuDealt,
    KittyTaken,
    TurnPassed,
)
from doko_ledger.doudizhu.evolve import evolve, fold
from doko_ledger.doudizhu.moves import legal_calls, legal_moves
from doko_ledger.doudizhu.state import DealState, Phase
from doko_ledger.events.codec import decode_event, encode_event

pytestmark = pytest.mark.slow  # Hypothesis runs of whole random deals

NAMES = ("Anna", "Ben", "Cleo", "Dirk")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.sampled_from([3, 4])


@dataclass(frozen=True)
class RandomDeal:
    players: int
    events: list[Any]
    states: list[DealState]

    @property
    def final(self) -> DealState:
        return self.states[-1]


def random_deal(seed: int, players: int, *, known: bool = True) -> RandomDeal:
    """A seeded deal, random legal bids, and random legal moves until a hand is empty (or nobody bid).

    With `known` False the same moves are recorded on a deal whose hands are not."""
    rng = random.Random(seed)
    hands, kitty = deal(seed, players)
    state = DealState()
    events: list[Any] = []
    states: list[DealState] = []
    shadow = DealState()  # the same deal with hands known, to choose moves when they are not recorded

    def apply(command: Any) -> None:
        nonlocal state, shadow
        for event in decide(state, command):
            events.append(event)
            state = evolve(state, event)
            states.append(state)
        if not known:
            shadow = fold(decide(shadow, command), shadow)

    start = Deal(f"random-{seed}", NAMES[:players], rng.randrange(players), rng.randrange(players), hands, kitty)
    if known:
        apply(start)
    else:
        shadow = fold(decide(shadow, start))
        for event in decide(state, Deal(start.game_id, start.players, start.dealer, start.opener)):
            events.append(event)
            state = evolve(state, event)
            states.append(state)
    while True:
        view = state if known else shadow
        if view.phase is Phase.BIDDING:
            apply(rng.choice(legal_calls(view)))
        elif view.phase is Phase.KITTY:
            apply(TakeKitty())
        elif view.phase is Phase.PLAY:
            apply(rng.choice(legal_moves(view)))
        else:
            return RandomDeal(players, events, states)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_cards_are_conserved_and_counts_match_the_hands(seed: int, players: int) -> None:
    game = random_deal(seed, players)
    full = deck(players)
    for state in game.states:
        assert state.hands is not None and state.kitty is not None
        held = Counter(c for h in state.hands for c in h)
        unclaimed = Counter() if state.kitty_taken else Counter(state.kitty)
        assert held + Counter(state.cards_played) + unclaimed == full
        assert state.left == tuple(len(h) for h in state.hands)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_a_deal_ends_over_or_abandoned_and_payments_sum_to_zero(seed: int, players: int) -> None:
    final = random_deal(seed, players).final
    assert final.phase in (Phase.OVER, Phase.ABANDONED)
    if final.phase is Phase.ABANDONED:
        assert final.payments is None and final.landlord is None
        return
    assert final.out_first is not None and final.left[final.out_first] == 0
    assert final.payments is not None and sum(final.payments) == 0
    assert final.stake.amount == final.bid * 2 ** len(final.stake.doublings)
    assert abs(final.payments[final.landlord or 0]) == final.stake.amount * (players - 1)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_replay_is_a_fold_and_events_round_trip_through_the_codec(seed: int, players: int) -> None:
    game = random_deal(seed, players)
    assert fold(game.events) == game.final
    decoded = [decode_event(*encode_event(e)) for e in game.events]
    assert decoded == game.events
    assert fold(decoded) == game.final


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_recording_only_the_moves_gives_the_same_deal(seed: int, players: int) -> None:
    known = random_deal(seed, players).final
    unknown = random_deal(seed, players, known=False).final
    assert unknown.hands is None
    assert (unknown.phase, unknown.left, unknown.moves) == (known.phase, known.left, known.moves)
    assert (unknown.stake, unknown.payments, unknown.winner_side) == (known.stake, known.payments, known.winner_side)


def _sub_hands(counts: Counter[Rank]) -> list[tuple[Rank, ...]]:
    items = sorted(counts.items())
    subs = []
    for take in itertools.product(*(range(n + 1) for _, n in items)):
        cards = tuple(r for (r, _), k in zip(items, take, strict=True) for _ in range(k))
        if cards:
            subs.append(cards)
    return subs


small_hands = st.tuples(PLAYERS, st.lists(st.sampled_from(RANKS[5:]), min_size=1, max_size=12)).filter(
    lambda pc: all(n <= deck(pc[0])[r] for r, n in Counter(pc[1]).items())
)


@settings(max_examples=60, deadline=None)
@given(small_hands)
def test_candidate_plays_are_exactly_the_readable_parts_of_a_hand(players_cards: tuple[int, list[Rank]]) -> None:
    players, cards = players_cards
    expected = {(sub, c) for sub in _sub_hands(Counter(cards)) for c in readings(sub, players)}
    assert set(candidate_plays(cards, None, players)) == expected


@settings(max_examples=100, deadline=None)
@given(small_hands)
def test_under_the_kicker_rules_no_cards_read_two_ways(players_cards: tuple[int, list[Rank]]) -> None:
    players, cards = players_cards
    assert len(readings(cards, players)) <= 1


@settings(max_examples=60, deadline=None)
@given(small_hands, st.data())
def test_beats_is_irreflexive_and_antisymmetric(players_cards: tuple[int, list[Rank]], data: st.DataObject) -> None:
    players, cards = players_cards
    plays = [c for _, c in candidate_plays(cards, None, players)]
    one = data.draw(st.sampled_from(plays))
    other = data.draw(st.sampled_from(plays))
    assert not beats(one, one, players)
    assert not (beats(one, other, players) and beats(other, one, players))


seats = st.integers(min_value=-1, max_value=5)
any_event = st.one_of(
    st.builds(
        DouDizhuDealt,
        st.just("g"),
        st.lists(st.sampled_from(NAMES), min_size=0, max_size=5).map(tuple),
        seats,
        seats,
    ),
    st.builds(BidMade, seats, st.integers(min_value=-1, max_value=4)),
    st.builds(BidPassed, seats),
    st.builds(KittyTaken, seats, st.none()),
    st.builds(
        CombinationPlayed,
        seats,
        st.lists(st.sampled_from(RANKS), min_size=0, max_size=6).map(tuple),
        st.sampled_from(Kind),
        st.sampled_from(RANKS),
        st.integers(min_value=0, max_value=6),
    ),
    st.builds(TurnPassed, seats),
    st.just(DouDizhuAbandoned(AbandonReason.NOBODY_BID)),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(any_event, max_size=25))
def test_evolve_is_total_on_any_sequence_of_events(events: list[Any]) -> None:
    state = fold(events)
    for name in ("phase", "to_play", "to_bid", "leader", "to_beat", "stake", "payments", "winner_side", "moves"):
        getattr(state, name)
