"""Combinations: what a set of cards can be played as, and what beats what (docs/rules.md §D4).

A combination is recorded as (kind, main rank, size): the main rank is the trio's rank, the
top of a sequence or airplane, the bomb's or the four's rank, the single's or pair's rank,
and `RJ` for the rocket; size is the number of cards.

Spec tension: docs/rules.md §D3 says 333444555666 "is four trios, or three trios with 666 as wings",
but §4 says kickers may share a rank neither with the body nor with each other, so 666 cannot
be three single wings. This module implements §4 exactly: 333444555666 is an airplane and
nothing else. A consequence of §4's kicker rules is that the card *counts* fix the kind, so
no multiset has more than one reading today; `readings` still returns every reading, and a
move still records its declared combination, as §3 asks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from doko_ledger.doudizhu.cards import SEQUENCE_RANKS, Rank, cards_text, check_players
from doko_ledger.i18n import Message, msg, render


class Kind(Enum):
    """The thirteen types of combination (the airplane split by its kickers: fourteen kinds)."""

    SINGLE = "single"
    PAIR = "pair"
    TRIO = "trio"
    TRIO_SINGLE = "trio_single"
    TRIO_PAIR = "trio_pair"
    SEQUENCE = "sequence"
    PAIR_SEQUENCE = "pair_sequence"
    AIRPLANE = "airplane"
    AIRPLANE_SINGLES = "airplane_singles"
    AIRPLANE_PAIRS = "airplane_pairs"
    BOMB = "bomb"
    ROCKET = "rocket"
    FOUR_TWO_SINGLES = "four_two_singles"
    FOUR_TWO_PAIRS = "four_two_pairs"


THREE_PLAYER_ONLY = frozenset({Kind.TRIO_SINGLE, Kind.AIRPLANE_SINGLES, Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS})
"""Kinds the four-player game does not have (docs/rules.md §D4)."""

_KIND_NAMES = {
    Kind.SINGLE: msg("single"),
    Kind.PAIR: msg("pair"),
    Kind.TRIO: msg("trio"),
    Kind.TRIO_SINGLE: msg("trio with a single"),
    Kind.TRIO_PAIR: msg("trio with a pair"),
    Kind.SEQUENCE: msg("sequence"),
    Kind.PAIR_SEQUENCE: msg("pair sequence"),
    Kind.AIRPLANE: msg("airplane"),
    Kind.AIRPLANE_SINGLES: msg("airplane with singles"),
    Kind.AIRPLANE_PAIRS: msg("airplane with pairs"),
    Kind.BOMB: msg("bomb"),
    Kind.ROCKET: msg("rocket"),
    Kind.FOUR_TWO_SINGLES: msg("four with two singles"),
    Kind.FOUR_TWO_PAIRS: msg("four with two pairs"),
}
_WIDTH = {Kind.SEQUENCE: 1, Kind.PAIR_SEQUENCE: 2, Kind.AIRPLANE: 3, Kind.AIRPLANE_SINGLES: 4, Kind.AIRPLANE_PAIRS: 5}
_NUMBERS = {4: msg("four"), 5: msg("five"), 6: msg("six"), 7: msg("seven"), 8: msg("eight")}


def kind_name(kind: Kind) -> Message:
    """The kind in words: `trio with a single`."""
    return _KIND_NAMES[kind]


@dataclass(frozen=True, slots=True)
class Combination:
    """A reading of some cards: its kind, main rank and number of cards."""

    kind: Kind
    rank: Rank
    size: int

    def __str__(self) -> str:
        return describe(self)

    @property
    def is_bomb_or_rocket(self) -> bool:
        return self.kind in (Kind.BOMB, Kind.ROCKET)


def describe(combination: Combination) -> str:
    """The combination in English words, as the ledger's JSON gives it: `pair of 7s`,
    `sequence 3 to 7`, `bomb of five 3s`."""
    return render(described(combination), "en")


def described(combination: Combination) -> Message:
    """The combination in the reader's words: `pair of 7s`, `Paar 7`, `paire de 7`."""
    kind, rank, size = combination.kind, combination.rank, combination.size
    if kind is Kind.SINGLE:
        return msg("single {rank}", rank=rank)
    if kind is Kind.ROCKET:
        return msg("rocket")
    if kind is Kind.BOMB:
        return msg("bomb of {number} {rank}s", number=_NUMBERS.get(size, size), rank=rank)
    if kind is Kind.FOUR_TWO_SINGLES:
        return msg("four {rank}s with two singles", rank=rank)
    if kind is Kind.FOUR_TWO_PAIRS:
        return msg("four {rank}s with two pairs", rank=rank)
    if kind in _WIDTH:
        low = rank - size // _WIDTH[kind] + 1
        if not Rank.THREE <= low <= rank:  # declared, but no cards have it: say what was named
            return msg("{kind} of {size} cards up to {rank}", kind=kind_name(kind), size=size, rank=rank)
        return msg("{kind} {low} to {rank}", kind=kind_name(kind), low=Rank(low), rank=rank)
    return {
        Kind.PAIR: msg("pair of {rank}s", rank=rank),
        Kind.TRIO: msg("trio of {rank}s", rank=rank),
        Kind.TRIO_SINGLE: msg("trio of {rank}s with a single", rank=rank),
        Kind.TRIO_PAIR: msg("trio of {rank}s with a pair", rank=rank),
    }[kind]


def with_article(words: Message) -> Message:
    """`words` after their indefinite article: `a pair of 7s`, `an airplane 3 to 4`."""
    if render(words, "en")[:1] in "aeiou":
        return msg("an {words}", words=words)
    return msg("a {words}", words=words)


def _is_pair_rank(rank: Rank, players: int) -> bool:
    """Two of `rank` form a pair: any plain rank; BJ BJ or RJ RJ in the four-player game."""
    return not rank.is_joker or players == 4


def _consecutive(ranks: list[Rank]) -> bool:
    """Sorted ranks that run without a gap, all within 3..A."""
    return all(r in SEQUENCE_RANKS for r in ranks) and all(b == a + 1 for a, b in pairwise(ranks))


def _kickers_ok(kickers: list[Rank]) -> bool:
    """Kickers' ranks are distinct by construction; both jokers may not be kickers at once."""
    return not (Rank.BLACK_JOKER in kickers and Rank.RED_JOKER in kickers)


def readings(cards: Iterable[Rank], players: int) -> tuple[Combination, ...]:
    """Every valid reading of the cards in the three- or four-player game (docs/rules.md §D4).

    Empty when the cards are no combination. Raises `PlayerCountError` unless `players` is 3 or 4.
    """
    check_players(players)
    counts = Counter(cards)
    size = sum(counts.values())
    if size == 0:
        return ()
    found: list[Combination] = []

    def add(kind: Kind, rank: Rank) -> None:
        if players == 3 or kind not in THREE_PLAYER_ONLY:
            found.append(Combination(kind, rank, size))

    ranks = sorted(counts)
    by_count: dict[int, list[Rank]] = {}
    for rank in ranks:
        by_count.setdefault(counts[rank], []).append(rank)
    top = ranks[-1]
    if len(ranks) == 1:
        if size == 1:
            add(Kind.SINGLE, top)
        elif size == 2 and _is_pair_rank(top, players):
            add(Kind.PAIR, top)
        elif size == 3:
            add(Kind.TRIO, top)
        elif 4 <= size <= (4 if players == 3 else 8) and not top.is_joker:
            add(Kind.BOMB, top)
    jokers = 1 if players == 3 else 2
    if counts == Counter({Rank.BLACK_JOKER: jokers, Rank.RED_JOKER: jokers}):
        add(Kind.ROCKET, Rank.RED_JOKER)
    for count, least, kind in ((1, 5, Kind.SEQUENCE), (2, 3, Kind.PAIR_SEQUENCE), (3, 2, Kind.AIRPLANE)):
        if list(by_count) == [count] and len(ranks) >= least and _consecutive(ranks):
            add(kind, top)
    trios, singles, pairs = by_count.get(3, []), by_count.get(1, []), by_count.get(2, [])
    if len(trios) == 1 and len(ranks) == 2:
        if singles:
            add(Kind.TRIO_SINGLE, trios[0])
        elif pairs and _is_pair_rank(pairs[0], players):
            add(Kind.TRIO_PAIR, trios[0])
    if len(trios) >= 2 and _consecutive(trios):
        if len(singles) == len(trios) == len(ranks) - len(trios) and _kickers_ok(singles):
            add(Kind.AIRPLANE_SINGLES, trios[-1])
        if (
            len(pairs) == len(trios) == len(ranks) - len(trios)
            and all(_is_pair_rank(r, players) for r in pairs)
            and _kickers_ok(pairs)
        ):
            add(Kind.AIRPLANE_PAIRS, trios[-1])
    fours = by_count.get(4, [])
    if len(fours) == 1 and len(ranks) == 3:
        if len(singles) == 2 and _kickers_ok(singles):
            add(Kind.FOUR_TWO_SINGLES, fours[0])
        if len(pairs) == 2 and all(_is_pair_rank(r, players) for r in pairs) and _kickers_ok(pairs):
            add(Kind.FOUR_TWO_PAIRS, fours[0])
    return tuple(found)


def no_reading_reason(cards: Iterable[Rank], players: int) -> Message:
    """Why cards with no reading are no combination, in words a player understands."""
    cards = list(cards)
    text = cards_text(cards)
    if players == 4:
        forbidden = [c for c in readings(cards, 3) if c.kind in THREE_PLAYER_ONLY]
        if forbidden:
            return msg(
                "{cards} is no combination (the four-player game has no {kind})",
                cards=text,
                kind=kind_name(forbidden[0].kind),
            )
    counts = Counter(cards)
    distinct = sorted(counts)
    if len(cards) == 2 and len(distinct) == 2:
        if players == 4 and set(distinct) == {Rank.BLACK_JOKER, Rank.RED_JOKER}:
            return msg(
                "{cards} is no combination (the four-player game's rocket is all four jokers, BJ BJ RJ RJ)", cards=text
            )
        return msg("{cards} is no combination (a pair is two cards of one rank)", cards=text)
    if len(set(counts.values())) == 1 and len(distinct) > 1:
        width = next(iter(counts.values()))
        shortest = {1: 5, 2: 3, 3: 2}.get(width)
        if shortest is not None and len(distinct) >= shortest and any(r not in SEQUENCE_RANKS for r in distinct):
            return msg("{cards} is no combination (sequences use only 3 to A, without 2s or jokers)", cards=text)
        if _consecutive(distinct) and width == 1:
            return msg("{cards} is no combination (a sequence needs at least 5 cards)", cards=text)
        if _consecutive(distinct) and width == 2:
            return msg("{cards} is no combination (a pair sequence needs at least 3 pairs)", cards=text)
    if counts[Rank.BLACK_JOKER] == counts[Rank.RED_JOKER] > 0 and len(distinct) > 2:
        spare = next(r for r in SEQUENCE_RANKS[::-1] if r not in counts)
        swapped = [spare if r is Rank.RED_JOKER else r for r in cards]
        if readings(swapped, players):
            return msg("{cards} is no combination (both jokers may not be kickers in one combination)", cards=text)
    shared = _kickers_sharing_a_rank(counts, players)
    if shared is not None:
        return msg(
            "{cards} is no combination: as {kind} its kickers would share a rank"
            " (kickers may share a rank neither with the body nor with each other)",
            cards=text,
            kind=with_article(kind_name(shared)),
        )
    return msg("{cards} is no combination", cards=text)


def _kickers_sharing_a_rank(counts: Counter[Rank], players: int) -> Kind | None:
    """The kind with kickers (a trio's, an airplane's, a four's) the cards would be if their
    kickers could share a rank with the body or with each other; None if no such kind."""
    if len(counts) < 2:
        return None
    size = sum(counts.values())
    bodies: list[tuple[list[Rank], int, Kind, Kind]] = [
        ([r], 3, Kind.TRIO_SINGLE, Kind.TRIO_PAIR) for r in counts if counts[r] >= 3
    ]
    trios = [r for r in SEQUENCE_RANKS if counts[r] >= 3]
    for i, low in enumerate(trios):
        run = [low]
        for rank in trios[i + 1 :]:
            if rank != run[-1] + 1:
                break
            run.append(rank)
            bodies.append((list(run), 3, Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS))
    bodies += [([r], 4, Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS) for r in counts if counts[r] >= 4]
    for body, each, with_singles, with_pairs in bodies:
        rest = counts - Counter({r: each for r in body})
        kickers = 2 if each == 4 else len(body)
        for width, kind in ((1, with_singles), (2, with_pairs)):
            if players == 4 and kind in THREE_PLAYER_ONLY:
                continue
            if size - each * len(body) != width * kickers or any(n % width for n in rest.values()):
                continue
            if any(n > width for n in rest.values()) or any(r in body for r in rest):
                return kind
    return None


def beats(new: Combination, old: Combination, players: int) -> bool:
    """True when `new` may be played on `old` (docs/rules.md §D4). Equal never beats."""
    return why_not_beats(new, old, players) is None


def why_not_beats(new: Combination, old: Combination, players: int) -> Message | None:
    """None when `new` beats `old`; otherwise the reason, in words (`a pair does not beat a trio`)."""
    if old.kind is Kind.ROCKET:
        return msg("nothing beats the rocket")
    if new.kind is Kind.ROCKET:
        return None
    if new.kind is Kind.BOMB and old.kind is not Kind.BOMB:
        return None
    if new.kind is Kind.BOMB:  # bomb on bomb
        if players == 4 and new.size != old.size:
            return None if new.size > old.size else msg("a bomb of fewer cards does not beat one of more cards")
        if new.rank > old.rank:
            return None
        if new.rank == old.rank:
            return msg("equal bombs do not beat each other")
        return msg("a lower bomb does not beat a higher one")
    if old.kind is Kind.BOMB:
        return msg("only a higher bomb or the rocket beats a bomb")
    if new.kind is not old.kind:
        mine, theirs = with_article(kind_name(new.kind)), with_article(kind_name(old.kind))
        if old.kind in _WIDTH:
            return msg(
                "{new} does not beat {old}: play a higher {kind} of the same length, a bomb or the rocket",
                new=mine,
                old=theirs,
                kind=kind_name(old.kind),
            )
        return msg(
            "{new} does not beat {old}: play a higher {kind}, a bomb or the rocket",
            new=mine,
            old=theirs,
            kind=kind_name(old.kind),
        )
    if new.size != old.size:
        return msg(
            "a {kind} of {size} cards does not beat one of {other}: the length must be the same",
            kind=kind_name(new.kind),
            size=new.size,
            other=old.size,
        )
    if new.rank == old.rank:
        return msg("{new} is not higher than {old}: equal ranks never beat", new=new.rank, old=old.rank)
    if new.rank < old.rank:
        return msg("{new} is lower than {old}", new=new.rank, old=old.rank)
    return None
