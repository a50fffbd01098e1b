"""Benchmark: reading and importing a session file of 250, 500 and 1,000 deals, in CPU time,
next to a floor measured in the same run on the same deals.

Run: `make bench` (or `python bench/bench_session_file.py`).

The floor is the work no reader can skip: the YAML parsed, and each deal's game decided and
scored once on its own (`to_events`, `deal_outcome`). Reading a session also derives the
night as it goes (dealers, bock rounds, running totals); that must cost a constant per deal,
so the time per deal and the ratio to the floor stay flat as the night grows (issue 15: 1,000
deals took 137 s when each deal derived every earlier deal's outcome again).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.files import night_file as session_file
from doko_ledger.doppelkopf.game.record import MISDEAL, GameRecord, to_events
from doko_ledger.doppelkopf.nights.outcome import deal_outcome
from doko_ledger.formats.yaml_source import parse_yaml
from doko_ledger.ledger import Ledger

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")
SIZES = (250, 500, 1000)


def session_text(deals: int, seed: int) -> str:
    """A legal night of `deals` deals: normal games (some 120:120 ties, some with Re said),
    club solos and misdeals, under bock rounds for a tie and a lost solo."""
    rng = random.Random(seed)
    lines = [
        "format: doko-session/1",
        f"id: bench-{deals}",
        f"players: [{', '.join(PLAYERS)}]",
        "first_dealer: Anna",
        "rules: {preset: standard, bock_triggers: [tie, lost_solo]}",
        "rate: '0.05'",
        "deals:",
    ]
    for _ in range(deals):
        roll = rng.random()
        if roll < 0.05:
            lines.append("  - {misdeal: true}")
        elif roll < 0.15:
            lines.append(f"  - {{game: club_solo, re: [{rng.choice(PLAYERS)}], re_points: {rng.randint(60, 200)}}}")
        else:
            re = rng.sample(PLAYERS, 2)
            points = 120 if rng.random() < 0.1 else rng.randint(40, 220)
            said = f", announcements: [{{{re[0]}: re}}]" if points > 120 and rng.random() < 0.3 else ""
            lines.append(f"  - {{game: normal, re: [{re[0]}, {re[1]}], re_points: {points}{said}}}")
    lines.append("closed: true")
    return "\n".join(lines) + "\n"


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def floor(text: str, loaded: session_file.LoadedNight) -> None:
    """Parse the YAML; decide and score each deal's game once, alone, with the night's players."""
    parse_yaml(text)
    night = loaded.night
    for deal, game_id in zip(loaded.session.deals, night.state.deals, strict=True):
        game = night.games[game_id]
        misdeal = isinstance(deal, session_file.Misdeal)
        record = GameRecord(
            id=game_id,
            players=game.players,
            dealer=game.players[game.dealer],
            rules=loaded.session.rules,
            abandoned=MISDEAL if misdeal else None,
            summary=None if isinstance(deal, session_file.Misdeal) else deal,
        )
        _, state = to_events(record)
        deal_outcome(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"{'deals':>6} {'read s':>8} {'ms/deal':>8} {'import s':>9} {'ms/deal':>8} {'floor s':>8} {'read/floor':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for deals in SIZES:
            text = session_text(deals, args.seed)
            read_s, loaded = cpu(lambda text=text: session_file.read(text, "bench.yaml"))
            assert len(loaded.night.state.deals) == deals
            floor_s, _ = cpu(lambda text=text, loaded=loaded: floor(text, loaded))

            def imported(text: str = text, deals: int = deals) -> None:
                with Ledger.open(Path(tmp) / f"night-{deals}.sqlite", create=True) as ledger:
                    night = session_file.read(text, "bench.yaml").night
                    card_nights(ledger).import_night(night, by="bench", at="2026-12-01T00:00:00+00:00")
                    ledger.refresh()

            import_s, _ = cpu(imported)
            print(
                f"{deals:6d} {read_s:8.2f} {1000 * read_s / deals:8.2f} {import_s:9.2f} {1000 * import_s / deals:8.2f}"
                f" {floor_s:8.2f} {read_s / floor_s:9.1f}x"
            )


if __name__ == "__main__":
    main()
