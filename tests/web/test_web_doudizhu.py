"""`doko serve`'s Dou Dizhu pages through the test client: a session's standings, its next deal
recorded by its facts from the score-sheet form (preview, record, refusals in the form with
what was typed kept, join code and CSRF, two phones at once), the live version, escaping, and
the same under /api/."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CODE, app_for, client, csrf_of, joined, version_of

from doko_ledger.doudizhu.book import standings_view
from doko_ledger.games import DOUDIZHU
from doko_ledger.ledger import Ledger

THREE = ("Li", "Wang", "Zhang")
FOUR = ("Li", "Wang", "Zhang", "Zhao")


def start(db: Path, players: tuple[str, ...] = THREE, session_id: str = "dorm") -> None:
    with Ledger.open(db, create=True) as ledger:
        ledger.book_of(DOUDIZHU).start_session(session_id, players, played_on="2026-12-01", by="setup", at="t0")


def table(db: Path, session_id: str = "dorm") -> dict[str, Any]:
    with Ledger.open(db) as ledger:
        return standings_view(ledger.book_of(DOUDIZHU).standings(session_id))


def last_position(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.store.last_position()


def sheet(landlord: str, bid: int | str, out_first: str, **counts: Any) -> dict[str, str]:
    """The score-sheet form's fields."""
    return {"landlord": landlord, "bid": str(bid), "out_first": out_first, **{k: str(v) for k, v in counts.items()}}


def post(phone: Any, fields: dict[str, str], action: str = "record", session_id: str = "dorm") -> Any:
    page = phone.get(f"/doudizhu/{session_id}").text
    data = {"csrf": csrf_of(page), "version": version_of(page), "action": action, **fields}
    return phone.post(f"/doudizhu/{session_id}/record", data=data)


def checked(page: str, name: str) -> list[str]:
    """The values of the radio buttons named `name` that are checked."""
    return re.findall(rf'name="{name}" value="([^"]*)" checked', page)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    start(path)
    return path


def test_the_session_page_offers_the_score_sheet_form_to_a_joined_phone(db: Path) -> None:
    app = app_for(db)
    page = joined(app).get("/doudizhu/dorm").text
    assert 'id="ddz-record"' in page and "Deal 1, from the score sheet" in page
    for player in THREE:
        assert f'name="landlord" value="{player}"' in page and f'name="out_first" value="{player}"' in page
    assert 'name="big_bombs"' not in page  # three players: every bomb doubles
    assert "Read-only" not in page
    assert "Read-only" in client(app).get("/doudizhu/dorm").text


def test_preview_shows_the_stake_and_payments_and_writes_nothing(db: Path) -> None:
    phone = joined(app_for(db))
    before = last_position(db)
    answer = post(phone, sheet("Li", 3, "Wang", bombs=1, rockets=1), action="preview")
    assert answer.status_code == 200
    text = html.unescape(answer.text)
    assert 'id="preview"' in text and "Stake of deal 1" in text
    cells = re.findall(r'<td class="num">([^<]*)</td>', text)
    assert cells[-6:] == ["3", "3", "×2", "6", "×2", "12"]  # the bid, then each doubling the sheet counted
    assert "rocket" in text and "bomb" in text
    for player, points in (("Li", "-24"), ("Wang", "+12"), ("Zhang", "+12")):
        assert f"<strong>{player}</strong> {points}" in text
    assert checked(text, "landlord") == ["Li"] and checked(text, "out_first") == ["Wang"]
    assert last_position(db) == before and table(db)["deals"] == []


def test_record_a_deal_by_its_facts_and_see_it_in_the_standings(db: Path) -> None:
    phone = joined(app_for(db), "Wang")
    answer = post(phone, sheet("Li", 3, "Wang", bombs=1, rockets=1))
    assert answer.status_code == 303
    assert answer.headers["location"] == "/doudizhu/dorm#deal-dorm-01"
    standings = table(db)
    assert [d["payments"] for d in standings["deals"]] == [{"Li": -24, "Wang": 12, "Zhang": 12}]
    page = phone.get("/doudizhu/dorm").text
    assert 'id="deal-dorm-01"' in page and "by its facts" in page and "Deal 2, from the score sheet" in page
    for player, total in standings["totals"].items():
        assert f"<strong>{player}</strong> {total:+d}" in page
    with Ledger.open(db) as ledger:
        (envelope,) = [r.envelope for r in ledger.store.read_stream("game/dorm-01")][1:]
    assert envelope.recorded_by == "Wang"


def test_a_four_player_sheet_counts_the_big_bombs_apart(tmp_path: Path) -> None:
    db = tmp_path / "four.sqlite"
    start(db, FOUR)
    phone = joined(app_for(db))
    assert 'name="big_bombs"' in phone.get("/doudizhu/dorm").text
    assert post(phone, sheet("Zhao", 2, "Zhao", bombs=3, big_bombs=1)).status_code == 303
    assert table(db)["deals"][0]["payments"] == {"Li": -4, "Wang": -4, "Zhang": -4, "Zhao": 12}
    refused = post(phone, sheet("Zhao", 2, "Zhao", bombs=1, big_bombs=2))
    assert refused.status_code == 422
    assert "2 bombs of six or more cards but 1 bomb in all" in html.unescape(refused.text)


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        (sheet("Li", 4, "Li", bombs=2), "tap the landlord&#39;s bid: 1, 2 or 3"),
        (sheet("", 2, "Li", bombs=2), "tap the landlord"),
        (sheet("Li", 2, "", bombs=2), "tap who went out first"),
        (sheet("Li", 2, "Li", bombs="two"), "bombs: write how many were played (0, 1, 2, ...), not &#39;two&#39;"),
        (sheet("Li", 2, "Li", bombs=14), "14 bombs: 13 ranks of four cards make at most 13 bombs (docs/rules.md"),
        (sheet("Li", 2, "Wang", bombs=13), "13 bombs cannot all be played when Wang goes out first"),
        (sheet("Li", 2, "Li", bombs=2, rockets=2), "the rocket is both jokers, so a deal has one at most"),
    ],
)
def test_a_refusal_is_shown_in_the_form_in_the_librarys_words_and_keeps_what_was_typed(
    db: Path, fields: dict[str, str], says: str
) -> None:
    phone = joined(app_for(db))
    before = last_position(db)
    answer = post(phone, fields)
    assert answer.status_code == 422
    assert says in answer.text
    assert 'id="form-error"' in answer.text and "Traceback" not in answer.text
    assert checked(answer.text, "landlord") == ([fields["landlord"]] if fields["landlord"] else [])
    assert f'name="bombs" inputmode="numeric" pattern="[0-9]*" maxlength="2" value="{fields["bombs"]}"' in answer.text
    assert last_position(db) == before


def test_recording_needs_the_join_code_and_the_forms_token(db: Path) -> None:
    app = app_for(db)
    stranger = client(app)
    page = stranger.get("/doudizhu/dorm").text
    data = {"csrf": csrf_of(page), "version": version_of(page), "action": "record", **sheet("Li", 1, "Li")}
    assert stranger.post("/doudizhu/dorm/record", data=data).status_code == 403
    phone = joined(app)
    assert phone.post("/doudizhu/dorm/record", data={**data, "csrf": "0" * 32}).status_code == 403
    without = {k: v for k, v in data.items() if k != "csrf"}
    assert phone.post("/doudizhu/dorm/record", data=without).status_code == 403
    assert table(db)["deals"] == []


def test_two_phones_record_at_once_exactly_one_deal_is_recorded(db: Path) -> None:
    app = app_for(db)
    li, zhang = joined(app, "Li"), joined(app, "Zhang")
    forms = []
    for phone in (li, zhang):
        page = phone.get("/doudizhu/dorm").text
        forms.append({"csrf": csrf_of(page), "version": version_of(page), "action": "record"})
    first = li.post("/doudizhu/dorm/record", data={**forms[0], **sheet("Li", 2, "Li")})
    second = zhang.post("/doudizhu/dorm/record", data={**forms[1], **sheet("Zhang", 3, "Zhang", bombs=1)})
    assert first.status_code == 303 and second.status_code == 409
    assert "deal dorm-01 was just recorded by Li" in second.text
    assert checked(second.text, "landlord") == ["Zhang"] and checked(second.text, "bid") == ["3"]
    assert len(table(db)["deals"]) == 1
    again = zhang.post(
        "/doudizhu/dorm/record",
        data={**forms[1], "version": version_of(second.text), **sheet("Zhang", 3, "Zhang", bombs=1)},
    )
    assert again.status_code == 303
    assert [d["stake"] for d in table(db)["deals"]] == [2, 6]


def test_the_live_version_is_cheap_to_poll_and_names_the_deal(db: Path) -> None:
    app = app_for(db)
    watcher, wang = client(app), joined(app, "Wang")
    page = watcher.get("/doudizhu/dorm").text
    assert 'data-live="/doudizhu/dorm/live"' in page
    first = watcher.get("/doudizhu/dorm/live")
    version, tag = first.json()["version"], first.headers["etag"]
    assert watcher.get("/doudizhu/dorm/live", headers={"if-none-match": tag}).status_code == 304
    post(wang, sheet("Li", 1, "Li"))
    changed = watcher.get(f"/doudizhu/dorm/live?since={version}", headers={"if-none-match": tag})
    assert changed.status_code == 200
    assert changed.json() == {"version": version + 1, "change": "deal dorm-01 was just recorded by Wang"}
    assert watcher.get("/doudizhu/nowhere/live").status_code == 404


def test_a_closed_session_shows_no_form_and_refuses_a_deal(db: Path) -> None:
    phone = joined(app_for(db))
    page = phone.get("/doudizhu/dorm").text
    with Ledger.open(db) as ledger:
        ledger.book_of(DOUDIZHU).close_session("dorm", by="setup", at="t1")
    shown = phone.get("/doudizhu/dorm").text
    assert 'id="ddz-record"' not in shown and "closed" in shown
    data = {"csrf": csrf_of(page), "version": "2", "action": "record", **sheet("Li", 1, "Li")}
    answer = phone.post("/doudizhu/dorm/record", data=data)
    assert answer.status_code == 422
    assert "&#39;dorm&#39; is closed: it takes no more deals" in answer.text


def test_player_names_are_shown_as_text(tmp_path: Path) -> None:
    db = tmp_path / "names.sqlite"
    start(db, ("<script>x</script>", "Wang", "Zhang"))
    phone = joined(app_for(db))
    page = phone.get("/doudizhu/dorm").text
    assert "<script>x</script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert post(phone, sheet("<script>x</script>", 1, "Wang")).status_code == 303
    assert table(db)["deals"][0]["landlord"] == "<script>x</script>"


def test_unknown_sessions_are_404(db: Path) -> None:
    phone = joined(app_for(db))
    assert phone.get("/doudizhu/nowhere").status_code == 404
    assert phone.get("/api/doudizhu/nowhere/standings").json() == {
        "error": "no Dou Dizhu session 'nowhere' in the ledger"
    }


# -- the JSON API -------------------------------------------------------------------------------


def test_the_api_gives_the_standings_and_records_a_deal_at_its_version(db: Path) -> None:
    api = client(app_for(db))
    head = {"x-join-code": CODE, "x-doko-user": "script"}
    start_view = api.get("/api/doudizhu/dorm/standings").json()
    assert start_view["version"] == 1 and start_view["deals"] == []
    body = {"version": 1, "deal": {"landlord": "Wang", "bid": 2, "out_first": "Zhang", "bombs": 1}}
    assert api.post("/api/doudizhu/dorm/deals", json=body).status_code == 403  # no join code
    made = api.post("/api/doudizhu/dorm/deals", json=body, headers=head)
    assert made.status_code == 201
    assert made.json() | {"doublings": None} == {
        "game_id": "dorm-01",
        "version": 2,
        "bid": 2,
        "doublings": None,
        "stake": 4,
        "payments": {"Li": 4, "Wang": -8, "Zhang": 4},
    }
    assert api.get("/api/doudizhu/dorm/standings").json() == table(db) | {"version": 2}
    stale = api.post("/api/doudizhu/dorm/deals", json=body, headers=head)
    assert stale.status_code == 409
    assert stale.json() == {
        "error": "deal dorm-01 was just recorded by script: look at the session again; nothing was written"
    }
    bad = api.post("/api/doudizhu/dorm/deals", json={**body, "version": 2, "deal": {"landlord": "Li"}}, headers=head)
    assert bad.status_code == 422 and "deal.bid" in bad.json()["error"]
    refused = api.post(
        "/api/doudizhu/dorm/deals", json={"version": 2, "deal": {**body["deal"], "bid": 5}}, headers=head
    )
    assert refused.status_code == 422
    assert refused.json() == {"error": "the bid is 1, 2 or 3, not 5 (docs/rules.md §D2)"}
    assert len(table(db)["deals"]) == 1


def test_start_a_dou_dizhu_session_from_the_home_page(tmp_path: Path) -> None:
    db = tmp_path / "start.sqlite"
    Ledger.open(db, create=True).close()
    app = app_for(db)
    assert 'id="ddz-start-link"' not in client(app).get("/").text
    phone = joined(app, "Li")
    assert 'href="/doudizhu" id="ddz-start-link"' in phone.get("/").text
    page = phone.get("/doudizhu").text
    typed = {"csrf": csrf_of(page), "session_id": "dorm", "player_0": "Li", "player_1": "Wang", "played_on": ""}
    refused = phone.post("/doudizhu", data=typed)
    assert refused.status_code == 422
    assert "Dou Dizhu is played by 3 or 4 players, not 2" in refused.text and 'value="Wang"' in refused.text
    bad_day = phone.post("/doudizhu", data={**typed, "player_2": "Zhang", "played_on": "yesterday"})
    assert bad_day.status_code == 422 and "the day is written YYYY-MM-DD, not &#39;yesterday&#39;" in bad_day.text
    made = phone.post("/doudizhu", data={**typed, "player_2": "Zhang", "played_on": "2026-12-01"})
    assert made.status_code == 303 and made.headers["location"] == "/doudizhu/dorm"
    assert table(db) | {"deals": []} == {
        "game": "doudizhu",
        "session": "dorm",
        "players": ["Li", "Wang", "Zhang"],
        "played_on": "2026-12-01",
        "closed": False,
        "deals": [],
        "totals": {"Li": 0, "Wang": 0, "Zhang": 0},
    }
    assert "/doudizhu/dorm" in phone.get("/").text
    again = phone.post("/doudizhu", data={**typed, "session_id": "other", "player_2": "Zhang"})
    assert again.status_code == 422 and "&#39;dorm&#39; is still open: close it first" in again.text
    assert client(app).post("/doudizhu", data={**typed, "player_2": "Zhang"}).status_code == 403


def test_the_game_page_of_a_deal_by_its_facts(db: Path) -> None:
    phone = joined(app_for(db))
    post(phone, sheet("Zhang", 2, "Zhang", bombs=1))
    page = html.unescape(phone.get("/games/dorm-01").text)
    assert "recorded by its facts: bid 2, 1 bomb, 0 rockets" in page
    assert "landlord Zhang · stake 4" in page
    audited = phone.get("/games/dorm-01/audit").text
    assert "Everything checked is right; 1 check could not run (marked –)." in audited
