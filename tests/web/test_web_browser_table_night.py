"""A web-only table's night as it is really played, in real headless Chromium at 390x844: its
own house rules made and saved in the start form (stacking bock, a heart-trick trigger), a
Doppelbock deal, a sixth player who joins, one who leaves, the rules changed from the next deal
(winners-only counting), a deal entered by its value only; the page's standings are
`doko standings --json`'s."""

from __future__ import annotations

from pathlib import Path

import test_web_browser
from browser import Browser
from test_web_browser import ARTIFACTS, cli_json, join, page_totals, record, tap, values, wait_for

from doko_ledger.doppelkopf.book import card_nights, house_rules
from doko_ledger.ledger import Ledger

served, phone = test_web_browser.served, test_web_browser.phone  # the fixtures: a served ledger, a phone
NIGHT = "2026-12-02-table"


def test_a_web_only_table_plays_its_night_with_its_own_rules_and_players(
    served: tuple[str, Path], phone: Browser
) -> None:
    base, db = served
    b = phone
    join(b, base, "Ben")
    b.visit(base + "/")
    for i, name in enumerate(["Anna", "Ben", "Clara", "Dirk", "Emil"]):
        b.type(f'input[name="player_{i}"]', name)
    b.type('input[name="session_id"]', NIGHT)
    tap(b, '.rule-group[data-group="bock"] summary')
    for trigger in ("tie", "heart_trick"):
        tap(b, f'input[name="rule.bock_triggers"][value="{trigger}"]')
    tap(b, 'select[name="rule.bock_overlap"] option[value="stack"]')
    assert "bock overlap=stack" in b.text("#rules-changes")
    b.type('input[name="save_as"]', "kitchen")
    tap(b, "#start button.primary")
    wait_for(b, "#record-link")
    with Ledger.open(db) as ledger:
        kitchen = house_rules(ledger).named("kitchen").rules
        assert kitchen.bock_overlap == "stack" and set(kitchen.bock_triggers) == {"tie", "heart_trick"}
        assert card_nights(ledger).state(NIGHT).rules == kitchen

    # deal 1: 120:120 with a heart trick, two triggers: two rounds stacked, Doppelbock
    tap(b, "#record-link")
    wait_for(b, "#deal-form")
    for name in values(b, "input[name=re]")[:2]:
        tap(b, f'input[name=re][value="{name}"] + span')
    for key in "120":
        tap(b, f'button[data-key="{key}"]')
    tap(b, "label.heart-trick span")
    tap(b, "#preview-button")
    wait_for(b, "#record")
    tap(b, "#record")
    wait_for(b, "#bock-rounds")
    assert "Bock ×4" in b.text("#bock-rounds")
    record(b, base, re=2, points=151)  # deal 2, the Doppelbock deal
    assert "×4" in b.text("#standings tbody tr:last-child .bock-tag")

    # Frieda joins after Emil: six at the table
    tap(b, "#someone-joins summary")
    b.type('#someone-joins input[name="player"]', "Frieda")
    tap(b, '#someone-joins select[name="after"] option[value="Emil"]')
    tap(b, "#join-button")
    wait_for(b, "#changed")
    record(b, base, re=2, pad="100")  # deal 3, six at the table: two sit out
    # Anna leaves
    tap(b, "#someone-leaves summary")
    tap(b, '#someone-leaves select[name="player"] option[value="Anna"]')
    tap(b, "#leave-button")
    wait_for(b, "#changed")
    # winners-only counting from the next deal
    tap(b, "#change-rules summary")
    tap(b, '#change-rules .rule-group[data-group="counting"] summary')
    tap(b, '#change-rules select[name="rule.counting"] option[value="winners_only"]')
    tap(b, "#change-rules-button")
    wait_for(b, "#changed")
    # deal 4 by its value only: two winners, value 3
    tap(b, "#record-link")
    wait_for(b, "#value-form")
    for name in values(b, "#value-winners input[name=winner]")[:2]:
        tap(b, f'#value-winners input[name=winner][value="{name}"] + span')
    tap(b, '#value-chips input[name=value][value="3"] + span')
    b.screenshot(ARTIFACTS / "web-value-entry.png")
    tap(b, "#value-record")
    wait_for(b, "#standings")
    b.screenshot(ARTIFACTS / "web-table-night.png")

    view = cli_json(db, "standings", "--session", NIGHT)
    assert [d["multiplier"] for d in view["deals"]][:2] == [1, 4]
    assert "Frieda" in view["deals"][2]["playing"] or "Frieda" in view["deals"][2]["sitting_out"]
    assert "Anna" not in view["deals"][3]["playing"] and view["deals"][3]["counting"] == "winners_only"
    assert view["deals"][3]["value_only"]
    assert view["counting"] == "winners_only" and "Anna" not in view["seating"]
    assert page_totals(b) == {row["player"]: row["total"] for row in view["table"]}
    assert set(page_totals(b)) == {"Anna", "Ben", "Clara", "Dirk", "Emil", "Frieda"}
    changes = b.text("#standings")
    assert "Frieda joins after Emil" in changes and "Anna leaves" in changes
    runs = b.script(
        "return [...document.querySelectorAll('#standings tbody tr:not(.change-row)')]"
        ".map(tr => [...tr.querySelectorAll('td.num .run')].map(e => +e.textContent))"
    )
    players = view["players"]
    assert runs == [[d["totals"].get(p, 0) for p in players] for d in view["deals"]]
    assert [e for e in b.console() if e["level"] == "SEVERE"] == []
