"""The night page and its live part are rendered once for each point of the log and what they
show of the phone, and every answer still carries the phone's own CSRF token and a request id
of its own: a form sent from either page writes once, and a deal recorded shows at once."""

from __future__ import annotations

import re
from pathlib import Path

from web_helpers import app_for, csrf_of, deal, form_of, joined, standings, start_night, version_of

from doko_ledger.web.common import STAND_IN

REQUEST_ID = re.compile(r'name="request_id" value="([^"]+)"')


def request_ids(html: str) -> set[str]:
    return set(REQUEST_ID.findall(html))


def test_each_answer_has_its_phones_token_and_a_request_id_of_its_own(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db)
    app = app_for(db)
    ben, clara = joined(app, "Ben"), joined(app, "Clara")
    first, again, hers = (phone.get("/nights/night").text for phone in (ben, ben, clara))
    assert STAND_IN not in first + again + hers
    assert csrf_of(first) == csrf_of(again) != csrf_of(hers)
    assert len(request_ids(first)) == 1 and request_ids(first) != request_ids(again)
    assert REQUEST_ID.sub("", first) == REQUEST_ID.sub("", again)  # the same page but for its request id
    for phone, whole in ((ben, first), (clara, hers)):
        part = phone.get("/nights/night/fragment").text
        assert STAND_IN not in part
        assert csrf_of(part) == csrf_of(whole)


def test_a_form_from_a_kept_page_sent_twice_records_one_deal_which_the_next_load_shows(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db)
    ben = joined(app_for(db))
    ben.get("/nights/night")  # the page kept
    page = ben.get("/nights/night").text  # and answered from it
    sent = {**form_of(page), "action": "record", **deal(["Ben", "Clara"], 151)}
    for _ in range(2):  # the phone sends again: its first answer was lost
        assert ben.post("/nights/night/record", data=sent).status_code in (200, 303)
    assert len(standings(db)["deals"]) == 1
    after = ben.get("/nights/night").text
    assert version_of(after) == str(int(version_of(page)) + 1)
    assert csrf_of(after) == csrf_of(page) and request_ids(after) != request_ids(page)
