"""Rules from the phone in real headless Chromium at 390x844: a web-only table starts a night
with its saved house rules (stacking bock, a heart-trick trigger) chosen in the start form, sees
their options and what they change, and saves a changed choice as new house rules."""

from __future__ import annotations

from pathlib import Path

import test_web_browser
from browser import Browser
from test_web_browser import ARTIFACTS, join, tap, wait_for
from typer.testing import CliRunner

from doko_ledger.cli.app import app as cli_app
from doko_ledger.doppelkopf.book import card_nights, house_rules
from doko_ledger.ledger import Ledger

served, phone = test_web_browser.served, test_web_browser.phone  # the fixtures: a served ledger, a phone


def checked(b: Browser, css: str) -> list[str]:
    found: list[str] = b.script(f"return [...document.querySelectorAll('{css}:checked')].map(e => e.value)")
    return found


def test_start_a_night_with_saved_house_rules_from_the_phone(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    saved = CliRunner().invoke(
        cli_app,
        [
            "--db",
            str(db),
            "rules",
            "save",
            "kitchen",
            "--set",
            "bock_triggers=tie,heart_trick",
            "--set",
            "bock_overlap=stack",
        ],
    )
    assert saved.exit_code == 0, saved.output
    join(b, base, "Ben")
    b.visit(base + "/")
    for i, name in enumerate(["Anna", "Ben", "Clara", "Dirk"]):
        b.type(f'input[name="player_{i}"]', name)
    b.type('input[name="session_id"]', "2026-12-02-kitchen")
    assert "nothing changed" in b.text("#rules-changes")
    tap(b, 'select[name="rules"] option[value="saved:kitchen"]')
    tap(b, '.rule-group[data-group="bock"] summary')
    assert b.script("return document.querySelector('select[name=\"rule.bock_overlap\"]').value") == "stack"
    assert checked(b, 'input[name="rule.bock_triggers"]') == ["tie", "heart_trick"]
    assert b.text("#rules-changes") == "Changes from standard: bock triggers=tie,heart trick; bock overlap=stack"
    assert b.script("return document.querySelector('.rule-group[data-group=bock]').open")
    assert "changed, standard has queue" in b.text("#option-bock_overlap")
    b.screenshot(ARTIFACTS / "web-start-rules.png")
    tap(b, "#start button.primary")
    wait_for(b, "#record-link")
    with Ledger.open(db) as ledger:
        night = card_nights(ledger).state("2026-12-02-kitchen")
        assert night.rules == house_rules(ledger).named("kitchen").rules and night.rules_name == "kitchen"


def test_a_changed_choice_is_saved_as_house_rules_from_the_phone(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    join(b, base, "Ben")
    b.visit(base + "/")
    tap(b, '.rule-group[data-group="counting"] summary')
    tap(b, 'select[name="rule.counting"] option[value="winners_only"]')
    assert b.text("#rules-changes") == "Changes from standard: counting=winners only"
    b.type('input[name="save_as"]', "pub")
    tap(b, "#save-rules")
    wait_for(b, "#rules-saved")
    assert b.script("return document.querySelector('select[name=\"rules\"]').value") == "saved:pub"
    with Ledger.open(db) as ledger:
        assert house_rules(ledger).named("pub").rules.counting == "winners_only"
