"""A Dou Dizhu session in real headless Chromium at phone size (390x844): started from the home
page, three deals recorded from the score sheet by taps (a refusal among them, shown in the form),
and the standings on the page equal to `doko standings --session ID --json`."""

from __future__ import annotations

import re
from pathlib import Path

from browser import Browser
from test_web_browser import ARTIFACTS, cli_json, phone, served, tap, wait_for
from web_helpers import CODE

__all__ = ["phone", "served"]


def join_as(b: Browser, base: str, name: str) -> None:
    b.visit(f"{base}/join?code={CODE}")
    b.type("#typed", name)
    tap(b, "#join")
    wait_for(b, "h1")
    assert name in b.text(".who")


def record_sheet(b: Browser, landlord: str, bid: int, out_first: str, bombs: int = 0, rocket: bool = False) -> str:
    """Taps the landlord, the bid, the rocket and who went out first, types the bombs, shows the
    stake, then records; returns the preview's text."""
    wait_for(b, "#ddz-form")
    tap(b, f'input[name=landlord][value="{landlord}"] + span')
    tap(b, f'input[name=bid][value="{bid}"] + span')
    b.type("input[name=bombs]", str(bombs))
    tap(b, f'input[name=rockets][value="{1 if rocket else 0}"] + span')
    tap(b, f'input[name=out_first][value="{out_first}"] + span')
    tap(b, "#preview-button")
    wait_for(b, "#record")
    preview = b.text("#preview")
    number = b.count("table.standings tbody tr") + 1
    tap(b, "#record")
    wait_for(b, f"#deal-dorm-0{number}")
    return preview


def test_a_dou_dizhu_session_recorded_by_taps(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    join_as(phone, base, "Wang")
    phone.visit(f"{base}/")
    tap(phone, "#ddz-start-link")
    wait_for(phone, "#ddz-start")
    phone.type("input[name=session_id]", "dorm")
    for i, name in enumerate(("Li", "Wang", "Zhang")):
        phone.type(f"input[name=player_{i}]", name)
    tap(phone, "#ddz-start button.primary")
    wait_for(phone, "#ddz-record")
    assert "Deal 1, from the score sheet" in phone.text("#ddz-record")

    preview = record_sheet(phone, "Li", 3, "Wang", bombs=1, rocket=True)
    assert "12" in preview and "Li -24" in re.sub(r"\s+", " ", preview)
    record_sheet(phone, "Zhang", 2, "Zhang")

    # a refusal comes back in the form, in the library's words, with the taps kept
    tap(phone, 'input[name=landlord][value="Wang"] + span')
    tap(phone, 'input[name=bid][value="1"] + span')
    phone.type("input[name=bombs]", "14")
    tap(phone, 'input[name=out_first][value="Wang"] + span')
    tap(phone, "#preview-button")
    wait_for(phone, "#form-error")
    assert "at most 13 bombs" in phone.text("#form-error")
    assert phone.script("return document.querySelector('input[name=landlord][value=Wang]').checked") is True
    phone.screenshot(ARTIFACTS / "doudizhu-refused.png")
    record_sheet(phone, "Wang", 1, "Li", bombs=2)
    phone.screenshot(ARTIFACTS / "doudizhu-standings.png")

    expected = cli_json(db, "standings", "--session", "dorm")
    assert [d["game_id"] for d in expected["deals"]] == ["dorm-01", "dorm-02", "dorm-03"]
    shown = re.sub(r"\s+", " ", phone.text(".result"))
    for player, total in expected["totals"].items():
        assert f"{player} {total:+d}" in shown
    assert expected["totals"] == {"Li": -22, "Wang": 2, "Zhang": 20}
