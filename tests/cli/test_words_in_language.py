"""The last English words in the reader's language at the command line: the audit's checks and
what they found, the night's changes, the rule options' help, and the parser's usage errors,
in German and in French; what scripts read (`--json`) stays English."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import flat
from conftest import CLI_ENV
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = "2026-11-28-kitchen-01-normal"
Cli = Callable[..., Result]


@pytest.fixture
def cli(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """`doko --db <tmp ledger> --lang LANG ARGS...` (`lang=None`: no --lang)."""
    monkeypatch.delenv("DOKO_DB", raising=False)

    def invoke(*args: str, lang: str | None = "de") -> Result:
        chosen = [] if lang is None else ["--lang", lang]
        argv = ["--db", str(ledger_path), *chosen, *args]
        return CliRunner().invoke(app, argv, env=CLI_ENV, catch_exceptions=True)

    return invoke


@pytest.fixture
def imported(cli: Cli) -> Cli:
    done = cli("import", str(SAMPLES / "01-normal.yaml"), lang="en")
    assert done.exit_code == 0, done.output
    return cli


CLAIM = "Anna=+4,Ben=-4,Clara=-4,Dirk=+4"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "de",
            [
                "Prüfung von",
                "ok Hash-Kette intakt jeder Hash stimmt",
                "ok jede Karte regelgerecht",
                "ok kein Verleugnen durch eine spätere Karte belegt",
                "ok jede Ansage rechtzeitig",
                "ok 240 Augen 240 Augen in 12 Stichen",
                "ok alle Punkte gerade oder alle ungerade",
                "ok Summe der Behauptung ist null Summe +0",
                "die Differenz ist genau: gewonnen (+1, Re)",
                "zuerst: ein Posten der Wertung (gewonnen) ist die ganze Differenz",
            ],
        ),
        (
            "fr",
            [
                "ok chaîne d'empreintes intacte chaque empreinte correspond",
                "ok chaque carte régulière",
                "ok aucune renonce prouvée par une carte plus tardive",
                "ok 240 points de cartes 240 points de cartes en 12 plis",
                "ok tous les points pairs ou tous impairs",
                "l'écart est exactement : Contra sous 90 (+1, Re)",
                "d'abord : une ligne du score (gagné) fait toute la différence",
            ],
        ),
    ],
)
def test_the_audits_checks_and_findings_are_in_the_readers_language(imported: Cli, lang: str, words: list[str]) -> None:
    done = imported("audit", NORMAL, "--claimed", CLAIM, lang=lang)
    shown = flat(done.stdout)
    for said in words:
        assert said in shown, said
    assert "hash chain intact" not in shown and "card points in" not in shown


def test_the_audits_json_stays_english_in_any_language(imported: Cli) -> None:
    data = json.loads(imported("audit", NORMAL, "--claimed", CLAIM, "--json", lang="de").stdout)
    checks = {c["name"]: c for c in data["checks"]}
    assert checks["hash chain intact"]["details"] == ["every hash matches"]
    assert checks["240 card points"]["details"] == ["240 card points in 12 tricks"]
    assert data["claim"]["first_because"].startswith("first: one line of the score (won) is the whole difference")
    assert ["won"] in data["claim"]["explained_by_lines"]
