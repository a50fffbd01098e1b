"""Benchmark: the double-dummy solver of `doko analyze`, beside the plain threshold search,
with its search in pure Python and compiled (`native/solver.c`, where its library is built).

Run: `python bench/bench_solver.py` (`--deals 100` for the full measure of the random deals;
`--core native` or `--core python` for one of the two; the defaults keep a run to a few
minutes on one core).

Every figure is CPU time of this process (`time.process_time`), so that other work on the
machine changes it little. The floor is the same solver with its transposition table, move
ordering and equivalent cards switched off (`plain`: alpha-beta over every distinct legal
card), run in the same process with the same search on the same positions, where it
finishes at all. A search stops at a cap on the positions searched, one per core (the
compiled search visits about 40 times as many positions in a second).

1. Threshold analysis of a game (every card: did it move the game into another result class),
   on the sample games recorded card by card, from trick 1 with a cap on the positions searched
   (a game over the cap is counted as such, not timed), and whole from later tricks; compiled,
   also with the special points within the class (`native/specials.c`), from trick 1 and 5,
   with how many cards' special points were weighed within the limit of one question.
2. The exact card points lost for every card from trick 5 (`analyze_game`), on the same games.
3. The exact value of a random normal deal: from trick 1 under the cap (median, p90 and max of
   the deals solved; how many hit the cap), and from trick 5 (eight tricks left) whole.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TypeVar

from doko_ledger.doppelkopf.analysis import native
from doko_ledger.doppelkopf.analysis.analyze import analyze_game
from doko_ledger.doppelkopf.analysis.position import position, tables
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.analysis.thresholds import result_changes
from doko_ledger.doppelkopf.cards import ALTE, Card, deck
from doko_ledger.doppelkopf.files.game_file import read_file
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
GAMES = ("01-normal.yaml", "10-second-dulle.yaml", "29-fox-and-karlchen.yaml")
T = TypeVar("T")


def cpu(work: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def games() -> list[GameState]:
    return [read_file(SAMPLES / name).state for name in GAMES]


@contextmanager
def searching(core: str) -> Iterator[None]:
    """Every `Solver` made inside searches with `core` ("python" or "native")."""
    before = os.environ.get("DOKO_PURE_PYTHON")
    os.environ["DOKO_PURE_PYTHON"] = "1" if core == "python" else "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ["DOKO_PURE_PYTHON"]
        else:
            os.environ["DOKO_PURE_PYTHON"] = before


def threshold_analysis(core: str, cap: int) -> None:
    """The classes alone, and (compiled) with the special points within them: the share of the
    cards whose special points were weighed within the limit of a question."""
    print(f"1. threshold analysis of a game (result class changed?), CPU seconds [{core}]")
    for state in games():
        row = [state.game_id[-24:]]
        try:
            seconds, _ = cpu(partial(result_changes, state, game_id=state.game_id, limit=cap, specials=False))
            row.append(f"from trick 1: {seconds:.2f}")
        except SearchLimit:
            row.append(f"from trick 1: over {cap:,} positions")
        for start in (5, 7):
            seconds, _ = cpu(partial(result_changes, state, game_id=state.game_id, from_trick=start, specials=False))
            row.append(f"from trick {start}: {seconds:.2f}")
        floor, _ = cpu(partial(result_changes, state, game_id=state.game_id, from_trick=7, plain=True, specials=False))
        row.append(f"floor from trick 7: {floor:.2f}")
        print("   " + " | ".join(row))
        if core == "native":
            row = ["   and the special points:"]
            for start in (1, 5):
                seconds, found = cpu(partial(result_changes, state, game_id=state.game_id, from_trick=start))
                cards = 4 * (state.hand_size - start + 1)
                row.append(
                    f"from trick {start}: {seconds:.2f} ({cards - len(found.unweighed)} of {cards} cards weighed)"
                )
            print("   " + " | ".join(row))


def exact_costs(core: str) -> None:
    print(f"2. exact card points lost by every card (analyze_game), CPU seconds [{core}]")
    for state in games():
        from5, _ = cpu(partial(analyze_game, state, game_id=state.game_id, from_trick=5))
        from8, _ = cpu(partial(analyze_game, state, game_id=state.game_id, from_trick=8))
        floor, _ = cpu(partial(analyze_game, state, game_id=state.game_id, from_trick=8, plain=True))
        name = state.game_id[-24:]
        print(f"   {name} | from trick 5: {from5:.2f} | from trick 8: {from8:.2f} | floor from trick 8: {floor:.2f}")


def random_deals(count: int, seed: int) -> list[tuple[list[tuple[Card, ...]], tuple[bool, bool, bool, bool]]]:
    """Random normal deals (nobody holding both CQ), seeded: the same deals every run."""
    rng = random.Random(seed)
    out: list[tuple[list[tuple[Card, ...]], tuple[bool, bool, bool, bool]]] = []
    while len(out) < count:
        cards = list(deck().elements())
        rng.shuffle(cards)
        hands = [tuple(cards[i * 12 : (i + 1) * 12]) for i in range(4)]
        re = [ALTE in hand for hand in hands]
        if sum(re) == 2:
            out.append((hands, (re[0], re[1], re[2], re[3])))
    return out


def spread(values: list[float]) -> str:
    if not values:
        return "none solved"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return f"median {statistics.median(values):.2f}, p90 {p90:.2f}, max {values[-1]:.2f}"


def exact_solves(core: str, count: int, cap: int, seed: int, lengths: tuple[int, ...]) -> None:
    print(f"3. exact value of {count} random normal deals, CPU seconds [{core}]")
    t = tables(card_order(GameType.NORMAL), RuleSet(), False, False)
    for tricks in lengths:
        plain_too = tricks <= 6
        times: list[float] = []
        floors: list[float] = []
        positions: list[float] = []
        capped = 0
        for hands, re in random_deals(count, seed):
            pos = position(t, [h[:tricks] for h in hands], 0, (), re)
            solver = Solver(t, re, limit=cap)
            try:
                seconds, _ = cpu(partial(solver.value, pos))
                times.append(seconds)
                positions.append(solver.nodes[0] / 1e6)
            except SearchLimit:
                capped += 1
            if plain_too:
                floor, _ = cpu(partial(Solver(t, re, plain=True).value, pos))
                floors.append(floor)
        line = f"   {tricks} tricks left: {spread(times)}"
        if positions:
            line += f" (M positions: {spread(positions)})"
        if capped:
            line += f"; {capped} of {count} over {cap:,} positions"
        if floors:
            line += f" | floor: {spread(floors)}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=10, help="random deals for 3 (default 10)")
    parser.add_argument("--cap", type=int, default=3_000_000, help="positions searched in Python before giving up")
    parser.add_argument("--native-cap", type=int, default=50_000_000, help="the same for the compiled search")
    parser.add_argument("--seed", type=int, default=28, help="the random deals' seed")
    parser.add_argument("--only", choices=("1", "2", "3"), help="run one part")
    parser.add_argument("--tricks", default="12,8,6", help="tricks left in the deals of 3 (default 12,8,6)")
    parser.add_argument("--core", choices=("python", "native", "both"), default="both", help="which search to run")
    args = parser.parse_args()
    cores = ["python", "native"] if args.core == "both" else [args.core]
    if "native" in cores and native.library() is None:
        parser.error("the compiled search is not built here (`make native`)")
    for core in cores:
        cap = args.native_cap if core == "native" else args.cap
        with searching(core):
            if args.only in (None, "1"):
                threshold_analysis(core, cap)
            if args.only in (None, "2"):
                exact_costs(core)
            if args.only in (None, "3"):
                lengths = tuple(int(n) for n in args.tricks.split(","))
                exact_solves(core, args.deals, cap, args.seed, lengths)


if __name__ == "__main__":
    main()
