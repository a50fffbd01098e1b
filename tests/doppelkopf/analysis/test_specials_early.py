"""Special points weighed before the last six tricks: a fox given away in trick 6 is found by an
analysis from trick 5, and a card whose search for special points passed its limit says so in
its line, in the analysis' JSON and in the note beside the replay's marks."""

from __future__ import annotations

from pathlib import Path

import pytest

from doko_ledger.doppelkopf.analysis.analyze import analyze_game, deal_of, game_value
from doko_ledger.doppelkopf.analysis.verdicts import GameAnalysis, analysis_from_json, analysis_to_json
from doko_ledger.doppelkopf.analysis.view import analysis_view, verdict_line
from doko_ledger.doppelkopf.analysis_marks import GAME, marked_view, marks
from doko_ledger.doppelkopf.files.game_file import read_file
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.i18n import using

SAMPLES = Path(__file__).resolve().parents[3] / "sample_games"


@pytest.fixture(scope="module")
def state() -> GameState:
    return read_file(SAMPLES / "29-fox-and-karlchen.yaml").state


@pytest.fixture(scope="module")
def from_trick_5(state: GameState) -> GameAnalysis:
    return analyze_game(state, game_id=state.game_id, from_trick=5)


def test_a_card_of_trick_6_that_gives_the_fox_away_is_marked_with_it(
    state: GameState, from_trick_5: GameAnalysis
) -> None:
    """Anna (Kontra) holds a fox; her HQ under Ben's CQ in trick 6 lets best play catch it, her
    DK there keeps it: no card point and no class lost, one special point."""
    v = next(v for v in from_trick_5.verdicts if v.trick == 6 and state.players[v.seat] == "Anna")
    assert (str(v.card), str(v.best)) == ("HQ", "DK")
    assert (v.cost, v.game_points, v.specials_lost, v.specials_unweighed) == (0, 1, ("fox_caught",), False)
    deal = deal_of(state, state.game_id)
    assert game_value(deal, state, v.points_before) == game_value(deal, state, v.points_after)
    assert verdict_line(v, state.players) == "Anna's ♥Q in trick 6: 0 card points, and fox caught (Fuchs): 1 game point"
    assert v in from_trick_5.costly()
    assert marks(from_trick_5, state.players)[v.index + 1].glyph == GAME


def test_the_default_start_leaves_no_card_of_the_last_six_tricks_unweighed(state: GameState) -> None:
    analysis = analyze_game(state, game_id=state.game_id, from_trick=7)
    assert not any(v.specials_unweighed for v in analysis.verdicts)
    assert analysis_view(analysis, state.players)["unweighed_note"] is None


def test_a_card_whose_search_passed_the_limit_says_its_special_points_were_not_weighed(state: GameState) -> None:
    analysis = analyze_game(state, game_id=state.game_id, from_trick=6, specials_limit=2_000)
    unweighed = [v for v in analysis.verdicts if v.specials_unweighed]
    assert unweighed and not any(v.specials_unweighed for v in analysis.verdicts if v.trick == 12)
    anna = next(v for v in unweighed if v.trick == 6 and state.players[v.seat] == "Anna")
    assert (anna.specials_lost, anna.game_points) == ((), 0)  # the fox not claimed lost, nor kept: not weighed
    costly = next(v for v in unweighed if v.cost > 0)
    line = verdict_line(costly, state.players)
    assert line.endswith("; special points not weighed (search limit)")
    view = analysis_view(analysis, state.players)
    assert view["unweighed"] == len(unweighed)
    count = len(unweighed)
    assert view["unweighed_note"] == (
        f"The special points of {count} cards were not weighed: their search reached its limit."
    )
    shown = {c["index"]: c for c in view["costly"]}[costly.index]
    assert shown["specials_unweighed"] and shown["line"] == line
    assert marked_view(analysis, state.players)["note"].endswith(view["unweighed_note"])
    assert analysis_from_json(analysis_to_json(analysis)) == analysis
    with using("de"):
        assert verdict_line(costly, state.players).endswith("; Sonderpunkte nicht gewertet (Suchgrenze)")
    with using("fr"):
        assert verdict_line(costly, state.players).endswith(" ; points spéciaux non évalués (limite de recherche)")
