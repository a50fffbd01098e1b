"""Benchmark: how small the special points' questions of the threshold analysis get when every
position tries first the card a complete search found best (nearly perfect move ordering),
beside what they search: the floor under weighing every card's special points from an early
trick.

Run: `python bench/specials_ordering_floor.py` (about fifteen minutes and 4 GB with the
defaults; `--games 10 --from-tricks 1` for the analysis from the first trick, which takes
hours as searched).

It builds a copy of `native/specials.c` with a measuring hook, in a temporary directory (the
project's own library is not touched), and runs the threshold analysis of a sample game from a
trick (`result_changes`, its special points' questions with no limit) in one process:
1. as `doko analyze` runs it: the CPU seconds and positions, the cost of a position;
2. again, recording at every position of the special points' search the card that did best
   (the one that cut off, or the best value) in a map of 2^`--map-bits` entries;
3. `--replays` times more, each position trying the recorded card first and recording what it
   found (each replay shows whether the one before was near its floor).
Each run starts with empty tables, as the analysis does. The positions of the special points'
search are counted apart from those it asks of the card points' search (which keeps its own
ordering); the floor in seconds is the last replay's positions, both counts, at the cost of a
position of the first run. The answers of every run must agree.
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import tempfile
import time
from pathlib import Path

from bench_solver import SAMPLES
from solver_ordering_floor import edited, hooked

from doko_ledger.doppelkopf.analysis import thresholds
from doko_ledger.doppelkopf.analysis.native.build import SPECIALS
from doko_ledger.doppelkopf.analysis.thresholds import result_changes
from doko_ledger.doppelkopf.files.game_file import read_file

NAMES = {"01": "01-normal.yaml", "10": "10-second-dulle.yaml", "29": "29-fox-and-karlchen.yaml"}

HOOK = """
static struct { uint64_t check; int8_t best; } *oracle;
static uint64_t oracle_mask;
static int oracle_mode; /* 0: off, 1: record, 3: try the recorded card first and record */
static int64_t own_nodes; /* this search's positions, without the card points' search's */
int dk_oracle(int mode, int bits) {
    if (!oracle) {
        oracle = calloc((size_t)1 << bits, sizeof *oracle);
        oracle_mask = ((uint64_t)1 << bits) - 1;
    }
    if (oracle && mode == 1) memset(oracle, 0, (oracle_mask + 1) * sizeof *oracle);
    oracle_mode = mode;
    own_nodes = 0;
    return oracle != NULL;
}
int64_t dk_own_nodes(void) { return own_nodes; }
static uint64_t oracle_key(const uint64_t *hands, int seat, int n, uint32_t cards, int p, int flags, int32_t e) {
    uint64_t h = mix(((uint64_t)cards << 8 | (uint64_t)seat << 4 | (uint64_t)n) ^ ((uint64_t)(e + 512) << 40));
    for (int s = 0; s < SEATS; s++) h = mix(h ^ hands[s]);
    return mix(h ^ ((uint64_t)p << 8 | (uint64_t)flags));
}
"""

LOOK_UP = """
    own_nodes++;
    uint64_t recorded_key = oracle_mode ? oracle_key(hands, seat, n, cards, p, flags, e) : 0;
    int recorded = -1;
    if (oracle_mode & 2 && oracle[recorded_key & oracle_mask].check == recorded_key)
        recorded = oracle[recorded_key & oracle_mask].best;
"""

TRY_RECORDED = """        if (card == recorded)
            k = INT64_MIN;
        else """

RECORD = """
    if (oracle_mode && best_card >= 0 && count > 1) {
        oracle[recorded_key & oracle_mask].check = recorded_key;
        oracle[recorded_key & oracle_mask].best = (int8_t)best_card;
    }
"""


def hooked_source() -> str:
    """specials.c with the hook: the map and its calls, and the recording and replaying."""
    first_key = "        if (n == 0)\n            k = card == hint ? INT64_MIN : -c->history[card];"
    stored = "    hands[seat] = hand;\n    if (n == 0) {\n        Entry entry;"
    return edited(
        SPECIALS,
        (
            ("static int32_t node(Ctx *c,", HOOK + "\nstatic int32_t node(Ctx *c,"),
            ("    uint64_t hand = hands[seat], legal;\n", LOOK_UP + "    uint64_t hand = hands[seat], legal;\n"),
            (first_key, TRY_RECORDED + first_key.lstrip().replace("INT64_MIN :", "INT64_MIN + 1 :")),
            (stored, RECORD + stored),
        ),
    )


def hooked_library(directory: Path) -> ctypes.CDLL:
    """Builds the hooked library and makes it the one every search runs with."""
    lib = hooked(directory, SPECIALS, hooked_source())
    lib.dk_own_nodes.restype = ctypes.c_int64
    return lib


def analysis(lib: ctypes.CDLL, name: str, start: int, bits: int, replays: int) -> str:
    """The analysis of game `name` from trick `start` as searched, recorded and replayed: the
    line to print."""
    state = read_file(SAMPLES / NAMES[name]).state
    asked: list[int] = []  # the positions of each special points' question, the card points' included
    value = thresholds._value

    def counted(search: object, *args: object, **kwargs: object) -> int | None:
        found = value(search, *args, **kwargs)  # type: ignore[arg-type]
        asked.append(search.nodes)  # type: ignore[attr-defined]
        return found

    thresholds._value = counted  # type: ignore[assignment]
    rows, answers, cost = [], [], 0.0
    try:
        for mode in (0, 1, *[3] * replays):
            if not lib.dk_oracle(mode, bits):
                sys.exit("no memory for the map of best cards")
            asked.clear()
            start_cpu = time.process_time()
            found = result_changes(state, game_id=state.game_id, from_trick=start, question_limit=1 << 62)
            seconds = time.process_time() - start_cpu
            answers.append((found.changes, found.unweighed))
            own, total = lib.dk_own_nodes(), sum(asked)
            if mode == 0:
                cost = seconds / total
            rows.append(f"{own / 1e6:.1f} M + {(total - own) / 1e6:.1f} M asked, {seconds:.1f} s")
    finally:
        thresholds._value = value  # type: ignore[assignment]
    assert len(set(answers)) == 1, answers
    assert not answers[0][1], "a question went unanswered"
    floor = total * cost
    again = "; again: ".join(rows[2:])
    return (
        f"as searched: {rows[0]} ({cost * 1e9:.0f} ns a position) | every best card known: {again}"
        f" | the floor: {floor:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", default="10,29", help="sample games by number (default 10,29)")
    parser.add_argument("--from-tricks", default="3,2", help="the tricks the analyses start from (default 3,2)")
    parser.add_argument("--map-bits", type=int, default=28, help="2^N entries of 16 bytes in the map (default 28)")
    parser.add_argument("--replays", type=int, default=2, help="replays of each analysis (default 2)")
    args = parser.parse_args()
    print("the special points' questions of the threshold analysis, positions of their own + asked of the card points")
    with tempfile.TemporaryDirectory() as directory:
        lib = hooked_library(Path(directory))
        for name in args.games.split(","):
            for start in (int(t) for t in args.from_tricks.split(",")):
                line = analysis(lib, name, start, args.map_bits, args.replays)
                print(f"   game {name} from trick {start}: {line}", flush=True)


if __name__ == "__main__":
    main()
