"""How a table keeps its sheet (docs/rules.md §9, option `counting`): each deal's sheet row
under plus_minus, winners_only and losers_only, and money settled exactly, on the totals
themselves when every deal was counted plus/minus and on the differences between players
otherwise."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.rules.counting import money, sheet_points
from doko_ledger.doppelkopf.rules.ruleset import Counting, rules_from_mapping

COUNTINGS: tuple[Counting, ...] = ("plus_minus", "winners_only", "losers_only")
DEAL = {"Anna": 3, "Ben": 3, "Clara": -3, "Dirk": -3}
SOLO = {"Anna": -2, "Ben": 6, "Clara": -2, "Dirk": -2, "Emil": 0}


@pytest.mark.parametrize(
    ("counting", "points", "sheet"),
    [
        ("plus_minus", DEAL, DEAL),
        ("winners_only", DEAL, {"Anna": 3, "Ben": 3, "Clara": 0, "Dirk": 0}),
        ("losers_only", DEAL, {"Anna": 0, "Ben": 0, "Clara": -3, "Dirk": -3}),
        ("plus_minus", SOLO, SOLO),
        ("winners_only", SOLO, {"Anna": 0, "Ben": 6, "Clara": 0, "Dirk": 0, "Emil": 0}),
        ("losers_only", SOLO, {"Anna": -2, "Ben": 0, "Clara": -2, "Dirk": -2, "Emil": 0}),
    ],
)
def test_the_sheet_row_of_a_deal(counting: Counting, points: dict[str, int], sheet: dict[str, int]) -> None:
    before = dict(points)
    assert sheet_points(points, counting) == sheet
    assert points == before  # the deal's own points never change


@pytest.mark.parametrize(
    ("totals", "zero_sum", "expected"),
    [
        (
            {"Anna": 12, "Ben": -4, "Clara": -8, "Dirk": 0},
            True,
            {"Anna": "0.60", "Ben": "-0.20", "Clara": "-0.40", "Dirk": "0.00"},
        ),
        # winners only: Anna 9, Ben 3, Clara 0, Dirk 0 -> each pair settles the difference:
        # Anna gets 9-3 + 9-0 + 9-0 = 24 points, Ben 3-9 + 3 + 3 = 0, Clara and Dirk -12 each
        (
            {"Anna": 9, "Ben": 3, "Clara": 0, "Dirk": 0},
            False,
            {"Anna": "1.20", "Ben": "0.00", "Clara": "-0.60", "Dirk": "-0.60"},
        ),
        # losers only: Anna -2, Ben -6, Clara 0, Dirk 0, Emil -1
        (
            {"Anna": -2, "Ben": -6, "Clara": 0, "Dirk": 0, "Emil": -1},
            False,
            {"Anna": "-0.05", "Ben": "-1.05", "Clara": "0.45", "Dirk": "0.45", "Emil": "0.20"},
        ),
    ],
)
def test_money_for_the_totals(totals: dict[str, int], zero_sum: bool, expected: dict[str, str]) -> None:
    got = money(totals, Decimal("0.05"), zero_sum)
    assert got == {p: Decimal(v) for p, v in expected.items()}
    assert sum(got.values()) == 0


def test_pairs_settle_the_differences_of_their_totals() -> None:
    totals = {"Anna": 7, "Ben": 2, "Clara": 0, "Dirk": 0}
    got = money(totals, Decimal("0.1"), zero_sum=False)
    pairs = {p: sum((totals[p] - totals[q]) * Decimal("0.1") for q in totals) for p in totals}
    assert got == pairs


POINTS = st.integers(min_value=-60, max_value=60)


@st.composite
def deals(draw: st.DrawFn) -> list[dict[str, int]]:
    """Zero-sum deals of 4 to 7 players (some sit out: 0), as a night's bock-applied points."""
    players = ["Anna", "Ben", "Clara", "Dirk", "Emil", "Fritz", "Gabi"][: draw(st.integers(4, 7))]
    out = []
    for _ in range(draw(st.integers(0, 20))):
        at_table = draw(st.permutations(players))[:4]
        value = draw(st.integers(0, 30))
        lone = draw(st.booleans())
        winners = at_table[:1] if lone else at_table[:2]
        sign = draw(st.sampled_from([1, -1]))  # the lone player may lose
        points = dict.fromkeys(players, 0)
        for p in at_table:
            share = 3 * value if lone and p in winners else value
            points[p] = sign * share if p in winners else -sign * value
        out.append(points)
    return out


@given(deals(), st.sampled_from(COUNTINGS), st.decimals(min_value=Decimal("0.01"), max_value=Decimal("2"), places=2))
def test_money_sums_to_zero_and_is_exact_under_every_counting(
    night: list[dict[str, int]], counting: Counting, rate: Decimal
) -> None:
    if not night:
        return
    players = list(night[0])
    rows = [sheet_points(deal, counting) for deal in night]
    totals = {p: sum(row[p] for row in rows) for p in players}
    paid = money(totals, rate, zero_sum=counting == "plus_minus")
    assert sum(paid.values()) == 0
    assert all(v == v.quantize(Decimal("0.01")) for v in paid.values())  # cents at a rate in cents
    for p in players:
        for q in players:
            if counting == "plus_minus":
                assert paid[p] - paid[q] == (totals[p] - totals[q]) * rate
            else:
                assert paid[p] - paid[q] == len(players) * (totals[p] - totals[q]) * rate


@given(deals())
def test_plus_minus_sheet_rows_sum_to_zero(night: list[dict[str, int]]) -> None:
    for deal in night:
        assert sum(deal.values()) == 0
        assert sheet_points(deal, "plus_minus") == deal and sum(sheet_points(deal, "plus_minus").values()) == 0
        winners, losers = sheet_points(deal, "winners_only"), sheet_points(deal, "losers_only")
        assert {p: winners[p] + losers[p] for p in deal} == deal  # the two one-sided sheets make the whole
        assert all(v >= 0 for v in winners.values()) and all(v <= 0 for v in losers.values())


OVERLAPS = ("queue", "stack", "extend", "ignore")
EFFECTS = ("multiply", "extra_point")


@given(
    st.sampled_from(OVERLAPS),
    st.sampled_from(EFFECTS),
    st.lists(
        st.tuples(st.sampled_from([0, 60, 100, 119, 120, 121, 151, 200, 240]), st.booleans(), st.booleans()),
        min_size=1,
        max_size=14,
    ),
)
def test_every_bock_deal_of_a_night_is_zero_sum(overlap: str, effect: str, plays: list[tuple[int, bool, bool]]) -> None:
    """Under every overlap and effect, every deal's points (bock applied) sum to zero, and so
    does its plus/minus sheet row."""
    night = Night()
    rules = rules_from_mapping(
        {
            "bock_triggers": ["tie", "lost_solo", "schwarz", "heart_trick", "nobody_wins"],
            "bock_overlap": overlap,
            "bock_effect": effect,
        }
    )
    night.start(StartNight("n", ("Anna", "Ben", "Clara", "Dirk", "Emil"), 0, rules))
    for re_points, lone, hearts in plays:
        at_table = night.schedule().next.playing
        game, re = ("club_solo", at_table[:1]) if lone else ("normal", at_table[:2])
        tricks = (12, 0) if re_points == 240 else (0, 12) if re_points == 0 else None
        night.add(night.deal_record(SummaryRecord(game, tuple(re), re_points, tricks, heart_trick=hearts)))
    for row in night.schedule().rows:
        assert sum(row.deltas.values()) == 0
        assert sum(sheet_points(row.deltas, "plus_minus").values()) == 0
