"""A score's derivation in the reader's language: each line's words and cause are messages
beside the stable English item and cause the JSON gives; the JSON is the same in any language."""

from __future__ import annotations

from doko_ledger.doppelkopf.events import DealSummarized, GameStarted, SummaryCall, SummarySpecial
from doko_ledger.doppelkopf.game import fold
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.bock import TRIGGER_SAID, TRIGGER_WORDS, Bock
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import ReservationKind
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.rules.value import ValueDeal
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.doppelkopf.views import described, score_view
from doko_ledger.doudizhu.state import Side
from doko_ledger.i18n import render, using

PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")


def kontra_wins_against_re_s_no_90() -> GameScore:
    """Re (Anna, Dirk) said Re and no 90 and took 150; Kontra caught a fox."""
    summary = DealSummarized(
        GameType.NORMAL,
        (0, 3),
        150,
        8,
        4,
        announcements=(SummaryCall(0, Announcement.RE), SummaryCall(3, Announcement.NO90)),
        specials=(SummarySpecial(SpecialKind.FOX_CAUGHT, Party.KONTRA, 0),),
    )
    return score_game(fold([GameStarted("g1", PLAYERS, 3, preset("standard"), None), summary]))


def test_each_line_of_the_derivation_is_in_each_language() -> None:
    score = kontra_wins_against_re_s_no_90().score
    assert score is not None and score.winner is Party.KONTRA

    lines = {line.item: line for line in score.lines}
    assert set(lines) >= {"Re's goal: target 151", "won", "against the old ones", "fox caught (Fuchs)"}
    assert [render(line.shown, "en") for line in score.lines] == [line.item for line in score.lines]
    assert [render(line.shown_cause, "en") for line in score.lines] == [line.cause for line in score.lines]

    goal = lines["Re's goal: target 151"]
    assert render(goal.shown, "de") == "Ziel Re: 151"
    assert render(goal.shown_cause, "de") == "Re hat 150 Augen in 8 Stichen; verfehlt"
    assert render(goal.shown_cause, "fr") == "Re a pris 150 points de cartes en 8 plis ; manqué"
    kontra_goal = next(line for line in score.lines if line.item.startswith("Kontra's goal"))
    assert render(kontra_goal.shown, "fr") == "objectif de Contra : 90 contre le pas de 90 de Re"
    assert render(lines["won"].shown, "de") == "gewonnen"
    assert render(lines["against the old ones"].shown, "de") == "gegen die Alten"
    assert render(lines["fox caught (Fuchs)"].shown, "fr") == "renard pris"
    missed = next(line for line in score.lines if line.item == "Re's no 90 missed")
    assert render(missed.shown, "de") == "keine 90 von Re verfehlt"
    assert render(missed.shown, "fr") == "pas de 90 de Re manqué"


def test_the_score_json_keeps_its_english_words_in_any_language() -> None:
    result = kontra_wins_against_re_s_no_90()
    in_english = score_view(result)

    for language in ("de", "fr"):
        with using(language):
            assert score_view(result) == in_english
    assert in_english["lines"][1] == {
        "item": "Kontra's goal: 90 against Re's no 90",
        "party": "kontra",
        "points": 0,
        "factor": 1,
        "special": False,
        "cause": "Kontra took 90 card points in 4 tricks; reached",
    }


def test_a_value_entry_and_a_game_are_described_in_each_language() -> None:
    valued = ValueDeal((3,), 2, True)
    assert render(valued.said(PLAYERS), "en") == valued.words(PLAYERS) == "Dirk won a solo; value 2"
    assert render(valued.said(PLAYERS), "de") == "Dirk hat ein Solo gewonnen; Wert 2"

    state = fold([GameStarted("g1", PLAYERS, 3, preset("standard"), None)])
    assert render(described(state), "fr") == "réserves ouvertes"
    summary = DealSummarized(GameType.QUEEN_SOLO, (1,), 130, 7, 5)
    solo = fold([GameStarted("g1", PLAYERS, 3, preset("standard"), None), summary])
    assert render(described(solo), "de") == "Damensolo von Ben"
    assert render(described(solo), "fr") == "solo de dames de Ben"


def test_a_bock_line_keeps_its_english_item_and_says_it_in_each_language() -> None:
    doubled, extra = Bock(2, "deal 3, lost solo"), Bock(1, "deal 3, lost solo", extra=1)

    assert doubled.line().item == "bock x2" and render(doubled.line().shown, "de") == "Bock ×2"
    assert render(extra.line(Party.RE).shown, "fr") == "bock +1"
    nobody = extra.line()
    assert nobody.item == "bock +1: nobody won, nothing added"
    assert render(nobody.shown, "de") == "Bock +1: keiner gewonnen, nichts dazu"
    assert TRIGGER_WORDS["lost_solo"] == "lost solo"
    assert render(TRIGGER_SAID["lost_solo"], "de") == "verlorenes Solo"


def test_the_game_s_words_come_from_the_glossary() -> None:
    assert [render(kind.word, "de") for kind in ReservationKind] == ["Hochzeit", "Armut", "Solo", "eingeworfen"]
    assert [render(kind.word, "fr") for kind in ReservationKind][:2] == ["mariage", "pauvreté"]
    german = ["Re", "Kontra", "keine 90", "keine 60", "keine 30", "schwarz"]
    assert [render(call.word, "de") for call in Announcement] == german
    french = ["Re", "Contra", "pas de 90", "pas de 60", "pas de 30", "fanny"]
    assert [render(call.word, "fr") for call in Announcement] == french
    assert render(GameType.ACE_SOLO.word, "de") == "Fleischloser"
    assert render(SpecialKind.KARLCHEN.word, "fr") == "dernier pli gagné avec le ♣V (Charlot)"
    assert [render(side.word, "de") for side in Side] == ["Grundherr", "Bauern"]
    assert [render(side.word, "fr") for side in Side] == ["propriétaire", "paysans"]


def test_who_announced_a_line_s_call_is_said_in_each_language() -> None:
    from pathlib import Path

    from doko_ledger.doppelkopf.files import game_file

    sample = Path(__file__).resolve().parents[2] / "sample_games" / "30-three-rule-sets.yaml"
    score = score_game(game_file.read(sample.read_text(encoding="utf-8"), sample.name).state).score
    assert score is not None
    lines = {line.item: line for line in score.lines}
    implied, said = lines["Kontra announced"], lines["Kontra's no 90 missed"]
    assert (implied.cause, said.cause) == ("implied by Dirk's no 90", "Dirk, after 1 card(s), trick 1")
    # the JSON keeps its words; a reader gets the count's own form
    assert (render(implied.shown_cause, "en"), render(said.shown_cause, "en")) == (
        implied.cause,
        "Dirk, after 1 card, trick 1",
    )
    assert render(implied.shown_cause, "de") == "durch keine 90 von Dirk"
    assert render(said.shown_cause, "de") == "Dirk, nach 1 Karte, Stich 1"
    assert render(implied.shown_cause, "fr") == "compris dans le pas de 90 de Dirk"
    assert render(said.shown_cause, "fr") == "Dirk, après 1 carte, pli 1"


def test_a_call_recorded_without_cards_names_its_player_in_any_language() -> None:
    score = kontra_wins_against_re_s_no_90().score
    assert score is not None
    re_announced = next(line for line in score.lines if line.item == "Re announced")
    assert re_announced.cause == "Anna"
    assert render(re_announced.shown_cause, "de") == render(re_announced.shown_cause, "fr") == "Anna"
