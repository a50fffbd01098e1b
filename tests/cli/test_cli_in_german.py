"""The table's own language at the command line: `doko record`'s questions answered in German
(German words where a question offers choices), and the standings and the settling up of a
night in German, with money and days in the German form."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import as_json, ok, table_rows
from conftest import CLI_ENV
from typer.testing import CliRunner, Result

from doko_ledger.cli import table
from doko_ledger.cli.app import app

Cli = Callable[..., Result]
FOUR = "Anna,Ben,Clara,Dirk"
GERMAN_LOCALE = {"LANG": "de_DE.UTF-8", "LC_MESSAGES": ""}


@pytest.fixture
def cli(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """`doko --db <tmp ledger> --lang de ARGS...`, with `input=` fed to the prompts (`lang=None`:
    the language of the environment `env` adds)."""
    monkeypatch.delenv("DOKO_DB", raising=False)

    def invoke(
        *args: str, input: str | None = None, lang: str | None = "de", env: dict[str, str] | None = None
    ) -> Result:
        chosen = [] if lang is None else ["--lang", lang]
        argv = ["--db", str(ledger_path), *chosen, *args]
        return CliRunner().invoke(app, argv, input=input, env=CLI_ENV | (env or {}), catch_exceptions=True)

    return invoke


@pytest.fixture
def at_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "interactive", lambda: True)


def answers(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


def _headers(text: str) -> list[list[str]]:
    """The headings of the Rich tables in `text`."""
    return [[c.strip() for c in line.split("┃")[1:-1]] for line in text.splitlines() if line.startswith("┃")]


def deals(cli: Cli) -> list[Any]:
    return list(as_json(cli("standings", "--json"))["deals"])


@pytest.mark.usefixtures("at_terminal")
def test_a_deal_is_recorded_by_its_facts_answering_german_questions(cli: Cli) -> None:
    assert "Anna gibt zuerst" in ok(cli("session", "start", "n", "--players", FOUR)).stdout
    result = ok(
        cli(
            "record",
            input=answers(
                "Normalspiel",  # the game type by its German name
                "Anna,Ben",
                "abc",  # not a number: refused, asked again
                "150",
                "Anna=re",
                "re:Fuchs:Dirk",  # the fox by its German name
                "x",  # neither j nor n: refused, asked again
                "j",
            ),
        )
    )
    shown = result.stdout
    for question in (
        "Spielart (normal, marriage,",
        "oder Wert, nur der Wert) (normal):",
        "Re-Spieler, z. B. Anna,Ben:",
        "Augen von Re (0-240):",
        "Ansagen, z. B. Anna=re,Dirk=kontra (Enter für keine):",
        "Sonderpunkte, z. B. re:fox:Dirk,kontra:doko (Enter für keine):",
        "dieses Spiel anfügen? [j/n] (j):",
    ):
        assert question in shown, question
    assert shown.startswith("Spiel 1: Anna gibt; es spielen Anna, Ben, Clara, Dirk\n")
    assert ["Posten", "Partei", "Punkte", "weil"] in _headers(shown)
    assert "(Sonderpunkt)" in shown
    assert "Re gewinnt" in shown
    assert shown.rstrip().endswith("Spiel 1 erfasst als n-01")
    assert result.stderr.splitlines() == [
        "abgelehnt: eine ganze Zahl angeben, z. B. 150, nicht 'abc'",
        "abgelehnt: j oder n antworten, nicht 'x'",
    ]
    [deal] = deals(cli)
    # won 1, Re announced 2, the fox 1
    assert deal["points"] == {"Anna": 4, "Ben": 4, "Clara": -4, "Dirk": -4}


@pytest.mark.usefixtures("at_terminal")
def test_a_deal_by_its_value_is_asked_for_by_the_german_word_and_nein_appends_nothing(cli: Cli) -> None:
    ok(cli("session", "start", "n", "--players", FOUR))
    result = cli("record", input=answers("Wert", "Anna,Ben", "3", "nein"))
    assert result.exit_code == 1
    assert "die Gewinner, z. B. Anna,Ben:" in result.stdout
    assert "Wert des Spiels vor Bock:" in result.stdout
    assert result.stdout.rstrip().endswith("nichts angefügt")
    assert deals(cli) == []
    ok(cli("record", input=answers("wert", "Anna,Ben", "3", "ja")))
    [deal] = deals(cli)
    assert deal["points"] == {"Anna": 3, "Ben": 3, "Clara": -3, "Dirk": -3}


@pytest.mark.usefixtures("at_terminal")
def test_an_english_answer_is_understood_in_german_too(cli: Cli) -> None:
    ok(cli("session", "start", "n", "--players", FOUR))
    ok(cli("record", input=answers("value", "Anna,Ben", "2", "y")))
    assert [d["points"]["Anna"] for d in deals(cli)] == [2]


@pytest.mark.usefixtures("at_terminal")
def test_the_questions_in_french_take_french_words(cli: Cli) -> None:
    ok(cli("session", "start", "n", "--players", FOUR, lang="fr"))
    result = cli("record", input=answers("valeur", "Anna,Ben", "2", "oui"), lang="fr")
    assert "type de jeu (normal, marriage," in ok(result).stdout
    assert " ; ou valeur, la valeur seule) (normal):" in result.stdout
    assert "les gagnants, p. ex. Anna,Ben:" in result.stdout
    assert "ajouter cette donne ? [o/n] (o):" in result.stdout
    assert result.stdout.rstrip().endswith("donne 1 enregistrée sous n-01")
    assert [d["points"]["Anna"] for d in deals(cli)] == [2]


def _night_with_a_rate(cli: Cli) -> None:
    ok(cli("session", "start", "n", "--players", FOUR, "--rate", "0.05", "--date", "2026-12-01"))
    ok(cli("record", "--re", "Anna,Clara", "--re-points", "150", "--call", "Anna=re", "-y"))
    ok(cli("record", "--game", "club_solo", "--re", "Dirk", "--re-points", "130", "-y"))
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "200", "-y"))


def test_the_standings_in_german(cli: Cli) -> None:
    _night_with_a_rate(cli)
    shown = ok(cli("standings")).stdout
    assert "Doppelkopfabend n vom 01.12.2026" in shown
    assert ["#", "Partie", "Runde", "Spiel", "Geber", "Anna", "Ben", "Clara", "Dirk"] in _headers(shown)
    assert table_rows(shown)[0] == ["1", "1", "1", "Normalspiel", "Anna", "+3 Σ+3", "-3 Σ-3", "+3 Σ+3", "-3 Σ-3"]
    assert " Spieler  Stand  gespielt  gewonnen  Soli  Soli gew. " in shown
    assert "Geld \n" in shown
    # 1 + 2 for Re; Dirk's solo 1 (x3); Kontra below 90 and 60: 3; at 0.05 a point
    assert [line.split()[-2:] for line in shown.splitlines() if line.strip().startswith(("Anna ", "Dirk "))][:2] == [
        ["+0,25", "€"],
        ["-0,15", "€"],
    ]
    assert "laufender Stand" in shown
    assert "Spiel 4: Dirk gibt; es spielen Anna, Ben, Clara, Dirk" in shown
    assert "(Position 10, 10 Ereignisse)" in shown


def test_settling_up_in_german(cli: Cli) -> None:
    _night_with_a_rate(cli)
    shown = ok(cli("settle")).stdout.splitlines()
    assert shown[:4] == [
        "Dirk zahlt Anna 0,15\xa0€",
        "Ben zahlt Anna 0,05\xa0€",
        "Clara zahlt Anna 0,05\xa0€",
        "3 Zahlungen",
    ]
    assert shown[4].startswith("Kopf des Buchs ")
    # --json stays English and unchanged
    assert as_json(cli("settle", "--json"))["payments"][0] == {"payer": "Dirk", "payee": "Anna", "amount": "0.15"}


def test_settling_up_in_points_counts_in_german(cli: Cli) -> None:
    ok(cli("session", "start", "n", "--players", FOUR))
    ok(cli("record", "--re", "Anna,Clara", "--re-points", "150", "-y"))
    paid = [(p["payer"], p["payee"], p["amount"]) for p in as_json(cli("settle", "--json"))["payments"]]
    assert [amount for *_, amount in paid] == ["1", "1"]
    german = [f"{payer} zahlt {payee} 1 Punkt" for payer, payee, _ in paid]
    assert ok(cli("settle")).stdout.splitlines()[:3] == [*german, "2 Zahlungen"]
    french = [f"{payer} paie 1 point à {payee}" for payer, payee, _ in paid]
    assert ok(cli("settle", lang="fr")).stdout.splitlines()[:3] == [*french, "2 paiements"]


def test_the_locale_chooses_german(cli: Cli) -> None:
    _night_with_a_rate(cli)
    assert ok(cli("settle", lang=None, env=GERMAN_LOCALE)).stdout.startswith("Dirk zahlt Anna 0,15\xa0€\n")
    assert "Doppelkopfabend n vom 01.12.2026" in ok(cli("standings", lang=None, env=GERMAN_LOCALE)).stdout
    assert ok(cli("settle", lang=None, env={"LANG": "C.UTF-8"})).stdout.startswith("Dirk pays Anna €0.15\n")


SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "01-normal.yaml"


def test_a_game_is_listed_replayed_and_verified_in_german(cli: Cli) -> None:
    assert ok(cli("import", str(SAMPLE))).stdout.startswith("1 Spiel, 54 Ereignisse in ")
    listed = ok(cli("games")).stdout.splitlines()
    assert listed[:2] == ["     #  Spiel  gespielt am  Art", "        Regeln · Stiche · Augen  Ergebnis"]
    assert listed[2].endswith("  28.11.2026  Normalspiel")
    assert listed[3].strip().startswith("standard · 12 Stiche · Re 179")
    replayed = ok(cli("replay", "#1", "--all", env={"COLUMNS": "250"})).stdout
    assert replayed.startswith("Vorbehalte: Anna gesund, Ben gesund, Clara gesund, Dirk gesund\n")
    assert "Geber Dirk  ·  Anna kommt raus  ·  Regeln standard  ·  28.11.2026" in replayed
    assert _headers(replayed)[0][:8] == [
        "#",
        "raus",
        "Anna (Re)",
        "Ben (Kontra)",
        "Clara (Kontra)",
        "Dirk (Re)",
        "geht an",
        "Aug.",
    ]
    verified = " ".join(ok(cli("verify")).stdout.split())
    assert verified.startswith("Buch geprüft: 54 Ereignisse in 1 Strom; jede Hash-Kette stimmt. Kopf ")
    assert "Lesemodelle: genau das, was das Falten des Protokolls ergibt" in verified


def test_notes_and_refusals_in_french(cli: Cli) -> None:
    ok(cli("import", str(SAMPLE)))
    assert ok(cli("annotate", "#1", "bien joué", "--trick", "2", lang="fr")).stdout == (
        "noté sur le pli 2 de 2026-11-28-kitchen-01-normal\n"
    )
    assert ["sur", "par", "quand", "note"] in _headers(ok(cli("notes", "#1", lang="fr")).stdout)
    refused = cli("games", "--last", "2", "--all", lang="fr")
    assert refused.exit_code == 2
    assert refused.stderr.startswith("erreur : ")
    assert "indiquer --last N ou --all, pas les deux" in refused.stderr
    assert cli("export", "#1", "--analysis", lang="de").stderr == (
        "Fehler: --analysis markiert das HTML zum Nachspielen: --format html dazu angeben\n"
    )


FOX_AND_KARLCHEN = SAMPLE.parent / "29-fox-and-karlchen.yaml"


def test_the_cause_of_a_special_point_in_each_language(cli: Cli) -> None:
    ok(cli("import", str(FOX_AND_KARLCHEN)))
    wide = {"COLUMNS": "250"}
    german = table_rows(ok(cli("score", "#1", env=wide)).stdout)
    assert ["Fuchs gefangen (Sonderpunkt)", "Kontra", "+1", "Stich 12: Dirk fängt ♦A von Clara"] in german
    karlchen = ["letzter Stich mit ♣B (Karlchen) (Sonderpunkt)", "Kontra", "+1", "Stich 12: Dirk gewinnt ihn mit ♣B"]
    assert karlchen in german
    french = table_rows(ok(cli("score", "#1", lang="fr", env=wide)).stdout)
    assert [row[-1] for row in french if row[0].startswith("renard pris")] == ["pli 12 : Dirk a pris ♦A à Clara"]
    english = table_rows(ok(cli("score", "#1", lang="en", env=wide)).stdout)
    assert [row[-1] for row in english if row[0].startswith("fox caught")] == ["trick 12: Dirk caught Clara's DA"]
    # what scripts read stays English in any language
    lines = as_json(cli("score", "#1", "--json"))["lines"]
    assert [line["cause"] for line in lines if line["special"]] == [
        "trick 12: Dirk caught Clara's DA",
        "trick 12: Dirk won it with CJ",
    ]
    assert not any("said" in line for line in lines)
