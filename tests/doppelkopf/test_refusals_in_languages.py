"""The rules core refuses in the reader's language: its errors carry messages, rendered in
English, German or French when shown, with the game's words of each language's tables."""

from __future__ import annotations

import pytest
from helpers import c, cards, run

from doko_ledger.doppelkopf.events import CardsDealt, GameStarted, ReservationDeclared
from doko_ledger.doppelkopf.game import (
    Announce,
    Command,
    GameState,
    IllegalMove,
    PlayCard,
    StartGame,
    decide,
    fold,
)
from doko_ledger.doppelkopf.game.commands import EnterValue, SummarizeDeal
from doko_ledger.doppelkopf.game.record import GameRecord, RecordError, to_events
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party, PartyCalls, announcement_problem
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.i18n import Message, render, using

PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
DEAL = (
    cards("CQ H10 DA D10 CA C10 CK SA S10 HA HA HK"),
    cards("SQ SQ HQ DK CJ CA C9 SK S9 H9 HK D9"),
    cards("HQ DQ DQ SJ SJ HJ C10 CK C9 SA S10 H9"),
    cards("H10 CQ CJ HJ DJ DJ DA D10 DK D9 SK S9"),
)


def normal_game() -> GameState:
    started = GameStarted("g1", PLAYERS, DIRK, preset("standard"), None)
    return fold([started, CardsDealt(DEAL), *(ReservationDeclared(seat, True) for seat in range(4))])


def refusal(state: GameState, command: Command) -> IllegalMove:
    with pytest.raises(IllegalMove) as raised:
        decide(state, command)
    return raised.value


def in_each_language(error: Exception) -> dict[str, str]:
    reason = error.args[0]
    assert isinstance(reason, Message), f"an English text, not a message: {reason!r}"
    return {language: render(reason, language) for language in ("en", "de", "fr")}


def test_a_revoke_is_refused_in_each_language_with_its_cards() -> None:
    state = run(normal_game(), PlayCard(ANNA, c("CA")))

    texts = in_each_language(refusal(state, PlayCard(BEN, c("SK"))))

    assert texts["en"] == "revoke: Ben must follow the led suit of CA with one of CA C9, not SK (docs/rules.md §3)"
    assert texts["de"] == (
        "nicht bedient: Ben muss die ausgespielte Farbe von ♣A bedienen"
        " mit einer von ♣A ♣9, nicht ♠K (docs/rules.md §3)"
    )
    assert texts["fr"] == (
        "renonce : Ben doit fournir la couleur entamée de ♣A avec l'une de ♣A ♣9, pas ♠R (docs/rules.md §3)"
    )


def test_a_card_not_held_names_the_hand_in_the_language_s_letters() -> None:
    texts = in_each_language(refusal(normal_game(), PlayCard(ANNA, c("DQ"))))

    assert texts["en"] == "Anna does not hold DQ (holds H10 CQ DA D10 CA C10 CK SA S10 HA HA HK)"
    assert texts["de"] == "Anna hat ♦D nicht (hat ♥10 ♣D ♦A ♦10 ♣A ♣10 ♣K ♠A ♠10 ♥A ♥A ♥K)"
    assert texts["fr"] == "Anna n'a pas ♦D (a ♥10 ♣D ♦A ♦10 ♣A ♣10 ♣R ♠A ♠10 ♥A ♥A ♥R)"


def test_a_late_announcement_is_refused_with_the_tables_words_and_plurals() -> None:
    first = (PlayCard(ANNA, c("CA")), PlayCard(BEN, c("C9")), PlayCard(CLEO, c("C10")), PlayCard(DIRK, c("DJ")))
    state = run(normal_game(), *first, PlayCard(DIRK, c("SK")), PlayCard(ANNA, c("SA")))  # Dirk took the first

    texts = in_each_language(refusal(state, Announce(ANNA, Announcement.SCHWARZ, Party.RE)))

    assert texts["en"] == (
        "Anna: schwarz includes Re, which is too late: allowed with at most 1 card played;"
        " the announcer has played 2 (docs/rules.md §5)"
    )
    assert texts["de"] == (
        "Anna: schwarz enthält Re, und das ist zu spät: erlaubt bei höchstens 1 Karte gespielt;"
        " der Ansager hat 2 gespielt (docs/rules.md §5)"
    )
    assert texts["fr"] == (
        "Anna : fanny comprend Re, qui est trop tard : permis avec au plus 1 carte jouée ;"
        " l'annonceur en a joué 2 (docs/rules.md §5)"
    )


def test_a_problem_of_the_rules_is_a_message_with_the_glossary_words() -> None:
    problem = announcement_problem(Announcement.KONTRA, Party.RE, 0, 0, PartyCalls(), PartyCalls())

    assert problem is not None
    assert render(problem, "en") == "a Re player cannot say Kontra"
    assert render(problem, "de") == "wer Re spielt, kann nicht Kontra sagen"
    assert render(problem, "fr") == "un joueur Re ne peut pas dire Contra"


def test_a_summary_names_the_game_type_in_the_language() -> None:
    state = fold([GameStarted("g1", PLAYERS, DIRK, preset("standard"), None)])

    texts = in_each_language(refusal(state, SummarizeDeal(GameType.QUEEN_SOLO, (ANNA, BEN), 130)))

    assert texts["en"] == "a queen solo is played by one soloist, not 2"
    assert texts["de"] == "Damensolo spielt ein Solist, nicht 2"
    assert texts["fr"] == "solo de dames se joue par un soliste, pas 2"


def test_a_value_entry_keeps_its_field_and_its_message() -> None:
    state = fold([GameStarted("g1", PLAYERS, DIRK, preset("standard"), None)])

    error = refusal(state, EnterValue((ANNA, ANNA), (), 2))

    assert getattr(error, "field", None) == "players"
    assert in_each_language(error)["de"] == "Anna steht zweimal unter den Gewinnern"


def test_a_start_refusal_renders_in_the_language_of_the_block() -> None:
    with pytest.raises(IllegalMove) as raised:
        decide(GameState(), StartGame("g1", ("Anna", "Ben", "Cleo"), 0, preset("standard")))

    with using("de"):
        assert str(raised.value) == "ein Spiel hat 4 Spieler, nicht 3"
    with using("fr"):
        assert str(raised.value) == "une donne a 4 joueurs, pas 3"
    assert str(raised.value) == "a game has 4 players, not 3"


def test_a_record_error_keeps_the_message_of_the_refusal() -> None:
    record = GameRecord("g1", PLAYERS, "Dirk", preset("standard"), hands=DEAL, tricks=((c("DQ"),),))

    with pytest.raises(RecordError) as raised:
        to_events(record)

    assert render(raised.value.args[0], "de").startswith("Anna hat ♦D nicht")
