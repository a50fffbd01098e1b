"""The JSON API's deal POST by its value only (`by_value`) and with a bock mark (`bock`),
validated by the library as the record form and `doko record` are: the preview shows the
bock it marks, the deal and its bock are one write, a retry writes nothing twice, refusals
are a 4xx with one line and nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from web_helpers import CODE, app_for, client, start_night

WRITE = {"x-join-code": CODE, "x-doko-user": "Ben"}
FOUR = ["Anna", "Ben", "Clara", "Dirk"]


@pytest.fixture
def api(ledger_path: Path) -> Any:
    start_night(ledger_path, players=tuple(FOUR), bock_overlap="stack")
    return client(app_for(ledger_path))


def night(api: Any) -> Any:
    return api.get("/api/nights/night/standings").json()


def post(api: Any, deal: dict[str, Any], **more: Any) -> Any:
    body = {"version": night(api)["version"], "deal": deal, **more}
    return api.post("/api/nights/night/deals", json=body, headers=WRITE)


def test_a_deal_by_its_value_through_the_api(api: Any) -> None:
    answer = post(api, {"by_value": {"winners": ["Clara"], "value": 2, "solo": True}})
    assert answer.status_code == 201, answer.text
    assert answer.json()["score"]["players"] == {"Anna": -2, "Ben": -2, "Clara": 6, "Dirk": -2}
    [first] = night(api)["deals"]
    assert first["value_only"] == "Clara won a solo; value 2"
    by_losers = post(api, {"by_value": {"losers": ["Anna", "Dirk"], "value": 3}})
    assert by_losers.json()["score"]["players"] == {"Anna": -3, "Ben": 3, "Clara": 3, "Dirk": -3}


def test_a_doppelbock_mark_is_recorded_with_the_deal_declared_by_the_writer(api: Any) -> None:
    answer = post(api, {"re": ["Anna", "Ben"], "re_points": 151, "bock": {"rounds": 2}})
    assert answer.status_code == 201, answer.text
    assert answer.json()["bock_marked"] == "bock declared by Ben (marked with the deal): 2 rounds with deal 1"
    shown = night(api)
    [cause] = shown["bock_rounds"]  # stacking: both rounds at once, one cause
    assert (cause["declared_by"], cause["reason"], cause["in_force"]) == ("Ben", "marked with the deal", True)
    assert shown["next"]["multiplier"] == 4 and answer.json()["version"] == shown["version"] == 3


def test_a_value_deal_with_a_mark_and_the_preview_of_it(api: Any) -> None:
    deal = {
        "by_value": {"winners": ["Anna", "Ben"], "value": 1},
        "bock": {"rounds": 3, "by": "clara", "reason": "Hochzeit"},
    }
    by_writer = api.post("/api/nights/night/preview", json={**deal, "bock": {"rounds": 1}}, headers=WRITE)
    assert by_writer.json()["bock_marked"] == "bock declared by Ben (marked with the deal) with deal 1"
    shown = api.post("/api/nights/night/preview", json=deal)
    assert (
        shown.status_code == 200
        and shown.json()["bock_marked"] == "bock declared by Clara (Hochzeit): 3 rounds with deal 1"
    )
    assert night(api)["deals"] == [] and night(api)["bock_rounds"] == []
    assert post(api, deal).status_code == 201
    assert night(api)["next"]["multiplier"] == 8


def test_a_retry_with_the_same_idempotency_key_writes_nothing_twice(api: Any) -> None:
    body = {"version": 1, "deal": {"re": ["Anna", "Ben"], "re_points": 151, "bock": {"rounds": 1}}}
    headers = WRITE | {"idempotency-key": "deal-1-bock"}
    first = api.post("/api/nights/night/deals", json=body, headers=headers)
    again = api.post("/api/nights/night/deals", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json()["repeated"] is True and again.json()["game_id"] == first.json()["game_id"]
    assert (
        again.json()["bock_marked"]
        == first.json()["bock_marked"]
        == "bock declared by Ben (marked with the deal) with deal 1"
    )
    assert len(night(api)["deals"]) == 1 and len(night(api)["bock_rounds"]) == 1


def test_undo_takes_back_the_deal_with_its_mark(api: Any) -> None:
    assert (
        post(api, {"by_value": {"winners": ["Anna"], "value": 1, "solo": True}, "bock": {"rounds": 2}}).status_code
        == 201
    )
    taken = api.post("/api/nights/night/undo", json={"version": night(api)["version"]}, headers=WRITE)
    assert taken.status_code == 200 and taken.json()["number"] == 1
    assert night(api)["deals"] == [] and night(api)["bock_rounds"] == [] and night(api)["changes"] == []


@pytest.mark.parametrize(
    ("deal", "status", "words"),
    [
        (
            {"re": ["Anna", "Ben"], "re_points": 151, "bock": {"rounds": 4}},
            422,
            "bock is declared for 1 to 3 rounds at once, not 4",
        ),
        (
            {"re": ["Anna", "Ben"], "re_points": 151, "bock": {"rounds": 1, "by": "Zoe"}},
            422,
            "who declares bock: 'Zoe' is not at the table",
        ),
        ({"by_value": {"value": 3}}, 422, "name the winners or the losers of the deal"),
        ({"by_value": {"winners": FOUR, "value": 3}}, 422, "all four won: a deal has one to three winners"),
        ({"by_value": {"winners": ["Anna"], "value": 150}}, 422, "a deal's value is a whole number from 0 to 99"),
        (
            {"by_value": {"winners": ["Anna", "Ben"], "value": 2}, "re_points": 151},
            422,
            "a deal by its value takes none of",
        ),
        (
            {"by_value": {"winners": ["Anna", "Ben"], "value": 2, "solo": True}},
            422,
            "the solo mark needs a player alone",
        ),
    ],
)
def test_a_refused_value_or_mark_is_a_4xx_and_writes_nothing(
    api: Any, deal: dict[str, Any], status: int, words: str
) -> None:
    answer = post(api, deal)
    assert answer.status_code == status, answer.text
    assert set(answer.json()) == {"error"} and words in answer.json()["error"]
    assert night(api)["deals"] == [] and night(api)["bock_rounds"] == [] and night(api)["version"] == 1


def test_the_openapi_description_shows_the_value_entry_and_the_mark(api: Any) -> None:
    schemas = api.get("/api/openapi.json").json()["components"]["schemas"]
    assert {"winners", "losers", "value", "solo"} <= set(schemas["ValueIn"]["properties"])
    assert {"rounds", "by", "reason"} <= set(schemas["BockMarkIn"]["properties"])
    assert {"by_value", "bock"} <= set(schemas["DealIn"]["properties"])
