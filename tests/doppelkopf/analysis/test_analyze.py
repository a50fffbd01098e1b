"""`analyze_game` on the sample games and random games: what each verdict must hold, the
refusals, the sampled deals, and the JSON round trip a cache relies on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from doko_ledger.doppelkopf.analysis import thresholds as threshold_analysis
from doko_ledger.doppelkopf.analysis.analyze import NotAnalyzable, analyze_game, deal_of
from doko_ledger.doppelkopf.analysis.thresholds import result_changes, thresholds
from doko_ledger.doppelkopf.analysis.verdicts import SOLVER_VERSION, analysis_from_json, analysis_to_json
from doko_ledger.doppelkopf.analysis.view import DOUBLE_DUMMY, analysis_view, player_summary, verdict_line
from doko_ledger.doppelkopf.files.game_file import read, read_file
from doko_ledger.doppelkopf.game.facts import deal_facts
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType

SAMPLES = Path(__file__).resolve().parents[3] / "sample_games"
CARD_BY_CARD = [
    p.name
    for p in sorted(SAMPLES.glob("*.yaml"))
    if "summary" not in p.name and "misdeal" not in p.name and "declined" not in p.name
]


def sample(name: str) -> GameState:
    return read_file(SAMPLES / name).state


@pytest.mark.parametrize("name", CARD_BY_CARD)
def test_every_verdict_of_a_sample_game_holds_together(name: str) -> None:
    state = sample(name)
    from_trick = state.hand_size - 3
    analysis = analyze_game(state, game_id=state.game_id, from_trick=from_trick)
    assert analysis.solver_version == SOLVER_VERSION and analysis.from_trick == from_trick
    assert len(analysis.verdicts) == 4 * 4
    assert [v.index for v in analysis.verdicts] == list(range(4 * (from_trick - 1), 4 * state.hand_size))
    for v in analysis.verdicts:
        own = v.points_after if v.party is Party.RE else 240 - v.points_after
        assert v.value == own
        assert v.best_value >= v.value and v.cost == v.best_value - v.value
        assert v.best_value == max(a.value for a in v.alternatives)
        assert v.card in {a.card for a in v.alternatives}
        assert state.all_tricks[v.trick - 1].plays[v.index % 4] == (v.seat, v.card)
    last = analysis.verdicts[-1]
    assert last.cost == 0 and last.points_before == last.points_after == deal_facts(state).re_points


def test_the_sample_normal_game_lost_a_game_point_in_trick_9() -> None:
    """Anna's D9 let Kontra's 21 card points through: Re would have ended with 187, above no 60."""
    state = sample("01-normal.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=8)
    worst = analysis.costly()[0]
    assert (state.players[worst.seat], str(worst.card), worst.trick) == ("Anna", "D9", 9)
    assert (worst.cost, worst.game_points, worst.points_before, worst.points_after) == (21, 1, 187, 166)
    line = verdict_line(worst, state.players)
    assert line == "Anna's ♦9 in trick 9: 21 card points, and the game: Re 187 → 166, 1 game point"
    costly = analysis.costly()
    assert [(v.game_points, v.cost) for v in costly] == sorted(((v.game_points, v.cost) for v in costly), reverse=True)


@pytest.mark.parametrize(
    "game_type", [GameType.NORMAL, GameType.CLUB_SOLO, GameType.QUEEN_SOLO, GameType.ACE_SOLO, GameType.DIAMOND_SOLO]
)
def test_random_games_of_every_kind_are_analysed(make_game: Callable[..., Any], game_type: GameType) -> None:
    game = make_game(7, game_type=game_type)
    state = game.final
    analysis = analyze_game(state, game_id="g", from_trick=9)
    assert len(analysis.verdicts) == 16
    assert analysis.verdicts[-1].points_after == deal_facts(state).re_points


def test_a_game_still_being_played_is_analysed_up_to_its_last_card(make_game: Callable[..., Any]) -> None:
    game = make_game(11, game_type=GameType.NORMAL, tricks=9)
    state = game.final
    analysis = analyze_game(state, game_id="g", from_trick=8)
    assert len(analysis.verdicts) == 8


def test_sampled_deals_give_a_share_to_each_costly_card_and_the_same_share_each_time() -> None:
    state = sample("01-normal.yaml")
    first = analyze_game(state, game_id=state.game_id, from_trick=9, worlds=12, seed=3)
    again = analyze_game(state, game_id=state.game_id, from_trick=9, worlds=12, seed=3)
    assert first == again
    for v in first.verdicts:
        if v.cost > 0:
            assert v.worse_share is not None and 0.0 <= v.worse_share <= 1.0
            assert v.mistake == (v.worse_share == 1.0)
        else:
            assert v.worse_share is None and not v.mistake


def test_an_analysis_reads_back_from_its_json_as_it_was() -> None:
    state = sample("29-fox-and-karlchen.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=9, worlds=4)
    assert analysis_from_json(analysis_to_json(analysis)) == analysis


def test_the_view_says_every_hand_was_known_and_sums_up_each_player() -> None:
    state = sample("01-normal.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=9)
    view = analysis_view(analysis, state.players)
    assert view["note"] == DOUBLE_DUMMY and DOUBLE_DUMMY.startswith("with all cards known")
    assert [c["line"] for c in view["costly"]] == [verdict_line(v, state.players) for v in analysis.costly()]
    summary = player_summary(analysis, state.players)
    assert [p["player"] for p in summary] == list(state.players)
    assert sum(p["card_points"] for p in summary) == sum(v.cost for v in analysis.costly())
    assert sum(p["cards"] for p in summary) == len(analysis.verdicts)


def test_a_game_by_its_facts_is_refused() -> None:
    state = sample("31-summary-specials.yaml")
    with pytest.raises(NotAnalyzable, match="recorded by its facts"):
        analyze_game(state, game_id=state.game_id)


def test_a_game_without_a_card_played_is_refused(make_game: Callable[..., Any]) -> None:
    state = make_game(3, game_type=GameType.NORMAL, tricks=0).final
    with pytest.raises(NotAnalyzable, match="no card played"):
        analyze_game(state, game_id="g")


@pytest.mark.parametrize("trick", [0, 13])
def test_a_trick_not_played_is_refused(trick: int) -> None:
    state = sample("01-normal.yaml")
    with pytest.raises(NotAnalyzable, match=f"no trick {trick}: tricks 1 to 12"):
        analyze_game(state, game_id=state.game_id, from_trick=trick)


@pytest.mark.parametrize(
    "name", ["01-normal.yaml", "10-second-dulle.yaml", "18-poverty.yaml", "21-announced-schwarz.yaml"]
)
def test_the_threshold_questions_find_the_cards_that_cost_game_points(name: str) -> None:
    """`result_changes` asks only whether Re reaches each threshold, and each net of special
    points within the class: it names exactly the cards whose exact values cost game points,
    by the class or by the special points."""
    state = sample(name)
    exact = analyze_game(state, game_id=state.game_id, from_trick=8)
    assert not any(v.specials_unweighed for v in exact.verdicts)
    found = result_changes(state, game_id=state.game_id, from_trick=8)
    assert not found.unweighed
    changes = found.changes
    assert [c.index for c in changes] == [v.index for v in exact.verdicts if v.game_points]
    by_index = {v.index: v for v in exact.verdicts}
    for c in changes:
        v = by_index[c.index]
        assert c.re_before <= v.points_before and c.re_after <= v.points_after
        assert (c.seat, c.card, c.trick) == (v.seat, v.card, v.trick)
        if c.re_before == c.re_after:  # the special points within the class
            assert c.specials_before is not None and c.specials_after is not None
            sign = 1 if v.party is Party.RE else -1
            assert sign * (c.specials_before - c.specials_after) == v.game_points and v.specials_lost


def test_the_threshold_analysis_names_a_special_point_lost_within_the_class() -> None:
    """In the poverty, Kontra's S10 in trick 8 keeps Re's class but gives Re back the special
    point Kontra had with best play: Re's net goes from -1 to 0."""
    state = sample("18-poverty.yaml")
    change = next(c for c in result_changes(state, game_id=state.game_id, from_trick=8).changes if c.trick == 8)
    assert (str(change.card), change.re_before, change.re_after) == ("S10", 151, 151)
    assert (change.specials_before, change.specials_after) == (-1, 0)


@pytest.mark.parametrize(("name", "from_trick"), [("10-second-dulle.yaml", 9), ("18-poverty.yaml", 8)])
def test_the_threshold_analysis_finds_the_same_in_python(
    name: str, from_trick: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the compiled searches, the same cards and the same classes and special points."""
    state = sample(name)
    found = result_changes(state, game_id=state.game_id, from_trick=from_trick)
    assert found.changes and all(c.specials_before is not None for c in found.changes)
    monkeypatch.setenv("DOKO_PURE_PYTHON", "1")
    assert result_changes(state, game_id=state.game_id, from_trick=from_trick) == found


REVOKE = """\
format: doko-game/1
id: revoke
players: [Anna, Ben, Clara, Dirk]
dealer: Dirk
tricks:
  - [SA, S9, SK, S9]
  - [CQ, D9, CJ, CJ]
  - [C9, CK, C9, CA]
  - [H10, DJ, DJ, SQ]
  - [HA, HK, HA, H9]
  - [CQ, HJ, SJ, H10]
  - [CA, CK, C10, DA]
  - [DQ, DA, HQ, HJ]
  - [S10, D9, SK, DK]  # Clara trumps the spade, holding S10
  - [H9, DQ, C10, SA]
  - [HK, SJ, DK, S10]
  - [HQ, D10, D10, SQ]
"""
"""A game recorded without its hands, in which Clara (Kontra) revokes in trick 9."""


def _asked_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Makes `result_changes` classify every position over all thresholds, without the
    shortcut of asking first whether the card kept the class."""
    whole = threshold_analysis._steps_reached

    def asked_whole(
        solver: Any,
        pos: Any,
        re_taken: int,
        steps: tuple[int, ...],
        schwarz: Any,
        tricks: tuple[int, int],
        within: tuple[int, int],
        first: int | None = None,
    ) -> int:
        return whole(solver, pos, re_taken, steps, schwarz, tricks, (0, len(steps)))

    monkeypatch.setattr(threshold_analysis, "_steps_reached", asked_whole)


@pytest.mark.parametrize("name", CARD_BY_CARD)
def test_the_class_after_a_card_is_asked_from_where_best_play_allows_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card of Re can only lose Re a class, one of Kontra only give Re one: asking first
    whether the card kept the class finds what asking every position whole finds."""
    state = sample(name)
    from_trick = state.hand_size - 4
    found = result_changes(state, game_id=state.game_id, from_trick=from_trick)
    _asked_whole(monkeypatch)
    assert found == result_changes(state, game_id=state.game_id, from_trick=from_trick)


def test_a_revoke_the_record_shows_may_move_the_class_against_its_party(monkeypatch: pytest.MonkeyPatch) -> None:
    """A revoke was no choice of best play: Clara's, a card of Kontra, costs Re a class."""
    state = read(REVOKE).state
    changes = result_changes(state, game_id="revoke", from_trick=9)
    revoke = next(c for c in changes.changes if c.trick == 9)
    who = state.players[revoke.seat]
    assert (who, str(revoke.card), revoke.re_before, revoke.re_after) == ("Clara", "DK", 181, 151)
    _asked_whole(monkeypatch)
    assert changes == result_changes(state, game_id="revoke", from_trick=9)


def test_the_thresholds_are_where_the_score_changes() -> None:
    state = sample("01-normal.yaml")
    assert thresholds(deal_of(state, state.game_id), state) == (1, 30, 60, 90, 121, 151, 181, 211, 240)


def test_a_question_past_its_limit_leaves_the_card_unweighed_and_its_class_found() -> None:
    """Where a question about the special points passes its limit, the card says so, its class
    change is still found, and the search tries again from the next trick on."""
    state = sample("29-fox-and-karlchen.yaml")
    whole = result_changes(state, game_id=state.game_id, from_trick=5)
    assert not whole.unweighed and any(c.re_before == c.re_after for c in whole.changes)
    cut = result_changes(state, game_id=state.game_id, from_trick=5, question_limit=20_000)
    assert cut.unweighed and cut.unweighed[0] == 16 and len(cut.unweighed) < 32
    classes = result_changes(state, game_id=state.game_id, from_trick=5, specials=False).changes
    assert [c.index for c in classes] == [c.index for c in whole.changes if c.re_before != c.re_after]
    assert {c.index for c in classes} <= {c.index for c in cut.changes}
    weighed = {c.index: c for c in whole.changes}
    for c in cut.changes:
        if c.index in cut.unweighed:
            assert c.specials_before is None and c.re_before != c.re_after
        else:
            assert c == weighed[c.index]
