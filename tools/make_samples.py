"""Generate the bundled sample games in `sample_games/` (run: `.venv/bin/python tools/make_samples.py`).

Every deal comes from a seeded `random.Random`, so the output is the same on
every run. The game type is never written down: it follows from the
reservations (a solo, a marriage, a poverty) or, for a silent solo, from the
deal (docs/rules.md §4). The cards are chosen by a simple, plausible heuristic over
`legal_plays`: lead aces or (with many trumps) high trumps, win a trick with
the cheapest card that takes it when it is worth it, smear points on a
partner's trick, otherwise throw the cheapest card. Announcements follow a
script per sample (who says what after how many of their own cards); each is
checked with `decide` and kept only if accepted. For each sample the seeds
are searched until the deal suits the game (a soloist with a strong hand, the
queens of clubs split in a normal game) and the game shows its feature (the
second H10 wins a trick, a marriage clarified in trick 3).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from doko_ledger.doppelkopf.cards import ALTE, DULLE, FUCHS, KARLCHEN, Card, Rank, deck, parse_card
from doko_ledger.doppelkopf.files import game_file, rules_file
from doko_ledger.doppelkopf.game import Announce, IllegalMove, PlayCard, decide, evolve
from doko_ledger.doppelkopf.game.facts import deal_facts
from doko_ledger.doppelkopf.game.parties import marriage_status, true_parties
from doko_ledger.doppelkopf.game.record import (
    GameRecord,
    PlayItem,
    PovertyRecord,
    Said,
    SummaryRecord,
    from_events,
    to_events,
)
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import CardOrder, card_order
from doko_ledger.doppelkopf.rules.play import SEATS, legal_plays, winning_index
from doko_ledger.doppelkopf.rules.reservations import POVERTY_CARDS, POVERTY_MAX_TRUMPS, asking_order, trump_count
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import winner
from doko_ledger.doppelkopf.score import score_game

OUT = Path(__file__).resolve().parent.parent / "sample_games"
MAX_SEEDS = 20_000

KITCHEN = ("Anna", "Ben", "Clara", "Dirk")
ANKER = ("Jonas", "Lena", "Mehmet", "Sophie")
VEREIN = ("Greta", "Hannes", "Ilse", "Karl")

NORMAL = card_order(GameType.NORMAL)
MISDEAL = "misdeal"
POVERTY_DECLINED = "poverty_declined"

Hands = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class Step:
    """One scripted announcement: `who` says `what` once they have played exactly `played` cards.

    `who` is a player's name, `re` or `kontra` (the first player of that party from the
    dealer's left), or `partner` (a marriage's partner, once found).
    """

    who: str
    what: Announcement
    played: int


@dataclass(frozen=True)
class Sample:
    """One sample game to generate: where it was played and what it must show.

    `game_type` is what the reservations (or, for a silent solo, the deal) make of the
    game; `abandoned` is a deal thrown in (`misdeal`, or `poverty_declined`: nobody
    takes the poverty).
    """

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
    abandoned: str | None = None
    script: tuple[Step, ...] = ()
    deal_ok: Callable[[Hands, int | None, CardOrder], bool] = field(default=lambda hands, declarer, order: True)
    play_ok: Callable[[GameState], bool] = field(default=lambda state: True)
    note: str | None = None


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


def both_queens(hands: Hands) -> int | None:
    """The seat holding both CQ, if any."""
    return next((s for s, h in enumerate(hands) if h.count(ALTE) == 2), None)


def poor_seats(hands: Hands) -> list[int]:
    """Seats that could declare a poverty: three trumps or fewer (docs/rules.md §4)."""
    return [s for s, h in enumerate(hands) if trump_count(h) <= POVERTY_MAX_TRUMPS]


def declarer_of(sample: Sample, hands: Hands, order: CardOrder) -> int | None:
    """The soloist, marriage player or poor player the deal gives, or None."""
    game_type = sample.game_type
    if game_type.is_declared_solo:
        return max(range(SEATS), key=lambda s: solo_strength(hands[s], order))
    if game_type in (GameType.MARRIAGE, GameType.SILENT_SOLO):
        return both_queens(hands)
    if game_type is GameType.POVERTY:
        poor = poor_seats(hands)
        return poor[0] if len(poor) == 1 else None
    return None


def normal_deal(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
    """A deal that is a plain normal game: CQs split, nobody poor (docs/rules.md §4)."""
    return both_queens(hands) is None and not poor_seats(hands)


def queens_deal(minimum: int) -> Callable[[Hands, int | None, CardOrder], bool]:
    """One player holds both CQ (a marriage or a silent solo) with `minimum` trumps; nobody poor."""

    def ok(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
        return declarer is not None and trump_count(hands[declarer]) >= minimum and not poor_seats(hands)

    return ok


def poverty_deal(acceptor_trumps: int) -> Callable[[Hands, int | None, CardOrder], bool]:
    """Exactly one poor player, no CQ pair; the second player asked holds `acceptor_trumps` or more."""

    def ok(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
        if declarer is None or both_queens(hands) is not None:
            return False
        return trump_count(hands[(declarer + 2) % SEATS]) >= acceptor_trumps

    return ok


def strong_solo(minimum: int) -> Callable[[Hands, int | None, CardOrder], bool]:
    def ok(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
        assert declarer is not None
        return solo_strength(hands[declarer], order) >= minimum

    return ok


def strong_re(players: tuple[str, ...], dealer: str, who: str, minimum: int) -> Callable[..., bool]:
    """A normal deal where the announcing Re player (`who`: a name or `re`) holds `minimum` trumps."""

    def ok(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
        if not normal_deal(hands, declarer, order):
            return False
        if who == "re":
            start = players.index(dealer)
            seat = next(s for s in asking_order(start) if ALTE in hands[s])
        else:
            seat = players.index(who)
        return ALTE in hands[seat] and trump_count(hands[seat]) >= minimum

    return ok


def kontra_player(name: str) -> Callable[..., bool]:
    """A normal deal where `name` is on the Kontra side (holds no CQ)."""

    def ok(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
        return normal_deal(hands, declarer, order) and ALTE not in hands[KITCHEN.index(name)]

    return ok


# -- the reservations and a poverty's exchange ---------------------------------


def cheapest(cards: list[Card], count: int) -> tuple[Card, ...]:
    """The `count` cards worth least (fewest points, then the lowest in the normal order)."""
    return tuple(sorted(cards, key=lambda c: (c.points, NORMAL.strength(c), str(c)))[:count])


def poverty_exchange(hands: Hands, poor: int, acceptor: int | None, players: tuple[str, ...]) -> PovertyRecord:
    """The poor player passes all trumps, filled up with cheap plain cards; the acceptor
    (None: everybody declines) gives back the three cheapest plain cards of the hand they then hold."""
    hand = list(hands[poor])
    trumps = [c for c in hand if NORMAL.is_trump(c)]
    plain = [c for c in hand if not NORMAL.is_trump(c)]
    passed = NORMAL.sorted(trumps + list(cheapest(plain, POVERTY_CARDS - len(trumps))))
    if acceptor is None:
        return PovertyRecord(passed=passed)
    taken = list(hands[acceptor]) + list(passed)
    plain = [c for c in taken if not NORMAL.is_trump(c)]
    returned = NORMAL.sorted(cheapest(plain or taken, POVERTY_CARDS))
    return PovertyRecord(passed=passed, accepted_by=players[acceptor], returned=returned)


def setup(sample: Sample, hands: Hands, declarer: int | None) -> GameRecord:
    """The record up to the first card: players, rules, the deal, the reservations, a poverty."""
    shown = card_order(sample.game_type)
    record = GameRecord(
        id=sample.id,
        players=sample.players,
        dealer=sample.dealer,
        rules=sample.rules,
        hands=tuple(shown.sorted(h) for h in hands),
        played_on=sample.played_on,
        note=sample.note,
    )
    game_type = sample.game_type
    if game_type.is_declared_solo:
        assert declarer is not None
        return replace(record, reservations=((sample.players[declarer], game_type.value),))
    if game_type is GameType.MARRIAGE:
        assert declarer is not None
        return replace(record, reservations=((sample.players[declarer], "marriage"),))
    if game_type is GameType.POVERTY:
        assert declarer is not None
        acceptor = None if sample.abandoned == POVERTY_DECLINED else (declarer + 2) % SEATS
        exchange = poverty_exchange(hands, declarer, acceptor, sample.players)
        return replace(record, reservations=((sample.players[declarer], "poverty"),), poverty=exchange)
    return record


# -- playing -----------------------------------------------------------------


def partners(state: GameState, seat: int) -> set[int]:
    """The seats known (to the generator, which sees every hand) to be on `seat`'s party."""
    parties = true_parties(state)
    if parties[seat] is None:
        return {seat}
    return {s for s in range(SEATS) if parties[s] is parties[seat]}


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


def announcer(state: GameState, who: str) -> int | None:
    """The seat a script step names (see `Step`), or None while it is not known."""
    if who in state.players:
        return state.players.index(who)
    if who == "partner":
        return marriage_status(state)[0]
    parties = true_parties(state)
    party = Party(who)
    return next((s for s in asking_order(state.dealer) if parties[s] is party), None)


def call_text(state: GameState, seat: int, what: Announcement) -> str:
    """`re`, or a denial with its party word (`kontra no90`): the generator's hands tell the
    party, and `from_events` later drops the word wherever the record tells it too."""
    party = true_parties(state)[seat]
    if what.level == 0 or party is None:
        return what.value
    return f"{party.value} {what.value}"


def play(record: GameRecord, script: tuple[Step, ...]) -> GameRecord:
    """Play a whole game from the record's deal, saying the script's announcements; returns
    the record with its tricks. A scripted call that `decide` refuses is left out."""
    assert record.hands is not None
    _, state = to_events(record)
    tricks: list[list[PlayItem]] = []
    pending = list(script)
    while (seat := state.to_play) is not None:  # None: finished, or a duel's marriage ended it
        if state.current is None:
            tricks.append([])
        while pending:
            step = pending[0]
            caller = announcer(state, step.who)
            if caller is None or len(state.played_by(caller)) < step.played:
                break
            pending.pop(0)
            if len(state.played_by(caller)) > step.played:
                continue  # the moment passed (the marriage was clarified later)
            try:
                events = decide(state, Announce(caller, step.what))
            except IllegalMove:
                continue
            tricks[-1].append(Said(record.players[caller], call_text(state, caller, step.what)))
            for event in events:
                state = evolve(state, event)
        card = choose(state, seat)
        tricks[-1].append(card)
        for event in decide(state, PlayCard(seat, card)):
            state = evolve(state, event)
    return replace(record, tricks=tuple(tuple(t) for t in tricks))


def call_schweinchen(record: GameRecord) -> GameRecord:
    """The record with `{Player: schweinchen}` said just before the first DA (docs/rules.md §2)."""
    assert record.hands is not None
    holder = next(s for s, h in enumerate(record.hands) if h.count(FUCHS) == 2)
    tricks = [list(t) for t in record.tricks]
    for trick in tricks:
        if FUCHS in trick:
            trick.insert(trick.index(FUCHS), Said(record.players[holder], "schweinchen"))
            break
    return replace(record, tricks=tuple(tuple(t) for t in tricks))


def misdeal(sample: Sample) -> GameRecord:
    """A deal thrown in before anybody spoke: no hands, no reservations, no tricks."""
    return GameRecord(
        id=sample.id,
        players=sample.players,
        dealer=sample.dealer,
        rules=sample.rules,
        abandoned=MISDEAL,
        played_on=sample.played_on,
    )


def generate(sample: Sample) -> tuple[str, int]:
    """The canonical text of a sample game and the seed that made it."""
    if sample.abandoned == MISDEAL:
        return game_file.dumps(misdeal(sample)), sample.base_seed
    for seed in range(sample.base_seed, sample.base_seed + MAX_SEEDS):
        rng = random.Random(seed)
        hands = deal(rng, sample.rules)
        order = card_order(sample.game_type, sample.rules.schweinchen)
        declarer = declarer_of(sample, hands, order)
        if sample.game_type is not GameType.NORMAL and declarer is None:
            continue
        if not sample.deal_ok(hands, declarer, order):
            continue
        record = setup(sample, hands, declarer)
        played = record if sample.abandoned is not None else play(record, sample.script)
        if not sample.hands_recorded:
            # a table that does not record hands has no Schweinchen until it is called
            if sample.schweinchen_call:
                played = call_schweinchen(played)
            played = replace(played, hands=None)
        events, state = to_events(played)
        if not sample.play_ok(state):
            continue
        canonical = from_events(events)  # calls with a party word only where the record needs it
        assert to_events(canonical)[1] == state
        return game_file.dumps(canonical), seed
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


def schweinchen_deal(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
    return normal_deal(hands, declarer, order) and any(h.count(FUCHS) == 2 for h in hands)


def marriage_clarified_in(trick: int | None) -> Callable[[GameState], bool]:
    """The marriage finds its partner in `trick` (None: the marriage player wins tricks 1-3)."""

    def ok(state: GameState) -> bool:
        partner, clarified = marriage_status(state)
        if trick is None:
            return partner is None and clarified == 3
        return partner is not None and clarified == trick

    return ok


def script_said(count: int) -> Callable[[GameState], bool]:
    """Every one of the script's `count` calls was accepted."""

    def ok(state: GameState) -> bool:
        return len(state.calls) == count

    return ok


def all_of(*checks: Callable[[GameState], bool]) -> Callable[[GameState], bool]:
    return lambda state: all(check(state) for check in checks)


# -- the samples -----------------------------------------------------------------

STANDARD = preset("standard")
BISTRO = preset("bistro")
DULLE_RULES = rules_from_mapping({"preset": "standard", "second_dulle_beats_first": True})
KITCHEN_NIGHT = "2026-11-28"
ANKER_NIGHT = "2026-11-29"
VEREIN_NIGHT = "2026-12-05"


def kitchen(n: int, name: str, dealer: str, game_type: GameType, base_seed: int, **kw: object) -> Sample:
    return kitchen_game(n, n, name, dealer, game_type, base_seed, **kw)


def kitchen_game(
    file_n: int, n: int, name: str, dealer: str, game_type: GameType, base_seed: int, **kw: object
) -> Sample:
    """The `n`-th game of the kitchen night, written to file number `file_n`."""
    return Sample(
        file=f"{file_n:02d}-{name}.yaml",
        id=f"{KITCHEN_NIGHT}-kitchen-{n:02d}-{name}",
        played_on=KITCHEN_NIGHT,
        players=KITCHEN,
        dealer=dealer,
        rules=STANDARD,
        game_type=game_type,
        base_seed=base_seed,
        **kw,  # type: ignore[arg-type]
    )


def verein(file_n: int, n: int, name: str, dealer: str, game_type: GameType, base_seed: int, **kw: object) -> Sample:
    """The `n`-th game of the club night (standard rules), written to file number `file_n`."""
    return Sample(
        file=f"{file_n:02d}-{name}.yaml",
        id=f"{VEREIN_NIGHT}-verein-{n:02d}-{name}",
        played_on=VEREIN_NIGHT,
        players=VEREIN,
        dealer=dealer,
        rules=STANDARD,
        game_type=game_type,
        base_seed=base_seed,
        **kw,  # type: ignore[arg-type]
    )


RE, KONTRA = Announcement.RE, Announcement.KONTRA
NO90, NO60, NO30, SCHWARZ = Announcement.NO90, Announcement.NO60, Announcement.NO30, Announcement.SCHWARZ

SCHWARZ_SCRIPT = (
    Step("re", RE, 0),
    Step("re", NO90, 1),
    Step("re", NO60, 3),
    Step("re", NO30, 4),
    Step("re", SCHWARZ, 5),
)
REPLY_SCRIPT = (Step("re", RE, 1), Step("kontra", KONTRA, 2))
MARRIAGE_LATE_RE = (Step("partner", RE, 3),)
BISTRO_SCRIPT = (Step("kontra", KONTRA, 1), Step("re", NO60, 3))

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
    # the club night goes on: reservations (docs/rules.md §4)
    verein(
        14,
        2,
        "marriage-first-trick",
        "Greta",
        GameType.MARRIAGE,
        1400,
        deal_ok=queens_deal(5),
        play_ok=marriage_clarified_in(1),
    ),
    verein(
        15,
        3,
        "marriage-third-trick",
        "Hannes",
        GameType.MARRIAGE,
        1500,
        deal_ok=queens_deal(5),
        script=MARRIAGE_LATE_RE,
        play_ok=all_of(marriage_clarified_in(3), script_said(1)),
    ),
    verein(
        16,
        4,
        "lone-marriage",
        "Ilse",
        GameType.MARRIAGE,
        1600,
        deal_ok=queens_deal(7),
        play_ok=marriage_clarified_in(None),
    ),
    verein(17, 5, "silent-solo", "Karl", GameType.SILENT_SOLO, 1700, deal_ok=queens_deal(8)),
    verein(18, 6, "poverty", "Greta", GameType.POVERTY, 1800, deal_ok=poverty_deal(7)),
    verein(
        19,
        7,
        "poverty-declined",
        "Hannes",
        GameType.POVERTY,
        1900,
        abandoned=POVERTY_DECLINED,
        deal_ok=poverty_deal(0),
    ),
    verein(20, 8, "misdeal", "Hannes", GameType.NORMAL, 2000, abandoned=MISDEAL),
    # the kitchen night goes on: announcements (docs/rules.md §5)
    kitchen_game(
        21,
        10,
        "announced-schwarz",
        "Anna",
        GameType.NORMAL,
        2100,
        deal_ok=strong_re(KITCHEN, "Anna", "re", 8),
        script=SCHWARZ_SCRIPT,
        play_ok=script_said(5),
    ),
    kitchen_game(
        22,
        11,
        "kontra-reply",
        "Ben",
        GameType.NORMAL,
        2200,
        deal_ok=normal_deal,
        script=REPLY_SCRIPT,
        play_ok=script_said(2),
    ),
    kitchen_game(
        23,
        12,
        "no60-skipping",
        "Clara",
        GameType.NORMAL,
        2300,
        deal_ok=strong_re(KITCHEN, "Clara", "Anna", 7),
        script=(Step("Anna", NO60, 1),),
        play_ok=script_said(1),
    ),
    kitchen_game(
        24,
        13,
        "kontra-no90-not-dealt",
        "Dirk",
        GameType.NORMAL,
        2400,
        hands_recorded=False,
        deal_ok=kontra_player("Clara"),
        script=(Step("Clara", NO90, 1),),
        play_ok=script_said(1),
    ),
    Sample(
        file="25-bistro-club-solo.yaml",
        id=f"{ANKER_NIGHT}-anker-04-club-solo",
        played_on=ANKER_NIGHT,
        players=ANKER,
        dealer="Mehmet",
        rules=BISTRO,
        game_type=GameType.CLUB_SOLO,
        base_seed=2500,
        deal_ok=strong_solo(8),
        script=BISTRO_SCRIPT,
        play_ok=script_said(2),
    ),
]


# -- scoring samples (docs/rules.md §6-§8) --------------------------------------------------
#
# Games that show a scoring rule: who wins when both parties denied, Kontra's
# announcement flipping 120:120, a schwarz broken by a trick worth nothing, the
# special points of the last trick; deals written down by their facts only; a
# duel. Each comes with its leading comment (the game's note).

DUEL = preset("duel")
DOUBLING = rules_from_mapping({"preset": "standard", "announcement_scoring": "doubling"})
DUEL_NIGHT = "2026-12-06"
DUEL_TABLE = ("Nina", "Bot-1", "Tom", "Bot-2")  # seats 1 and 3 are the computer's (docs/rules.md §8)


def nobody_wins(state: GameState) -> bool:
    """Both parties denied and both missed their targets (docs/rules.md §6)."""
    return winner(deal_facts(state)) is None


def re_points_in(low: int, high: int) -> Callable[[GameState], bool]:
    """Re took between `low` and `high` card points."""
    return lambda state: low <= deal_facts(state).re_points <= high


def fox_and_karlchen_in_last_trick(state: GameState) -> bool:
    """The last trick is won with CJ and holds a DA of the other party (docs/rules.md §7)."""
    last = state.tricks[-1]
    assert last.winner is not None
    parties = true_parties(state)
    won_with = last.cards[(last.winner - last.leader) % SEATS]
    caught = [s for s, c in last.plays if c == FUCHS and parties[s] is not parties[last.winner]]
    return won_with == KARLCHEN and last.cards.count(KARLCHEN) == 1 and len(caught) == 1


def duel_marriage_with_a_computer(state: GameState) -> bool:
    """A person's marriage (duel rules) clarified by a trick a computer seat won, played to the end."""
    partner, clarified = marriage_status(state)
    return state.finished and partner is not None and state.rules.is_computer(partner) and clarified in (1, 2)


def person_marriage(hands: Hands, declarer: int | None, order: CardOrder) -> bool:
    """A person (not a computer seat) holds both CQ and five trumps; nobody is poor."""
    return queens_deal(5)(hands, declarer, order) and declarer is not None and not DUEL.is_computer(declarer)


def scores_in_note(rule_sets: dict[str, RuleSet]) -> Callable[[GameState], bool]:
    """The results written in the game's note (`standard: Anna +5, Ben -5, ...`) are the
    scores under each named rule set; the note says them first, the library must agree."""

    def ok(state: GameState) -> bool:
        noted = noted_results(state.note or "")
        return set(noted) == set(rule_sets) and all(
            score_game(state, rules).by_player == noted[name] for name, rules in rule_sets.items()
        )

    return ok


def noted_results(note: str) -> dict[str, dict[str, int]]:
    """`name: Player +N, Player -N, ...` lines of a note, as {name: {player: points}}."""
    results = {}
    for line in note.splitlines():
        name, sep, rest = line.partition(": ")
        if sep and rest and all(len(p.split()) == 2 for p in rest.split(", ")):
            pairs = [p.split() for p in rest.split(", ")]
            if all(v.lstrip("+-").isdigit() for _, v in pairs):
                results[name] = {player: int(v) for player, v in pairs}
    return results


THREE_RULES_NOTE = """\
One deal, three rule sets (docs/rules.md §7, §8): Kontra said no 90 and missed it,
and Re won with 90 to 119 card points (enough against a no 90, short of 120).
standard: {standard}
ddv: {ddv}
doubling: {doubling}
(doubling: {{preset: standard, announcement_scoring: doubling}}, as in rules/doubling.yaml)"""

SAMPLES += [
    kitchen_game(
        26,
        14,
        "nobody-wins",
        "Anna",
        GameType.NORMAL,
        2600,
        deal_ok=normal_deal,
        script=(Step("re", NO90, 1), Step("kontra", NO90, 1)),
        play_ok=all_of(script_said(2), nobody_wins),
        note="Re said no 90 and Kontra said no 90; both missed their 151, so nobody wins\n"
        "and only the special points count (docs/rules.md §6, §7).",
    ),
    kitchen_game(
        27,
        15,
        "kontra-only-120",
        "Ben",
        GameType.NORMAL,
        2700,
        deal_ok=normal_deal,
        script=(Step("kontra", KONTRA, 1),),
        play_ok=all_of(script_said(1), re_points_in(120, 120)),
        note="Only Kontra announced, and the cards split 120:120: Re needs only 120,\n"
        "Kontra 121, so Re wins (docs/rules.md §6).",
    ),
    kitchen_game(
        29,
        17,
        "fox-and-karlchen",
        "Dirk",
        GameType.NORMAL,
        2900,
        deal_ok=normal_deal,
        play_ok=fox_and_karlchen_in_last_trick,
        note="The last trick is won with CJ (Karlchen) and holds the other party's DA:\n"
        "a fox caught and the Karlchen, two special points in one trick (docs/rules.md §7).",
    ),
    kitchen_game(
        30,
        18,
        "three-rule-sets",
        "Anna",
        GameType.NORMAL,
        3000,
        deal_ok=normal_deal,
        script=(Step("kontra", NO90, 1),),
        play_ok=all_of(
            script_said(1),
            re_points_in(90, 119),
            scores_in_note({"standard": STANDARD, "ddv": preset("ddv"), "doubling": DOUBLING}),
        ),
        note=THREE_RULES_NOTE.format(
            standard="Anna -7, Ben +7, Clara +7, Dirk -7",
            ddv="Anna -6, Ben +6, Clara +6, Dirk -6",
            doubling="Anna -8, Ben +8, Clara +8, Dirk -8",
        ),
    ),
    Sample(
        file="34-duel-marriage.yaml",
        id=f"{DUEL_NIGHT}-duel-01-marriage",
        played_on=DUEL_NIGHT,
        players=DUEL_TABLE,
        dealer="Bot-2",
        rules=DUEL,
        game_type=GameType.MARRIAGE,
        base_seed=3400,
        deal_ok=person_marriage,
        play_ok=duel_marriage_with_a_computer,
        note="Duel rules: Nina and Tom against the computer's two seats (Bot-1, Bot-2). Tom's\n"
        "marriage is clarified by a trick a computer seat wins: Bot-2 is his partner (docs/rules.md §8).",
    ),
]


# -- games written trick by trick, and deals written by their facts ---------------------


@dataclass(frozen=True)
class Written:
    """A sample written down trick by trick, for a game no heuristic would play.

    Each trick is its cards in play order from the leader, with a call as `Player:call`
    between them. The deal is what each player is seen to play; `to_events` then checks
    every card against it (following suit, the deadlines of the calls).
    """

    file: str
    id: str
    played_on: str
    players: tuple[str, ...]
    dealer: str
    rules: RuleSet
    tricks: tuple[str, ...]
    note: str | None = None
    play_ok: Callable[[GameState], bool] = field(default=lambda state: True)


@dataclass(frozen=True)
class Summarized:
    """A sample recorded by its facts only (`summary:`), as many score sheets are."""

    file: str
    id: str
    played_on: str
    players: tuple[str, ...]
    dealer: str
    rules: RuleSet
    summary: SummaryRecord
    note: str | None = None


def written_item(token: str) -> PlayItem:
    player, sep, call = token.partition(":")
    return Said(player, call) if sep else parse_card(token)


def generate_written(sample: Written) -> str:
    """The canonical text of a written sample: the tricks replayed once to see who
    played what, then again with those hands dealt."""
    record = GameRecord(
        id=sample.id,
        players=sample.players,
        dealer=sample.dealer,
        rules=sample.rules,
        tricks=tuple(tuple(written_item(t) for t in trick.split()) for trick in sample.tricks),
        played_on=sample.played_on,
        note=sample.note,
    )
    _, seen = to_events(record)
    hands = tuple(seen.order.sorted(seen.played_by(seat)) for seat in range(SEATS))
    events, state = to_events(replace(record, hands=hands))
    if not (state.finished and sample.play_ok(state)):
        raise SystemExit(f"{sample.file}: the written game does not show what it should")
    return game_file.dumps(from_events(events))


def generate_summarized(sample: Summarized) -> str:
    record = GameRecord(
        id=sample.id,
        players=sample.players,
        dealer=sample.dealer,
        rules=sample.rules,
        played_on=sample.played_on,
        summary=sample.summary,
        note=sample.note,
    )
    return game_file.dumps(from_events(to_events(record)[0]))


def broken_by_nothing(state: GameState) -> bool:
    """Re announced schwarz and won every trick but one: a trick worth 0 card points."""
    facts = deal_facts(state)
    nothing = [t for t in state.tricks if t.points == 0]
    return facts.level(Party.RE) == 4 and facts.kontra_tricks == 1 and len(nothing) == 1 and facts.re_points == 240


WRITTEN = [
    Written(
        file="28-schwarz-broken-by-nines.yaml",
        id=f"{KITCHEN_NIGHT}-kitchen-16-schwarz-broken-by-nines",
        played_on=KITCHEN_NIGHT,
        players=KITCHEN,
        dealer="Dirk",
        rules=STANDARD,
        tricks=(
            "Anna:re H10 HJ DA CJ",
            "H10 HJ DA SJ",
            "Anna:schwarz CQ DJ CQ DK",
            "SQ DJ DQ HA",
            "SQ D10 DQ HA",
            "HQ D10 CJ HK",
            "HQ DK SJ HK",
            "CA CK C9 C10",
            "CA C10 C9 CK",
            "SA SK S9 S10",
            "SA S10 S9 SK",
            "H9 D9 D9 H9",
        ),
        play_ok=broken_by_nothing,
        note="Anna announced schwarz and Re took all 240 card points, but Ben won the\n"
        "last trick with D9 on four nines: one trick breaks a schwarz, however little\n"
        "it is worth, so Kontra wins with 0 card points (docs/rules.md §6, §7).",
    ),
]

SUMMARIES = [
    Summarized(
        file="31-summary-specials.yaml",
        id=f"{VEREIN_NIGHT}-verein-09-summary-specials",
        played_on=VEREIN_NIGHT,
        players=VEREIN,
        dealer="Greta",
        rules=STANDARD,
        summary=SummaryRecord(
            game="normal",
            re=("Hannes", "Karl"),
            re_points=164,
            announcements=(("Hannes", "re"), ("Ilse", "kontra")),
            specials=(
                ("fox_caught", "re", "Greta"),
                ("doppelkopf", "re", None),
                ("doppelkopf", "re", None),
                ("karlchen", "kontra", None),
            ),
        ),
        note="From the score sheet: no cards, only what the table wrote down (docs/rules.md §7).",
    ),
    Summarized(
        file="32-summary-queen-solo.yaml",
        id=f"{VEREIN_NIGHT}-verein-10-summary-queen-solo",
        played_on=VEREIN_NIGHT,
        players=VEREIN,
        dealer="Hannes",
        rules=STANDARD,
        summary=SummaryRecord(
            game="queen_solo",
            re=("Ilse",),
            re_points=187,
            announcements=(("Ilse", "re"), ("Ilse", "no90")),
        ),
        note="From the score sheet: Ilse's queen solo with no 90, three times the value\n"
        "for the soloist (docs/rules.md §7).",
    ),
    Summarized(
        file="33-summary-schwarz.yaml",
        id=f"{VEREIN_NIGHT}-verein-11-summary-schwarz",
        played_on=VEREIN_NIGHT,
        players=VEREIN,
        dealer="Ilse",
        rules=STANDARD,
        summary=SummaryRecord(
            game="normal",
            re=("Greta", "Karl"),
            re_points=0,
            tricks=(0, 12),
            announcements=(("Hannes", "kontra"),),
        ),
        note="From the score sheet: Re played schwarz, no trick at all; the tricks are\n"
        "written down because schwarz counts tricks, not card points (docs/rules.md §7).",
    ),
]

RULE_FILES = {
    "doubling.yaml": (
        DOUBLING,
        "Doubling, a widespread house rule (docs/rules.md §7): Re and Kontra add nothing\n"
        "themselves; each doubles the game points instead. Special points, against\n"
        "the old ones included, are added after the doubling (specials_doubled: false).",
    ),
    "kitchen.yaml": (
        rules_from_mapping(
            {
                "preset": "standard",
                "second_dulle_beats_first": True,
                "soloist_leads": True,
                "karlchen_capture": False,
            }
        ),
        "The kitchen table's house rules: the standard rules with the three\n"
        "common variants (docs/rules.md §8).\n"
        "- second_dulle_beats_first: the second H10 beats the first, except in the last trick;\n"
        "- soloist_leads: in a solo the soloist leads the first trick;\n"
        "- karlchen_capture: false: no point for catching the other party's CJ in the\n"
        "  last trick (winning the last trick with CJ still counts).",
    ),
}


def rule_file_text(rules: RuleSet, comment: str) -> str:
    """A house-rule file: the comment, then what `rules_file.dumps` writes."""
    return "".join(f"# {line}\n" for line in comment.split("\n")) + rules_file.dumps(rules)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    only = set(sys.argv[1:])
    for sample in SAMPLES:
        if only and sample.file not in only:
            continue
        text, seed = generate(sample)
        (OUT / sample.file).write_text(text, encoding="utf-8")
        print(f"{sample.file}: {sample.id} (seed {seed})", file=sys.stderr)
    others: list[Written | Summarized] = [*WRITTEN, *SUMMARIES]
    for other in others:
        if only and other.file not in only:
            continue
        text = generate_written(other) if isinstance(other, Written) else generate_summarized(other)
        (OUT / other.file).write_text(text, encoding="utf-8")
        print(f"{other.file}: {other.id}", file=sys.stderr)
    (OUT / "rules").mkdir(exist_ok=True)
    for name, (rules, comment) in RULE_FILES.items():
        if only and f"rules/{name}" not in only:
            continue
        (OUT / "rules" / name).write_text(rule_file_text(rules, comment), encoding="utf-8")
        print(f"rules/{name}", file=sys.stderr)


if __name__ == "__main__":
    main()
