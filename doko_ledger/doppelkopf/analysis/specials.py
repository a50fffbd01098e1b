"""Special points as the analysis' second objective (docs/rules.md §7, *What a card cost*):
with every hand known, first the result class, then the special points within it.

A line of play ends in Re's result class, the game's value for Re without special points (its
card points, and its tricks for schwarz: a party that took no trick is schwarz, whatever the
card points), and in Re's net special points (Re's counted special points minus Kontra's, as
the score counts them). Both parties play for the class first and the special points within
it: the search's value of a line is `class * WEIGHT + specials`, which orders the lines so,
and alpha-beta finds the value of best play from a position and one line that ends in it.

Pure and exhaustive over the tricks still to play, on the solver's tables (`position.py`); the
special points of a trick are the rules core's (`game.facts.trick_specials`), the count the
score's (`scoring.special_lines`). The search for a line (`outcome`, `near`) is meant for the
last tricks of a game: `limit` bounds the positions searched, beyond which `SearchLimit` says
there is no answer. The yes-or-no questions (`bound`, `value`) run compiled with
`native=True` where the library is built (`native/specials.c`, with a table across questions,
the same values), for the threshold analysis from the first trick.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from doko_ledger.doppelkopf.analysis.native import STOPPED, UNSAID, NativeSpecials, usable
from doko_ledger.doppelkopf.analysis.position import TOTAL_POINTS, Position, Tables, remove_card
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.game.facts import (
    DOPPELKOPF_POINTS,
    fox_card,
    lone_marriage_tricks,
    special_cards,
    special_weights,
    trick_specials,
)
from doko_ledger.doppelkopf.game.state import GameState, Trick
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.scoring import DealFacts, Special, score, special_lines, special_points_count

WEIGHT = 1000
"""A class outweighs any number of special points: no deal holds 500 of them."""

_FAR = 1 << 40
_WIDEST = 1 << 28
"""The compiled search's widest window: beyond every value, within its 32-bit values."""

Line = tuple[Special, ...]
"""The special points earned on a line of play, in the order they were earned."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where best play from a position ends: Re's result class (the game's value for Re without
    special points), Re's net special points, and the special points one such line earns."""

    re_class: int
    re_specials: int
    line: Line

    @property
    def value(self) -> int:
        """The search's value: the class first, then the special points."""
        return self.re_class * WEIGHT + self.re_specials


@dataclass(frozen=True, slots=True)
class Past:
    """What the tricks before a position left: Re's card points, the tricks each party took,
    and the special points earned."""

    re_points: int
    re_tricks: int
    kontra_tricks: int
    earned: Line


class SpecialsSearch:
    """The lexicographic search of one deal: its tables, parties, announced levels and rules."""

    def __init__(
        self,
        state: GameState,
        tables: Tables,
        re: tuple[bool, bool, bool, bool],
        game_type: GameType,
        lone: bool,
        levels: dict[Party, int],
        *,
        limit: int | None = None,
        native: bool = False,
        cards: Solver | None = None,
    ) -> None:
        self.state = state
        self.tables = tables
        self.re = re
        self.game_type = game_type
        self.lone = lone
        self.levels = levels
        self.parties = tuple(Party.RE if r else Party.KONTRA for r in re)
        self.counted = special_points_count(game_type, lone, state.rules)
        self.upto = lone_marriage_tricks(state)
        self.fox = fox_card(state)
        self.limit = _FAR if limit is None else limit
        self.nodes = 0
        self._classes: dict[tuple[int, bool, bool], int] = {}
        self._nets: dict[tuple[tuple[str, Party], ...], int] = {}
        self._tricks: dict[tuple[int, int, tuple[int, ...]], Line] = {}
        self._table: dict[tuple[object, ...], tuple[int, int, Line]] = {}
        self._native = self._compiled(cards) if native and self.counted else None
        self._failed: BaseException | None = None
        self._start = 0  # the compiled search's positions before the question asked

    def _compiled(self, cards: Solver | None) -> NativeSpecials | None:
        """The compiled search of this deal (its limit counts every position it searches), or
        None where its library is not built; `cards`: the deal's card points' solver, whose
        table tells the search which class a position can still end in."""
        lib = usable()
        if lib is None:
            return None
        classes = [
            self.re_class(points, flags & 1, flags >> 1) * WEIGHT
            for flags in range(4)
            for points in range(TOTAL_POINTS + 1)
        ]
        upto = self.state.hand_size if self.upto is None else self.upto
        named = special_cards(self.state)
        alike = [ok and card not in named for card, ok in zip(self.tables.cards, self.tables.equal_ok, strict=True)]
        core = None if cards is None else cards.compiled
        weights = special_weights(self.state)
        weighed = [weights.get(card, (0, 0)) for card in self.tables.cards]
        t, net = self.tables, self._trick_net
        return NativeSpecials(lib, t, self.re, alike, classes, weighed, DOPPELKOPF_POINTS, core, upto, net, self.limit)

    def _trick_net(self, leader: int, c0: int, c1: int, c2: int, c3: int, last: int) -> int:
        """For the compiled search: Re's net special points in a trick (the last one or not),
        or 100 when they could not be said (the error is raised once the search returns)."""
        try:
            number = self.state.hand_size if last else 1
            return self.re_specials(self.trick_line(number, leader, (c0, c1, c2, c3)))
        except BaseException as error:  # raised again in Python, not lost in the library
            self._failed = error
            return 100

    # -- what a line ends in ------------------------------------------------------------------

    def re_class(self, re_points: int, re_tricks: int, kontra_tricks: int) -> int:
        """The game's value for Re without special points, by card points and tricks."""
        key = (re_points, re_tricks > 0, kontra_tricks > 0)
        found = self._classes.get(key)
        if found is None:
            facts = DealFacts(
                game_type=self.game_type,
                lone=self.lone,
                re_points=re_points,
                re_tricks=int(key[1]),
                kontra_tricks=int(key[2]),
                announced=self.levels,
            )
            found = self._classes[key] = score(facts, self.state.rules).re_value
        return found

    def re_specials(self, specials: Line) -> int:
        """Re's counted special points minus Kontra's, as the score counts them."""
        key = tuple((s.kind.value, s.party) for s in specials)
        found = self._nets.get(key)
        if found is None:
            facts = DealFacts(self.game_type, self.lone, 0, 0, 0, self.levels, specials=specials)
            lines = special_lines(facts, self.state.rules)
            found = self._nets[key] = sum(1 if line.party is Party.RE else -1 for line in lines)
        return found

    def trick_line(self, number: int, leader: int, cards: tuple[int, ...]) -> Line:
        """The special points of a complete trick of card numbers `cards` led by `leader`."""
        key = (number, leader, cards)
        found = self._tricks.get(key)
        if found is None:
            if not self.counted or (self.upto is not None and number > self.upto):
                found = ()
            else:
                winner = (leader + self.best_of(number, cards)) % SEATS
                trick = Trick(number, leader, tuple(self.tables.cards[c] for c in cards), winner)
                found = tuple(trick_specials(self.state, trick, self.parties, self.fox))
            self._tricks[key] = found
        return found

    def best_of(self, number: int, cards: tuple[int, ...]) -> int:
        """Which of the card numbers `cards` played to trick `number` takes it so far."""
        t = self.tables
        beats = t.beats_last if number == self.state.hand_size else t.beats
        win = 0
        for i in range(1, len(cards)):
            if beats[cards[win] * 24 + cards[i]]:
                win = i
        return win

    def number_of(self, pos: Position) -> int:
        """The number of the trick on the table at `pos` (or about to be led)."""
        return self.state.hand_size - bin(pos.hands[pos.leader]).count("1") - (1 if pos.trick else 0) + 1

    # -- the search ---------------------------------------------------------------------------

    def outcome(self, pos: Position, past: Past) -> Outcome:
        """Best play from `pos` (a trick's cards on the table count as played in it), after `past`."""
        value, line = self._root(pos, past, -_FAR, _FAR)
        re_class = (value + WEIGHT // 2) // WEIGHT
        return Outcome(re_class, value - re_class * WEIGHT, line[len(past.earned) :])

    def near(self, pos: Position, past: Past, guess: int) -> Outcome:
        """`outcome`, found by narrow windows from `guess` on (the search's value best play
        likely ends in): far fewer positions when the guess is close."""
        lo = self.value(pos, past, guess)
        value, line = self._root(pos, past, lo - 1, lo + 1)
        re_class = (value + WEIGHT // 2) // WEIGHT
        return Outcome(re_class, value - re_class * WEIGHT, line[len(past.earned) :])

    def bound(self, pos: Position, past: Past, alpha: int, beta: int) -> int:
        """The search's value of best play from `pos` (as `Outcome.value`) if it lies strictly
        inside (alpha, beta), else a bound on the side it fell (≤ alpha, ≥ beta): a narrow
        window asks a yes-or-no question for far fewer positions than `outcome`."""
        if self._native is None:
            return self._root(pos, past, alpha, beta)[0]
        if len(pos.trick) == SEATS:  # a complete trick: its winner leads the next
            pos, past = self._taken(pos, past)
        t = self.tables
        hands = pos.hands
        number = self.number_of(pos)
        win = self.best_of(number, pos.trick)
        cards = sum(card << (5 * i) for i, card in enumerate(pos.trick))
        led = t.suit[pos.trick[0]] if pos.trick else 0
        wcard = pos.trick[win] if pos.trick else 0
        flags = (past.re_tricks > 0) | (past.kontra_tricks > 0) << 1
        found = self._native.search(
            hands,
            pos.to_play,
            len(pos.trick),
            led,
            (pos.leader + win) % SEATS,
            wcard,
            sum(t.points[c] for c in pos.trick),
            cards,
            sum(t.hand_points(h) for h in hands),
            number,
            past.re_points,
            flags,
            self.re_specials(past.earned),
            max(alpha, -_WIDEST),
            min(beta, _WIDEST),
        )
        self.nodes = self._native.nodes - self._start
        if found == UNSAID and self._failed is not None:
            raise self._failed
        if found == STOPPED:
            raise SearchLimit(f"stopped after {self.limit} positions")
        return found

    def question(self) -> None:
        """Starts a question: the limit counts the positions searched from here on (for the
        compiled search, those the card points' solver is asked for it too)."""
        self.nodes = 0
        if self._native is not None:
            self._native.allow(self.limit)
            self._start = self._native.nodes

    def value(self, pos: Position, past: Past, guess: int, known: tuple[int, int] = (-_FAR, _FAR)) -> int:
        """The search's value of best play from `pos` (as `Outcome.value`), by narrow windows
        from `guess` on (`bound` only, no line): the fewer questions, the closer the guess.
        `known`: bounds the value is known to lie within (both included)."""
        (lo, hi), value = known, min(max(guess, known[0]), known[1])
        while lo < hi:
            beta = value + 1 if value == lo else value
            value = self.bound(pos, past, beta - 1, beta)
            if value < beta:
                hi = value = max(value, lo)
            else:
                lo = value = min(value, hi)
        return lo

    def _taken(self, pos: Position, past: Past) -> tuple[Position, Past]:
        """A position whose trick is complete as the next trick's start, and the past with it."""
        number = self.number_of(pos)
        winner = (pos.leader + self.best_of(number, pos.trick)) % SEATS
        points = sum(self.tables.points[c] for c in pos.trick)
        earned = past.earned + self.trick_line(number, pos.leader, pos.trick)
        if self.re[winner]:
            past = Past(past.re_points + points, past.re_tricks + 1, past.kontra_tricks, earned)
        else:
            past = Past(past.re_points, past.re_tricks, past.kontra_tricks + 1, earned)
        return Position(pos.hands, winner, (), pos.re), past

    def _root(self, pos: Position, past: Past, alpha: int, beta: int) -> tuple[int, Line]:
        hands = list(pos.hands)
        return self._next(
            hands,
            pos.leader,
            pos.trick,
            self.number_of(pos),
            past.re_points,
            past.re_tricks,
            past.kontra_tricks,
            past.earned,
            alpha,
            beta,
        )

    def _next(
        self,
        hands: list[int],
        leader: int,
        trick: tuple[int, ...],
        number: int,
        re_points: int,
        re_tricks: int,
        kontra_tricks: int,
        earned: Line,
        alpha: int = -_FAR,
        beta: int = _FAR,
    ) -> tuple[int, Line]:
        """The search from a trick on the table, which may be complete: then its winner leads."""
        if len(trick) < SEATS:
            return self._node(hands, leader, trick, number, re_points, re_tricks, kontra_tricks, earned, alpha, beta)
        winner = (leader + self.best_of(number, trick)) % SEATS
        gained = self.trick_line(number, leader, trick)
        if self.re[winner]:
            re_points += sum(self.tables.points[c] for c in trick)
            re_tricks += 1
        else:
            kontra_tricks += 1
        return self._node(
            hands, winner, (), number + 1, re_points, re_tricks, kontra_tricks, earned + gained, alpha, beta
        )

    def _node(
        self,
        hands: list[int],
        leader: int,
        trick: tuple[int, ...],
        number: int,
        re_points: int,
        re_tricks: int,
        kontra_tricks: int,
        earned: Line,
        alpha: int,
        beta: int,
    ) -> tuple[int, Line]:
        self.nodes += 1
        if self.nodes > self.limit:
            raise SearchLimit(f"stopped after {self.limit} positions")
        t = self.tables
        seat = (leader + len(trick)) % SEATS
        hand = hands[seat]
        key: tuple[object, ...] = ()
        if not trick:
            if not hand:
                cls = self.re_class(re_points, re_tricks, kontra_tricks)
                return cls * WEIGHT + self.re_specials(earned), earned
            kinds = tuple((s.kind, s.party) for s in earned)
            key = (*hands, leader, re_points, re_tricks > 0, kontra_tricks > 0, kinds)
            entry = self._table.get(key)
            if entry is not None:
                lo, hi, kept = entry
                if lo == hi or lo >= beta:
                    return lo, kept
                if hi <= alpha:
                    return hi, kept
                alpha, beta = max(alpha, lo), min(beta, hi)
            legal = hand
        else:
            legal = hand & t.suit_bits[t.suit[trick[0]]] or hand
        a0, b0 = alpha, beta
        mine = self.re[seat]
        best, best_line = (-_FAR if mine else _FAR), earned
        for card in _ordered(t, legal):
            hands[seat] = remove_card(hand, card)
            v, line = self._next(
                hands, leader, (*trick, card), number, re_points, re_tricks, kontra_tricks, earned, alpha, beta
            )
            if (v > best) if mine else (v < best):
                best, best_line = v, line
                if mine:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    break
        hands[seat] = hand
        if key:
            old = self._table.get(key)
            lo, hi = (-_FAR, _FAR) if old is None else (old[0], old[1])
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self._table[key] = (lo, hi, best_line)
        return best, best_line


def _ordered(t: Tables, legal: int) -> list[int]:
    """The legal card numbers, each once: the cards of most points first, which cuts most often
    in endings."""
    return sorted(_distinct(legal), key=lambda c: -t.points[c])


def _distinct(hand: int) -> list[int]:
    """The card numbers in a hand, each once, in the game's order."""
    out = []
    while hand:
        card = ((hand & -hand).bit_length() - 1) >> 1
        hand &= ~(3 << (2 * card))
        out.append(card)
    return out


def outcomes(search: SpecialsSearch, pos: Position, past: Past, also: int | None = None) -> dict[int, Outcome]:
    """Best play after each card the player to move may play (and `also`, a card the rules did
    not allow that the record shows), by card number; `SearchLimit` past the search's limit,
    which counts the positions searched for this one question."""
    search.question()
    cards = legal_cards(search.tables, pos)
    if also is not None and also not in cards:
        cards.append(also)
    return {card: search.outcome(_after(pos, card), past) for card in cards}


def better_outcomes(
    search: SpecialsSearch, pos: Position, past: Past, played: int, re_class: int | None = None
) -> dict[int, Outcome]:
    """Best play after card `played` (which the rules may not have allowed) and after each card
    that does better than it for the player to move, by card number: what `outcomes` finds of
    those cards, for far fewer positions, as each other card is first only asked whether it
    does better; `re_class`: the class best play likely ends in after `played`, where the
    search for it starts. `SearchLimit` as there."""
    search.question()
    after = _after(pos, played)
    found = {played: search.outcome(after, past) if re_class is None else search.near(after, past, re_class * WEIGHT)}
    value = found[played].value
    mine = search.re[pos.to_play]
    for card in legal_cards(search.tables, pos):
        if card == played:
            continue
        after = _after(pos, card)
        if (
            search.bound(after, past, value, value + 1) > value
            if mine
            else search.bound(after, past, value - 1, value) < value
        ):
            found[card] = search.outcome(after, past)
    return found


def _after(pos: Position, card: int) -> Position:
    """`pos` once the player to move put card number `card` on the table."""
    hands = list(pos.hands)
    hands[pos.to_play] = remove_card(hands[pos.to_play], card)
    return Position((hands[0], hands[1], hands[2], hands[3]), pos.leader, (*pos.trick, card), pos.re)


def legal_cards(t: Tables, pos: Position) -> list[int]:
    """The card numbers the player to move may play, each once, in the game's order."""
    hand = pos.hands[pos.to_play]
    legal = hand & t.suit_bits[t.suit[pos.trick[0]]] if pos.trick else hand
    return _distinct(legal or hand)


def lost_kinds(party: Party, best: Line, played: Line) -> tuple[str, ...]:
    """The special points `party` has fewer of (its own) or more of (the other party's) on the
    line after the card played than on the best line, by kind."""
    mine_best = Counter(s.kind.value for s in best if s.party is party)
    mine_played = Counter(s.kind.value for s in played if s.party is party)
    theirs_best = Counter(s.kind.value for s in best if s.party is not party)
    theirs_played = Counter(s.kind.value for s in played if s.party is not party)
    lost = (mine_best - mine_played) + (theirs_played - theirs_best)
    return tuple(sorted(lost.elements()))
