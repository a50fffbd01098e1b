"""What `doko serve` lets in: only the hosts it serves (no DNS rebinding), wrong join codes
timed per client and per table while the phones that joined go on, a private server that shows
nothing but the join page, an unreachable ledger as 503 that never names the database, a
chunked body over the limit as 413, and no number of more than 100 digits echoed. The web ones
also against a real server."""

from __future__ import annotations

import html
import http.client
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from postgres import database_url
from typer.testing import CliRunner
from web_helpers import (
    CODE,
    PLAYERS,
    TestClient,
    app_for,
    client,
    csrf_of,
    deal,
    joined,
    post_deal,
    serving,
    start_night,
)

from doko_ledger.cli.app import app as cli_app
from doko_ledger.cli.serve import served_hosts
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.i18n import render
from doko_ledger.ledger import Ledger
from doko_ledger.web.common import UNREACHABLE as UNREACHABLE_MESSAGE
from doko_ledger.web.doors import PRIVATE_API as PRIVATE_API_MESSAGE
from doko_ledger.web.guesses import CLIENT, TABLE

UNREACHABLE, PRIVATE_API = render(UNREACHABLE_MESSAGE, "en"), render(PRIVATE_API_MESSAGE, "en")
WRITE = {"x-join-code": CODE}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    start_night(path)
    return path


class Clock:
    """A clock the tests move by hand: the limiter never waits for real."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def phone_at(app: Any, address: str) -> TestClient:
    """A client from `address` (the test client's own is `testclient`)."""
    return TestClient(app, client=(address, 50000), follow_redirects=False)


def raw(
    base: str, method: str, path: str, *, host: str | None = None, **options: Any
) -> tuple[int, dict[str, str], str]:
    """One request to a real server as a browser or a script sends it, `Host` as given."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=30)
    headers = {"Host": where.netloc if host is None else host, **options.pop("headers", {})}
    try:
        connection.request(method, path, headers=headers, **options)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read().decode()
    finally:
        connection.close()


def one_line_error(text: str) -> str:
    error: str = json.loads(text)["error"]
    assert error and "\n" not in error
    return error


# -- hosts ------------------------------------------------------------------------------------


def test_a_forged_host_is_refused_on_pages_and_the_api(db: Path) -> None:
    app = app_for(db)
    evil = TestClient(app, base_url="http://evil.example", follow_redirects=False)
    page = evil.get("/nights/night")
    assert page.status_code == 400 and '<p class="error" role="alert">' in page.text
    assert "the host &#39;evil.example&#39; is not one this server answers to" in page.text
    assert "Anna" not in page.text
    api = evil.get("/api/games")
    assert (
        api.status_code == 400
        and one_line_error(api.text) == "the host 'evil.example' is not one this server answers to"
    )
    assert evil.get("/static/doko.css").status_code == 400
    assert evil.post("/api/nights/night/deals", json={}, headers=WRITE).status_code == 400
    for host in ("testserver", "localhost:8000", "127.0.0.1:8000", "LOCALHOST"):
        allowed = TestClient(app, base_url=f"http://{host}", follow_redirects=False)
        assert allowed.get("/nights/night").status_code == 200, host
        assert allowed.get("/api/games").status_code == 200, host


def test_a_forged_host_is_refused_by_the_real_server(db: Path) -> None:
    with serving(app_for(db)) as base:
        port = urlsplit(base).port
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", "localhost.evil", ""):
            status, _, body = raw(base, "GET", "/api/nights", host=host)
            assert status == 400, host
            assert "is not one this server answers to" in one_line_error(body)
            status, headers, body = raw(base, "GET", "/", host=host)
            assert status == 400 and headers["content-type"].startswith("text/html") and "Anna" not in body
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
            status, _, body = raw(base, "GET", "/api/nights", host=host)
            assert status == 200 and json.loads(body)[0]["session"] == "night", host


def test_the_hosts_doko_serve_answers_to() -> None:
    loopback = {"127.0.0.1", "localhost", "::1"}
    assert served_hosts("127.0.0.1", "127.0.0.1", []) == loopback
    assert served_hosts("0.0.0.0", "192.168.1.20", []) == loopback | {"192.168.1.20"}
    assert served_hosts("192.168.1.20", "192.168.1.20", ["Laptop.local."]) == {"192.168.1.20", "laptop.local"}
    assert served_hosts("::1", "::1", ["[fe80::1]"]) == loopback | {"fe80::1"}


def test_doko_serve_answers_an_allowed_host_and_refuses_a_bad_one(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app, **options))
    options = ["--port", "8311", "--allowed-host", "laptop.local", "--allowed-host", "doko.home"]
    result = CliRunner().invoke(cli_app, ["--db", str(db), "serve", *options])
    assert result.exit_code == 0, result.output
    for host in ("laptop.local", "doko.home:8311", "127.0.0.1:8311", "localhost"):
        served = TestClient(started["app"], base_url=f"http://{host}")
        assert served.get("/api/nights").status_code == 200, host
    assert TestClient(started["app"], base_url="http://evil.example").get("/").status_code == 400
    bad = CliRunner().invoke(cli_app, ["--db", str(db), "serve", "--allowed-host", "http://laptop.local:8000"])
    assert bad.exit_code == 2 and "without scheme or port" in bad.output


# -- join codes -------------------------------------------------------------------------------


def guess(phone: TestClient, code: str) -> Any:
    """Deal 1 recorded with `code` in `X-Join-Code` (a script's way; the join form counts the same)."""
    body = {"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151}}
    return phone.post("/api/nights/night/deals", json=body, headers={"x-join-code": code})


def wait_of(answer: Any) -> int:
    assert answer.status_code == 429, answer.text
    wait = int(answer.headers["retry-after"])
    told = f"too many wrong join codes: try again in {wait} s"
    if answer.headers["content-type"].startswith("application/json"):
        assert one_line_error(answer.text) == told
    else:
        assert told in answer.text and "Too many tries" in answer.text
    return wait


def test_wrong_join_codes_wait_longer_then_pause(db: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One machine's wrong codes: a few free, then a wait that doubles, then a pause; a code
    sent during a wait is not even compared (429, the right one too); after the pause the right
    code is accepted. Every wrong code is logged with the address, never the code."""
    clock = Clock()
    app = app_for(db, clock=clock)
    guesser = phone_at(app, "203.0.113.9")
    caplog.set_level(logging.WARNING, logger="doko_ledger.web")
    waits = []
    for n in range(1, CLIENT.pause_after + 1):
        answer = guess(guesser, f"GUESS{n}")
        assert answer.status_code == 403, (n, answer.text)
        if n > CLIENT.free:
            waits.append(wait_of(guess(guesser, "GUESSX")))
            clock.now += waits[-1]
    assert waits == [1, 2, 4, 8, 16, 32, 15 * 60]
    clock.now -= 1  # in the pause
    assert wait_of(guess(guesser, CODE)) == 1  # the right code waits too: a pause tells nothing
    assert wait_of(guesser.post("/join", data={"csrf": csrf_of(guesser.get("/join").text), "code": CODE})) == 1
    clock.now += 1
    assert guess(guesser, CODE.lower()).status_code == 201  # after the pause, in any case
    failed = [r.getMessage() for r in caplog.records if "wrong join code" in r.getMessage()]
    assert len(failed) == CLIENT.pause_after
    assert all("203.0.113.9" in line and "GUESS" not in line for line in failed)
    assert (
        "wrong join code from 203.0.113.9 (G… of 7 characters): 12 in a row from it, 12 at the table; next try in 900 s"
        in failed[-1]
    )
    assert any("join codes from 203.0.113.9 refused for" in r.getMessage() for r in caplog.records)


def test_a_phone_that_joined_is_never_locked_out_by_guessing(db: Path) -> None:
    """Guesses from many machines pause every new join at the table; the phones that joined
    before go on recording (from the guessers' own address too), and after the pause the
    right code lets a new phone in."""
    clock = Clock()
    app = app_for(db, clock=clock)
    ben = joined(app, "Ben")  # from `testclient`
    guessers: dict[int, TestClient] = {}
    failures = 0
    while failures < TABLE.pause_after:
        address = failures // CLIENT.free  # each machine stays within its free guesses
        phone = guessers.setdefault(address, phone_at(app, f"198.51.100.{address}"))
        answer = guess(phone, f"G{failures:05d}")
        if answer.status_code == 429:
            clock.now += wait_of(answer)
            continue
        assert answer.status_code == 403
        failures += 1
    newcomer = phone_at(app, "192.0.2.77")
    assert wait_of(guess(newcomer, CODE)) == 15 * 60  # the table waits, whoever asks
    assert guess(phone_at(app, "testclient"), CODE).status_code == 429
    assert post_deal(ben, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    token = csrf_of(ben.get("/").text)
    body = {"version": 2, "deal": {"re": ["Clara", "Dirk"], "re_points": 100}}  # the script's way, by the cookie
    assert ben.post("/api/nights/night/deals", json=body, headers={"x-csrf-token": token}).status_code == 201
    clock.now += 15 * 60
    token = csrf_of(newcomer.get("/join").text)
    assert newcomer.post("/join", data={"csrf": token, "code": f" {CODE.lower()} ", "typed": "Emil"}).status_code == 303


def test_guesses_sent_all_at_once_count_as_one_after_another(db: Path) -> None:
    """Forty wrong codes sent at the same moment to a real server (its clock stopped): the
    first six are compared (the sixth brings a wait), the other thirty-four refused unread."""
    import threading

    body = json.dumps({"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151}})
    statuses: list[int] = []
    with serving(app_for(db, clock=Clock())) as base:
        start = threading.Barrier(40)

        def send(n: int) -> None:
            headers = {"content-type": "application/json", "x-join-code": f"WRONG{n:02d}"}
            start.wait()
            statuses.append(raw(base, "POST", "/api/nights/night/deals", body=body, headers=headers)[0])

        threads = [threading.Thread(target=send, args=(n,)) for n in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(statuses) == [403] * (CLIENT.free + 1) + [429] * (40 - CLIENT.free - 1)


def test_the_join_code_header_is_case_insensitive(db: Path) -> None:
    api = client(app_for(db))
    body = {"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151}}
    answer = api.post("/api/nights/night/deals", json=body, headers={"x-join-code": CODE.lower()})
    assert answer.status_code == 201, answer.text
    mixed = f" {CODE.capitalize()} "
    assert api.post("/api/nights/night/undo", json={"version": 2}, headers={"x-join-code": mixed}).status_code == 200


# -- a private server -------------------------------------------------------------------------


def test_a_private_server_shows_nothing_but_the_join_page(db: Path) -> None:
    app = app_for(db, private=True)
    stranger = client(app)
    for path in ("/", "/nights/night", "/nights/night/record", "/nights/night/live", "/games", "/games/night-01"):
        page = stranger.get(path)
        assert page.status_code == 401, path
        assert 'action="/join"' in page.text and "shows nothing" in page.text
        assert not any(name in page.text for name in PLAYERS), path
    refused = stranger.post("/nights", data={"csrf": csrf_of(stranger.get("/join").text), "session_id": "x"})
    assert refused.status_code == 401
    for path in ("/api/", "/api/nights", "/api/games", "/api/nights/night/standings", "/api/openapi.json"):
        answer = stranger.get(path)
        assert answer.status_code == 401 and one_line_error(answer.text) == PRIVATE_API, path
    join = stranger.get(f"/join?code={CODE}")
    assert join.status_code == 200 and f'value="{CODE}"' in join.text
    assert not any(name in join.text for name in PLAYERS)  # the names are the ledger's too
    assert stranger.get("/static/doko.css").status_code == 200
    assert stranger.get("/api/health").json() == {"status": "ok"}
    assert stranger.get("/api/nights", headers={"x-join-code": "WRONG1"}).status_code == 401
    script = stranger.get("/api/nights", headers={"x-join-code": CODE.lower()})
    assert script.status_code == 200 and script.json()[0]["session"] == "night"
    phone = joined(app, "Ben")
    assert phone.get("/nights/night").status_code == 200 and "Anna" in phone.get("/nights/night").text
    assert phone.get("/api/nights").status_code == 200


def test_doko_serve_private(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app, **options))
    result = CliRunner().invoke(cli_app, ["--db", str(db), "serve", "--private", "--join-code", "kitchen"])
    assert result.exit_code == 0, result.output
    served = TestClient(started["app"], base_url="http://127.0.0.1:8000")
    assert served.get("/api/nights").status_code == 401 and served.get("/nights/night").status_code == 401
    assert served.get("/api/nights", headers={"x-join-code": "Kitchen"}).status_code == 200


def test_a_private_server_counts_wrong_codes_in_the_header(db: Path) -> None:
    clock = Clock()
    stranger = phone_at(app_for(db, private=True, clock=clock), "203.0.113.4")
    for n in range(CLIENT.free + 1):
        assert stranger.get("/api/games", headers={"x-join-code": f"NOPE{n:02d}"}).status_code == 401
    assert wait_of(stranger.get("/api/games", headers={"x-join-code": CODE})) == 1


# -- an unreachable ledger --------------------------------------------------------------------


def _never_named(text: str, url: str) -> None:
    where = urlsplit(url)
    for part in (url, where.path.lstrip("/"), "postgres@", "/tmp/", ".s.PGSQL", "socket", "host="):
        assert part not in text, (part, text[:300])


def get_all(base: str) -> Iterator[tuple[str, int, dict[str, str], str]]:
    for method, path, body in (
        ("GET", "/api/health", None),
        ("GET", "/api/nights", None),
        ("GET", "/api/nights/night/standings", None),
        ("POST", "/api/nights/night/deals", json.dumps({"version": 1, "deal": {"re": ["Ben"], "re_points": 1}})),
        ("GET", "/", None),
        ("GET", "/nights/night", None),
        ("GET", "/join", None),
    ):
        headers = {"content-type": "application/json", **WRITE} if body else {}
        yield (path, *raw(base, method, path, body=body, headers=headers))


def test_a_database_that_turns_connections_away_is_503(postgres_url: str, postgres_server: Any) -> None:
    """A ledger in PostgreSQL served by a real server; then the database refuses connections
    (its open ones ended): every page and API answer is 503 saying the ledger is not reachable,
    with Retry-After, and none names the database, its user or its socket; /api/health says
    so; when the database is back, so is the ledger."""
    import psycopg
    from psycopg import sql

    start_night(postgres_url)  # type: ignore[arg-type]
    name = urlsplit(postgres_url).path.lstrip("/")
    with serving(app_for(postgres_url)) as base:  # type: ignore[arg-type]
        assert raw(base, "GET", "/api/health")[::2] == (200, '{"status":"ok"}')
        with psycopg.connect(postgres_server.url, autocommit=True) as admin:
            admin.execute(sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS false").format(sql.Identifier(name)))
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])
            try:
                for path, status, headers, body in get_all(base):
                    assert status == 503, (path, body[:300])
                    assert headers["retry-after"] == "5"
                    _never_named(body, postgres_url)
                    if path.startswith("/api/"):
                        assert one_line_error(body) == UNREACHABLE
                    else:
                        assert UNREACHABLE in html.unescape(body) and "Not reachable" in body
            finally:
                admin.execute(sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS true").format(sql.Identifier(name)))
        assert raw(base, "GET", "/api/health")[0] == 200
        assert raw(base, "GET", "/nights/night")[0] == 200


def test_a_database_where_nothing_listens_is_503_and_exit_3(tmp_path: Path) -> None:
    nowhere = f"postgresql://doko@/ledger?host={tmp_path}&port=5432"
    served = client(app_for(nowhere))  # type: ignore[arg-type]
    for path in ("/api/health", "/api/nights", "/", "/games"):
        answer = served.get(path)
        assert answer.status_code == 503 and answer.headers["retry-after"] == "5", path
        assert str(tmp_path) not in answer.text and "doko@" not in answer.text
    assert served.get("/api/health").json() == {"error": UNREACHABLE}
    result = CliRunner().invoke(cli_app, ["--db", nowhere, "games"])
    assert result.exit_code == 3 and "cannot reach" in result.output and "Traceback" not in result.output


def test_a_ledger_file_that_cannot_be_read_is_503_and_exit_3(tmp_path: Path) -> None:
    looped = tmp_path / "ledger.sqlite"
    looped.symlink_to(looped)  # open() fails: too many levels of symbolic links
    served = client(app_for(looped))
    answer = served.get("/api/health")
    assert answer.status_code == 503 and answer.json() == {"error": UNREACHABLE}
    assert served.get("/nights/night").status_code == 503
    result = CliRunner().invoke(cli_app, ["--db", str(looped), "games"])
    assert result.exit_code == 3 and f"cannot read {looped}" in result.output


def test_a_refusal_never_names_the_database_server(make_postgres_database: Any) -> None:
    """A database that is no ledger: refused as before (422), the URL said as "the ledger"."""
    url = make_postgres_database()
    import psycopg

    with psycopg.connect(url, autocommit=True) as other:
        other.execute("CREATE TABLE guests (name TEXT)")
    answer = client(app_for(url)).get("/api/nights")
    assert answer.status_code == 422
    assert one_line_error(answer.text) == "the ledger is not a doko_ledger ledger (it has no event table)"
    missing = database_url(url, urlsplit(url).path.lstrip("/") + "_missing")
    answer = client(app_for(missing)).get("/api/nights")  # type: ignore[arg-type]
    assert answer.status_code == 422 and 'database "' in answer.json()["error"]
    _never_named(answer.text.replace(urlsplit(missing).path.lstrip("/"), "NAME"), url)


# -- bodies and numbers -----------------------------------------------------------------------


def chunks(size: int) -> Iterator[bytes]:
    for _ in range(size // 1024):
        yield b"9" * 1024


@pytest.mark.parametrize(
    ("path", "kind", "prefix"),
    [
        ("/api/nights/night/deals", "application/json", b'{"version": 1, "deal": {"re": ["Ben"], "note": "'),
        ("/api/nights", "application/json", b'{"session_id": "'),
        ("/nights", "application/x-www-form-urlencoded", b"session_id="),
        ("/nights/night/record", "application/x-www-form-urlencoded", b"version=1&re_points="),
    ],
)
def test_a_chunked_body_over_the_limit_is_413(db: Path, path: str, kind: str, prefix: bytes) -> None:
    with serving(app_for(db, max_body=8 * 1024)) as base:
        body = iter([prefix, *chunks(16 * 1024)])
        headers = {"content-type": kind, "transfer-encoding": "chunked", **WRITE}
        status, answered, text = raw(base, "POST", path, body=body, headers=headers, encode_chunked=True)
    assert status == 413, text[:300]
    if path.startswith("/api/"):
        assert one_line_error(text) == "request body too large: at most 8 KB"
    else:
        assert answered["content-type"].startswith("text/html") and "request body too large: at most 8 KB" in text
    assert "content-security-policy" in answered
    with Ledger.open(db) as ledger:
        assert card_nights(ledger).session_ids() == ["night"] and ledger.game_ids() == []


BIG = "9" * 4000
TOLD = "9999999999… is a number of 4,000 digits; none here has more than 100"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/nights/night/deals", f'{{"version": {BIG}, "deal": {{"re": ["Ben", "Clara"], "re_points": 151}}}}'),
        ("/api/nights/night/deals", f'{{"version": 1, "deal": {{"re": ["Ben", "Clara"], "re_points": {BIG}}}}}'),
        (
            "/api/nights/night/deals",
            f'{{"version": 1, "deal": {{"re": ["Ben"], "re_points": 1, "tricks": [1, {BIG}]}}}}',
        ),
        ("/api/nights/night/preview", f'{{"re": ["Ben", "Clara"], "re_points": -{BIG}}}'),
        ("/api/nights", f'{{"session_id": "x", "players": ["A", "B", "C", "D"], "match": {BIG}}}'),
        ("/api/nights/night/undo", f'{{"version": {BIG}}}'),
    ],
)
def test_a_number_of_more_than_100_digits_in_the_api_is_refused_not_echoed(db: Path, path: str, body: str) -> None:
    answer = client(app_for(db)).post(path, content=body, headers={"content-type": "application/json", **WRITE})
    assert answer.status_code == 422, answer.text[:300]
    assert one_line_error(answer.text).endswith(TOLD) and len(answer.text) < 200


def test_a_number_of_more_than_100_digits_in_a_query_path_or_form_is_refused(db: Path) -> None:
    phone = joined(app_for(db))
    for path in (f"/api/stats?session={BIG}", f"/nights/night/live?since={BIG}", f"/api/games/{BIG}/score"):
        answer = phone.get(path)
        assert answer.status_code == 422 and TOLD in html.unescape(answer.text) and len(answer.text) < 3000, path
    token = csrf_of(phone.get("/").text)
    for form in ({"session_id": "x", "match": BIG}, {"session_id": BIG}, {"player_0": f"+{BIG}"}):
        answer = phone.post("/nights", data={"csrf": token, **form})
        assert answer.status_code == 422 and TOLD in html.unescape(answer.text) and BIG not in answer.text
    assert phone.get("/api/stats?session=" + "9" * 100).status_code == 404  # 100 digits: a name looked up
