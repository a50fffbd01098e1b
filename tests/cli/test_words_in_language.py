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


USAGE = [
    (("scor",), "Unbekannter Befehl 'scor'. Gemeint: 'score'", "Commande inconnue 'scor'. Vouliez-vous dire 'score'"),
    (
        ("games", "--jsn"),
        "Unbekannte Option: --jsn (mögliche Optionen: --json",
        "Option inconnue : --jsn (options possibles : --json",
    ),
    (("standings", "--session"), "Option '--session' braucht einen Wert.", "L'option '--session' demande une valeur."),
    (("games", "--json=3"), "Option '--json' nimmt keinen Wert.", "L'option '--json' ne prend pas de valeur."),
    (("session", "start"), "Argument 'SESSION' fehlt.", "Argument 'SESSION' manquant."),
    (("standings", "--session", "a", "b"), "Unerwartete weitere Argumente (b)", "Arguments en trop inattendus (b)"),
    (
        ("export", "x", "--format", "xx"),
        "Ungültiger Wert für '--format': 'xx' ist keins von 'yaml'",
        "Valeur invalide pour '--format' : 'xx' n'est pas parmi 'yaml'",
    ),
    (
        ("analyze", "x", "--from-trick", "x"),
        "Ungültiger Wert für '--from-trick': keine ganze Zahl",
        "Valeur invalide pour '--from-trick' : pas un nombre entier",
    ),
]


@pytest.mark.parametrize(("args", "german", "french"), USAGE)
def test_the_parsers_refusals_are_in_the_readers_language(
    cli: Cli, args: tuple[str, ...], german: str, french: str
) -> None:
    for lang, said, error in (("de", german, "Fehler: "), ("fr", french, "erreur : ")):
        done = cli(*args, lang=lang)
        assert done.exit_code == 2
        assert done.stderr.startswith(error + said), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "english"),
    [
        (("scor",), "error: No such command 'scor'. Did you mean 'score', 'record'?"),
        (("games", "--jsn"), "error: No such option: --jsn (Possible options: --json, --since)"),
        (("session", "start"), "error: Missing argument 'SESSION'."),
        (("standings", "--session", "a", "b"), "error: Got unexpected extra argument(s) (b)"),
    ],
)
def test_the_parsers_refusals_in_english_are_clicks_own(cli: Cli, args: tuple[str, ...], english: str) -> None:
    done = cli(*args, lang="en")
    assert done.exit_code == 2
    assert done.stderr.strip() == english


def test_a_group_without_its_command_shows_its_help_and_no_empty_error(cli: Cli) -> None:
    done = cli("rules", lang="de")
    assert done.exit_code == 2
    assert "Regel" in done.stdout
    assert "Fehler" not in done.stderr and "error" not in done.stderr


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ["Blatt", "48 Karten mit den Neunen, oder 40 ohne", "Sonderpunkte", "was eine Bockrunde auslöst"]),
        ("fr", ["48 cartes avec les neuf, ou 40 sans", "ce qui lance un tour de bock"]),
    ],
)
def test_the_rule_options_say_what_they_do_in_the_readers_language(cli: Cli, lang: str, words: list[str]) -> None:
    shown = flat(cli("rules", "show", "standard", lang=lang).stdout)
    for said in words:
        assert said in shown, said
    assert "48 cards with the nines" not in shown and "what starts a bock round" not in shown


def test_the_presets_are_described_in_the_readers_language_and_in_english_for_scripts(cli: Cli) -> None:
    assert "Kneipenregeln: ohne Neunen" in flat(cli("rules", "list", lang="de").stdout)
    assert "règles de bistrot : sans les neuf" in flat(cli("rules", "list", lang="fr").stdout)
    listed = json.loads(cli("rules", "list", "--json", lang="de").stdout)
    assert listed[0]["description"].startswith("the default rules: 48 cards")


def changed_night(cli: Cli) -> None:
    """A night where Erik joins, the rules change to count the winners only, and Erik leaves."""
    for args in (
        ("session", "start", "n", "--players", "Anna,Ben,Clara,Dirk"),
        ("session", "join", "Erik", "--after", "Anna", "--session", "n"),
        ("session", "rules", "--session", "n", "--set", "counting=winners_only"),
        ("session", "leave", "Erik", "--session", "n"),
        ("record", "--session", "n", "--winners", "Anna,Ben", "--value", "3", "--yes"),
    ):
        done = cli(*args, lang="en")
        assert done.exit_code == 0, done.output


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "de",
            [
                "ab Spiel 1: Erik kommt dazu, nach Anna",
                "ab Spiel 1: die Regeln ändern sich: counting winners_only",
                "ab Spiel 1: Erik geht",
                "nur Gewinner (die Verlierer schreiben 0)",
            ],
        ),
        (
            "fr",
            [
                "Erik rejoint la table, après Anna",
                "les règles changent : counting winners_only",
                "Erik quitte la table",
                "gagnants seulement (les perdants écrivent 0)",
            ],
        ),
    ],
)
def test_a_nights_changes_are_told_in_the_readers_language(cli: Cli, lang: str, words: list[str]) -> None:
    changed_night(cli)
    shown = flat(cli("standings", "--session", "n", lang=lang).stdout)
    for said in words:
        assert said in shown, said
    assert "joins after" not in shown and "winners only" not in shown


def test_a_nights_changes_stay_english_for_scripts(cli: Cli) -> None:
    changed_night(cli)
    data = json.loads(cli("standings", "--session", "n", "--json", lang="de").stdout)
    assert [c["words"] for c in data["changes"]] == [
        "Erik joins after Anna, from deal 1",
        "the rules change: counting winners_only, from deal 1",
        "Erik leaves, from deal 1",
    ]
    assert data["deals"][0]["changes"][0] == "Erik joins after Anna"
    assert data["counting_words"] == "winners only (the losers write 0)"


def test_a_change_and_its_undo_are_said_in_the_readers_language(cli: Cli) -> None:
    assert cli("session", "start", "n", "--players", "Anna,Ben,Clara,Dirk", lang="en").exit_code == 0
    joined = cli("session", "join", "Erik", "--after", "Anna", "--session", "n", lang="de")
    assert joined.stdout.strip() == "Erik kommt dazu, nach Anna, ab Spiel 1"
    undone = cli("undo", "--session", "n", "--yes", lang="fr")
    assert "Erik rejoint la table, après Anna, dès la donne 1" in flat(undone.stdout), undone.output


def test_a_dou_dizhu_audit_and_its_explanations_are_in_the_readers_language(cli: Cli) -> None:
    done = cli("import", str(SAMPLES / "doudizhu" / "01-landlord-rocket.yaml"), lang="en")
    assert done.exit_code == 0, done.output
    claim = ("audit", "ddz-2026-11-29-01", "--claimed", "Li=+2,Wang=-1,Zhang=-1")
    german = flat(cli(*claim, lang="de").stdout)
    assert "ok Karten ergeben das Blatt 54 Karten gezählt" in german
    assert "der behauptete Einsatz 1 ist das Gebot 1 mit 0 Verdopplungen; die Regeln zählen 1 Verdopplung" in german
    french = flat(cli(*claim, lang="fr").stdout)
    assert "la mise revendiquée 1 est l'enchère 1 avec 0 doublement ; les règles comptent 1 doublement" in french
    data = json.loads(cli(*claim, "--json", lang="de").stdout)
    assert data["explanations"][0].startswith("the claim's stake 1 is the bid 1 with 0 doublings; the rules count 1")
    assert data["checks"][2]["details"] == ["54 cards accounted for"]


def test_a_language_doko_does_not_speak_is_refused_in_the_locales(
    ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "DOKO_DB"):
        monkeypatch.delenv(name, raising=False)
    argv = ["--db", str(ledger_path), "--lang", "xx", "games"]
    german = CliRunner().invoke(app, argv, env=CLI_ENV | {"LANG": "de_DE.UTF-8"})
    assert german.exit_code == 2
    assert german.stderr.strip() == "Fehler: Ungültiger Wert für '--lang': 'xx' ist keine von en, de, fr"
    english = CliRunner().invoke(app, argv, env=CLI_ENV | {"LANG": "C"})
    assert english.stderr.strip() == "error: Invalid value for '--lang': 'xx' is not one of en, de, fr"


def test_a_deals_place_and_its_game_are_named_in_the_readers_language(cli: Cli) -> None:
    """A corrected deal in a night: its game type, its number in the night and the corrections
    between its games, in German, where the list, the replay and the score name them."""
    assert cli("session", "start", "n", "--players", "Anna,Ben,Clara,Dirk", lang="en").exit_code == 0
    assert cli("record", "--re", "Anna,Ben", "--re-points", "151", "--yes", lang="en").exit_code == 0
    assert cli("correct", "n-01", "--re-points", "170", "--yes", lang="en").exit_code == 0
    listed = flat(cli("games").stdout)
    assert "n-01 Normalspiel korrigiert durch n-01-c1" in listed
    assert "n-01-c1 Normalspiel ersetzt n-01" in listed
    replay = flat(cli("replay", "n-01", "--all").stdout)
    assert "Spiel 1 von n, korrigiert durch n-01-c1" in replay
    assert "n-01 Normalspiel · Geber Anna" in replay
    score = flat(cli("score", "n-01-c1").stdout)
    assert "Spiel 1 von n (ersetzt n-01)" in score
    english = flat(cli("replay", "n-01", "--all", lang="en").stdout)
    assert "deal 1 of n, corrected by n-01-c1" in english and "n-01 normal game · dealer Anna" in english
