"""What a card revealed, in the reader's language: each revelation's cause is a message, said
in English, German or French at the command line, and in English for scripts (`--json`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from doko_ledger.doppelkopf.revelations import revelations
from doko_ledger.games import DOPPELKOPF
from doko_ledger.i18n import Message, render
from doko_ledger.ledger import Ledger

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = "2026-11-28-kitchen-01-normal"
MARRIAGE = "2026-12-05-verein-02-marriage-first-trick"
POVERTY = "2026-12-05-verein-06-poverty"
QUEEN_SOLO = "2026-11-28-kitchen-06-queen-solo"
SILENT_SOLO = "2026-12-05-verein-05-silent-solo"


@pytest.fixture
def imported(cli: Any, ledger_path: Path) -> Path:
    names = ("01-normal", "14-marriage-first-trick", "18-poverty", "06-queen-solo", "17-silent-solo")
    result = cli("import", *(SAMPLES / f"{name}.yaml" for name in names))
    assert result.exit_code == 0, result.output
    return ledger_path


def causes(ledger_path: Path, game_id: str) -> dict[str, dict[str, str]]:
    """Each revealed player's cause, by language."""
    with Ledger.open(ledger_path) as ledger:
        events = ledger.book_of(DOPPELKOPF).game_events(game_id)
        players = ledger.book_of(DOPPELKOPF).state(game_id).players
    found = revelations(events)
    assert all(isinstance(r.cause, Message) for r in found)
    return {players[r.seat]: {lang: render(r.cause, lang) for lang in ("en", "de", "fr")} for r in found}


def test_a_cq_and_what_follows_from_it_in_three_languages(imported: Path) -> None:
    said = causes(imported, NORMAL)
    assert said["Anna"] == {"en": "played CQ", "de": "spielte ♣D", "fr": "a joué ♣D"}
    assert said["Ben"] == {
        "en": "follows from the others",
        "de": "ergibt sich aus den anderen",
        "fr": "déduit des autres",
    }


def test_a_marriage_partner_found_in_three_languages(imported: Path) -> None:
    said = causes(imported, MARRIAGE)
    assert said["Karl"] == {"en": "declared marriage", "de": "sagte Hochzeit an", "fr": "a annoncé mariage"}
    assert said["Hannes"] == {
        "en": "won trick 1: the marriage partner",
        "de": "machte Stich 1: Hochzeitspartner",
        "fr": "a fait le pli 1 : partenaire du mariage",
    }
    assert said["Greta"]["de"] == "Hochzeit in Stich 1 geklärt" and said["Greta"]["fr"] == "mariage clarifié au pli 1"


def test_a_poverty_a_solo_and_a_silent_solo_in_three_languages(imported: Path) -> None:
    poverty = causes(imported, POVERTY)
    assert poverty["Karl"]["de"] == "sagte Armut an" and poverty["Karl"]["fr"] == "a annoncé pauvreté"
    assert poverty["Hannes"] == {"en": "took the poverty", "de": "nahm die Armut", "fr": "a pris la pauvreté"}
    assert poverty["Greta"] == {"en": "poverty taken", "de": "Armut genommen", "fr": "pauvreté prise"}
    solo = causes(imported, QUEEN_SOLO)
    assert solo["Anna"] == {"en": "declared queen solo", "de": "sagte Damensolo an", "fr": "a annoncé solo de dames"}
    assert solo["Ben"] == {"en": "against the queen solo", "de": "gegen Damensolo", "fr": "contre solo de dames"}
    silent = causes(imported, SILENT_SOLO)
    assert silent["Greta"] == {
        "en": "silent solo shown",
        "de": "stille Hochzeit gezeigt",
        "fr": "mariage tacite montré",
    }


def test_the_replay_at_the_command_line_says_them_in_its_language(cli: Any, imported: Path) -> None:
    german = cli("--lang", "de", "replay", MARRIAGE, env={"COLUMNS": "240"})
    assert german.exit_code == 0, german.output
    assert "Hannes Re (machte Stich 1: Hochzeitspartner)" in german.output
    assert "Greta Kontra (Hochzeit in Stich 1 geklärt)" in german.output
    french = cli("--lang", "fr", "replay", NORMAL, env={"COLUMNS": "240"})
    assert "Anna Re (a joué ♣D)" in french.output and "Ben Contra (déduit des autres)" in french.output
    assert "played CQ" not in french.output


def test_scripts_get_them_in_english_whatever_the_language(cli: Any, imported: Path) -> None:
    replayed = json.loads(cli("--lang", "de", "replay", MARRIAGE, "--json").stdout)
    revealed = {r["player"]: r["cause"] for r in replayed["revealed"]}
    assert revealed["Hannes"] == "won trick 1: the marriage partner"
    assert revealed["Karl"] == "declared marriage"
    framed = json.loads(cli("--lang", "fr", "replay", NORMAL, "--as", "Anna", "--json").stdout)
    assert framed["frames"][0]["caption"] == "Anna leads trick 1"
    assert framed["frames"][1]["caption"].startswith("trick 1 · Anna plays ")
    english = json.loads(cli("replay", NORMAL, "--as", "Anna", "--json").stdout)
    assert framed == english
