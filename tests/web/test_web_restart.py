"""A night that outlives its server: the table's join code and token secret kept in the ledger
(made once, race-free, on both databases; never in the log), `doko serve --join-code` and
`--new-join-code`, a phone told that its join lapsed, and `doko serve` stopped and started
again at once on the same port while the phones carry on."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from backends import Client, sqlite_only
from browser import _free_port
from markupsafe import escape
from typer.testing import CliRunner
from web_helpers import CODE, app_for, client, csrf_of, deal, join, joined, phone_at, post_deal, start_night

from doko_ledger.cli.app import app as cli_app
from doko_ledger.i18n import render
from doko_ledger.ledger import Ledger
from doko_ledger.web.common import JOIN_AGAIN as JOIN_AGAIN_MESSAGE
from doko_ledger.web.common import JOIN_LAPSED as JOIN_LAPSED_MESSAGE
from doko_ledger.web.join_code import CODE_LETTERS, table_join

JOIN_AGAIN, JOIN_LAPSED = render(JOIN_AGAIN_MESSAGE, "en"), render(JOIN_LAPSED_MESSAGE, "en")
LAPSED = str(escape(JOIN_LAPSED))
REJOIN = str(escape(JOIN_AGAIN))
LAPSED_PAGE = f'{LAPSED}; <a href="/join">join again</a>'
"""The note above every page of a phone whose join lapsed, with the join link."""


def head_and_rows(target: str | Path) -> tuple[Any, set[str]]:
    with Ledger.open(target) as ledger:
        head = ledger.head()
    with Client(target) as plain:
        keys = {str(key) for (key,) in plain.rows("SELECT key FROM ledger")}
    return head, keys


# -- kept in the ledger -----------------------------------------------------------------------


def test_the_join_code_is_made_once_and_kept_beside_the_log_not_in_it(ledger_target: str | Path) -> None:
    Ledger.open(ledger_target, create=True).close()
    empty_head, _ = head_and_rows(ledger_target)
    with Ledger.open(ledger_target) as ledger:
        first = table_join(ledger.store)
    with Ledger.open(ledger_target) as ledger:
        again = table_join(ledger.store)
    assert len(first.code) == 6 and set(first.code) <= set(CODE_LETTERS) and len(first.secret) == 32
    assert (again.code, again.secret, again.changed, again.not_kept) == (first.code, first.secret, False, None)
    head, keys = head_and_rows(ledger_target)
    assert head == empty_head and head.events == 0  # no event: the log is the games', not the server's
    assert {"join_code", "join_secret"} <= keys
    with Ledger.open(ledger_target) as ledger:
        assert ledger.verify().ok


def test_a_new_code_or_a_chosen_one_is_kept_and_the_secret_stays(ledger_target: str | Path) -> None:
    with Ledger.open(ledger_target, create=True) as ledger:
        first = table_join(ledger.store)
        new = table_join(ledger.store, new=True)
        assert new.code != first.code and new.changed and new.secret == first.secret
        assert table_join(ledger.store).code == new.code
        chosen = table_join(ledger.store, code=" kitchen ")
        assert (chosen.code, chosen.changed, chosen.secret) == ("KITCHEN", True, first.secret)
        same = table_join(ledger.store, code="Kitchen")
        assert (same.code, same.changed) == ("KITCHEN", False)
        assert table_join(ledger.store).code == "KITCHEN"


def test_servers_starting_at_once_agree_on_one_code(ledger_target: str | Path) -> None:
    Ledger.open(ledger_target, create=True).close()
    found: list[tuple[str, bytes]] = []
    failures: list[BaseException] = []
    start = threading.Barrier(6)

    def serve_start() -> None:
        try:
            with Ledger.open(ledger_target) as ledger:
                start.wait()
                kept = table_join(ledger.store)
                found.append((kept.code, kept.secret))
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=serve_start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and len(found) == 6
    assert len(set(found)) == 1


def make_read_only(target: str | Path) -> None:
    """A ledger this doko_ledger can read, not write: its format row names a newer format."""
    with Client(target) as plain:
        plain.execute("UPDATE ledger SET value = 'doko-ledger/99' WHERE key = 'format'")


def test_a_read_only_ledger_keeps_no_code_and_says_why(ledger_target: str | Path) -> None:
    Ledger.open(ledger_target, create=True).close()
    make_read_only(ledger_target)
    with Ledger.open(ledger_target) as ledger:
        assert ledger.store.read_only is not None
        once, twice = table_join(ledger.store), table_join(ledger.store)
    assert once.not_kept is not None and "newer than this doko_ledger" in once.not_kept
    assert once.code != twice.code and once.secret != twice.secret
    _, keys = head_and_rows(ledger_target)
    assert "join_code" not in keys and "join_secret" not in keys


def test_a_read_only_ledger_serves_the_code_it_kept(ledger_target: str | Path) -> None:
    with Ledger.open(ledger_target, create=True) as ledger:
        kept = table_join(ledger.store)
    make_read_only(ledger_target)
    with Ledger.open(ledger_target) as ledger:
        served = table_join(ledger.store)
        other = table_join(ledger.store, new=True)
    assert (served.code, served.secret, served.not_kept) == (kept.code, kept.secret, None)
    assert other.code != kept.code and other.not_kept is not None


# -- doko serve's options ---------------------------------------------------------------------


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(app=app, **options))
    return seen


def serve_once(db: Path, *options: str) -> tuple[str, str]:
    result = CliRunner().invoke(cli_app, ["--db", str(db), "serve", "--port", str(_free_port()), *options])
    assert result.exit_code == 0, result.output
    found = re.search(r"join code: (\S+)", result.output)
    assert found is not None, result.output
    return found.group(1), result.output


def test_doko_serve_keeps_the_code_until_told_otherwise(tmp_path: Path, started: dict[str, Any]) -> None:
    db = tmp_path / "ledger.sqlite"
    first, said = serve_once(db)
    assert "the join code is kept in the ledger: phones that joined stay joined" in said
    assert serve_once(db)[0] == first
    new, said = serve_once(db, "--new-join-code")
    assert new != first and "phones that joined before must join again" in said
    assert serve_once(db)[0] == new
    assert serve_once(db, "--join-code", "kitchen")[0] == "KITCHEN"
    assert serve_once(db)[0] == "KITCHEN"
    both = CliRunner().invoke(cli_app, ["--db", str(db), "serve", "--join-code", "x", "--new-join-code"])
    assert both.exit_code == 2 and "not both" in both.output


@sqlite_only
def test_doko_serve_on_a_read_only_ledger_says_the_code_is_for_this_start(
    ledger_target: str | Path, started: dict[str, Any]
) -> None:
    Ledger.open(ledger_target, create=True).close()
    make_read_only(ledger_target)
    code, said = serve_once(Path(ledger_target))
    assert "the join code holds for this start only: the ledger cannot be written" in said
    assert serve_once(Path(ledger_target))[0] != code


# -- a phone whose join lapsed ----------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    start_night(path)
    return path


def carried_over(phone: Any, app: Any) -> Any:
    """A phone of the earlier server, with its cookies, at the server `app`."""
    moved = client(app)
    moved.cookies = phone.cookies
    return moved


def test_a_phone_is_told_when_the_code_changed_and_joins_again(db: Path) -> None:
    phone = joined(app_for(db), "Ben")
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    same_code = carried_over(phone, app_for(db))  # the same code and secret: still joined
    assert LAPSED not in same_code.get("/nights/night").text
    new_app = app_for(db, join_code="NEWONE")
    phone = carried_over(phone, new_app)
    for path in ("/", "/nights/night", "/nights/night/record", "/join"):
        page = phone.get(path)
        assert page.status_code == 200 and LAPSED_PAGE in page.text, path
    refused = post_deal(phone, "night", deal(["Anna", "Clara"], 151))
    assert refused.status_code == 403 and refused.text.count(LAPSED) == 1
    assert REJOIN in refused.text
    body = {"version": 2, "deal": {"re": ["Anna", "Clara"], "re_points": 151}}
    api = phone.post("/api/nights/night/deals", json=body, headers={"x-csrf-token": csrf_of(phone.get("/join").text)})
    assert api.status_code == 403 and api.json() == {"error": JOIN_AGAIN}
    token = csrf_of(phone.get("/join").text)
    assert phone.post("/join", data={"csrf": token, "code": "newone", "name": "Ben"}).status_code == 303
    assert LAPSED not in phone.get("/").text
    assert post_deal(phone, "night", deal(["Anna", "Clara"], 151)).status_code == 303


def test_a_phone_that_never_joined_is_not_told_of_a_lapsed_join(db: Path) -> None:
    stranger = client(app_for(db))
    assert LAPSED not in stranger.get("/nights/night").text
    answer = post_deal(stranger, "night", deal(["Ben", "Clara"], 151))
    assert answer.status_code == 403 and LAPSED not in answer.text and "has not joined" in answer.text


def test_a_private_server_says_the_join_lapsed(db: Path) -> None:
    phone = joined(app_for(db, private=True), "Ben")
    phone = carried_over(phone, app_for(db, private=True, join_code="NEWONE"))
    page = phone.get("/nights/night")
    assert page.status_code == 401 and LAPSED_PAGE in page.text and 'name="code"' in page.text
    answer = phone.get("/api/nights")
    assert answer.status_code == 401 and answer.json() == {"error": JOIN_AGAIN}


# -- a real restart ---------------------------------------------------------------------------


def _doko() -> str:
    doko = Path(sys.executable).with_name("doko")
    assert doko.exists(), f"no doko beside {sys.executable}"
    return str(doko)


@contextmanager
def doko_serve(db: Path, port: int, *options: str) -> Iterator[str]:
    """`doko serve` on `port` in its own process until the block ends (stopped as Ctrl-C
    stops it); yields what it printed before serving."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "DOKO_USER": "laptop"}
    env.pop("DOKO_JOIN_CODE", None)
    args = [_doko(), "--db", str(db), "serve", "--port", str(port), *options]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        printed = _until_serving(process, port)
        yield printed
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        assert process.stdout is not None
        process.stdout.close()


def _until_serving(process: subprocess.Popen[str], port: int) -> str:
    import httpx

    assert process.stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            reader.join(timeout=5)
            raise AssertionError(f"doko serve ended ({process.returncode}): {''.join(lines)}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", trust_env=False, timeout=2).status_code == 200:
                return "".join(lines)
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"doko serve did not answer on port {port}: {''.join(lines)}")


def code_in(printed: str) -> str:
    found = re.search(r"join code: (\S+)", printed)
    assert found is not None, printed
    return found.group(1)


@pytest.mark.slow  # `doko serve` started and stopped in processes of its own
def test_a_restart_in_the_middle_of_the_night_and_the_phones_carry_on(db: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with doko_serve(db, port, "--join-code", CODE) as printed:
        assert code_in(printed) == CODE
        phone = join(phone_at(base), "Ben")
        assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    with doko_serve(db, port) as printed:  # at once, on the same port: phones still connected a moment ago
        assert code_in(printed) == CODE and "phones that joined stay joined" in printed
        assert LAPSED not in phone.get("/nights/night").text
        assert post_deal(phone, "night", deal(["Anna", "Clara"], 151)).status_code == 303
    with doko_serve(db, port, "--new-join-code") as printed:
        code = code_in(printed)
        assert code != CODE and "must join again" in printed
        assert LAPSED_PAGE in phone.get("/nights/night").text
        refused = post_deal(phone, "night", deal(["Ben", "Dirk"], 151))
        assert refused.status_code == 403 and REJOIN in refused.text
        token = csrf_of(phone.get("/join").text)
        assert phone.post("/join", data={"csrf": token, "code": code, "name": "Ben"}).status_code == 303
        assert post_deal(phone, "night", deal(["Ben", "Dirk"], 151)).status_code == 303
    phone.close()
    with Ledger.open(db) as ledger:
        recorded = [g for g in ledger.game_ids() if g.startswith("night-")]
        assert recorded == ["night-01", "night-02", "night-03"]
        assert [ledger.events(g)[0].envelope.recorded_by for g in recorded] == ["Ben", "Ben", "Ben"]


@pytest.mark.slow  # `doko serve` started and stopped in processes of its own
def test_doko_serve_starts_again_at_once_on_the_port_it_just_left(db: Path) -> None:
    """The connections of the server just stopped linger on its port (TIME_WAIT): the check
    that no other server listens there must not take them for one."""
    port = _free_port()
    with doko_serve(db, port):
        phone = phone_at(f"http://127.0.0.1:{port}")
        for _ in range(3):
            assert phone.get("/nights/night").status_code == 200
    with doko_serve(db, port):
        assert phone.get("/nights/night").status_code == 200
    phone.close()
