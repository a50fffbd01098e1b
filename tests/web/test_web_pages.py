"""`doko serve`'s pages through the framework's test client, on a tmp_path ledger: joining,
CSRF, starting a night, recording with a preview, refusals in the form, undo, correct, the
game page, escaping, the body limit, the security headers, the live version."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from browser import _free_port
from markupsafe import escape
from web_helpers import (
    CODE,
    TestClient,
    app_for,
    client,
    csrf_of,
    deal,
    joined,
    post_deal,
    standings,
    start_night,
    version_of,
)

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.games import DOUDIZHU
from doko_ledger.ledger import Ledger


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    start_night(path, bock_triggers=["tie", "lost_solo"])
    return path


def test_read_only_without_the_join_code(db: Path) -> None:
    phone = client(app_for(db))
    home = phone.get("/")
    assert home.status_code == 200
    assert "night" in home.text and 'action="/nights"' not in home.text
    night = phone.get("/nights/night")
    assert night.status_code == 200 and "Record deal" not in night.text
    token = csrf_of(phone.get("/join").text)
    refused = phone.post("/nights/night/record", data={"csrf": token, "version": "1", **deal(["Ben", "Clara"], 151)})
    assert refused.status_code == 403
    assert "join" in refused.text
    assert standings(db)["deals"] == []


def test_a_wrong_join_code_is_refused_and_the_right_one_kept_in_a_cookie(db: Path) -> None:
    phone = client(app_for(db))
    token = csrf_of(phone.get(f"/join?code={CODE}").text)
    wrong = phone.post("/join", data={"csrf": token, "code": "NOPE00"})
    assert wrong.status_code == 403 and "not the table's join code" in html.unescape(wrong.text)
    right = phone.post("/join", data={"csrf": token, "code": CODE.lower(), "name": "Clara"})
    assert right.status_code == 303
    kept = phone.cookies.get("doko_join")
    assert kept is not None and len(kept) == 32 and CODE not in kept.upper()  # a token, never the code
    page = phone.get("/nights/night").text
    assert "Record deal 1" in page and "✎ Clara" in page


def test_the_join_link_offers_the_players_names(db: Path) -> None:
    page = client(app_for(db)).get(f"/join?code={CODE}").text
    assert f'value="{CODE}"' in page
    for name in ("Anna", "Ben", "Emil"):
        assert f'name="name" value="{name}"' in page


def test_a_form_without_its_csrf_token_is_refused(db: Path) -> None:
    phone = joined(app_for(db))
    page = phone.get("/nights/night/record").text
    fields = {"version": version_of(page), "action": "record", **deal(["Ben", "Clara"], 151)}
    assert phone.post("/nights/night/record", data=fields).status_code == 403
    assert phone.post("/nights/night/record", data={**fields, "csrf": "0" * 32}).status_code == 403
    assert standings(db)["deals"] == []
    # a token is bound to its browser: another phone's token does not work here
    other = joined(app_for(db), "Dirk")
    other_token = csrf_of(other.get("/nights/night/record").text)
    assert phone.post("/nights/night/record", data={**fields, "csrf": other_token}).status_code == 403


def test_start_a_night_from_the_home_page(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, "old", ("Anna", "Ben", "Clara", "Dirk"), soloist_leads=True)
    with Ledger.open(db) as ledger:
        card_nights(ledger).close("old", by="t", at="2026-12-01T10:00:00+00:00")
    phone = joined(app_for(db))
    home = phone.get("/").text
    assert '<option value="Clara">' in home  # names suggested from earlier nights
    assert "as night old" in home  # its house rules offered
    token = csrf_of(home)
    form = {"csrf": token, "session_id": "fresh", "rules": "night:old", "rate": "0,10", "match": "6", "dealer": "2"}
    form |= {f"player_{i}": n for i, n in enumerate(["Anna", "Ben", "Clara", "Dirk", "Emil"])}
    started = phone.post("/nights", data=form)
    assert started.status_code == 303 and started.headers["location"] == "/nights/fresh"
    page = phone.get("/nights/fresh").text
    assert "Clara deals" in page
    with Ledger.open(db) as ledger:
        night = card_nights(ledger).night("fresh").state
    assert night.rules.soloist_leads and night.rate == "0.10" and night.match_length == 6


def test_a_refused_night_keeps_what_was_typed(db: Path) -> None:
    phone = joined(app_for(db))
    token = csrf_of(phone.get("/").text)
    form = {"csrf": token, "session_id": "second", "rules": "preset:standard", "player_0": "Zoe", "player_1": "Yann"}
    answer = phone.post("/nights", data=form)
    assert answer.status_code == 422
    assert "card night &#39;night&#39; is still open" in answer.text  # the library's words
    assert 'value="Zoe"' in answer.text and 'value="second"' in answer.text


def test_preview_shows_the_score_and_its_derivation_and_writes_nothing(db: Path) -> None:
    phone = joined(app_for(db))
    fields = deal(["Ben", "Clara"], 151, call_0="no90")
    shown = post_deal(phone, "night", fields, action="preview")
    assert shown.status_code == 200
    assert "Score of deal 1" in shown.text and "Record deal 1" in shown.text
    assert "implied by Ben" in shown.text  # a derivation line
    assert "Kontra below 90" in shown.text
    assert re.search(r"<strong>Ben</strong> \+\d", shown.text)
    assert 'value="151"' in shown.text and 'value="Ben" checked' in shown.text  # the form is kept
    assert standings(db)["deals"] == []


def test_record_a_deal_and_see_it_in_the_standings(db: Path) -> None:
    phone = joined(app_for(db))
    recorded = post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    assert recorded.status_code == 303
    assert recorded.headers["location"] == "/nights/night?new=night-01"
    view = standings(db)
    assert [d["game_id"] for d in view["deals"]] == ["night-01"]
    page = phone.get(recorded.headers["location"]).text
    assert "Deal 1 recorded: Ben +2, Clara +2, Dirk -2, Emil -2." in page
    for row in view["table"]:
        assert f'data-player="{row["player"]}" data-total="{row["total"]}"' in page
    assert "Bob" not in page and "Ben pays" not in page  # Ben won: he is paid
    assert "pays" in page  # settle-up
    with Ledger.open(db) as ledger:
        assert ledger.events("night-01")[0].envelope.recorded_by == "Ben"


def test_a_closed_nights_forms_say_it_is_closed_and_offer_nothing_to_fill_in(db: Path) -> None:
    phone = joined(app_for(db))
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    stale = phone.get("/nights/night/record").text  # a phone that kept the form open
    token = csrf_of(phone.get("/nights/night").text)
    assert phone.post("/nights/night/close", data={"csrf": token}).status_code == 303
    assert "What this phone records is credited to" not in phone.get("/nights/night").text
    for page in ("/nights/night/record", "/nights/night/deals/night-01/correct"):
        text = phone.get(page).text
        assert "The night is closed." in text and 'id="closed"' in text
        assert 'id="deal-form"' not in text and 'id="value-form"' not in text
        assert "What this phone records is credited to" not in text
    refused = phone.post(
        "/nights/night/record",
        data={"csrf": csrf_of(stale), "version": version_of(stale), "action": "record", **deal(["Ben", "Dirk"], 151)},
    )
    assert refused.status_code == 409
    assert "is closed" in refused.text and 'id="deal-form"' not in refused.text
    assert [d["game_id"] for d in standings(db)["deals"]] == ["night-01"]


def test_a_refusal_is_shown_in_the_form_in_the_librarys_words(db: Path) -> None:
    phone = joined(app_for(db))
    answer = post_deal(phone, "night", deal(["Ben", "Clara"], 300, call_1="kontra"))
    assert answer.status_code == 422
    error = re.search(r'<p class="error" role="alert" id="form-error">(.*?)</p>', answer.text, re.S)
    assert error is not None and "300" in error.group(1)
    assert 'value="300"' in answer.text and 'value="kontra" selected' in answer.text
    sitting = post_deal(phone, "night", deal(["Anna", "Clara"], 151))
    assert sitting.status_code == 422
    assert "&#39;Anna&#39; sits out deal 1" in sitting.text
    missing = post_deal(phone, "night", deal([], 151))
    assert missing.status_code == 422 and "tap the Re players" in missing.text
    assert standings(db)["deals"] == []


def test_two_phones_submit_the_same_deal_exactly_one_is_recorded(db: Path) -> None:
    app = app_for(db)
    ben, dirk = joined(app, "Ben"), joined(app, "Dirk")
    forms = []
    for phone in (ben, dirk):
        page = phone.get("/nights/night/record").text
        forms.append({"csrf": csrf_of(page), "version": version_of(page), "action": "record"})
    first = ben.post("/nights/night/record", data={**forms[0], **deal(["Ben", "Clara"], 151)})
    second = dirk.post("/nights/night/record", data={**forms[1], **deal(["Ben", "Clara"], 150)})
    assert first.status_code == 303
    assert second.status_code == 409
    assert "deal 1 was just recorded (by Ben)" in second.text
    assert 'value="150"' in second.text  # Dirk keeps his form
    assert len(standings(db)["deals"]) == 1
    # the kept form now carries the new version: sent again, it is the next deal
    again = dirk.post(
        "/nights/night/record", data={**forms[1], "version": version_of(second.text), **deal(["Clara", "Dirk"], 130)}
    )
    assert again.status_code == 303
    assert len(standings(db)["deals"]) == 2


def test_a_misdeal_is_recorded_and_the_same_dealer_deals_again(db: Path) -> None:
    phone = joined(app_for(db))
    preview = post_deal(phone, "night", {"misdeal": "1"}, action="preview")
    assert "Deal 1 thrown in" in preview.text and "Anna deals deal 2" in preview.text
    assert post_deal(phone, "night", {"misdeal": "1"}).status_code == 303
    view = standings(db)
    assert view["deals"][0]["thrown_in"] and view["next"]["dealer"] == "Anna"
    assert "thrown in" in phone.get("/nights/night").text


def test_undo_takes_back_the_last_deal_at_its_version(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    page = phone.get("/nights/night").text
    assert "Undo deal 1" in page
    stale = {"csrf": csrf_of(page), "version": str(int(version_of(page)) - 1)}
    assert phone.post("/nights/night/undo", data=stale).status_code == 409
    assert len(standings(db)["deals"]) == 1
    undone = phone.post("/nights/night/undo", data={"csrf": csrf_of(page), "version": version_of(page)})
    assert undone.status_code == 303 and undone.headers["location"] == "/nights/night?taken_back=night-01"
    assert standings(db)["deals"] == []
    told = phone.get(undone.headers["location"]).text
    assert "Deal 1 taken back: it no longer counts." in told  # the phone that took it back is told
    assert 'Taken back: <a href="/games/night-01" title="night-01">deal 1</a>.' in told
    assert "taken back: it no longer counts" not in phone.get("/nights/night").text
    game = phone.get("/games/night-01").text
    assert '<span class="tag mark">taken back</span>' in game and "it does not count" in game
    assert '<span class="tag mark">taken back</span>' in phone.get("/games").text
    phone.get("/language/de")
    assert '<span class="tag mark">zurückgenommen</span>' in phone.get("/games").text


def test_correct_a_deal_shows_old_and_new_side_by_side(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    form = phone.get("/nights/night/deals/night-01/correct").text
    assert 'value="151"' in form and 'value="Ben" checked' in form  # the old facts
    data = {
        "csrf": csrf_of(form),
        "version": version_of(form),
        "re": ["Ben", "Clara"],
        "re_points": "100",
        "game": "normal",
    }
    preview = phone.post("/nights/night/deals/night-01/correct", data={**data, "action": "preview"})
    assert preview.status_code == 200 and "Old and new score" in preview.text
    old = re.search(r"<td>Ben</td><td class=\"num\">([+-]\d+)</td><td class=\"num new\">([+-]\d+)</td>", preview.text)
    assert old is not None and old.group(1) == "+2" and old.group(2) == "-2"
    done = phone.post("/nights/night/deals/night-01/correct", data={**data, "action": "record"})
    assert done.status_code == 303 and done.headers["location"] == "/nights/night?corrected=night-01-c1"
    view = standings(db)
    assert view["deals"][0]["game_id"] == "night-01-c1" and view["deals"][0]["points"]["Ben"] == -2
    page = phone.get(done.headers["location"]).text
    assert "Deal 1 corrected: Ben -2, Clara -2, Dirk +2, Emil +2." in page  # the phone that corrected it is told
    assert 'Corrected: <a href="/games/night-01" title="night-01">deal 1</a>.' in page
    old_game = phone.get("/games/night-01").text
    assert '<span class="tag mark">corrected</span>' in old_game and 'href="/games/night-01-c1"' in old_game
    new_game = phone.get("/games/night-01-c1").text
    assert "Deal 1 of" in new_game and 'id="correct-link"' in new_game


def test_bock_in_force_and_why(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 120))  # 120:120 is a tie: bock
    page = phone.get("/nights/night").text
    assert "Bock ×2" in page and "deal 1 (120:120 tie), 5 deals left" in page
    post_deal(phone, "night", deal(["Clara", "Dirk"], 151))
    view = standings(db)
    assert view["deals"][1]["multiplier"] == 2
    assert "×2" in phone.get("/nights/night").text
    game = phone.get("/games/night-02").text  # the game's own score, and what the night made of it
    assert "bock ×2</strong>: in the standings" in game and "Clara +4" in game


def test_the_chart_of_running_totals_is_svg_drawn_on_the_server(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    page = phone.get("/nights/night").text
    chart = page[page.index('<svg class="chart"') : page.index("</svg>", page.index('<svg class="chart"'))]
    assert chart.count("<polyline") == 5
    assert "Ben 2" in chart and "Dirk -2" in chart


def test_player_names_and_notes_are_shown_as_text(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    evil = "<script>alert(1)</script>"
    start_night(db, "night", (evil, "Ben", "Clara", "Dirk"))
    phone = joined(app_for(db), "Ben")
    post_deal(phone, "night", deal([evil, "Ben"], 151))
    page = phone.get("/nights/night").text
    assert evil not in page and html.escape(evil, quote=True) in page
    game = phone.get("/games/night-01").text
    note = 'watch this <img src=x onerror="alert(2)">'
    added = phone.post("/games/night-01/notes", data={"csrf": csrf_of(game), "text": note})
    assert added.status_code == 303
    shown = phone.get("/games/night-01").text
    assert note not in shown and "&lt;img src=x onerror=&#34;alert(2)&#34;&gt;" in shown
    assert evil not in phone.get("/").text


def test_the_game_page_score_audit_and_notes(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    page = phone.get("/games/night-01")
    assert page.status_code == 200
    assert "Re wins" in page.text and "/games/night-01/replay" not in page.text  # by its facts: no cards to replay
    audit = phone.get(
        "/games/night-01/audit", params={"claim_0": "+1", "claim_1": "+1", "claim_2": "-1", "claim_3": "-1"}
    )
    assert audit.status_code == 200 and "The claim" in audit.text and "The audit found a problem" in audit.text
    right = phone.get(
        "/games/night-01/audit", params={"claim_0": "+2", "claim_1": "+2", "claim_2": "-2", "claim_3": "-2"}
    )
    assert "Everything checked is right; 4 checks could not run" in right.text  # recorded without cards
    bad = phone.get("/games/night-01/audit", params={"claim_0": "lots"})
    assert bad.status_code == 422 and "not &#39;lots&#39;" in bad.text
    empty = phone.post("/games/night-01/notes", data={"csrf": csrf_of(page.text), "text": "  "})
    assert empty.status_code == 422 and "write the note first" in empty.text


def test_the_replay_is_served_with_its_own_stricter_policy(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    replay = phone.get("/games/night-01/replay")
    assert replay.status_code == 200
    policy = replay.headers["content-security-policy"]
    assert policy.startswith("default-src 'none'") and "'sha256-" in policy
    assert f'content="{policy}"' in replay.text  # the header says what the page's own meta says


def test_every_page_says_its_policy_and_loads_only_its_own_files(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    for path in ("/", "/nights/night", "/nights/night/record", "/games", "/games/night-01", "/join", "/api/"):
        answer = phone.get(path)
        assert answer.status_code == 200, path
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "unsafe-inline" not in policy
        assert "<script>" not in answer.text and " style=" not in answer.text and "onclick" not in answer.text
        assert "http://" not in answer.text.replace("http://testserver", "")
    assert phone.get("/static/doko.js").status_code == 200
    assert phone.get("/static/doko.css").status_code == 200


def test_a_ten_megabyte_post_is_refused(db: Path) -> None:
    phone = joined(app_for(db))
    token = csrf_of(phone.get("/").text)
    body = b"text=" + b"x" * (10 * 1024 * 1024)
    answer = phone.post(
        "/games/whatever/notes", content=body, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert answer.status_code == 413
    streamed = phone.post(
        "/nights",
        content=iter([b"csrf=" + token.encode()] + [b"x" * 65536] * 160),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert streamed.status_code == 413
    with Ledger.open(db) as ledger:
        assert card_nights(ledger).session_ids() == ["night"]


def test_the_live_version_is_cheap_to_poll_and_names_the_change(db: Path) -> None:
    app = app_for(db)
    watcher, ben = client(app), joined(app, "Ben")
    first = watcher.get("/nights/night/live")
    assert first.status_code == 200
    version, tag = first.json()["version"], first.headers["etag"]
    assert watcher.get("/nights/night/live", headers={"if-none-match": tag}).status_code == 304
    post_deal(ben, "night", deal(["Ben", "Clara"], 151))
    changed = watcher.get(f"/nights/night/live?since={version}", headers={"if-none-match": tag})
    assert changed.status_code == 200
    assert changed.json()["change"] == "deal 1 was just recorded (by Ben)"
    fragment = watcher.get("/nights/night/fragment").text
    assert 'id="deal-night-01"' in fragment and "<html" not in fragment
    assert watcher.get("/nights/nowhere/live").status_code == 404


def test_unknown_nights_and_games_are_404_pages(db: Path) -> None:
    phone = client(app_for(db))
    for path in ("/nights/nowhere", "/games/nowhere", "/doudizhu/nowhere"):
        answer = phone.get(path)
        assert answer.status_code == 404, path
        assert "Traceback" not in answer.text and '<p class="error"' in answer.text


def test_a_dou_dizhu_session_page(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from doko_ledger.cli.app import app

    root = Path(__file__).resolve().parents[2]
    db = tmp_path / "ledger.sqlite"
    files = sorted((root / "sample_games" / "doudizhu" / "sessions").glob("*.yaml"))
    result = CliRunner().invoke(app, ["--db", str(db), "import", *map(str, files)])
    assert result.exit_code == 0, result.output
    with Ledger.open(db) as ledger:
        (session_id,) = ledger.book_of(DOUDIZHU).session_ids()
        totals = ledger.book_of(DOUDIZHU).standings(session_id).totals
    phone = client(app_for(db))
    assert f"/doudizhu/{session_id}" in phone.get("/").text
    page = phone.get(f"/doudizhu/{session_id}").text
    for player, total in totals.items():
        assert f"<strong>{player}</strong> {total:+d}" in page
    link = re.search(r'href="/games/([^"]+)"', page)
    assert link is not None
    game_id = link.group(1)
    game = phone.get(f"/games/{game_id}")
    assert game.status_code == 200 and "Dou Dizhu" in game.text and "landlord" in game.text
    audit = phone.get(f"/games/{game_id}/audit")
    assert audit.status_code == 200 and "Everything checks out" in audit.text
    assert phone.get(f"/games/{game_id}/replay").status_code == 422  # the HTML replay is Doppelkopf's


def test_only_doko_serve_imports_the_web_stack() -> None:
    stack = "('fastapi', 'uvicorn', 'jinja2', 'segno', 'starlette')"
    code = f"import sys, doko_ledger.cli.app; print(sorted(m for m in {stack} if m in sys.modules))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"


def test_the_qr_code_of_the_join_link_is_on_the_night_page_for_those_who_joined(db: Path) -> None:
    app = app_for(db)
    page = joined(app).get("/nights/night").text
    assert '<svg width="' in page and 'class="segno"' in page and f'<strong class="code">{CODE}</strong>' in page
    assert "segno" not in client(app).get("/nights/night").text  # read-only visitors do not get the code


def test_doko_serve_prints_the_url_the_qr_code_and_the_join_code(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from doko_ledger.cli.app import app as cli_app

    started: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app, **options))
    port = str(_free_port())
    options = ["--host", "0.0.0.0", "--port", port, "--join-code", "kitchen"]
    result = CliRunner().invoke(cli_app, ["--db", str(db), "serve", *options])
    assert result.exit_code == 0, result.output
    assert started["host"] == "0.0.0.0" and started["port"] == int(port)
    assert "join code: KITCHEN" in result.output
    assert "█" in result.output or "▀" in result.output  # the QR code, drawn in text
    url = re.search(rf"http://([\d.]+):{port}/join\?code=KITCHEN", result.output)
    assert url is not None
    for host in (url.group(1), "localhost", "127.0.0.1"):  # the printed address, and this machine's
        served = TestClient(started["app"], base_url=f"http://{host}:{port}", follow_redirects=False)
        assert served.get("/nights/night").status_code == 200, host
    assert client(started["app"]).get("/nights/night").status_code == 400  # any other name
    local = CliRunner().invoke(cli_app, ["--db", str(db), "serve", "--port", port])
    assert f"http://127.0.0.1:{port}/join?code=" in local.output and "█" not in local.output


def test_doko_serve_on_a_port_in_use_is_one_line(db: Path) -> None:
    import socket

    from typer.testing import CliRunner

    from doko_ledger.cli.app import app as cli_app

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli_app, ["--db", str(db), "serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"error: cannot serve on 127.0.0.1:{port}" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("name", ["Jürgen", "李", 'Zoë "the;best"'])
def test_a_phone_records_under_any_name(db: Path, name: str) -> None:
    phone = joined(app_for(db), name, watcher=True)
    assert f"✎ {escape(name)}" in phone.get("/").text
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    with Ledger.open(db) as ledger:
        assert ledger.events("night-01")[0].envelope.recorded_by == name


@pytest.mark.parametrize(
    "fields",
    [
        {"re_points": "²"},
        {"re_points": "9" * 5000},
        {"version": "²"},
        {"version": "9" * 5000},
        {"re_tricks": "٣", "kontra_tricks": "x"},
        {"game": "<b>"},
        {"call_0": "shout"},
        {"special_kind_0": "fox_caught", "special_party_0": "both"},
        {"re": ["Nobody", "Ben"]},
    ],
)
def test_odd_form_input_is_a_refusal_never_a_crash(db: Path, fields: dict[str, object]) -> None:
    phone = joined(app_for(db))
    page = phone.get("/nights/night/record").text
    data = {"csrf": csrf_of(page), "version": version_of(page), "action": "record", **deal(["Ben", "Clara"], 151)}
    answer = phone.post("/nights/night/record", data={**data, **fields})
    assert answer.status_code in (409, 422), answer.text[:300]
    assert '<p class="error" role="alert"' in answer.text and "Traceback" not in answer.text
    assert standings(db)["deals"] == []
