"""A bock deal's score (docs/rules.md §9): with `bock_effect: extra_point` the winners' value
grows by a game point per round in force, one line "bock +N" in the derivation, a lone player
three times that, nothing when nobody wins; the standings, the score, the read models and the
deal's place all say the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.doppelkopf.views import score_view
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

AT = "2026-12-01T20:00:00+00:00"
FOUR = ("Anna", "Ben", "Clara", "Dirk")


def night(tmp_path: Path, **options: Any) -> Ledger:
    ledger = Ledger.open(tmp_path / "ledger.sqlite", create=True)
    rules = rules_from_mapping({"bock_triggers": ["tie"], **options})
    ledger.book_of(DOPPELKOPF).nights.start(StartNight("n", FOUR, 0, rules), by="t", at=AT)
    return ledger


def add(ledger: Ledger, summary: SummaryRecord) -> str:
    nights = card_nights(ledger)
    prepared = nights.prepare("n", summary)
    nights.commit(prepared, by="t", at=AT)
    ledger.refresh()
    return prepared.game_id


def tie() -> SummaryRecord:
    return SummaryRecord("normal", ("Anna", "Ben"), 120)


@pytest.mark.parametrize(
    ("summary", "winner", "before", "after"),
    [
        (SummaryRecord("normal", ("Anna", "Ben"), 130), Party.RE, 1, 2),
        (SummaryRecord("normal", ("Clara", "Dirk"), 100), Party.KONTRA, 2, 3),  # against the old ones
        (SummaryRecord("normal", ("Anna", "Ben"), 240, (12, 0)), Party.RE, 5, 6),  # won, no 90, 60, 30, no trick
    ],
)
def test_extra_point_bock_grows_the_winners_value_by_one(
    tmp_path: Path, summary: SummaryRecord, winner: Party, before: int, after: int
) -> None:
    ledger = night(tmp_path, bock_effect="extra_point")
    add(ledger, tie())
    game_id = add(ledger, summary)
    result = ledger.book_of(DOPPELKOPF).score(game_id)
    assert result.score is not None and result.score.winner is winner
    last = result.score.lines[-1]
    assert (last.item, last.party, last.points, last.factor) == ("bock +1", winner, 1, 1)
    assert last.cause == "deal 1, 120:120 tie"
    assert result.score.value == after
    winners = set(summary.re) if winner is Party.RE else set(FOUR) - set(summary.re)
    assert result.by_player == {p: after if p in winners else -after for p in FOUR}
    row = card_nights(ledger).standings("n").rows[-1]
    assert row.deltas == result.by_player and row.multiplier == 1 and row.bock == "deal 1, 120:120 tie"
    assert row.outcome.deltas == {p: before if p in winners else -before for p in FOUR}


def test_a_lone_winner_gets_three_times_the_extra(tmp_path: Path) -> None:
    ledger = night(tmp_path, bock_effect="extra_point")
    add(ledger, tie())
    game_id = add(ledger, SummaryRecord("club_solo", ("Clara",), 130))
    result = ledger.book_of(DOPPELKOPF).score(game_id)
    assert result.by_player == {"Anna": -2, "Ben": -2, "Clara": 6, "Dirk": -2}  # the solo's 1, +1 bock, x3


def test_a_lone_loser_pays_three_times_the_extra(tmp_path: Path) -> None:
    ledger = night(tmp_path, bock_effect="extra_point")
    add(ledger, tie())
    game_id = add(ledger, SummaryRecord("club_solo", ("Clara",), 100))
    result = ledger.book_of(DOPPELKOPF).score(game_id)
    assert result.by_player == {"Anna": 2, "Ben": 2, "Clara": -6, "Dirk": 2}


def test_a_deal_nobody_wins_gets_nothing_extra(tmp_path: Path) -> None:
    ledger = night(tmp_path, bock_effect="extra_point")
    add(ledger, tie())
    calls = (("Anna", "no90"), ("Clara", "no90"))  # both deny, both miss: nobody wins
    game_id = add(ledger, SummaryRecord("normal", ("Anna", "Ben"), 140, None, calls))
    result = ledger.book_of(DOPPELKOPF).score(game_id)
    assert result.score is not None and result.score.winner is None
    last = result.score.lines[-1]
    assert last.item == "bock +1: nobody won, nothing added" and last.points == 0 and last.party is None
    assert result.by_player == card_nights(ledger).standings("n").rows[-1].outcome.deltas


def test_the_read_models_keep_the_extra_point(tmp_path: Path) -> None:
    """The score read back from the read models (one look-up, no fold of the night) is the
    night's: its place carries the bock with its extra point."""
    ledger = night(tmp_path, bock_effect="extra_point")
    add(ledger, tie())
    game_id = add(ledger, SummaryRecord("normal", ("Anna", "Ben"), 130))
    from doko_ledger.doppelkopf import game_list

    place = game_list.place_of(ledger.store.db, game_id)
    assert place is not None and place.bock is not None
    assert (place.bock.multiplier, place.bock.extra, place.bock.cause) == (1, 1, "deal 1, 120:120 tie")
    assert place.view()["bock"] == {"multiplier": 1, "cause": "deal 1, 120:120 tie", "extra": 1}
    row = ledger.store.db.execute("SELECT multiplier, bock, bock_extra FROM scores WHERE game_id = ?", [game_id])
    assert tuple(row.fetchone()) == (1, "deal 1, 120:120 tie", 1)
    view = score_view(ledger.book_of(DOPPELKOPF).score(game_id))
    assert view["lines"][-1]["item"] == "bock +1" and view["players"] == {"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2}


def test_multiply_stays_as_it_was(tmp_path: Path) -> None:
    ledger = night(tmp_path)
    add(ledger, tie())
    game_id = add(ledger, SummaryRecord("normal", ("Anna", "Ben"), 130))
    result = ledger.book_of(DOPPELKOPF).score(game_id)
    assert result.score is not None
    last = result.score.lines[-1]
    assert (last.item, last.factor, last.points, last.cause) == ("bock x2", 2, 0, "deal 1, 120:120 tie")
    assert result.by_player == {"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2}
    assert ledger.store.db.execute("SELECT bock_extra FROM scores WHERE game_id = ?", [game_id]).fetchone()[0] == 0
    place = card_nights(ledger).page("n").places[game_id]
    assert place.view()["bock"] == {"multiplier": 2, "cause": "deal 1, 120:120 tie"}


def test_doppelbock_stacked_counts_four_times(tmp_path: Path) -> None:
    ledger = night(tmp_path, bock_triggers=["tie", "lost_solo"], bock_overlap="stack")
    add(ledger, SummaryRecord("club_solo", ("Anna",), 120))  # a lost solo and a tie: two rounds at once
    game_id = add(ledger, SummaryRecord("normal", ("Anna", "Ben"), 130))
    result = ledger.book_of(DOPPELKOPF).score(game_id)
    assert result.score is not None and result.score.lines[-1].item == "bock x4"
    assert result.score.lines[-1].cause == "deal 1, 120:120 tie; deal 1, lost solo"
    assert result.by_player == {"Anna": 4, "Ben": 4, "Clara": -4, "Dirk": -4}
