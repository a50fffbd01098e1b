"""The double-dummy solver: with every hand known, the most card points Re can secure against
best defence from a position, and whether Re can reach a threshold (docs/rules.md §6).

Alpha-beta over the cards still to play, fail-soft, with
- zero-window searches: `reaches(position, target)` asks one yes-or-no question; `value` finds
  the exact value by a run of them, each narrowing the interval the last one left;
- a transposition table at the start of each trick, keyed on the four hands and the leader
  (what the tricks to come are worth does not depend on the points already taken), holding
  a lower and an upper bound and the card that did best; one `Solver` keeps it across every
  position of a game. The key closes up each suit and the trumps in rank order (`_runs`):
  where other cards of a suit have fallen than here, the position plays as this one card for
  card by rank, every trick to the same player, and only the points of the cards differ, so
  an entry answers it with its bounds widened by that difference (`_slack`; none where other
  queens or jacks have fallen);
- move ordering: the best card found before first, then the lead that cut off last for this
  seat with as many cards in hand, then the leads that cut off most often so far; inside a
  trick, on the other party's trick the cards that take it (the strongest first), then the
  cheapest, and on a partner's trick high points first; where no player of the other party
  plays after the card (the trick's last, or its third with the partner last), the cards that
  take or add to the trick by their points, and of them those no card still out can beat last:
  they win a trick of their own;
- equivalent cards played once: the two copies of a card, and cards of one suit with the same
  points whose ranks lie next to each other once every card between is in the same hand or gone;
- quick bounds: the tricks to come are worth between nothing and the points still in the hands;
  inside a trick that no card still to come can take from its best card, the trick is its
  winner's with at least the cheapest card each player still to play may play.

`Solver(..., plain=True)` switches off the table, the ordering and the equivalence (but for the
two copies of a card): the floor the benchmark measures against, and a second opinion in tests.

The search runs compiled (`native/solver.c`, the same search in C) when its library is built,
else here in Python, with the same values and answers; `DOKO_PURE_PYTHON=1` keeps it in Python.
The hot loop here reads only ints, tuples and lists.
"""

from __future__ import annotations

from collections.abc import Callable

from doko_ledger.doppelkopf.analysis.native import STOPPED, NativeSearch, search_core
from doko_ledger.doppelkopf.analysis.position import Position, Tables, remove_card
from doko_ledger.doppelkopf.rules.play import SEATS

Node = Callable[[list[int], int, int, int, int, int, int, int, int, int, int], int]
"""(hands, seat, cards in the trick, led suit, winning seat, winning card, points on the table,
table bits, points in the hands, alpha, beta) -> Re's card points from the table and the tricks to come."""

_FAR = 1 << 20
_SURE_LAST = 12
"""Added to the sort key of a card no card still out can beat, when no player of the other party
plays after it (the trick's last card, or its third with the partner last): more than any
card's points, so of the cards that add to the party's trick, or that take the other party's,
such cards come last. A sure winner wins a trick of its own later; spent on this one, that
trick is lost."""


class SearchLimit(Exception):
    """A search stopped at its node limit (`Solver(limit=...)`): it has no answer."""


class Solver:
    """Solves the positions of one deal: one card order (`tables`), one party per seat (`re`)."""

    def __init__(
        self, tables: Tables, re: tuple[bool, bool, bool, bool], *, plain: bool = False, limit: int | None = None
    ) -> None:
        self.tables = tables
        self.re = re
        self.plain = plain
        self.table: dict[int, dict[int, tuple[int, int, int]]] = {}
        """Trick-start positions by key, then by the card types the hands held (`_types`):
        (lower bound, upper bound, best card number or -1)."""
        self.nodes = [0]
        """Positions searched so far: the one count the benchmark and `limit` read."""
        self.limit = _FAR * _FAR if limit is None else limit
        self._native = search_core(tables, re, plain, self.limit)
        """The compiled search with its own table, when its library is there (`native`)."""
        self._node = (
            self._native_node if self._native else _searcher(tables, re, self.table, self.nodes, plain, self.limit)
        )
        self._guess = -1

    @property
    def native(self) -> bool:
        """Whether this solver searches with the compiled core."""
        return self._native is not None

    @property
    def compiled(self) -> NativeSearch | None:
        """The compiled search with its table, when this solver searches with it."""
        return self._native

    def stored(self) -> int:
        """How many positions the transposition table holds."""
        return self._native.stored if self._native else sum(len(held) for held in self.table.values())

    def _native_node(self, hands: list[int], *args: int) -> int:
        assert self._native is not None
        found = self._native.search(hands, *args)
        self.nodes[0] = self._native.nodes
        if found == STOPPED:
            raise SearchLimit(f"stopped after {self.limit} positions")
        return found

    def search(self, pos: Position, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the value if it lies strictly inside (alpha, beta), else a bound
        on the side it fell (≤ alpha, ≥ beta). Values are Re's card points from the trick on the
        table and the tricks to come."""
        t = self.tables
        hands = list(pos.hands)
        seat = pos.to_play
        trick = pos.trick
        rest = sum(t.hand_points(h) for h in hands)
        if not trick:
            return self._node(hands, seat, 0, 0, 0, 0, 0, 0, rest, alpha, beta)
        last = hands[seat] & (hands[seat] - 1) == 0
        beats = t.beats_last if last else t.beats
        win, wcard, table_bits = 0, trick[0], 0
        for i, card in enumerate(trick):
            if i and beats[wcard * 24 + card]:
                win, wcard = i, card
            table_bits |= 1 << (2 * card)
        points = sum(t.points[c] for c in trick)
        led = t.suit[trick[0]]
        wseat = (pos.leader + win) % SEATS
        return self._node(hands, seat, len(trick), led, wseat, wcard, points, table_bits, rest, alpha, beta)

    def reaches(self, pos: Position, target: int) -> bool:
        """Whether Re can take at least `target` card points from the table and the tricks to come."""
        return self.search(pos, target - 1, target) >= target

    def value(self, pos: Position) -> int:
        """The exact value (Re's card points from the table and the tricks to come), by
        zero-window searches: first at the last value found and one above it (the values of
        one game's positions lie close together), then halving the interval that is left."""
        t = self.tables
        lo = 0
        hi = sum(t.hand_points(h) for h in pos.hands) + sum(t.points[c] for c in pos.trick)
        probes = [g for g in (self._guess, self._guess + 1) if lo < g <= hi]
        while lo < hi:
            target = probes.pop(0) if probes else (lo + hi + 1) // 2
            if not lo < target <= hi:
                continue
            found = self.search(pos, target - 1, target)
            if found >= target:
                lo = found
            else:
                hi = found
        self._guess = lo
        return lo

    def classes(self, pos: Position) -> list[tuple[int, ...]]:
        """The cards the player to move may play, by class of equivalent cards (highest first
        in each class), in the game's order. A `plain` solver makes one class per card."""
        t = self.tables
        seat = pos.to_play
        hand = pos.hands[seat]
        if pos.trick:
            following = hand & t.suit_bits[t.suit[pos.trick[0]]]
            if following:
                hand = following
        others = 0
        for s in range(SEATS):
            if s != seat:
                others |= pos.hands[s]
        for card in pos.trick:
            others |= 1 << (2 * card)
        out: list[list[int]] = []
        for card in _distinct(hand):
            if out and not self.plain and _alike(t, out[-1][0], card, others):
                out[-1].append(card)
            else:
                out.append([card])
        return [tuple(group) for group in out]

    def play(self, pos: Position, card: int) -> Position:
        """The position after the player to move plays card number `card` (not checked)."""
        seat = pos.to_play
        hands = list(pos.hands)
        hands[seat] = remove_card(hands[seat], card)
        trick = (*pos.trick, card)
        leader = pos.leader
        if len(trick) == SEATS:
            last = not any(hands)
            beats = self.tables.beats_last if last else self.tables.beats
            win = 0
            for i in range(1, SEATS):
                if beats[trick[win] * 24 + trick[i]]:
                    win = i
            leader, trick = (leader + win) % SEATS, ()
        return Position((hands[0], hands[1], hands[2], hands[3]), leader, trick, pos.re)

    def value_after(self, pos: Position, card: int) -> int:
        """Re's card points from the table and the tricks to come, once `card` is played."""
        done = self.trick_points(pos, card)
        gain = 0 if done is None or not pos.re[done[0]] else done[1]
        return gain + self.value(self.play(pos, card))

    def trick_points(self, pos: Position, card: int) -> tuple[int, int] | None:
        """When `card` completes the trick on the table: (its winner's seat, its card points)."""
        if len(pos.trick) != SEATS - 1:
            return None
        after = self.play(pos, card)
        return after.leader, sum(self.tables.points[c] for c in (*pos.trick, card))


def _distinct(hand: int) -> list[int]:
    """The card numbers in a hand, each once, in the game's order."""
    out = []
    while hand:
        card = ((hand & -hand).bit_length() - 1) >> 1
        hand &= ~(3 << (2 * card))
        out.append(card)
    return out


def _alike(t: Tables, high: int, low: int, others: int) -> bool:
    """Whether `low` plays as `high` does: one suit, the same points, and no card from `high`
    down to `low` (their other copies included) in another hand or on the table."""
    if t.suit[high] != t.suit[low] or t.points[high] != t.points[low]:
        return False
    if not (t.equal_ok[high] and t.equal_ok[low]):
        return False
    return not others & ((4 << (2 * low)) - (1 << (2 * high)))


def _runs(t: Tables) -> list[tuple[int, int]]:
    """The runs of card types alike but for their points (first, last + 1): adjacent in rank,
    of one suit, the first of two copies taking the second, and alike against every other card
    in both tables (a suit in rank order, the trumps from the highest to the lowest). The table
    keys a position with the types still held moved to the top of each run: where other cards
    of a run have fallen it plays as where these have, card for card by rank (`_slack`)."""

    def alike(x: int, y: int) -> bool:
        if t.suit[x] != t.suit[y] or not (t.equal_ok[x] and t.equal_ok[y]):
            return False
        for b in (t.beats, t.beats_last):
            if b[x * 24 + y] or not b[y * 24 + x] or b[x * 24 + x] or b[y * 24 + y]:
                return False
            for z in range(24):
                if z not in (x, y) and (b[z * 24 + x] != b[z * 24 + y] or b[x * 24 + z] != b[y * 24 + z]):
                    return False
        return True

    runs = []
    x = 0
    while x < 24:
        y = x + 1
        while y < 24 and alike(y - 1, y):
            y += 1
        if y - x > 1:
            runs.append((x, y))
        x = y
    return runs


def _run_masks(runs: list[tuple[int, int]]) -> list[int]:
    """Each run's card types, as `_types` spells them."""
    return [sum(1 << (2 * i) for i in range(start, end)) for start, end in runs]


_TYPES = sum(1 << (2 * i) for i in range(24))
"""Bit 2i of every card type i: a hand's word masked to say which types it holds."""


def _types(hands: list[int]) -> int:
    """The card types the hands hold (bit 2i for type i)."""
    held = hands[0] | hands[1] | hands[2] | hands[3]
    return (held | held >> 1) & _TYPES


def _twice(hands: list[int]) -> int:
    """The card types of which both copies are still in the hands (bit 2i for type i)."""
    twice = 0
    seen = 0
    for hand in hands:
        types = (hand | hand >> 1) & _TYPES
        twice |= hand & hand >> 1 & _TYPES | seen & types
        seen |= types
    return twice


def _slack(points: tuple[int, ...], masks: list[int], then: int, now: int, twice: int) -> tuple[int, int]:
    """How far the value of a position holding the card types `now` (`twice`: those of which
    both copies) may lie from that of one holding `then` with the same key: played card for
    card by rank in each run (`masks`), every trick goes to the same player and each card's
    points to the same party, so the value drops by at most the points the cards of `then`
    carry above their counterparts and rises by at most those they carry below: (down, up)."""
    down = up = 0
    for mask in masks:
        a, b = then & mask, now & mask
        while a != b:
            x = ((a & -a).bit_length() - 1) >> 1
            y = ((b & -b).bit_length() - 1) >> 1
            a &= a - 1
            b &= b - 1
            diff = points[x] - points[y]
            if twice >> (2 * y) & 1:
                diff *= 2
            if diff > 0:
                down += diff
            else:
                up -= diff
    return down, up


def _mapped(masks: list[int], card: int, then: int, now: int) -> int:
    """The card of a position holding the types `now` that stands where `card` stood in one
    holding `then` with the same key (-1 for none)."""
    if card < 0 or then == now:
        return card
    for mask in masks:
        if mask >> (2 * card) & 1:
            a, b = then & mask, now & mask
            for _ in range((a & ((1 << (2 * card)) - 1)).bit_count()):
                b &= b - 1
            return ((b & -b).bit_length() - 1) >> 1 if b else -1
    return card


def _beaten_by(beats: tuple[bool, ...]) -> list[int]:
    """By card number w: the bits of every card that takes the lead played after w."""
    return [sum(3 << (2 * x) for x in range(24) if beats[w * 24 + x]) for w in range(24)]


def _searcher(
    t: Tables,
    re: tuple[bool, bool, bool, bool],
    table: dict[int, dict[int, tuple[int, int, int]]],
    nodes: list[int],
    plain: bool,
    limit: int,
) -> Node:
    """The recursive search over one deal's tables, as a closure: every table a local name."""
    points, suit, suit_bits = t.points, t.suit, t.suit_bits
    beats_all, beats_last, equal_ok = t.beats, t.beats_last, t.equal_ok
    get = table.get
    use_table = not plain
    runs = _runs(t)
    run_masks = _run_masks(runs)
    run_starts = list(zip([start for start, _ in runs], run_masks, strict=True))
    every_hand = [sum(3 << (2 * i + 48 * s) for s in range(SEATS)) for i in range(24)]
    """By card type: its two bits in every hand of the key."""
    beaten_by = _beaten_by(beats_all)
    beaten_by_last = _beaten_by(beats_last)
    top_points = max(points)
    history = [0] * 24
    killer = [[-1] * SEATS for _ in range(49)]
    """By cards in hand and seat: the lead that cut off last."""

    def last_trick(hands: list[int], seat: int) -> int:
        """Everyone holds one card: the trick plays itself."""
        wcard = (hands[seat].bit_length() - 1) >> 1
        wseat, total = seat, points[wcard]
        for i in (1, 2, 3):
            s = (seat + i) % SEATS
            card = (hands[s].bit_length() - 1) >> 1
            total += points[card]
            if beats_last[wcard * 24 + card]:
                wseat, wcard = s, card
        return total if re[wseat] else 0

    def decided(hands: list[int], seat: int, n: int, led: int, wseat: int, wcard: int, pts: int, rest: int) -> int:
        """Inside a trick: when no card the players still to play may play beats the trick's best
        card, the trick is its winner's, with at least the cheapest card each of them may play.
        Then Re takes at least that much (a winner of Re) or at most the rest without it (of
        Kontra): that bound, or -1 (Re) / _FAR (Kontra) while the trick is open."""
        hand = hands[seat]
        beaten = beaten_by[wcard] if hand & (hand - 1) else beaten_by_last[wcard]
        add = 0
        for k in range(SEATS - n):
            h = hands[(seat + k) % SEATS]
            legal = h & suit_bits[led] or h
            if legal & beaten:
                return -1 if re[wseat] else _FAR
            least = _FAR
            while legal:
                card = ((legal & -legal).bit_length() - 1) >> 1
                legal &= ~(3 << (2 * card))
                least = min(least, points[card])
            add += least
        return pts + add if re[wseat] else rest - add

    def look(key: int, held: int, hands: list[int], rest: int) -> tuple[int, int, int]:
        """The table's bounds on a trick start holding the types `held`: every entry of its key
        gives its bounds, widened by the slack between the two positions' points (worked out
        only where they could narrow); and the card to try first, the best of the entry whose
        types held differ in the fewest from these (the lowest types held among equals), mapped
        onto this position: (lower bound, upper bound, card or -1)."""
        entries = get(key)
        if entries is None:
            return 0, rest, -1
        lo, hi = 0, rest
        fewest, best, best_held = 25, -1, 0
        twice = -1
        for then, (elo, ehi, card) in entries.items():
            differ = (then ^ held).bit_count()
            if differ < fewest or (differ == fewest and then < best_held):
                fewest, best, best_held = differ, card, then
            if elo <= lo and ehi >= hi:
                continue  # cannot narrow them, with any slack
            if differ:
                if twice < 0:
                    twice = _twice(hands)
                down, up = _slack(points, run_masks, then, held, twice)
                elo -= down
                ehi += up
            lo = max(lo, elo)
            hi = min(hi, ehi)
        return lo, hi, _mapped(run_masks, best, best_held, held)

    def store(key: int, held: int, entry: tuple[int, int, int]) -> None:
        """Stores an entry over one of its key whose cards carry the same points, else beside them."""
        entries = table.get(key)
        if entries is None:
            table[key] = {held: entry}
            return
        if held not in entries:  # else its own, the one entry of the same points
            for then in list(entries):
                if _slack(points, run_masks, then, held, 0) == (0, 0):
                    del entries[then]
        entries[held] = entry

    def node(
        hands: list[int],
        seat: int,
        n: int,
        led: int,
        wseat: int,
        wcard: int,
        pts: int,
        on_table: int,
        rest: int,
        alpha: int,
        beta: int,
    ) -> int:
        nodes[0] += 1
        if nodes[0] > limit:
            raise SearchLimit(f"stopped after {limit} positions")
        hand = hands[seat]
        hint = -1
        key = held = 0
        known_lo, known_hi = 0, _FAR
        if n == 0:
            if not hand:
                return 0
            if not hand & (hand - 1):
                return last_trick(hands, seat)
            if rest <= alpha:
                return rest
            if beta <= 0:
                return 0
            if use_table:
                h0, h1, h2, h3 = hands
                held = _types(hands)
                key = h0 | h1 << 48 | h2 << 96 | h3 << 144
                for start, mask in run_starts:
                    in_run = held & mask
                    if in_run >> (2 * start) == _TYPES >> (48 - 2 * in_run.bit_count()):
                        continue  # the types held are at the top of the run already
                    top = 2 * start
                    while in_run:
                        low = in_run & -in_run
                        at = low.bit_length() - 1
                        if at != top:  # every type between is gone: its fields are empty
                            fields = every_hand[at >> 1]
                            key = (key & ~fields) | (key & fields) >> (at - top)
                        in_run ^= low
                        top += 2
                key |= seat << 192
                known_lo, known_hi, hint = look(key, held, hands, rest)
                if known_lo >= beta:
                    return known_lo
                if known_hi <= alpha:
                    return known_hi
                if known_lo > alpha:
                    alpha = known_lo
                if known_hi < beta:
                    beta = known_hi
            legal = hand
        else:
            if pts + rest <= alpha:
                return pts + rest
            legal = hand & suit_bits[led]
            if not legal:
                legal = hand
            most = (SEATS - n) * top_points  # the most the cards still to come add to the trick
            if use_table and (pts + most >= beta if re[wseat] else rest - most <= alpha):
                bound = decided(hands, seat, n, led, wseat, wcard, pts, rest)
                if re[wseat]:
                    if bound >= beta:
                        return bound
                elif bound <= alpha:
                    return bound
        beats = beats_last if not hand & (hand - 1) else beats_all
        others = hands[(seat + 1) % SEATS] | hands[(seat + 2) % SEATS] | hands[(seat + 3) % SEATS] | on_table
        moves: list[int] = []
        prev = -1
        m = legal
        while m:
            card = ((m & -m).bit_length() - 1) >> 1
            m &= ~(3 << (2 * card))
            if (
                not plain
                and prev >= 0
                and points[card] == points[prev]
                and suit[card] == suit[prev]
                and equal_ok[card]
                and equal_ok[prev]
                and not others & ((4 << (2 * card)) - (1 << (2 * prev)))
            ):
                continue
            moves.append(card)
            prev = card
        mine = re[seat]
        if not plain and len(moves) > 1:
            row = wcard * 24
            if n == 0:
                moves.sort(key=lambda c: -history[c])
                for lead in (killer[hand.bit_count()][seat], hint):
                    if lead in moves:
                        moves.remove(lead)
                        moves.insert(0, lead)
            elif n == 3 or (n == 2 and re[(seat + 1) % SEATS] == mine):
                # as solver.c: no player of the other party plays after this card; the most
                # points first, and of them the sure winners last

                def last(c: int) -> int:
                    return -points[c] if beaten_by[c] & others else _SURE_LAST - points[c]

                if re[wseat] == mine:
                    moves.sort(key=last)
                else:
                    moves.sort(key=lambda c: (0, last(c)) if beats[row + c] else (1, points[c]))
            elif re[wseat] == mine:
                moves.sort(key=lambda c: -points[c])
            else:
                moves.sort(key=lambda c: (0, c) if beats[row + c] else (1, points[c]))
        a0, b0 = alpha, beta
        best = -_FAR if mine else _FAR
        best_card = -1
        for card in moves:
            high = 2 << (2 * card)
            hands[seat] = hand ^ high if hand & high else hand ^ (high >> 1)
            p = pts + points[card]
            if n == 0:
                nseat, ncard = seat, card
                nled = suit[card]
            else:
                nled = led
                if beats[wcard * 24 + card]:
                    nseat, ncard = seat, card
                else:
                    nseat, ncard = wseat, wcard
            if n == 3:
                gain = p if re[nseat] else 0
                v = gain + node(hands, nseat, 0, 0, 0, 0, 0, 0, rest - points[card], alpha - gain, beta - gain)
            else:
                nb = on_table | (1 << (2 * card))
                v = node(hands, (seat + 1) % SEATS, n + 1, nled, nseat, ncard, p, nb, rest - points[card], alpha, beta)
            if mine:
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            history[card] += rest
                            if n == 0:
                                killer[hand.bit_count()][seat] = card
                            break
            elif v < best:
                best, best_card = v, card
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        history[card] += rest
                        if n == 0:
                            killer[hand.bit_count()][seat] = card
                        break
        hands[seat] = hand
        if n == 0 and use_table:
            lo, hi = known_lo, known_hi  # as found: the positions below hold fewer cards
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            store(key, held, (lo, hi, best_card))
        return best

    return node
