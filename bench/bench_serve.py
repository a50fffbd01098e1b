"""Benchmark: what `doko serve` spends per request, next to a floor app measured in the same run,
on nights of 20, 200 and 2,000 deals.

Run: `python bench/bench_serve.py` (a few minutes; `--deals 200` for one night). Per night
length, a fresh ledger holding one open card night (random Re pairs and card points, bock
triggered by ties and lost solos), then two servers on the loopback interface, each a process
of its own on the same uvicorn:

- the real one, `doko serve`;
- the floor, `bench/floor_app.py`: a minimal FastAPI + Jinja2 app that reads, per request, the
  same rows the page shows (one per deal, kept by the bench in a side file from the library's
  own views) and renders the same template to the same bytes, or writes the rows one recorded
  deal writes. Before measuring, the bench checks that both answer each page with the same
  body (but for the per-request tokens: CSRF and the forms' request ids).

The clients are phones that joined the table (as Anna, by the join page: the pages they get
carry the forms that change the night) and record with the join code in a header, as a script
does. Measured, for both: the night page, the standings and settle-up of the API, the page of one
deal of the night, and recording a deal with one phone and with 20 phones racing (a phone told
409 reads the night's version from `/nights/<id>/live` and tries again; those attempts are
part of the cost, only recorded deals count). The figure is the server process's CPU time
(utime + stime from `/proc/<pid>/stat`) over the phase, divided by the requests counted;
wall latencies p50/p95 beside it. The package's bytecode is compiled first, and each server
answers every request once before it is measured, so imports and template compilation are
not counted.

Printed: per night length, a markdown table (request, doko, floor, ratio, latencies); then
each doko figure at the longer nights relative to its figure at the shortest. Recording adds
deals: the record phases run on the night as it has grown by then (a few dozen deals more).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pickle
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from floor_app import PAGES, WRITES, api_text, deal_rows  # beside this file: the script's folder is on the path

import doko_ledger
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.doppelkopf.views import anchored_standings_view, settle_view
from doko_ledger.ledger import Ledger
from doko_ledger.web import qr
from doko_ledger.web.common import JOIN_LAPSED
from doko_ledger.web.games import game_context
from doko_ledger.web.language import switch
from doko_ledger.web.nights import night_page_context

CODE = "BENCH2"
NIGHT = "bench-night"
PLAYERS = ("Anna", "Ben", "Clara", "Dirk")
SIZES = (20, 200, 2000)
TICK = os.sysconf("SC_CLK_TCK")
ME = "Anna"
"""Who the bench's phones joined the table as."""
TOKENS = re.compile(r'(name="(?:csrf|request_id)" value=")[^"]*"')
"""The per-request tokens of a page: its CSRF token and its forms' request ids."""


# -- the night ------------------------------------------------------------------------------


def night_of(deals: int, seed: int = 2026) -> Night:
    """A night of `deals` deals by their facts (random Re pairs and card points, bock on ties
    and lost solos), decided in memory."""
    rng = random.Random(seed)
    rules = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "lost_solo"]})
    night = Night()
    night.start(StartNight(NIGHT, PLAYERS, 0, rules, 8, None, "0.05"))
    for _ in range(deals):
        playing = night.schedule().next.playing
        summary = SummaryRecord("normal", tuple(rng.sample(playing, 2)), rng.choice([90, 120, 121, 151, 181]))
        night.add(night.deal_record(summary))
    return night


def make_ledger(path: Path, deals: int) -> None:
    """A fresh ledger holding the night, appended in one go, its read models caught up."""
    with Ledger.open(path, create=True) as ledger:
        card_nights(ledger).import_night(night_of(deals), by="bench", at="2026-12-01")
        ledger.refresh()


def copy_file(source: Path, target: Path) -> None:
    """A copy of an SQLite file, its -wal included, in WAL mode as the store keeps it."""
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode = WAL")


def captured_writes(db: Path, scratch: Path) -> list[dict[str, Any]]:
    """The rows one recorded deal adds (as the API's record writes it: prepared against the
    night's version, committed, the read models caught up), on a copy of the ledger: first
    `{"session", "game_id", "position"}`, then each row as `{"table", "columns", "values"}`.
    Rows of the read models are the new deal's only (a catch-up that folds the night again
    rewrites the other deals' rows; the floor does not)."""
    copy_file(db, scratch)
    with closing(sqlite3.connect(scratch)) as conn:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        before = {t: conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {t}").fetchone()[0] for t in tables}
    with Ledger.open(scratch) as ledger:
        nights = card_nights(ledger)
        summary = SummaryRecord("normal", ("Anna", "Ben"), 151)
        prepared = nights.prepare(NIGHT, summary, version=nights.version(NIGHT))
        nights.commit(prepared, by="bench", at="2026-12-02T10:00:00.000000+00:00")
        ledger.refresh()
    game_id = prepared.game_id
    writes: list[dict[str, Any]] = []
    with closing(sqlite3.connect(scratch)) as conn:
        for table in tables:
            cursor = conn.execute(f"SELECT * FROM {table} WHERE rowid > ? ORDER BY rowid", (before[table],))
            columns = [d[0] for d in cursor.description]
            for values in cursor:
                if table == "events" or (columns[0] == "game_id" and values[0] == game_id):
                    writes.append({"table": table, "columns": columns, "values": list(values)})
    position = min(w["values"][w["columns"].index("position")] for w in writes if w["table"] == "events")
    return [{"session": NIGHT, "game_id": game_id, "position": position}, *writes]


# -- what each page is made of ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Paths:
    night: str
    standings: str
    settle: str
    game: str

    def reads(self) -> list[tuple[str, str]]:
        return [
            (f"night page `GET {self.night}`", self.night),
            (f"standings `GET {self.standings}`", self.standings),
            (f"settle-up `GET {self.settle}`", self.settle),
            (f"game page `GET {self.game}` (a deal of the night)", self.game),
        ]


def paths_of(deals: int) -> Paths:
    return Paths(
        night=f"/nights/{NIGHT}",
        standings=f"/api/nights/{NIGHT}/standings",
        settle=f"/api/nights/{NIGHT}/settle",
        game=f"/games/{NIGHT}-{max(1, deals // 2):02d}",
    )


def make_side(db: Path, side: Path, paths: Paths, join_url: str, writes: list[dict[str, Any]]) -> None:
    """The floor's side file: a copy of the ledger (its tables take the floor's writes), each
    page as a header and its deals' rows, made by the library's views as the real routes make
    them for a phone that joined the table, and the rows a recorded deal writes."""
    copy_file(db, side)
    joined = {
        "joined": True,
        "me": ME,
        "join_url": join_url,
        "private": False,
        "join_lapsed": False,
        "join_lapsed_text": JOIN_LAPSED,
    }  # what `render` adds to every page for a phone that joined (and its language, below)
    with Ledger.open(db) as ledger:
        nights = card_nights(ledger)
        done = {"new": None, "just_corrected": None, "taken_back": None, "changed": None}
        night = night_page_context(ledger, NIGHT) | done | {"qr": qr.svg(join_url), "join_code": CODE} | joined
        night |= {"lang": "en", "languages": switch(paths.night)}
        deals = night["night"]["deals"]
        night["night"] = night["night"] | {"deals": []}
        game = game_context(ledger, ledger.resolve(paths.game.rsplit("/", 1)[1]), ME) | joined
        game |= {"lang": "en", "languages": switch(paths.game)}
        standings = nights.standings(NIGHT)
        table = anchored_standings_view(standings, ledger.head()) | {"version": nights.version(NIGHT)}
        settle = settle_view(standings, ledger.head())
    pages: list[tuple[str, bytes | str, list[str]]] = [
        (paths.night, pickle.dumps(("night.html", night)), deal_rows(deals)),
        (paths.game, pickle.dumps(("game.html", game)), []),
        (paths.standings, api_text(table | {"deals": []}).decode(), deal_rows(table["deals"])),
        (paths.settle, api_text(settle).decode(), []),
    ]
    with closing(sqlite3.connect(side)) as conn, conn:
        conn.execute(PAGES)
        conn.execute(WRITES)
        for path, header, rows in pages:
            conn.executemany(
                "INSERT INTO floor_pages (page, seq, body) VALUES (?, ?, ?)",
                [(path, seq, body) for seq, body in enumerate([header, *rows])],
            )
        conn.executemany(
            "INSERT INTO floor_writes (seq, body) VALUES (?, ?)", [(n, json.dumps(w)) for n, w in enumerate(writes)]
        )


# -- the servers -----------------------------------------------------------------------------


def compile_package() -> None:
    """The package's bytecode, so that no server pays for compiling it."""
    package = Path(doko_ledger.__file__).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True, slots=True)
class Server:
    name: str
    process: subprocess.Popen[bytes]
    port: int

    def cpu(self) -> float:
        """The process's CPU time so far (user and system), in seconds."""
        stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
        return (int(fields[11]) + int(fields[12])) / TICK


def start(name: str, command: list[str], port: int) -> Server:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env={**os.environ, "DOKO_USER": "bench"})
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return Server(name, process, port)
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError(f"the {name} server did not start") from None
            time.sleep(0.1)


@contextmanager
def servers(db: Path, side: Path, port: int, floor_port: int) -> Iterator[tuple[Server, Server]]:
    doko = shutil.which("doko", path=str(Path(sys.executable).parent)) or "doko"
    real = start("doko", [doko, "--db", str(db), "serve", "--port", str(port), "--join-code", CODE], port)
    try:
        floor_app = str(Path(__file__).with_name("floor_app.py"))
        floor = start("floor", [sys.executable, floor_app, str(side), "--port", str(floor_port)], floor_port)
        try:
            yield real, floor
        finally:
            floor.process.terminate()
            floor.process.wait(timeout=10)
    finally:
        real.process.terminate()
        real.process.wait(timeout=10)


# -- the clients -----------------------------------------------------------------------------

Request = Callable[[http.client.HTTPConnection], bool]
"""One request on a client's connection; True when it counts (a page, a recorded deal)."""


def run(port: int, clients: int, per_client: int, request: Request) -> list[float]:
    """`clients` threads, each making `per_client` counted requests; their latencies."""
    latencies: list[float] = []
    lock = threading.Lock()
    begin = threading.Barrier(clients)

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        begin.wait()
        mine: list[float] = []
        while len(mine) < per_client:
            began = time.perf_counter()
            if request(connection):
                mine.append(time.perf_counter() - began)
        connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


def fetch(port: int, path: str, cookie: str = "") -> bytes:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        connection.request("GET", path, headers={"cookie": cookie} if cookie else {})
        answer = connection.getresponse()
        body = answer.read()
        assert answer.status == 200, (port, path, answer.status, body[:300])
        return body
    finally:
        connection.close()


def joined(port: int) -> str:
    """The cookies of a phone that joined the table as `ME` by the join page."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/join")
        answer = connection.getresponse()
        page = answer.read().decode()
        client = answer.getheader("set-cookie", "").split(";")[0]
        csrf = re.search(r'name="csrf" value="([^"]*)"', page)
        assert csrf is not None, "the join page has no CSRF token"
        form = urlencode({"code": CODE, "name": ME, "csrf": csrf.group(1)})
        headers = {"content-type": "application/x-www-form-urlencoded", "cookie": client}
        connection.request("POST", "/join", body=form, headers=headers)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 303, ("join", answer.status)
        cookies = [c.split(";")[0] for c in answer.headers.get_all("set-cookie") or []]
        return "; ".join([client, *cookies])
    finally:
        connection.close()


def get(path: str, cookie: str = "") -> Request:
    headers = {"cookie": cookie} if cookie else {}

    def request(connection: http.client.HTTPConnection) -> bool:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200, (path, answer.status)
        return True

    return request


def recorder(port: int, rng: random.Random) -> Request:
    """Phones recording the next deal with the night's version as they last heard it: a phone
    told 409 (someone else recorded first) reads the new version from the live route; that
    attempt does not count."""
    version = {"known": json.loads(fetch(port, f"/nights/{NIGHT}/live"))["version"]}
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


# -- measuring -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Figure:
    """A phase on one server: CPU seconds (spent, or per counted request), and the counted
    requests' latencies."""

    cpu: float
    latencies: list[float]

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies)

    @property
    def p95(self) -> float:
        if len(self.latencies) < 2:
            return self.latencies[0]
        return statistics.quantiles(self.latencies, n=20, method="inclusive")[18]


def measure(server: Server, rounds: Callable[[], list[float]], least_cpu: float, most_rounds: int) -> Figure:
    """Rounds of requests until the server spent `least_cpu` seconds (a clock tick is 10 ms)
    or `most_rounds` rounds ran: the CPU seconds spent, and the counted requests' latencies."""
    time.sleep(0.05)
    began = server.cpu()
    latencies: list[float] = []
    for _ in range(most_rounds):
        latencies += rounds()
        time.sleep(0.05)  # the last answer's thread finishes
        if server.cpu() - began >= least_cpu:
            break
    return Figure(server.cpu() - began, latencies)


@dataclass(frozen=True, slots=True)
class Side:
    """One server's part of a phase: its rounds, and how many it may run per turn."""

    server: Server
    rounds: Callable[[], list[float]]
    most_rounds: int


def phase(real: Side, floor: Side, least_cpu: float, turns: int) -> tuple[Figure, Figure]:
    """The real server and the floor measured in turns, the floor first and last (`turns` of
    the real one between), so that a change in the machine's load falls on both alike: CPU per
    counted request over all turns of each."""
    reals: list[Figure] = []
    floors: list[Figure] = []
    for side in [floor, *[s for _ in range(turns) for s in (real, floor)]]:
        share = least_cpu / (turns if side is real else turns + 1)
        (reals if side is real else floors).append(measure(side.server, side.rounds, share, side.most_rounds))
    return _pooled(reals), _pooled(floors)


def _pooled(figures: list[Figure]) -> Figure:
    latencies = [x for f in figures for x in f.latencies]
    return Figure(sum(f.cpu for f in figures) / len(latencies), latencies)


def same_pages(real: Server, floor: Server, paths: Paths, cookie: str) -> None:
    """Each page of the floor is the real page a phone that joined sees, but for its per-request
    tokens."""
    for _, path in paths.reads():
        mine, theirs = (TOKENS.sub(r'\1"', fetch(s.port, path, cookie).decode()) for s in (real, floor))
        if mine != theirs:
            where = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), len(mine))
            raise AssertionError(
                f"{path}: the floor differs at {where}: {mine[where - 80 : where + 80]!r} / "
                f"{theirs[where - 80 : where + 80]!r}"
            )


@dataclass(frozen=True, slots=True)
class Counts:
    reads: int
    one_phone: int
    phones: int


def counts_for(deals: int, scale: float) -> Counts:
    """Requests per phase on the real server, fewer on longer nights (where a record may cost a
    second); the floor repeats its rounds until its CPU time is measurable."""
    reads, one_phone = (10, 10) if deals <= 200 else (2, 10)
    return Counts(max(1, round(reads * scale)), max(1, round(one_phone * scale)), 20)


Row = tuple[str, Figure, Figure]


def bench_night(deals: int, counts: Counts, least_cpu: float, tmp: Path) -> list[Row]:
    db, side, scratch = tmp / f"ledger-{deals}.sqlite", tmp / f"floor-{deals}.sqlite", tmp / f"scratch-{deals}.sqlite"
    began = time.perf_counter()
    make_ledger(db, deals)
    writes = captured_writes(db, scratch)
    port, floor_port = free_port(), free_port()
    paths = paths_of(deals)
    make_side(db, side, paths, f"http://127.0.0.1:{port}/join?code={CODE}", writes)
    print(f"a night of {deals} deals and its floor made in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    rows: list[Row] = []
    with servers(db, side, port, floor_port) as (real, floor):
        cookie = joined(real.port)
        same_pages(real, floor, paths, cookie)
        for name, path in paths.reads():
            for server in (real, floor):
                run(server.port, 1, 2, get(path, cookie))  # warm: caches, templates
            doko = Side(real, reading(real, path, counts.reads, cookie), 20)
            low = Side(floor, reading(floor, path, counts.reads, cookie), 500)
            rows.append((name, *phase(doko, low, least_cpu, 2)))
        for server in (real, floor):
            run(server.port, 1, 1, recorder(server.port, random.Random(7)))  # warm: the write path
        # a record adds a deal to the night: the real server records a few rounds, in one turn
        doko, low = Side(real, recording(real, 1, counts.one_phone), 5), Side(floor, recording(floor, 1, 10), 500)
        rows.append(("record a deal, one phone (CPU per recorded deal)", *phase(doko, low, least_cpu, 1)))
        doko, low = (
            Side(real, recording(real, counts.phones, 1), 3),
            Side(floor, recording(floor, counts.phones, 1), 50),
        )
        rows.append(
            (f"record a deal, {counts.phones} phones racing (CPU per recorded deal)", *phase(doko, low, least_cpu, 1))
        )
    return rows


def reading(server: Server, path: str, count: int, cookie: str) -> Callable[[], list[float]]:
    """A round of `count` requests for `path`, one after the other."""

    def round_() -> list[float]:
        return run(server.port, 1, count, get(path, cookie))

    return round_


def recording(server: Server, phones: int, per_phone: int) -> Callable[[], list[float]]:
    """A round of `phones` phones recording `per_phone` deals each, at the same time."""

    def round_() -> list[float]:
        return run(server.port, phones, per_phone, recorder(server.port, random.Random(phones)))

    return round_


# -- printing --------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def table(deals: int, rows: list[Row]) -> list[str]:
    lines = [
        f"Night of {deals:,} deals:",
        "",
        "| request | doko | floor | ratio | doko p50 / p95 | floor p50 / p95 | n doko / floor |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, doko, low in rows:
        lines.append(
            f"| {name} | {ms(doko.cpu)} | {ms(low.cpu)} | {doko.cpu / low.cpu:.1f}x "
            f"| {ms(doko.p50)} / {ms(doko.p95)} | {ms(low.p50)} / {ms(low.p95)} "
            f"| {len(doko.latencies)} / {len(low.latencies)} |"
        )
    return lines


def flatness(results: dict[int, list[Row]]) -> list[str]:
    sizes = sorted(results)
    first, rest = sizes[0], sizes[1:]
    lines = [
        f"Flatness: each doko figure (CPU per request) relative to its figure at {first:,} deals "
        "(the floor's beside it):",
        "",
        "| request | " + " | ".join(f"{n:,} deals" for n in rest) + " |",
        "|---|" + "---:|" * len(rest),
    ]
    for i, (name, _, _) in enumerate(results[first]):
        cells = []
        for n in rest:
            doko = results[n][i][1].cpu / results[first][i][1].cpu
            low = results[n][i][2].cpu / results[first][i][2].cpu
            cells.append(f"{doko:.2f}x (floor {low:.2f}x)")
        lines.append(f"| {name.split(' `')[0].split(' (')[0]} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default=",".join(map(str, SIZES)), help="night lengths (default 20,200,2000)")
    parser.add_argument("--scale", type=float, default=1.0, help="requests per phase, times this")
    parser.add_argument("--least-cpu", type=float, default=1.0, help="server CPU seconds a read phase takes at least")
    args = parser.parse_args()
    compile_package()
    results: dict[int, list[Row]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for deals in (int(n) for n in args.deals.split(",")):
            results[deals] = bench_night(deals, counts_for(deals, args.scale), args.least_cpu, Path(tmp))
            print("\n".join(table(deals, results[deals])), end="\n\n", flush=True)
    if len(results) > 1:
        print("\n".join(flatness(results)))


if __name__ == "__main__":
    main()
