"""The JSON API under /api/: the same views as `doko ... --json`, the writes the pages use, and
bad input as a 4xx with one line, never a trace, never a half-written ledger."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from typer.testing import Result
from web_helpers import CODE, app_for, client, csrf_of, deal, form_of, joined, post_deal, start_night

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.ledger import Ledger

WRITE = {"x-join-code": CODE, "x-doko-user": "script"}


@pytest.fixture
def db(ledger_path: Path) -> Path:
    start_night(ledger_path, bock_triggers=["tie"])
    return ledger_path


def cli_json(cli: Callable[..., Result], *args: str) -> Any:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def record(api: Any, points: int = 151, re: tuple[str, ...] = ("Ben", "Clara"), version: int | None = None) -> Any:
    if version is None:
        version = api.get("/api/nights/night/standings").json()["version"]
    deal = {"game": "normal", "re": list(re), "re_points": points, "calls": [[re[0], "re"]]}
    return api.post("/api/nights/night/deals", json={"version": version, "deal": deal}, headers=WRITE)


def test_reads_are_the_clis_json_views(db: Path, cli: Callable[..., Result]) -> None:
    api = client(app_for(db))
    assert record(api).status_code == 201
    assert record(api, 120, ("Clara", "Dirk")).status_code == 201
    standings = api.get("/api/nights/night/standings").json()
    version = standings.pop("version")
    assert version == 3
    assert standings == cli_json(cli, "standings")
    assert api.get("/api/games").json() == cli_json(cli, "games")
    assert api.get("/api/games/night-01/score").json() == cli_json(cli, "score", "night-01")
    assert api.get("/api/games/night-01/audit").json() == cli_json(cli, "audit", "night-01")
    assert api.get("/api/nights/night/settle").json() == cli_json(cli, "settle")
    assert api.get("/api/stats").json() == cli_json(cli, "stats")
    assert api.get("/api/stats", params={"session": "night"}).json() == cli_json(cli, "stats", "--session", "night")
    assert api.get("/api/games/night-01/notes").json() == []
    (listed,) = api.get("/api/nights").json()
    assert listed["session"] == "night" and listed["deals"] == 2 and listed["version"] == 3


def test_an_audit_with_a_claim(db: Path, cli: Callable[..., Result]) -> None:
    api = client(app_for(db))
    record(api)
    claim = "Ben=+1,Clara=+1,Dirk=-1,Emil=-1"
    answer = api.get("/api/games/night-01/audit", params={"claimed": claim})
    assert answer.status_code == 200
    result = cli("audit", "night-01", "--claimed", claim, "--json")
    assert answer.json() == json.loads(result.output)
    assert answer.json()["claim"]["difference"]
    bad = api.get("/api/games/night-01/audit", params={"claimed": "Ben=lots"})
    assert bad.status_code == 422 and bad.json() == {
        "error": "claimed: write PLAYER=POINTS, e.g. Anna=+5, not 'Ben=lots'"
    }


def test_writes_need_the_join_code(db: Path) -> None:
    api = client(app_for(db))
    deal = {"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151}}
    refused = api.post("/api/nights/night/deals", json=deal)
    assert refused.status_code == 403 and "join" in refused.json()["error"]
    wrong = api.post("/api/nights/night/deals", json=deal, headers={"x-join-code": "WRONG1"})
    assert wrong.status_code == 403
    with Ledger.open(db) as ledger:
        assert card_nights(ledger).standings("night").rows == ()
    recorded = api.post("/api/nights/night/deals", json=deal, headers=WRITE)
    assert recorded.status_code == 201
    assert recorded.json()["game_id"] == "night-01" and recorded.json()["version"] == 2
    with Ledger.open(db) as ledger:
        assert ledger.events("night-01")[0].envelope.recorded_by == "script"


def test_a_page_script_writes_with_the_cookie_and_its_csrf_token(db: Path) -> None:
    phone = joined(app_for(db), "Dirk")
    token = csrf_of(phone.get("/").text)
    deal = {"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151}}
    assert phone.post("/api/nights/night/deals", json=deal).status_code == 403  # cookie alone: no
    answer = phone.post("/api/nights/night/deals", json=deal, headers={"x-csrf-token": token})
    assert answer.status_code == 201


def test_bad_input_is_a_4xx_with_one_line(db: Path) -> None:
    api = client(app_for(db))
    cases = [
        ({"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 300}}, 422),
        ({"version": 1, "deal": {"re": ["Anna", "Ben"], "re_points": 151}}, 422),  # Anna sits out
        ({"version": 1, "deal": {"game": "skat", "re": ["Ben"], "re_points": 151}}, 422),
        ({"version": 1, "deal": {"re": "Ben", "re_points": "many"}}, 422),
        ({"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151, "calls": [["Ben", "shout"]]}}, 422),
        (
            {
                "version": 1,
                "deal": {"re": ["Ben", "Clara"], "re_points": 151, "specials": [{"kind": "x", "party": "re"}]},
            },
            422,
        ),
        ({"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 10**30}}, 422),
        ({"deal": {"re": ["Ben", "Clara"], "re_points": 151}}, 422),
        ({"version": 7, "deal": {"re": ["Ben", "Clara"], "re_points": 151}}, 409),
    ]
    for body, status in cases:
        answer = api.post("/api/nights/night/deals", json=body, headers=WRITE)
        assert answer.status_code == status, (body, answer.text)
        error = answer.json()["error"]
        assert "\n" not in error and "Traceback" not in error and error, body
    not_json = api.post(
        "/api/nights/night/deals", content=b"{not json", headers={**WRITE, "content-type": "application/json"}
    )
    assert not_json.status_code == 422 and "\n" not in not_json.json()["error"]
    assert api.get("/api/games/nowhere/score").status_code == 404
    assert api.get("/api/nights/nowhere/standings").json() == {"error": "no card night 'nowhere' in the ledger"}
    with Ledger.open(db) as ledger:
        assert card_nights(ledger).standings("night").rows == ()
        assert ledger.game_ids() == []  # nothing half-written


def test_two_writes_from_the_same_version_one_wins(db: Path) -> None:
    api = client(app_for(db))
    first, second = record(api, version=1), record(api, 140, version=1)
    assert first.status_code == 201 and second.status_code == 409
    assert second.json()["error"] == "deal 1 was just recorded (by script): nothing was written"
    with Ledger.open(db) as ledger:
        assert len(card_nights(ledger).standings("night").rows) == 1


def test_preview_undo_correct_and_notes(db: Path) -> None:
    api = client(app_for(db))
    preview = api.post("/api/nights/night/preview", json={"re": ["Ben", "Clara"], "re_points": 151})
    assert preview.status_code == 200 and preview.json()["score"]["players"]["Ben"] == 2
    with Ledger.open(db) as ledger:
        assert ledger.game_ids() == []
    version = record(api).json()["version"]
    corrected = api.post(
        "/api/nights/night/deals/night-01/correct",
        json={"version": version, "deal": {"re": ["Ben", "Clara"], "re_points": 100}},
        headers=WRITE,
    )
    assert corrected.status_code == 200 and corrected.json()["game_id"] == "night-01-c1"
    note = api.post("/api/games/night-01-c1/notes", json={"text": "Ben miscounted"}, headers=WRITE)
    assert note.status_code == 201
    assert api.get("/api/games/night-01-c1/notes").json()[0]["text"] == "Ben miscounted"
    assert api.post("/api/games/night-01-c1/notes", json={"text": ""}, headers=WRITE).status_code == 422
    undone = api.post("/api/nights/night/undo", json={"version": corrected.json()["version"]}, headers=WRITE)
    assert undone.status_code == 200 and undone.json()["taken_back"] == "night-01-c1"
    assert api.get("/api/nights/night/standings").json()["deals"] == []


def test_start_a_night_through_the_api(tmp_path: Path) -> None:
    api = client(app_for(tmp_path / "fresh.sqlite"))
    Ledger.open(tmp_path / "fresh.sqlite", create=True).close()
    body = {"session_id": "api-night", "players": ["Anna", "Ben", "Clara", "Dirk"], "dealer": "Dirk", "rate": "0.1"}
    started = api.post("/api/nights", json=body, headers=WRITE)
    assert started.status_code == 201
    assert started.json()["next"]["dealer"] == "Dirk" and started.json()["rate"] == "0.1"
    again = api.post("/api/nights", json={**body, "session_id": "other"}, headers=WRITE)
    assert again.status_code == 422 and "still open" in again.json()["error"]
    rules = api.post("/api/nights", json={**body, "rules": "/etc/passwd"}, headers=WRITE)
    assert rules.status_code == 422 and "no preset or house-rule set '/etc/passwd'" in rules.json()["error"]


def test_the_api_refuses_a_player_name_of_combining_marks_alone(tmp_path: Path) -> None:
    api = client(app_for(tmp_path / "fresh.sqlite"))
    Ledger.open(tmp_path / "fresh.sqlite", create=True).close()
    body = {"session_id": "api-night", "players": ["Anna", "\u0301\u0301", "Clara", "Dirk"]}
    started = api.post("/api/nights", json=body, headers=WRITE)
    assert started.status_code == 422 and "only combining marks (U+0301" in started.json()["error"]
    assert api.get("/api/nights").json() == []


def test_the_openapi_description_and_page(db: Path) -> None:
    api = client(app_for(db))
    spec = api.get("/api/openapi.json").json()
    assert "/api/nights/{session}/deals" in spec["paths"] and "/api/games/{game}/audit" in spec["paths"]
    assert not any(path.startswith("/nights") for path in spec["paths"])  # the pages are not the API
    page = api.get("/api/")
    assert page.status_code == 200 and "/api/nights/{session}/standings" in page.text
    assert api.get("/docs").status_code == 404  # no page that loads its script from the network


def test_phones_posting_the_same_deal_at_the_same_moment_record_it_once(db: Path) -> None:
    """Eight phones send deal 1 at once to a real server, each from the same version: exactly
    one is recorded; the others hear which deal was recorded, and by whom."""
    import threading
    import urllib.error
    import urllib.request

    from web_helpers import serving

    with serving(app_for(db)) as base:
        start = threading.Barrier(8)
        answers: list[tuple[int, str]] = []
        lock = threading.Lock()

        def send(n: int) -> None:
            deal = {"re": ["Ben", "Clara"], "re_points": 151 - n}
            body = json.dumps({"version": 1, "deal": deal}).encode()
            headers = {**WRITE, "x-doko-user": f"phone{n}", "content-type": "application/json"}
            request = urllib.request.Request(f"{base}/api/nights/night/deals", data=body, headers=headers)
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            start.wait()
            try:
                with opener.open(request, timeout=60) as answer:
                    result = (answer.status, answer.read().decode())
            except urllib.error.HTTPError as refused:
                result = (refused.code, refused.read().decode())
            with lock:
                answers.append(result)

        threads = [threading.Thread(target=send, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(status for status, _ in answers) == [201] + [409] * 7
    with Ledger.open(db) as ledger:
        (row,) = card_nights(ledger).standings("night").rows
        winner = ledger.events(row.game_id)[0].envelope.recorded_by
        assert ledger.game_ids() == [row.game_id]  # no second game half-written
    assert winner.startswith("phone")
    told = {json.loads(text)["error"] for status, text in answers if status == 409}
    assert told == {f"deal 1 was just recorded (by {winner}): nothing was written"}


def test_a_bock_deal_is_answered_in_its_bock_round_by_every_view(db: Path, cli: Callable[..., Result]) -> None:
    """The tie of deal 1 makes deals 2 to 5 a bock round: the record's answer, its preview, the
    game's score and the standings all count deal 2 twice."""
    api = client(app_for(db))
    assert record(api, 120, ("Clara", "Dirk")).status_code == 201  # 120:120, a tie: bock follows
    version = api.get("/api/nights/night/standings").json()["version"]
    deal = {"game": "normal", "re": ["Dirk", "Emil"], "re_points": 151, "calls": [["Dirk", "re"]]}
    preview = api.post("/api/nights/night/preview", json=deal, headers=WRITE)
    assert preview.status_code == 200, preview.text
    answer = record(api, re=("Dirk", "Emil"), version=version)
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["game_id"]
    recorded = answer.json()["score"]
    assert recorded == preview.json()["score"]
    assert recorded["players"] == {"Clara": -8, "Dirk": 8, "Emil": 8, "Anna": -8}  # 4 points, twice
    assert recorded["players"] == cli_json(cli, "score", game_id)["players"]
    assert api.get(f"/api/games/{game_id}/score").json()["players"] == recorded["players"]
    (_, second) = cli_json(cli, "standings")["deals"]
    assert second["multiplier"] == 2
    assert {p: n for p, n in second["points"].items() if p in recorded["players"]} == recorded["players"]


RESULT = re.compile(r'<span class="res"><strong>([^<]+)</strong> ([+-]\d+)</span>')
RECORDED = re.compile(r'<p class="ok recorded" role="status">Deal \d+ recorded: ([^<]+)\.</p>')
CORRECTED = re.compile(r'<tr><td>([^<]+)</td><td class="num">[+-]\d+</td><td class="num new">([+-]\d+)</td></tr>')


def test_a_bock_deal_from_a_form_and_its_correction_answer_as_their_previews(
    db: Path, cli: Callable[..., Result]
) -> None:
    """Deal 2 follows a tie, so it is a bock deal: the form's preview, the night page's line
    after recording from the form, the API's answer, `doko score --json` and `doko standings
    --json` give the same points; so do a correction's preview (form and API) and its answer."""
    api = client(app_for(db))
    assert record(api, 120, ("Clara", "Dirk")).status_code == 201  # 120:120, a tie: bock follows
    phone = joined(app_for(db))
    facts = deal(["Dirk", "Emil"], 151, call_1="re")  # Clara, Dirk, Emil, Anna play; Dirk calls Re
    previewed = post_deal(phone, "night", facts, action="preview")
    assert previewed.status_code == 200, previewed.text
    shown = {p: int(n) for p, n in RESULT.findall(previewed.text.split('id="preview"')[1])}
    recorded = post_deal(phone, "night", facts)
    assert recorded.status_code == 303, recorded.text
    game_id = recorded.headers["location"].split("new=")[1]
    (line,) = RECORDED.findall(phone.get(recorded.headers["location"]).text)
    told = {p: int(n) for p, n in (item.rsplit(" ", 1) for item in line.split(", "))}
    assert shown == told == {"Clara": -8, "Dirk": 8, "Emil": 8, "Anna": -8}  # 4 points, twice
    assert cli_json(cli, "score", game_id)["players"] == told
    assert api.get(f"/api/games/{game_id}/score").json()["players"] == told
    (_, second) = cli_json(cli, "standings")["deals"]
    assert second["multiplier"] == 2 and {p: second["points"][p] for p in told} == told

    fixed = {"game": "normal", "re": ["Dirk", "Emil"], "re_points": 100}  # Re lost after all
    api_preview = api.post(f"/api/nights/night/deals/{game_id}/preview", json=fixed)
    assert api_preview.status_code == 200, api_preview.text
    assert api_preview.json()["before"]["players"] == told
    page = phone.get(f"/nights/night/deals/{game_id}/correct").text
    form = {**form_of(page), "action": "preview", **deal(["Dirk", "Emil"], 100)}
    form_preview = phone.post(f"/nights/night/deals/{game_id}/correct", data=form)
    assert form_preview.status_code == 200, form_preview.text
    new_points = {p: int(n) for p, n in CORRECTED.findall(form_preview.text)}
    version = api.get("/api/nights/night/standings").json()["version"]
    answer = api.post(
        f"/api/nights/night/deals/{game_id}/correct", json={"version": version, "deal": fixed}, headers=WRITE
    )
    assert answer.status_code == 200, answer.text
    corrected = answer.json()
    assert corrected["game_id"] == f"{game_id}-c1" and corrected["number"] == 2
    assert corrected["score"] == api_preview.json()["score"]
    assert corrected["score"]["players"] == new_points == {"Clara": 4, "Dirk": -4, "Emil": -4, "Anna": 4}
    assert cli_json(cli, "score", corrected["game_id"])["players"] == new_points
    (_, second) = cli_json(cli, "standings")["deals"]
    assert second["game_id"] == corrected["game_id"] and {p: second["points"][p] for p in told} == new_points
