"""The cause of a special point earned in play, in the reader's language: the trick, who
earned it, whose card was caught and the card in each language's letters (`♦A`, `♣B`,
`♣V`); the English cause the JSON, the read models and the files keep stays as it was, and
the special point says where it was earned (trick, seat) for a file that names seats."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.scoring import ScoreLine, SpecialKind
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.i18n import render

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"


@cache
def sample(name: str) -> GameState:
    return game_file.read((SAMPLES_DIR / name).read_text(encoding="utf-8"), name).state


def special_lines(state: GameState) -> list[ScoreLine]:
    score = score_game(state).score
    assert score is not None
    return [line for line in score.lines if line.special]


def test_a_fox_caught_and_a_karlchen_in_three_languages() -> None:
    state = sample("29-fox-and-karlchen.yaml")  # trick 12: Clara leads DA, Dirk wins it with CJ
    fox, karlchen = special_lines(state)
    assert (fox.cause, karlchen.cause) == ("trick 12: Dirk caught Clara's DA", "trick 12: Dirk won it with CJ")
    assert render(fox.shown_cause, "en") == fox.cause
    assert render(fox.shown_cause, "de") == "Stich 12: Dirk fängt ♦A von Clara"
    assert render(fox.shown_cause, "fr") == "pli 12 : Dirk a pris ♦A à Clara"
    assert render(karlchen.shown_cause, "en") == karlchen.cause
    assert render(karlchen.shown_cause, "de") == "Stich 12: Dirk gewinnt ihn mit ♣B"
    assert render(karlchen.shown_cause, "fr") == "pli 12 : Dirk l'a gagné avec ♣V"


def test_a_special_point_says_where_it_was_earned_and_whose_card_it_was() -> None:
    state = sample("29-fox-and-karlchen.yaml")
    fox, karlchen = special_lines(state)
    assert fox.earned is not None and karlchen.earned is not None
    assert (fox.earned.kind, fox.earned.trick, fox.earned.from_seat) == (SpecialKind.FOX_CAUGHT, 12, 2)
    assert state.players[2] == "Clara"
    assert (karlchen.earned.trick, karlchen.earned.from_seat) == (12, None)


def test_a_doppelkopf_says_the_trick_s_card_points() -> None:
    doppelkopf = next(line for line in special_lines(sample("21-announced-schwarz.yaml")) if "Doppelkopf" in line.item)
    assert doppelkopf.cause == "trick 1: Ben took 42"
    assert render(doppelkopf.shown_cause, "de") == "Stich 1: Ben holt 42 Augen"
    assert render(doppelkopf.shown_cause, "fr") == "pli 1 : Ben a pris 42 points de cartes"


def test_a_special_point_recorded_without_cards_says_whose_card_it_was() -> None:
    state = sample("31-summary-specials.yaml")
    fox = special_lines(state)[0]
    assert fox.item == "fox caught (Fuchs)"
    assert fox.cause == "recorded: from Greta"
    assert fox.earned is not None and fox.earned.trick is None and fox.earned.from_seat is not None
    assert state.players[fox.earned.from_seat] == "Greta"
    assert render(fox.shown_cause, "de") == "erfasst: von Greta"
    assert render(fox.shown_cause, "fr") == "enregistré : pris à Greta"
    recorded = [line for line in special_lines(state) if line.cause == "recorded"]
    assert recorded and {render(line.shown_cause, "de") for line in recorded} == {"erfasst"}
