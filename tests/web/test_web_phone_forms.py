"""The phones record the right thing: a phone joins as the name chosen or typed (never the first
listed), a form is for one deal (once another phone recorded it, it shows that deal and offers
its facts for the next), a write sent again returns what its first sending recorded, and a deal
being played card by card is shown as being played."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from web_helpers import (
    CODE,
    app_for,
    client,
    csrf_of,
    deal,
    form_of,
    joined,
    play_cards,
    post_deal,
    standings,
    start_night,
)

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.nights.events import DealAdded
from doko_ledger.ledger import Ledger

API_WRITE = {"x-join-code": CODE, "x-doko-user": "script"}


@pytest.fixture
def db(ledger_path: Path) -> Path:
    start_night(ledger_path)  # Anna, Ben, Clara, Dirk, Emil; Anna deals deal 1 and sits out
    return ledger_path


def name_of(phone: object) -> str:
    return unquote(phone.cookies.get("doko_name", ""))  # type: ignore[attr-defined]


def join_post(phone: object, **fields: str) -> object:
    token = csrf_of(phone.get("/join").text)  # type: ignore[attr-defined]
    return phone.post("/join", data={"csrf": token, **fields})  # type: ignore[attr-defined]


# -- joining ------------------------------------------------------------------------------------


def test_the_join_page_has_one_submit_button_and_names_to_choose(db: Path) -> None:
    page = client(app_for(db)).get("/join").text
    assert len(re.findall(r'type="submit"', page)) == 1
    for player in ("Anna", "Ben", "Emil"):
        assert f'type="radio" name="name" value="{player}"' in page


def test_a_typed_name_joins_as_that_name_not_the_first_listed(db: Path) -> None:
    phone = client(app_for(db))
    answer = join_post(phone, code=CODE, typed="clara")  # what the keyboard's Go sends: no name tapped
    assert answer.status_code == 303
    assert name_of(phone) == "Clara"  # the table's spelling
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    with Ledger.open(db) as ledger:
        assert {r.envelope.recorded_by for r in ledger.events("night-01")} == {"Clara"}


def test_a_chosen_name_joins_as_it(db: Path) -> None:
    phone = client(app_for(db))
    assert join_post(phone, code=CODE, name="Dirk").status_code == 303
    assert name_of(phone) == "Dirk"


def test_a_name_not_at_the_table_is_asked_about(db: Path) -> None:
    phone = client(app_for(db))
    asked = join_post(phone, code=CODE, typed="Zoe")
    assert asked.status_code == 409
    assert "<strong>Zoe</strong> is not at this table (Anna, Ben, Clara, Dirk, Emil)" in asked.text
    assert "Join as a watcher named Zoe" in asked.text
    assert "doko_join" not in phone.cookies and "doko_name" not in phone.cookies
    assert join_post(phone, code=CODE, typed="Zoe", watcher="1").status_code == 303
    assert name_of(phone) == "Zoe" and "doko_join" in phone.cookies


def test_an_empty_name_is_refused(db: Path) -> None:
    phone = client(app_for(db))
    refused = join_post(phone, code=CODE, typed="  ")
    assert refused.status_code == 422
    assert "say who you are" in refused.text
    assert "doko_join" not in phone.cookies and "doko_name" not in phone.cookies


def test_a_joined_phone_changes_who_it_is_and_stays_joined(db: Path) -> None:
    phone = joined(app_for(db), "Anna")
    page = phone.get("/nights/night").text
    assert 'credited to Anna · <a class="change-who" href="/join">not Anna? change</a>' in page
    change = phone.get("/join").text
    assert 'name="code"' not in change  # the join is kept: no code asked again
    assert 'value="Anna" checked' in change
    assert join_post(phone, name="Ben").status_code == 303
    assert name_of(phone) == "Ben"
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303


def test_a_phone_that_did_not_join_cannot_change_its_name_without_the_code(db: Path) -> None:
    phone = client(app_for(db))
    assert join_post(phone, name="Ben").status_code == 403
    assert "doko_name" not in phone.cookies


# -- a stale form ------------------------------------------------------------------------------


def test_a_form_for_a_deal_another_phone_recorded_shows_that_deal_and_records_nothing(db: Path) -> None:
    app = app_for(db)
    ben, dirk = joined(app, "Ben"), joined(app, "Dirk")
    dirks_form = form_of(dirk.get("/nights/night/record").text)
    assert dirks_form["deal"] == "1"
    assert post_deal(ben, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    for action in ("preview", "record"):
        stale = dirk.post("/nights/night/record", data={**dirks_form, "action": action, **deal(["Dirk", "Emil"], 150)})
        assert stale.status_code == 409
        assert "Deal 1 is already recorded" in stale.text
        assert "Ben recorded deal 1 (night-01)" in stale.text
        assert "<strong>Ben</strong> +2" in stale.text  # deal 1's score as recorded
        new_form = form_of(stale.text.split('id="deal-form"')[1])
        assert new_form["deal"] == "2" and new_form["request_id"] != dirks_form["request_id"]
        assert (
            'id="re-points" name="re_points" inputmode="numeric" pattern="[0-9]*" maxlength="3" value=""' in stale.text
        )
        assert 'name="re_points" value="150"' in stale.text  # the typed facts, offered
        assert "Use my facts for deal 2" in stale.text
    assert len(standings(db)["deals"]) == 1
    offered = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', stale.text.split('id="stale"')[1])
    posted: dict[str, list[str]] = {"action": ["fill"]}
    for name, value in offered:
        posted.setdefault(name, []).append(value)
    filled = dirk.post("/nights/night/record", data=posted)
    assert filled.status_code == 200
    assert "<h1>Deal 2</h1>" in filled.text and 'value="150"' in filled.text
    assert 'value="Dirk" checked' in filled.text
    assert len(standings(db)["deals"]) == 1  # filled, not recorded


def test_the_api_refuses_a_deal_number_that_is_recorded(db: Path) -> None:
    api = client(app_for(db))
    facts = {"game": "normal", "re": ["Ben", "Clara"], "re_points": 151}
    first = api.post("/api/nights/night/deals", json={"version": 1, "number": 1, "deal": facts}, headers=API_WRITE)
    assert first.status_code == 201 and first.json()["number"] == 1
    version = first.json()["version"]
    again = api.post("/api/nights/night/deals", json={"version": 1, "number": 1, "deal": facts}, headers=API_WRITE)
    assert again.status_code == 409
    assert "deal 1 is already recorded (night-01, by script)" in again.json()["error"]
    later = {"version": version, "number": 1, "deal": facts}
    assert api.post("/api/nights/night/deals", json=later, headers=API_WRITE).status_code == 409
    assert len(standings(db)["deals"]) == 1


# -- a retried post ----------------------------------------------------------------------------


def test_a_form_posted_twice_records_one_deal_and_both_answers_name_it(db: Path) -> None:
    phone = joined(app_for(db), "Ben")
    data = {**form_of(phone.get("/nights/night/record").text), "action": "record", **deal(["Ben", "Clara"], 151)}
    first = phone.post("/nights/night/record", data=data)
    second = phone.post("/nights/night/record", data=data)  # the reply to the first was lost
    assert first.status_code == second.status_code == 303
    assert first.headers["location"] == second.headers["location"] == "/nights/night?new=night-01"
    assert len(standings(db)["deals"]) == 1
    with Ledger.open(db) as ledger:
        added = [r.event for r in card_nights(ledger).changes_since("night", 0) if isinstance(r.event, DealAdded)]
    assert [a.request_id for a in added] == [data["request_id"]]


def test_a_repeat_after_another_phones_deal_returns_the_first_result(db: Path) -> None:
    app = app_for(db)
    ben, dirk = joined(app, "Ben"), joined(app, "Dirk")
    data = {**form_of(ben.get("/nights/night/record").text), "action": "record", **deal(["Ben", "Clara"], 151)}
    assert ben.post("/nights/night/record", data=data).headers["location"] == "/nights/night?new=night-01"
    assert post_deal(dirk, "night", deal(["Dirk", "Emil"], 130)).status_code == 303
    again = ben.post("/nights/night/record", data=data)
    assert again.status_code == 303 and again.headers["location"] == "/nights/night?new=night-01"
    assert len(standings(db)["deals"]) == 2


@pytest.mark.parametrize("how", ["header", "field"])
def test_an_api_write_sent_twice_returns_the_first_result(db: Path, how: str) -> None:
    api = client(app_for(db))
    facts = {"game": "normal", "re": ["Ben", "Clara"], "re_points": 151}
    body: dict[str, object] = {"version": 1, "deal": facts}
    headers = dict(API_WRITE)
    if how == "header":
        headers["idempotency-key"] = "phone-7.write-1"
    else:
        body["request_id"] = "phone-7.write-1"
    first = api.post("/api/nights/night/deals", json=body, headers=headers)
    assert first.status_code == 201 and not first.json()["repeated"]
    other = {"version": first.json()["version"], "deal": {**facts, "re": ["Dirk", "Emil"]}}
    assert api.post("/api/nights/night/deals", json=other, headers=API_WRITE).status_code == 201
    second = api.post("/api/nights/night/deals", json=body, headers=headers)
    assert second.status_code == 201 and second.json()["repeated"]
    for key in ("game_id", "number", "score"):
        assert second.json()[key] == first.json()[key]
    assert first.json()["game_id"] == "night-01" and first.json()["number"] == 1
    assert len(standings(db)["deals"]) == 2


def test_a_malformed_request_id_is_refused(db: Path) -> None:
    api = client(app_for(db))
    body = {"version": 1, "deal": {"game": "normal", "re": ["Ben", "Clara"], "re_points": 151}}
    answer = api.post("/api/nights/night/deals", json=body, headers={**API_WRITE, "idempotency-key": "a b"})
    assert answer.status_code == 422 and "request id" in answer.json()["error"]
    assert standings(db)["deals"] == []


# -- a deal being played card by card ----------------------------------------------------------


def test_a_deal_being_played_is_shown_as_played_and_the_next_is_not_offered(db: Path) -> None:
    with Ledger.open(db) as ledger:
        card_nights(ledger).deal("night", "a", by="Anna", at="2026-12-01T19:00:00+00:00")
    play_cards(db, 6)  # trick 1 done, trick 2 begun
    with Ledger.open(db) as ledger:
        in_play = card_nights(ledger).play_state("night")
    assert in_play is not None and in_play.number == 1 and in_play.trick == 2 and in_play.to_play is not None
    phone = joined(app_for(db), "Ben")
    for path in ("/nights/night", "/nights/night/fragment"):
        page = phone.get(path).text
        assert f"<strong>Deal 1 is being played</strong>: {in_play.to_play} to play, trick 2" in page
        assert "Record deal" not in page
        row = page.split('<tr id="deal-night-01"')[1].split("</tr>")[0]
        assert "being played" in row and "+0" not in row
    form = phone.get("/nights/night/record").text
    assert "Deal 1 is being played card by card" in form and 'id="deal-form"' not in form
    data = {
        "csrf": csrf_of(phone.get("/join").text),
        "version": "2",
        "deal": "2",
        "action": "record",
        **deal(["Ben", "Clara"], 151),
    }
    refused = phone.post("/nights/night/record", data=data)
    assert refused.status_code in (403, 409, 422) and "being played" in refused.text
    play_cards(db, 48 - 6)
    page = phone.get("/nights/night").text
    assert "Record deal 2" in page and "is being played" not in page


# -- the request id in the log: DealAdded version 2 --------------------------------------------


def test_a_deal_added_before_request_ids_reads_as_none_and_a_retry_records_anew(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A night whose DealAdded rows are version 1 (no request id) still reads, verifies and
    takes a write with a request id; its rows are upcast, not rewritten."""
    from doko_ledger.events import codec
    from doko_ledger.store import base as store

    def as_version_1(event: object) -> tuple[str, int, str]:
        name, version, text = codec.encode_event(event)
        if name != "DealAdded":
            return name, version, text
        payload = {"game_id": event.game_id}  # type: ignore[attr-defined]
        codec.validate(name, 1, codec.dumps_canonical(payload))
        return name, 1, codec.dumps_canonical(payload)

    with monkeypatch.context() as patched:
        patched.setattr(store, "encode_event", as_version_1)
        assert post_deal(joined(app_for(db), "Ben"), "night", deal(["Ben", "Clara"], 151)).status_code == 303
    with Ledger.open(db) as ledger:
        old = [r for r in card_nights(ledger).changes_since("night", 0) if isinstance(r.event, DealAdded)]
        assert [(r.envelope.schema_version, r.event.request_id) for r in old] == [(1, None)]
        assert ledger.verify().ok
        assert card_nights(ledger).recorded_for("night", "any-id") is None
    api = client(app_for(db))
    body = {"version": 2, "deal": {"game": "normal", "re": ["Dirk", "Emil"], "re_points": 130}}
    answer = api.post("/api/nights/night/deals", json=body, headers={**API_WRITE, "idempotency-key": "k1"})
    assert answer.status_code == 201 and answer.json()["number"] == 2
    with Ledger.open(db) as ledger:
        added = [r for r in card_nights(ledger).changes_since("night", 0) if isinstance(r.event, DealAdded)]
        assert [(r.envelope.schema_version, r.event.request_id) for r in added] == [(1, None), (2, "k1")]
        assert ledger.verify().ok
