"""Every combination a hand can play, optionally only those that beat the one on the table.

Used to offer moves (a recorder's hints, random legal games in tests). Pure; docs/rules.md §D4.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import combinations

from doko_ledger.doudizhu.cards import SEQUENCE_RANKS, Hand, Rank, check_players, hand
from doko_ledger.doudizhu.combinations import Combination, Kind, beats

Candidate = tuple[Hand, Combination]
"""Cards to play and the combination they are played as."""


def candidate_plays(cards: Iterable[Rank], to_beat: Combination | None, players: int) -> tuple[Candidate, ...]:
    """The distinct plays `cards` allow, each with its combination, ordered by kind then size
    then rank; with `to_beat`, only those that beat it. Raises `PlayerCountError` for a player
    count other than 3 or 4."""
    check_players(players)
    counts = Counter(cards)
    found = {
        cards: combination
        for cards, combination in _all_plays(counts, players)
        if to_beat is None or beats(combination, to_beat, players)
    }
    order = list(Kind)
    ranked = sorted(found.items(), key=lambda c: (order.index(c[1].kind), c[1].size, c[1].rank, c[0]))
    return tuple(ranked)


def _pair_ok(rank: Rank, players: int) -> bool:
    return not rank.is_joker or players == 4


def _jokers_ok(kickers: tuple[Rank, ...]) -> bool:
    return not (Rank.BLACK_JOKER in kickers and Rank.RED_JOKER in kickers)


def _runs(counts: Counter[Rank], width: int, least: int) -> Iterator[tuple[Rank, ...]]:
    """Every run of consecutive ranks in 3..A, at least `least` long, holding `width` of each."""
    for start in range(len(SEQUENCE_RANKS)):
        run: list[Rank] = []
        for rank in SEQUENCE_RANKS[start:]:
            if counts[rank] < width:
                break
            run.append(rank)
            if len(run) >= least:
                yield tuple(run)


def _all_plays(counts: Counter[Rank], players: int) -> Iterator[Candidate]:
    three = players == 3
    ranks = sorted(counts)
    pairs = [r for r in ranks if counts[r] >= 2 and _pair_ok(r, players)]
    for rank in ranks:
        yield (rank,), Combination(Kind.SINGLE, rank, 1)
    for rank in pairs:
        yield (rank, rank), Combination(Kind.PAIR, rank, 2)
    for rank in (r for r in ranks if counts[r] >= 3):
        trio = (rank,) * 3
        yield trio, Combination(Kind.TRIO, rank, 3)
        if three:
            for kicker in ranks:
                if kicker != rank:
                    yield hand(trio + (kicker,)), Combination(Kind.TRIO_SINGLE, rank, 4)
        for kicker in pairs:
            if kicker != rank:
                yield hand(trio + (kicker,) * 2), Combination(Kind.TRIO_PAIR, rank, 5)
    for width, least, kind in ((1, 5, Kind.SEQUENCE), (2, 3, Kind.PAIR_SEQUENCE), (3, 2, Kind.AIRPLANE)):
        for run in _runs(counts, width, least):
            yield hand(run * width), Combination(kind, run[-1], width * len(run))
    for run in _runs(counts, 3, 2):
        body, k = run * 3, len(run)
        if three:
            spare = [r for r in ranks if r not in run]
            for kickers in combinations(spare, k):
                if _jokers_ok(kickers):
                    yield hand(body + kickers), Combination(Kind.AIRPLANE_SINGLES, run[-1], 4 * k)
        for kickers in combinations([r for r in pairs if r not in run], k):
            if _jokers_ok(kickers):
                yield hand(body + kickers * 2), Combination(Kind.AIRPLANE_PAIRS, run[-1], 5 * k)
    for rank in (r for r in ranks if counts[r] >= 4):
        for size in range(4, min(counts[rank], 4 if three else 8) + 1):
            yield (rank,) * size, Combination(Kind.BOMB, rank, size)
        if three:
            for kickers in combinations([r for r in ranks if r != rank], 2):
                if _jokers_ok(kickers):
                    yield hand((rank,) * 4 + kickers), Combination(Kind.FOUR_TWO_SINGLES, rank, 6)
            for kickers in combinations([r for r in pairs if r != rank], 2):
                yield hand((rank,) * 4 + kickers * 2), Combination(Kind.FOUR_TWO_PAIRS, rank, 8)
    jokers = 1 if three else 2
    if counts[Rank.BLACK_JOKER] >= jokers and counts[Rank.RED_JOKER] >= jokers:
        rocket = (Rank.BLACK_JOKER,) * jokers + (Rank.RED_JOKER,) * jokers
        yield rocket, Combination(Kind.ROCKET, Rank.RED_JOKER, 2 * jokers)
