"""A card night's refusals in the table's language: each error carries its message, shown in
German or French when the command or the request is, and in English otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.files import night_file
from doko_ledger.doppelkopf.game.illegal import IllegalMove
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.book import CardNights, DealAlreadyRecorded, NotTheNextDeal
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.errors import DokoError
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.i18n import using
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError

AT = "2026-12-01T20:00:00+00:00"


@pytest.fixture
def nights(tmp_path: Path) -> CardNights:
    ledger = Ledger.open(tmp_path / "ledger.sqlite", create=True)
    start = StartNight("n", ("Anna", "Ben", "Clara", "Dirk"), 0, preset("standard"))
    ledger.book_of(DOPPELKOPF).nights.start(start, by="Anna", at=AT)
    return card_nights(ledger)


def record(nights: CardNights, by: str = "Ben") -> None:
    playing = nights.standings("n").next.playing
    nights.commit(nights.prepare("n", SummaryRecord("normal", playing[:2], 130), deal=1), by=by, at=AT)


def said(error: DokoError, language: str) -> str:
    with using(language):
        return str(error)


def test_a_deal_already_recorded_in_each_language(nights: CardNights) -> None:
    record(nights)
    with pytest.raises(DealAlreadyRecorded) as refused:
        nights.prepare("n", SummaryRecord("normal", ("Anna", "Ben"), 130), deal=1)
    assert said(refused.value, "en") == (
        "deal 1 is already recorded (n-01, by Ben), so it is not recorded again;"
        " the next deal is deal 2 (`doko record --deal 2`)"
    )
    assert said(refused.value, "de") == (
        "Spiel 1 ist schon eingetragen (n-01, von Ben) und wird nicht noch einmal eingetragen;"
        " das nächste ist Spiel 2 (`doko record --deal 2`)"
    )
    assert said(refused.value, "fr").startswith("la donne 1 est déjà notée (n-01, par Ben)")


def test_a_deal_past_the_next_counts_the_deals_in_each_languages_plural(nights: CardNights) -> None:
    with pytest.raises(NotTheNextDeal) as none_yet:
        nights.expect_next("n", 3)
    record(nights)
    with pytest.raises(NotTheNextDeal) as one:
        nights.expect_next("n", 3)
    assert said(none_yet.value, "de") == "Abend 'n' hat 0 Spiele: das nächste ist Spiel 1, nicht 3"
    assert said(one.value, "de") == "Abend 'n' hat 1 Spiel: das nächste ist Spiel 2, nicht 3"
    assert said(none_yet.value, "fr") == "la soirée 'n' a 0 donne : la suivante est la donne 1, pas 3"  # 0 is singular
    assert said(one.value, "en") == "card night 'n' has 1 deal: the next is deal 2, not 3"


def test_someone_else_recorded_first_in_each_language(nights: CardNights) -> None:
    record(nights)
    playing = nights.standings("n").next.playing
    with pytest.raises(ConcurrencyError) as stale:
        nights.prepare("n", SummaryRecord("normal", playing[:2], 151), version=1)
    assert said(stale.value, "en") == (
        "the deal was not recorded: card night 'n' is at version 2, not 1:"
        " someone else recorded first; nothing was written; deal 1 was just recorded (by Ben)"
    )
    assert said(stale.value, "de") == (
        "das Spiel wurde nicht eingetragen: Abend 'n' ist bei Version 2, nicht 1:"
        " jemand anderes hat zuerst eingetragen; nichts geschrieben; Spiel 1 wurde gerade eingetragen (von Ben)"
    )
    assert said(stale.value, "fr") == (
        "la donne n'a pas été notée : la soirée 'n' est à la version 2, pas 1 :"
        " quelqu'un d'autre a noté avant ; rien n'a été écrit ; la donne 1 vient d'être notée (par Ben)"
    )


def test_a_name_that_cannot_sit_at_the_table_says_why_in_each_language(nights: CardNights) -> None:
    """The name is quoted as Python writes it (the invisible character escaped), the reason translated."""
    with pytest.raises(IllegalMove) as refused:
        nights.join("n", "Er\u200bik", by="Anna", at=AT)
    assert said(refused.value, "en") == (
        "player name 'Er\\u200bik' holds an invisible character (U+200B ZERO WIDTH SPACE)"
    )
    assert said(refused.value, "de") == (
        "der Spielername 'Er\\u200bik' enthält ein unsichtbares Zeichen (U+200B ZERO WIDTH SPACE)"
    )
    assert said(refused.value, "fr") == (
        "le nom de joueur 'Er\\u200bik' contient un caractère invisible (U+200B ZERO WIDTH SPACE)"
    )


NIGHT_FILE = """\
format: doko-session/1
id: kitchen
players: [Anna, Ben, Clara, Dirk]
first_dealer: Anna
deals:
  - {game: normal, re: [Ben, Zoe], re_points: 151}
"""


@pytest.mark.parametrize(
    ("language", "what"),
    [
        ("en", "unknown player 'Zoe' (players: Anna, Ben, Clara, Dirk)"),
        ("de", "unbekannter Spieler 'Zoe' (Spieler: Anna, Ben, Clara, Dirk)"),
        ("fr", "joueur inconnu 'Zoe' (joueurs : Anna, Ben, Clara, Dirk)"),
    ],
)
def test_a_night_files_line_keeps_its_place_and_says_what_in_each_language(language: str, what: str) -> None:
    """`file:line: field: what`: only what is wrong is in the reader's language."""
    with pytest.raises(SourceError) as refused, using(language):
        night_file.read(NIGHT_FILE, "night.yaml")
    assert said(refused.value, language) == f"night.yaml:6: deals[0].re[1]: {what}"


def test_a_night_files_refusal_by_the_recorder_names_its_field_in_any_language() -> None:
    """Which field a refusal of the recorder is about does not depend on the reader's language."""
    text = NIGHT_FILE.replace("{game: normal, re: [Ben, Zoe], re_points: 151}", "{joins: Erik, after: Zoe}")
    with pytest.raises(SourceError) as refused, using("fr"):
        night_file.read(text, "night.yaml")
    assert refused.value.field == "deals[0].after"
    assert said(refused.value, "fr") == (
        "night.yaml:6: deals[0].after: 'Zoe' n'est pas à la table (Anna, Ben, Clara, Dirk),"
        " personne ne se joint donc après"
    )
