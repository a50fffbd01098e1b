"""Generate the bundled sample games in `sample_games/` (run: `.venv/bin/python tools/make_samples.py`).

Every deal comes from a seeded `random.Random`, so the output is the same on
every run. The cards are chosen by a simple, plausible heuristic over
`legal_plays`: lead aces or (with many trumps) high trumps, win a trick with
the cheapest card that takes it when it is worth it, smear points on a
partner's trick, otherwise throw the cheapest card. For each sample the seeds
are searched until the deal suits the game (a soloist with a strong hand, the
queens of clubs split in a normal game) and the game shows its feature (the
second H10 wins a trick, a DA beats an H10).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from doko_ledger.cards import ALTE, DULLE, FUCHS, Card, Rank, deck
from doko_ledger.formats import game_file
from doko_ledger.game.decide import PlayCard, decide
from doko_ledger.game.evolve import evolve
from doko_ledger.game.record import GameRecord, PlayItem, Said, to_events
from doko_ledger.game.state import GameState
from doko_ledger.rules.game_types import GameType
from doko_ledger.rules.order import CardOrder, card_order
from doko_ledger.rules.play import SEATS, legal_plays, winning_index
from doko_ledger.rules.ruleset import RuleSet, preset, rules_from_mapping

OUT = Path(__file__).resolve().parent.parent / "sample_games"
MAX_SEEDS = 20_000

KITCHEN = ("Anna", "Ben", "Clara", "Dirk")
ANKER = ("Jonas", "Lena", "Mehmet", "Sophie")
VEREIN = ("Greta", "Hannes", "Ilse", "Karl")

Hands = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class Sample:
    """One sample game to generate: where it was played and what it must show."""

    file: str
    id: str
    played_on: str
    players: tuple[str, ...]
    dealer: str
    rules: RuleSet
    game_type: GameType
    base_seed: int
    hands_recorded: bool = True
    schweinchen_call: bool = False
    deal_ok: Callable[[Hands, int | None, CardOrder], bool] = field(default=lambda hands, soloist, order: True)
    play_ok: Callable[[GameState], bool] = field(default=lambda state: True)


# -- dealing -----------------------------------------------------------------


def deal(rng: random.Random, rules: RuleSet) -> Hands:
    cards = sorted(deck(rules.with_nines).elements(), key=str)
    rng.shuffle(cards)
    size = rules.hand_size
    return tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(SEATS))


def solo_strength(hand: tuple[Card, ...], order: CardOrder) -> int:
    """How strong a hand is for a solo: its trumps, or its aces and tens in an ace solo."""
    if not order.trumps:
        return sum(2 if c.rank is Rank.ACE else 1 for c in hand if c.rank in (Rank.ACE, Rank.TEN))
    return sum(order.is_trump(c) for c in hand)


def pick_soloist(hands: Hands, order: CardOrder) -> int:
    return max(range(SEATS), key=lambda s: solo_strength(hands[s], order))


def normal_deal(hands: Hands, soloist: int | None, order: CardOrder) -> bool:
    """A deal that is a plain normal game: CQs split, nobody poor (RULES.md §4)."""
    normal = card_order(GameType.NORMAL)
    return all(h.count(ALTE) < 2 and sum(normal.is_trump(c) for c in h) > 3 for h in hands)


def strong_solo(minimum: int) -> Callable[[Hands, int | None, CardOrder], bool]:
    def ok(hands: Hands, soloist: int | None, order: CardOrder) -> bool:
        assert soloist is not None
        return solo_strength(hands[soloist], order) >= minimum

    return ok


# -- playing -----------------------------------------------------------------


def partners(state: GameState, seat: int) -> set[int]:
    """The seats on `seat`'s party (the generator sees every hand)."""
    assert state.game_type is not None and state.dealt is not None
    if state.game_type.is_solo:
        assert state.declarer is not None
        if seat == state.declarer:
            return {seat}
        return {s for s in range(SEATS) if s != state.declarer}
    re = {s for s in range(SEATS) if ALTE in state.dealt[s]}
    return re if seat in re else set(range(SEATS)) - re


def winner_so_far(state: GameState, cards: list[Card]) -> int:
    """Index of the card that would take the trick if it ended after `cards`."""
    return winning_index(
        cards,
        state.order,
        second_dulle_beats_first=state.rules.second_dulle_beats_first,
        last_trick=len(state.tricks) + 1 == state.hand_size,
    )


def choose(state: GameState, seat: int) -> Card:
    """The card `seat` plays next, by a simple greedy heuristic."""
    assert state.hands is not None
    order = state.order
    hand = state.hands[seat]
    trick = list(state.current.cards) if state.current is not None else []
    legal = legal_plays(hand, trick, order)

    def cheap(c: Card) -> tuple[int, bool, int]:
        return (c.points, order.is_trump(c), order.strength(c))

    if not trick:
        trumps = [c for c in legal if order.is_trump(c)]
        soloist = state.game_type is not None and state.game_type.is_solo and state.declarer == seat
        if trumps and (soloist or len(trumps) * 2 > len(hand)):
            return max(trumps, key=order.strength)
        aces = [c for c in legal if not order.is_trump(c) and c.rank is Rank.ACE]
        if aces:
            return aces[0]
        plain = [c for c in legal if not order.is_trump(c)]
        return min(plain or legal, key=cheap)

    leader = state.current.leader if state.current is not None else seat
    best = winner_so_far(state, trick)
    best_seat = (leader + best) % SEATS
    last = len(trick) == SEATS - 1
    ours = partners(state, seat)
    top = order.strength(trick[best]) > len(order.trumps) - 5  # H10, the queens (or their like)
    if best_seat in ours and (last or (order.is_trump(trick[best]) and top)):
        smear = [c for c in legal if not (order.is_trump(c) and order.strength(c) > len(order.trumps) - 5)]
        return max(smear or legal, key=lambda c: (c.points, -order.strength(c)))
    winners = [c for c in legal if winner_so_far(state, [*trick, c]) == len(trick)]
    points = sum(c.points for c in trick)
    if winners and best_seat not in ours and (last or points >= 10 or (len(trick) == 1 and points >= 4)):
        return min(winners, key=lambda c: (order.is_trump(c), order.strength(c)))
    return min(legal, key=cheap)


def play(record: GameRecord) -> GameRecord:
    """Play a whole game from the record's deal; returns the record with its tricks."""
    assert record.hands is not None
    _, state = to_events(record)
    tricks: list[list[PlayItem]] = []
    while not state.finished:
        seat = state.to_play
        assert seat is not None
        card = choose(state, seat)
        if state.current is None:
            tricks.append([])
        tricks[-1].append(card)
        for event in decide(state, PlayCard(seat, card)):
            state = evolve(state, event)
    return replace(record, tricks=tuple(tuple(t) for t in tricks))


def call_schweinchen(record: GameRecord) -> GameRecord:
    """The record with `{Player: schweinchen}` said just before the first DA (RULES.md §2)."""
    assert record.hands is not None
    holder = next(s for s, h in enumerate(record.hands) if h.count(FUCHS) == 2)
    tricks = [list(t) for t in record.tricks]
    for trick in tricks:
        if FUCHS in trick:
            trick.insert(trick.index(FUCHS), Said(record.players[holder], "schweinchen"))
            break
    return replace(record, tricks=tuple(tuple(t) for t in tricks))


def generate(sample: Sample) -> tuple[str, int]:
    """The canonical text of a sample game and the seed that made it."""
    for seed in range(sample.base_seed, sample.base_seed + MAX_SEEDS):
        rng = random.Random(seed)
        hands = deal(rng, sample.rules)
        order = card_order(sample.game_type, sample.rules.schweinchen)
        soloist = pick_soloist(hands, order) if sample.game_type.is_solo else None
        if not sample.deal_ok(hands, soloist, order):
            continue
        shown = card_order(sample.game_type)
        record = GameRecord(
            id=sample.id,
            players=sample.players,
            dealer=sample.dealer,
            rules=sample.rules,
            game_type=sample.game_type,
            soloist=None if soloist is None else sample.players[soloist],
            hands=tuple(shown.sorted(h) for h in hands),
            played_on=sample.played_on,
        )
        played = play(record)
        if not sample.hands_recorded:
            # a table that does not record hands has no Schweinchen until it is called
            if sample.schweinchen_call:
                played = call_schweinchen(played)
            played = replace(played, hands=None)
        _, state = to_events(played)
        if not sample.play_ok(state):
            continue
        return game_file.dumps(played), seed
    raise SystemExit(f"{sample.file}: no seed in {MAX_SEEDS} gives the game wanted")


# -- features ------------------------------------------------------------------


def second_dulle_wins(state: GameState) -> bool:
    """A trick before the last is won by the second H10 (option `second_dulle_beats_first`)."""
    for trick in state.tricks[:-1]:
        dulles = [i for i, c in enumerate(trick.cards) if c == DULLE]
        if len(dulles) == 2 and trick.winner == trick.seat_of(dulles[1]):
            return True
    return False


def fox_beats_dulle(state: GameState) -> bool:
    """A trick with an H10 is won by a DA (*Schweinchen*)."""
    return any(
        DULLE in t.cards and t.winner is not None and t.cards[(t.winner - t.leader) % SEATS] == FUCHS
        for t in state.tricks
    )


def schweinchen_deal(hands: Hands, soloist: int | None, order: CardOrder) -> bool:
    return normal_deal(hands, soloist, order) and any(h.count(FUCHS) == 2 for h in hands)


# -- the samples -----------------------------------------------------------------

STANDARD = preset("standard")
BISTRO = preset("bistro")
DULLE_RULES = rules_from_mapping({"preset": "standard", "second_dulle_beats_first": True})
KITCHEN_NIGHT = "2026-11-28"
ANKER_NIGHT = "2026-11-29"
VEREIN_NIGHT = "2026-12-05"


def kitchen(n: int, name: str, dealer: str, game_type: GameType, base_seed: int, **kw: object) -> Sample:
    return Sample(
        file=f"{n:02d}-{name}.yaml",
        id=f"{KITCHEN_NIGHT}-kitchen-{n:02d}-{name}",
        played_on=KITCHEN_NIGHT,
        players=KITCHEN,
        dealer=dealer,
        rules=STANDARD,
        game_type=game_type,
        base_seed=base_seed,
        **kw,  # type: ignore[arg-type]
    )


SAMPLES = [
    kitchen(1, "normal", "Dirk", GameType.NORMAL, 100, deal_ok=normal_deal),
    kitchen(2, "diamond-solo", "Anna", GameType.DIAMOND_SOLO, 200, deal_ok=strong_solo(9)),
    kitchen(3, "heart-solo", "Ben", GameType.HEART_SOLO, 300, deal_ok=strong_solo(9)),
    kitchen(4, "spade-solo", "Clara", GameType.SPADE_SOLO, 400, deal_ok=strong_solo(9)),
    kitchen(5, "club-solo", "Dirk", GameType.CLUB_SOLO, 500, deal_ok=strong_solo(9)),
    kitchen(6, "queen-solo", "Anna", GameType.QUEEN_SOLO, 600, deal_ok=strong_solo(5)),
    kitchen(7, "jack-solo", "Ben", GameType.JACK_SOLO, 700, deal_ok=strong_solo(5)),
    kitchen(8, "ace-solo", "Clara", GameType.ACE_SOLO, 800, deal_ok=strong_solo(11)),
    kitchen(9, "normal-not-dealt", "Dirk", GameType.NORMAL, 900, deal_ok=normal_deal, hands_recorded=False),
    Sample(
        file="10-second-dulle.yaml",
        id=f"{VEREIN_NIGHT}-verein-01-second-dulle",
        played_on=VEREIN_NIGHT,
        players=VEREIN,
        dealer="Karl",
        rules=DULLE_RULES,
        game_type=GameType.NORMAL,
        base_seed=1000,
        deal_ok=normal_deal,
        play_ok=second_dulle_wins,
    ),
    Sample(
        file="11-bistro-pure-heart-solo.yaml",
        id=f"{ANKER_NIGHT}-anker-01-pure-heart-solo",
        played_on=ANKER_NIGHT,
        players=ANKER,
        dealer="Sophie",
        rules=BISTRO,
        game_type=GameType.PURE_HEART_SOLO,
        base_seed=1100,
        deal_ok=strong_solo(6),
    ),
    Sample(
        file="12-bistro-schweinchen.yaml",
        id=f"{ANKER_NIGHT}-anker-02-schweinchen",
        played_on=ANKER_NIGHT,
        players=ANKER,
        dealer="Jonas",
        rules=BISTRO,
        game_type=GameType.NORMAL,
        base_seed=1200,
        deal_ok=schweinchen_deal,
        play_ok=fox_beats_dulle,
    ),
    Sample(
        file="13-bistro-schweinchen-called.yaml",
        id=f"{ANKER_NIGHT}-anker-03-schweinchen-called",
        played_on=ANKER_NIGHT,
        players=ANKER,
        dealer="Lena",
        rules=BISTRO,
        game_type=GameType.NORMAL,
        base_seed=1300,
        hands_recorded=False,
        schweinchen_call=True,
        deal_ok=schweinchen_deal,
        play_ok=fox_beats_dulle,
    ),
]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for sample in SAMPLES:
        text, seed = generate(sample)
        (OUT / sample.file).write_text(text, encoding="utf-8")
        print(f"{sample.file}: {sample.id} (seed {seed})", file=sys.stderr)


if __name__ == "__main__":
    main()
