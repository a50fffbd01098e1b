"""Benchmark: `doko serve` under 20 concurrent clients on the loopback interface.

Run: `python bench/bench_serve.py` (about a minute). A real server (`doko serve`, uvicorn, one
process) on a fresh ledger holding a card night of 200 deals; 20 client threads with
keep-alive connections. Measured in the same run, each next to the server's trivial route
(`GET /api/health`: the same middleware, no ledger read):

- the night page (`GET /nights/<id>`: the night folded, its standings, chart and settle-up);
- recording a deal (`POST /api/nights/<id>/deals` with the night's version; a client told
  409, someone else recorded first, reads the new version from `/nights/<id>/live` and
  tries again; only recorded deals count in the latency).

Printed: requests per second, p50 and p95 latency, and the ratio to the trivial route.
Bounded: a fixed number of requests per client; loopback only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.ledger import Ledger

CODE = "BENCH2"
NIGHT = "bench-night"
PLAYERS = ("Anna", "Ben", "Clara", "Dirk")


def make_ledger(path: Path, deals: int, seed: int = 2026) -> None:
    """A night of `deals` deals by their facts (random Re pairs and card points, bock on ties)."""
    rng = random.Random(seed)
    rules = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "lost_solo"]})
    with Ledger.open(path, create=True) as ledger:
        card_nights(ledger).start(StartNight(NIGHT, PLAYERS, 0, rules, 8, None, "0.05"), by="bench", at="2026-12-01")
        for _ in range(deals):
            version = card_nights(ledger).version(NIGHT)
            playing = card_nights(ledger).standings(NIGHT).next.playing
            summary = SummaryRecord("normal", tuple(rng.sample(playing, 2)), rng.choice([90, 120, 121, 151, 181]))
            prepared = card_nights(ledger).prepare(NIGHT, summary, version=version)
            card_nights(ledger).commit(prepared, by="bench", at="2026-12-01")
        ledger.refresh()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    doko = shutil.which("doko", path=str(Path(sys.executable).parent)) or "doko"
    server = subprocess.Popen(
        [doko, "--db", str(db), "serve", "--port", str(port), "--join-code", CODE],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "DOKO_USER": "bench"},
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


Request = Callable[[http.client.HTTPConnection], bool]
"""One request on a client's connection; True when it counts (a recorded deal, a page)."""


def run(port: int, clients: int, per_client: int, request: Request) -> tuple[float, list[float]]:
    """`clients` threads, each making `per_client` counted requests; wall time and latencies."""
    latencies: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        start.wait()
        mine = []
        done = 0
        while done < per_client:
            began = time.perf_counter()
            if request(connection):
                mine.append(time.perf_counter() - began)
                done += 1
        connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began, latencies


def get(path: str) -> Request:
    def request(connection: http.client.HTTPConnection) -> bool:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200, (path, answer.status)
        return True

    return request


def recorder(rng: random.Random) -> Request:
    version = {"known": 0}
    lock = threading.Lock()

    def request(connection: http.client.HTTPConnection) -> bool:
        with lock:
            known = version["known"]
            points = rng.choice([90, 121, 151, 181])
        body = json.dumps({"version": known, "deal": {"re": ["Anna", "Ben"], "re_points": points}})
        headers = {"content-type": "application/json", "x-join-code": CODE}
        connection.request("POST", f"/api/nights/{NIGHT}/deals", body=body, headers=headers)
        answer = connection.getresponse()
        data = json.loads(answer.read())
        if answer.status == 201:
            with lock:
                version["known"] = max(version["known"], data["version"])
            return True
        assert answer.status == 409, (answer.status, data)
        connection.request("GET", f"/nights/{NIGHT}/live")
        live = connection.getresponse()
        fresh = json.loads(live.read())["version"]
        with lock:
            version["known"] = max(version["known"], fresh)
        return False

    return request


Run = tuple[float, list[float]]


def line(name: str, measured: Run, floors: tuple[Run, ...] = ()) -> str:
    """One row; with `floors` (the trivial route just before and just after), the ratios to
    their mean, so that a change in the machine's load during the run cancels out."""
    wall, latencies = measured
    rate = len(latencies) / wall
    p50, p95 = statistics.median(latencies), statistics.quantiles(latencies, n=20)[18]
    text = f"| {name} | {len(latencies)} | {rate:,.1f} | {p50 * 1000:.1f} | {p95 * 1000:.1f} |"
    if floors:
        floor_rate = statistics.mean(len(f[1]) / f[0] for f in floors)
        floor_p50 = statistics.mean(statistics.median(f[1]) for f in floors)
        text += f" {floor_rate / rate:.1f}x | {p50 / floor_p50:.1f}x |"
    else:
        text += " | |"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals in the night (default 200)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--pages", type=int, default=10, help="night pages per client")
    parser.add_argument("--records", type=int, default=3, help="recorded deals per client")
    parser.add_argument("--trivial", type=int, default=50, help="trivial requests per client")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        began = time.perf_counter()
        make_ledger(db, args.deals)
        print(f"a night of {args.deals} deals made in {time.perf_counter() - began:.1f} s", file=sys.stderr)
        port = free_port()
        server = start_server(db, port)
        try:
            run(port, args.clients, 2, get("/api/health"))  # warm up: imports, templates, caches
            run(port, args.clients, 1, get(f"/nights/{NIGHT}"))
            trivial = [run(port, args.clients, args.trivial, get("/api/health"))]
            page = run(port, args.clients, args.pages, get(f"/nights/{NIGHT}"))
            trivial.append(run(port, args.clients, args.trivial, get("/api/health")))
            record = run(port, args.clients, args.records, recorder(random.Random(7)))
            trivial.append(run(port, args.clients, args.trivial, get("/api/health")))
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"{args.clients} concurrent clients, loopback, one server process; night of {args.deals} deals")
    print("| request | n | requests/s | p50 ms | p95 ms | throughput ratio | p50 ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for n, floor in enumerate(trivial, 1):
        print(line(f"trivial route `GET /api/health` ({n})", floor))
    print(line(f"night page `GET /nights/{NIGHT}` (against 1 and 2)", page, (trivial[0], trivial[1])))
    print(line("record a deal `POST /api/nights/.../deals` (against 2 and 3)", record, (trivial[1], trivial[2])))


if __name__ == "__main__":
    main()
