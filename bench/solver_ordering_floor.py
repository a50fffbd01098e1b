"""Benchmark: how small the double-dummy solver's tree from trick 1 gets when every position
tries first the card a complete search found best (nearly perfect move ordering), beside the
tree it searches: how much any better move ordering could still win.

Run: `python bench/solver_ordering_floor.py` (about forty minutes and up to 9 GB with
`--map-bits 29`; `--deals 0,2` for more random deals, `--only games`, `--only analyses` or
`--only deals`).

It builds a copy of `native/solver.c` with a measuring hook, in a temporary directory (the
project's own library is not touched), and asks each question four times in one process:
1. as `doko analyze` asks it, recording at every position inside a trick the card that did
   best (the one that cut off, or the best value) in a map of 2^`--map-bits` entries, and at
   every trick start in the transposition table as always;
2. again, with the table's bounds forgotten (its best cards kept) and the history and killer
   leads cleared, each position trying the recorded card first: the search then plays the
   refutation or the winning card first wherever the first search found one, the tree of
   (nearly) perfect ordering; and once more so, recording what this search found (a map too
   small for every position, or a best card found under other bounds, leaves the first
   replay above the floor; the second shows how near it was);
3. once more with only the table's best cards at trick starts (the map switched off): how much
   of the gain is the leads'.
For the first replay it counts, by card in the trick and side, how often the ordering's own
first card was not the recorded one, and how often it took the trick where that one did not.
Positions are the count the search keeps, the measure to compare; CPU seconds of this process
(`time.process_time`), the first search's with the writing of the map, which costs it a cache
miss at most positions.
The questions are the two that decide each sample game's class before its first card (Re
reaches the lower threshold and not the upper one); the threshold analysis of each sample game
from trick 1, whole (`result_changes`, every question it asks on one solver, replayed
`--replays` times: its best cards come from many questions, so the replays come down to the
floor more slowly); and the exact value of random normal deals from trick 1 (`Solver.value`,
its first guess cleared before the second search).
"""

from __future__ import annotations

import argparse
import ctypes
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_solver import SAMPLES, random_deals

from doko_ledger.doppelkopf.analysis import native, thresholds
from doko_ledger.doppelkopf.analysis.analyze import deal_of
from doko_ledger.doppelkopf.analysis.native.build import FLAGS, SOURCE, SPECIALS, compiler
from doko_ledger.doppelkopf.analysis.position import Position, Tables, position, tables
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.analysis.thresholds import result_changes
from doko_ledger.doppelkopf.files.game_file import read_file
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet

QUESTIONS = {
    "01-normal.yaml": (151, 181),
    "10-second-dulle.yaml": (181, 211),
    "29-fox-and-karlchen.yaml": (151, 181),
}
"""Each sample game's two questions before its first card: Re reaches the first, not the second."""

HOOK = """
static struct { uint64_t check; int8_t best; } *oracle;
static uint64_t oracle_mask;
static int oracle_mode; /* 0: off, 1: record, 2: try the recorded card first, 3: both */
static uint64_t oracle_key(const uint64_t *hands, int seat, int n, uint64_t on_table) {
    uint64_t h = mix(on_table ^ ((uint64_t)seat << 2 | (uint64_t)n));
    for (int s = 0; s < SEATS; s++) h = mix(h ^ hands[s]);
    return h;
}
int dk_oracle(int mode, int bits) {
    if (!oracle) {
        oracle = calloc((size_t)1 << bits, sizeof *oracle);
        oracle_mask = ((uint64_t)1 << bits) - 1;
    }
    if (oracle && mode == 1) memset(oracle, 0, (oracle_mask + 1) * sizeof *oracle);
    oracle_mode = mode;
    return oracle != NULL;
}
/* By card in the trick (1-3), the side to play (Kontra, Re), and whether its party holds the
 * trick: positions that found a recorded card [0], those whose first card was another [1], and
 * of those, the ones whose first card took the trick where the recorded one did not [2]. */
static int64_t tally[4][2][2][3];
void dk_tally(int64_t *out) {
    memcpy(out, tally, sizeof tally);
    memset(tally, 0, sizeof tally);
}
void dk_forget(void *ctx) {
    Ctx *c = ctx;
    for (uint32_t i = 0; i < c->size; i++)
        if (c->table[i].left) c->table[i].lo = 0, c->table[i].hi = 255;
    memset(c->history, 0, sizeof c->history);
    memset(c->killer, 0, sizeof c->killer);
}
"""

TRY_RECORDED = """
        if (n > 0 && oracle_mode >= 2) {
            uint64_t k = oracle_key(hands, seat, n, on_table);
            int recorded = oracle[k & oracle_mask].best, side = c->re[seat], ours = c->re[wseat] == side;
            if (oracle[k & oracle_mask].check == k) {
                int64_t *t = tally[n][side][ours];
                t[0]++;
                if (moves[0] != recorded) {
                    t[1]++;
                    if (beats[wcard * CARDS + moves[0]] && !beats[wcard * CARDS + recorded]) t[2]++;
                }
                first(moves, count, recorded);
            }
        }
"""

RECORD = """
    if (n > 0 && (oracle_mode & 1) && count > 1 && best_card >= 0) {
        uint64_t k = oracle_key(hands, seat, n, on_table);
        oracle[k & oracle_mask].check = k, oracle[k & oracle_mask].best = (int8_t)best_card;
    }
"""


def hooked_source() -> str:
    """solver.c with the hook: the map and its two calls, and the recording and replaying."""
    trick_start = "            first(moves, count, hint);\n        }\n"
    stored = "    if (n == 0 && !c->plain) {"
    return edited(
        SOURCE,
        (
            ("static int node(Ctx *c, uint64_t *hands,", HOOK + "\nstatic int node(Ctx *c, uint64_t *hands,"),
            (trick_start, trick_start + TRY_RECORDED),
            ("    hands[seat] = hand;\n" + stored, "    hands[seat] = hand;\n" + RECORD + stored),
        ),
    )


def edited(original: Path, edits: tuple[tuple[str, str], ...]) -> str:
    """The text of `original` with each anchor replaced; the benchmark stops where an anchor is
    not found exactly once (the source changed under it)."""
    source = original.read_text()
    for anchor, replacement in edits:
        if source.count(anchor) != 1:
            sys.exit(f"{original.name} changed: the hook's anchor is not found once: {anchor.strip()!r}")
        source = source.replace(anchor, replacement)
    return source


def hooked(directory: Path, original: Path, source: str) -> ctypes.CDLL:
    """Builds the library with `source` in place of `original` (solver.c or specials.c, each
    with a map of best cards, `dk_oracle`) and makes it the one every search runs with."""
    command = compiler()
    if command is None:
        sys.exit("no C compiler: this benchmark measures the compiled search")
    copy, library = directory / original.name, directory / "libsolver.so"
    copy.write_text(source)
    files = [str(copy if file == original else file) for file in (SOURCE, SPECIALS)]
    subprocess.run([*command, *FLAGS, f"-I{SOURCE.parent}", "-o", str(library), *files], check=True)
    native._LIBRARY = library  # the benchmark swaps the library in
    native.library.cache_clear()
    lib = native.library()
    if lib is None:
        sys.exit("the hooked library did not load")
    lib.dk_oracle.argtypes = [ctypes.c_int, ctypes.c_int]
    return lib


def hooked_library(directory: Path) -> ctypes.CDLL:
    """Builds the hooked library and makes it the one every `Solver` searches with."""
    lib = hooked(directory, SOURCE, hooked_source())
    lib.dk_forget.argtypes = [ctypes.c_void_p]
    lib.dk_tally.argtypes = [ctypes.POINTER(ctypes.c_int64)]
    return lib


def misses(lib: ctypes.CDLL) -> str:
    """Where the last search's first card was not the recorded best one: by card in the trick
    and side, the positions that found a recorded card, the share whose first card was another,
    and the share whose first card took the trick where the best one did not."""
    tally = (ctypes.c_int64 * (4 * 2 * 2 * 3))()
    lib.dk_tally(tally)
    rows = []
    for n in (1, 2, 3):
        for side, who in enumerate(("Kontra", "Re")):
            for held, whose in enumerate(("the other party's", "its own party's")):
                at = ((n * 2 + side) * 2 + held) * 3
                found, other, took = tally[at], tally[at + 1], tally[at + 2]
                if found >= 100_000:
                    rows.append(
                        f"card {n + 1}, {who}, on {whose} trick: {found / 1e6:.1f} M, another first"
                        f" {other / found:.0%}, taking it where the best did not {took / found:.0%}"
                    )
    return "\n      ".join(rows)


def searches(lib: ctypes.CDLL, solver: Solver, ask: Callable[[Solver], object], bits: int, replays: int = 2) -> str:
    """Asks `ask(solver)` as always (recording), `replays` times with every best card recorded
    tried first (recording again: each time shows whether the one before was near its floor),
    and with the leads' only; the answers must agree. The line to print."""
    assert solver._native is not None
    ctx = solver._native._ctx
    rows: list[str] = []
    answers = []
    missed = ""
    for mode in (1, *[3] * replays, 0):
        if mode != 1:
            lib.dk_forget(ctx)
            solver._guess = -1  # the first search's answer
        if not lib.dk_oracle(mode, bits):
            sys.exit("no memory for the map of best cards")
        before, start = solver.nodes[0], time.process_time()
        answers.append(ask(solver))
        rows.append(f"{(solver.nodes[0] - before) / 1e6:.1f} M positions, {time.process_time() - start:.1f} s")
        tally = misses(lib)  # read, and cleared, after every search
        if len(rows) == 2:  # the first replay: where the ordering's first card was not the best
            missed = tally
    assert len(set(answers)) == 1, answers
    again = "".join(f"; again: {row}" if i == 0 else f"; {row}" for i, row in enumerate(rows[2:-1]))
    return (
        f"{answers[0]} | as searched: {rows[0]} | every best card known: {rows[1]}{again}"
        f" | the leads' only: {rows[-1]}\n      where the ordering's first card was not the best:\n      {missed}"
    )


def games(lib: ctypes.CDLL, bits: int) -> None:
    print("the two questions that decide each sample game's class before its first card")
    for name, questions in QUESTIONS.items():
        state = read_file(SAMPLES / name).state
        deal = deal_of(state, state.game_id)
        first = state.all_tricks[0]
        pos = position(deal.tables, [list(h) for h in deal.hands], first.leader, (), deal.re)
        for target in questions:

            def reaches(solver: Solver, pos: Position = pos, target: int = target) -> bool:
                return solver.reaches(pos, target)

            line = searches(lib, Solver(deal.tables, deal.re), reaches, bits)
            print(f"   {name} Re >= {target}: {line}", flush=True)


def analyses(lib: ctypes.CDLL, bits: int, replays: int) -> None:
    print("the threshold analysis of each sample game from trick 1, whole (the result changes of `doko analyze`)")
    for name in QUESTIONS:
        print(f"   {name}: {analysis(lib, name, bits, replays)}", flush=True)


def analysis(lib: ctypes.CDLL, name: str, bits: int, replays: int) -> str:
    state = read_file(SAMPLES / name).state
    deal = deal_of(state, state.game_id)
    shared = Solver(deal.tables, deal.re)

    def solver_of(tables: Tables, re: tuple[bool, ...], **options: object) -> Solver:
        return shared if tables == deal.tables else Solver(tables, re)  # the schwarz search's own

    def changes(solver: Solver) -> object:
        return tuple(
            (c.index, c.re_before, c.re_after)
            for c in result_changes(state, game_id=state.game_id, specials=False).changes
        )

    # the analysis makes its own solver: it is handed this one, whose table keeps the best leads
    thresholds.Solver = solver_of  # type: ignore[assignment,misc]
    try:
        return searches(lib, shared, changes, bits, replays)
    finally:
        thresholds.Solver = Solver  # type: ignore[misc]


def deals(lib: ctypes.CDLL, which: list[int], cap: int, seed: int, bits: int) -> None:
    print(f"the exact value of random normal deals from trick 1 (seed {seed})")
    t = tables(card_order(GameType.NORMAL), RuleSet(), False, False)
    every = random_deals(max(which) + 1, seed)
    for i in which:
        hands, re = every[i]
        pos = position(t, [list(h) for h in hands], 0, (), re)

        def value(solver: Solver, pos: Position = pos) -> int:
            return solver.value(pos)

        try:
            line = searches(lib, Solver(t, re, limit=cap), value, bits)
        except SearchLimit:
            line = f"over {cap:,} positions"
        print(f"   deal {i}: {line}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", default="0", help="which random deals, by number (default 0)")
    parser.add_argument("--seed", type=int, default=28, help="the random deals' seed (default 28)")
    parser.add_argument("--cap", type=int, default=3_000_000_000, help="positions in all for one deal")
    parser.add_argument("--map-bits", type=int, default=28, help="2^N entries of 16 bytes in the map (default 28)")
    parser.add_argument("--replays", type=int, default=4, help="replays of each whole analysis (default 4)")
    parser.add_argument("--only", choices=("games", "analyses", "deals"), help="run one part")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        lib = hooked_library(Path(directory))
        if args.only in (None, "games"):
            games(lib, args.map_bits)
        if args.only in (None, "analyses"):
            analyses(lib, args.map_bits, args.replays)
        if args.only in (None, "deals"):
            deals(lib, [int(n) for n in args.deals.split(",")], args.cap, args.seed, args.map_bits)


if __name__ == "__main__":
    main()
