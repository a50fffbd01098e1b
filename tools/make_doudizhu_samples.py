"""Generate the Dou Dizhu sample games in `sample_games/doudizhu/`
(run: `.venv/bin/python tools/make_doudizhu_samples.py`).

Each deal comes from a seeded `random.Random`, so the output is the same on every
run. Bids are drawn at random among the legal calls; the play is a simple heuristic
over `legal_moves`: lead the longest combination that is not a bomb (lowest first),
beat with the cheapest combination of the same kind, keep bombs and the rocket for
when a hand is nearly out or the dice say so, otherwise pass. Seeds are searched until
the deal shows what the sample is for (a rocket, bombs, a six-card bomb, an airplane
with wings, a redeal).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from doko_ledger.doudizhu import Bid, Deal, DealState, Kind, PassBid, PassTurn, Play, TakeKitty, decide, evolve
from doko_ledger.doudizhu import files as doudizhu_file
from doko_ledger.doudizhu.cards import deal
from doko_ledger.doudizhu.moves import legal_calls, legal_moves
from doko_ledger.doudizhu.state import Phase, Side

OUT = Path(__file__).resolve().parent.parent / "sample_games" / "doudizhu"
NAMES = {3: ("Li", "Wang", "Zhang"), 4: ("Li", "Wang", "Zhang", "Zhao")}


def _apply(state: DealState, command: object, events: list[object]) -> DealState:
    for event in decide(state, command):  # type: ignore[arg-type]
        state = evolve(state, event)
        events.append(event)
    return state


def _choose(state: DealState, rng: random.Random, bomb_chance: float) -> Play | PassTurn:
    moves = legal_moves(state)
    plays = [m for m in moves if isinstance(m, Play)]
    bombs = [m for m in plays if m.declared is not None and m.declared.is_bomb_or_rocket]
    others = [m for m in plays if m not in bombs]
    seat = state.to_play or 0
    nearly_out = min(state.left) <= 4
    if state.to_beat is None:  # lead: the longest plain combination, lowest first
        pool = others or bombs
        return max(pool, key=lambda m: (len(m.cards), -int(m.cards[0])))
    beaten = state.to_beat
    partner = beaten.seat != state.landlord and seat != state.landlord
    if others and not (partner and rng.random() < 0.7):
        return min(others, key=lambda m: (int(m.declared.rank) if m.declared else 0, len(m.cards)))
    if bombs and (nearly_out or rng.random() < bomb_chance) and not partner:
        return min(bombs, key=lambda m: (m.declared.kind is Kind.ROCKET, len(m.cards), m.cards[0]))
    return PassTurn(seat)


def play_deal(
    seed: int, players: int, game_id: str, bomb_chance: float, dealer: int | None = None
) -> tuple[DealState, list[object]]:
    rng = random.Random(seed)
    hands, kitty = deal(seed, players)
    names = NAMES[players]
    dealer = rng.randrange(players) if dealer is None else dealer
    opener = rng.randrange(players)
    events: list[object] = []
    state = _apply(DealState(), Deal(game_id, names, dealer, opener, hands, kitty, "2026-11-29", None), events)
    while state.phase is Phase.BIDDING:
        calls = legal_calls(state)
        bids = [c for c in calls if isinstance(c, Bid)]
        call = rng.choice(bids) if bids and rng.random() < 0.45 else next(c for c in calls if isinstance(c, PassBid))
        state = _apply(state, call, events)
    if state.phase is Phase.KITTY:
        state = _apply(state, TakeKitty(), events)
    while state.phase is Phase.PLAY:
        state = _apply(state, _choose(state, rng, bomb_chance), events)
    return state, events


def _kinds(state: DealState) -> list[Kind]:
    return [m.combination.kind for m in state.plays if m.combination is not None]


SAMPLES: list[tuple[str, int, float, str, Callable[[DealState], bool]]] = [
    (
        "01-landlord-rocket",
        3,
        0.5,
        "A three-player deal: the landlord plays the rocket and goes out first.",
        lambda s: (
            s.winner_side is Side.LANDLORD
            and any(m.combination and m.combination.kind is Kind.ROCKET and m.seat == s.landlord for m in s.plays)
        ),
    ),
    (
        "02-farmers-after-bombs",
        3,
        0.6,
        "A three-player deal: bombs on both sides double the stake, and the farmers win.",
        lambda s: s.winner_side is Side.FARMERS and _kinds(s).count(Kind.BOMB) >= 2,
    ),
    (
        "03-redeal",
        3,
        0.0,
        "A three-player deal that nobody bids for: thrown in, the cards are redealt.",
        lambda s: s.phase is Phase.ABANDONED,
    ),
    (
        "04-airplane-with-wings",
        3,
        0.2,
        "A three-player deal with an airplane with wings (trios in a row, a kicker each).",
        lambda s: s.finished and any(k in (Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS) for k in _kinds(s)),
    ),
    (
        "05-four-six-card-bomb",
        4,
        0.6,
        "A four-player deal: a bomb of six cards doubles the stake (smaller bombs do not).",
        lambda s: (
            s.finished
            and any(m.combination and m.combination.kind is Kind.BOMB and m.combination.size >= 6 for m in s.plays)
        ),
    ),
    (
        "06-four-landlord-wins",
        4,
        0.3,
        "A four-player deal the landlord wins at a bid of 3.",
        lambda s: s.winner_side is Side.LANDLORD and s.bid == 3,
    ),
    (
        "07-four-farmers-win",
        4,
        0.3,
        "A four-player deal the three farmers win, with a trio and a pair among the plays.",
        lambda s: s.winner_side is Side.FARMERS and Kind.TRIO_PAIR in _kinds(s),
    ),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, players, bomb_chance, note, wanted in SAMPLES:
        game_id = f"ddz-2026-11-29-{name.split('-', 1)[0]}"
        for seed in range(1, 20_000):
            state, events = play_deal(seed, players, game_id, bomb_chance)
            if wanted(state):
                break
        else:
            raise SystemExit(f"no seed found for {name}")
        record = replace(
            doudizhu_file.from_events(events), note=f"{note}\nGenerated by {Path(__file__).name} (seed {seed})."
        )
        text = doudizhu_file.dumps(record)
        assert doudizhu_file.dumps(doudizhu_file.loads(text)) == text
        (OUT / f"{name}.yaml").write_text(text, encoding="utf-8")
        print(f"{name}: seed {seed}, {doudizhu_file.phase_note(state)}, stake {state.stake.amount}")


def session() -> None:
    """A three-player evening: six deals in a row, the deal passing counter-clockwise from Zhang."""
    session_id = "2026-11-29-dorm"
    records: list[doudizhu_file.DouDizhuRecord] = []
    seed, redeals = 100, 0
    while len(records) < 6:  # six deals, at most one of them thrown in
        seed += 1
        number = len(records) + 1
        state, events = play_deal(seed, 3, f"{session_id}-{number:02d}", 0.4, dealer=(number + 1) % 3)
        if state.phase is Phase.ABANDONED:
            if redeals:
                continue
            redeals += 1
        records.append(doudizhu_file.from_events(events))
    text = doudizhu_file.dumps_session(session_id, NAMES[3], "2026-11-29", records)
    loaded = doudizhu_file.read_session(text)
    assert [d.record for d in loaded.deals] == records
    (OUT / "sessions").mkdir(exist_ok=True)
    (OUT / "sessions" / f"{session_id}.yaml").write_text(text, encoding="utf-8")
    print(f"session {session_id}: {len(records)} deals")


if __name__ == "__main__":
    main()
    session()
