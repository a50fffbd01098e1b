"""The cold start of `doko score GAME` and `doko standings --session`, counted in instructions
beside the one-command Typer + Rich app (`TYPER_HELLO`): what a loaded machine does not move.

    python bench/cold_start_count.py LEDGER

LEDGER is one kept by `python bench/bench_ledger.py --games 1000 --files 10 --keep LEDGER` (its
kitchen card night, its Dou Dizhu session, its games). Each command runs once under
`valgrind --tool=cachegrind --cache-sim=no` with `PYTHONHASHSEED=0`, the package's bytecode
compiled first (this machine sets `PYTHONDONTWRITEBYTECODE`); the code run is the `doko_ledger`
that `python` imports (set `PYTHONPATH` to measure a tree of your own)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from bench_ledger import TYPER_HELLO

import doko_ledger


def instructions(command: list[str]) -> int:
    """The instructions a run of `command` executes (cachegrind's `I refs`)."""
    valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    env = os.environ | {"PYTHONHASHSEED": "0"}
    run = subprocess.run([*valgrind, *command], capture_output=True, text=True, env=env, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    assert found is not None, run.stderr
    return int(found.group(1).replace(",", ""))


def ledger_and_package(description: str) -> tuple[Path, Path]:
    """The LEDGER argument, and the package `python` imports with its bytecode compiled (this
    machine sets `PYTHONDONTWRITEBYTECODE`, and a count should not include compiling)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("ledger", type=Path)
    ledger: Path = parser.parse_args().ledger
    package = Path(doko_ledger.__file__).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    return ledger, package


def main() -> None:
    ledger, package = ledger_and_package(__doc__.splitlines()[0])
    doko = [str(Path(sys.executable).with_name("doko")), "--db", str(ledger)]
    commands = {
        "doko standings --session (a card night)": [*doko, "standings", "--session", "2026-11-28-kit"],
        "doko standings --session (a Dou Dizhu session)": [*doko, "standings", "--session", "2026-11-29-d"],
        "doko score GAME (a card night's deal)": [*doko, "score", "2026-11-28-kitchen-17"],
        "doko score GAME (a game of no night)": [*doko, "score", "bench-000000"],
    }
    floor = instructions([sys.executable, "-c", TYPER_HELLO, "hello"])
    print(f"{package}\n{'the floor (a one-command Typer + Rich app)':<50} {floor / 1e6:9.1f} M")
    for name, command in commands.items():
        counted = instructions(command)
        print(f"{name:<50} {counted / 1e6:9.1f} M  {counted / floor:.3f}x", flush=True)


if __name__ == "__main__":
    main()
