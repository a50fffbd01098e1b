"""What the web tests share: an app on a tmp_path ledger, a phone that joined the table, the
CSRF token of a page, and the deal form's fields."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx; the client works the same
    from fastapi.testclient import TestClient

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.ledger import Ledger
from doko_ledger.web.app import Settings, create_app

CODE = "TABLE7"
PLAYERS = ("Anna", "Ben", "Clara", "Dirk", "Emil")
HOSTS = frozenset({"testserver", "127.0.0.1", "localhost"})
"""The hosts the test apps answer to: the test client's, and the live server's."""


def app_for(db: Path, **options: Any) -> Any:
    settings = Settings(
        db=db,
        join_code=CODE,
        secret=b"s" * 32,
        join_url=f"http://testserver/join?code={CODE}",
        allowed_hosts=HOSTS,
    )
    return create_app(replace(settings, **options))


def start_night(db: Path, session_id: str = "night", players: tuple[str, ...] = PLAYERS, **rules: Any) -> None:
    with Ledger.open(db, create=True) as ledger:
        chosen = rules_from_mapping({"preset": "standard", **rules})
        command = StartNight(session_id, players, 0, chosen, 8, None, "0.05")
        card_nights(ledger).start(command, by="setup", at="2026-12-01T18:00:00+00:00")


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert found, "no CSRF token in the page"
    return found.group(1)


def version_of(html: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', html)
    assert found, "no night version in the form"
    return found.group(1)


def client(app: Any) -> TestClient:
    return TestClient(app, follow_redirects=False)


def joined(app: Any, name: str = "Ben", *, watcher: bool = False) -> TestClient:
    """A phone that joined the table with the join code, as `name`."""
    return join(client(app), name, watcher=watcher)


def join(phone: Any, name: str, *, watcher: bool = False) -> Any:
    """`phone` (a test client, or a `phone_at` a real server) joins the table as `name` typed;
    `watcher` says yes when the name is not at the open night's table."""
    token = csrf_of(phone.get("/join").text)
    data = {"csrf": token, "code": CODE, "typed": name} | ({"watcher": "1"} if watcher else {})
    answer = phone.post("/join", data=data)
    assert answer.status_code == 303, answer.text
    return phone


def phone_at(base: str) -> Any:
    """A phone's HTTP client on a real server (`serving`): it keeps its cookies, follows no
    redirect and uses no proxy."""
    import httpx

    return httpx.Client(base_url=base, follow_redirects=False, trust_env=False, timeout=30)


def play_cards(db: Any, count: int, session_id: str = "night") -> None:
    """Play `count` cards of the deal being played, as `doko play` records them: each turn the
    first card the rules allow."""
    from doko_ledger.doppelkopf.rules.play import legal_plays

    with Ledger.open(db) as ledger:
        for _ in range(count):
            game = card_nights(ledger).being_played(session_id)
            assert game is not None and game.hands is not None, "no deal is being played"
            seat = game.first_leader if game.to_play is None else game.to_play  # the first card ends the reservations
            trick = game.current.cards if game.current is not None else ()
            card = legal_plays(game.hands[seat], trick, game.order)[0]
            card_nights(ledger).play(session_id, [str(card)], by="table", at="2026-12-01T19:00:00+00:00")


def deal(re: list[str], points: int | str, **more: Any) -> dict[str, Any]:
    """The deal form's fields: Re players, Re's card points, and any others (`call_0`, ...)."""
    return {"re": re, "re_points": str(points), "game": "normal", **more}


def post_deal(phone: TestClient, session_id: str, fields: dict[str, Any], action: str = "record") -> Any:
    page = phone.get(f"/nights/{session_id}/record").text
    data = {**form_of(page), "action": action, **fields}
    return phone.post(f"/nights/{session_id}/record", data=data)


def form_of(html: str) -> dict[str, str]:
    """A deal form's own hidden fields as rendered: CSRF token, night version, the deal's number
    and the form's request id."""
    fields = {"csrf": csrf_of(html), "version": version_of(html)}
    for name in ("deal", "request_id"):
        found = re.search(rf'name="{name}" value="([^"]+)"', html)
        if found:
            fields[name] = found.group(1)
    return fields


def standings(db: Path, session_id: str = "night") -> Any:
    from doko_ledger.doppelkopf.views import standings_view

    with Ledger.open(db) as ledger:
        return standings_view(card_nights(ledger).standings(session_id))


@contextmanager
def serving(app: Any, port: int | None = None) -> Iterator[str]:
    """The app on a real server (uvicorn, loopback, in a thread, on `port` or a free one);
    yields its base URL."""
    import threading
    import time

    import uvicorn
    from browser import _free_port

    port = _free_port() if port is None else port
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
