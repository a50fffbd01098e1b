"""`doko record --bock N [--bock-by NAME] [--bock-reason TEXT]`: Bock, Doppelbock or Triplebock
marked with the deal, by its facts, by its value or thrown in, appended with the deal in one
write; `doko undo` takes both back; refusals leave nothing written (docs/rules.md §9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, flat, ok, refused
from typer.testing import Result

Cli = Callable[..., Result]


@pytest.fixture
def night(cli: Cli) -> Cli:
    ok(cli("session", "start", "n", "--players", "Anna,Ben,Clara,Dirk", "--by", "Anna"))
    return cli


def standings(cli: Cli) -> Any:
    return as_json(cli("standings", "--json"))


def rounds(cli: Cli) -> list[tuple[int, str, str, int, bool]]:
    return [
        (b["deal"], b["declared_by"], b["reason"], b["deals_left"], b["in_force"])
        for b in standings(cli)["bock_rounds"]
    ]


def test_a_doppelbock_mark_comes_with_the_deal_by_its_facts(night: Cli) -> None:
    answer = ok(night("record", "--re", "Anna,Ben", "--re-points", "151", "--bock", "2", "--by", "Ben", "--yes"))
    text = flat(answer.stdout)
    assert "with it: bock declared by Ben (marked with the deal): 2 rounds with deal 1" in text
    assert "recorded deal 1 as n-01, with bock declared by Ben (marked with the deal): 2 rounds with deal 1" in text
    assert rounds(night) == [(1, "Ben", "marked with the deal", 4, True), (1, "Ben", "marked with the deal", 4, False)]
    assert standings(night)["next"]["multiplier"] == 2


def test_a_value_entry_takes_the_mark_declared_by_someone_else(night: Cli) -> None:
    answer = night(
        "record", "--winners", "Clara", "--value", "2", "--solo", "--bock", "1", "--bock-by", "dirk",
        "--bock-reason", "Hochzeit", "--yes", "--json",
    )  # fmt: skip
    assert as_json(answer)["bock_marked"] == "bock declared by Dirk (Hochzeit) with deal 1"
    assert rounds(night) == [(1, "Dirk", "Hochzeit", 4, True)]


def test_a_thrown_in_deal_may_carry_a_mark(night: Cli) -> None:
    """A misdeal sets off no trigger, but the table may still declare bock with it by hand."""
    assert as_json(night("record", "--misdeal", "--bock", "1", "--by", "Anna", "--yes", "--json"))["thrown_in"]
    assert rounds(night) == [(1, "Anna", "marked with the deal", 4, True)]
    assert standings(night)["deals"][0]["thrown_in"] is True


def test_undo_takes_back_the_deal_and_its_mark(night: Cli) -> None:
    ok(night("record", "--re", "Anna,Ben", "--re-points", "151", "--bock", "3", "--by", "Ben", "--yes"))
    assert "with the bock declared with it" in flat(ok(night("undo", "--yes")).stdout)
    shown = standings(night)
    assert shown["deals"] == [] and shown["bock_rounds"] == [] and shown["changes"] == []


def test_trying_again_with_the_deal_number_writes_nothing_twice(night: Cli) -> None:
    ok(night("record", "--deal", "1", "--re", "Anna,Ben", "--re-points", "151", "--bock", "2", "--by", "Ben", "--yes"))
    again = night(
        "record", "--deal", "1", "--re", "Anna,Ben", "--re-points", "151", "--bock", "2", "--by", "Ben", "--yes"
    )
    refused(again, "deal 1 is already recorded")
    assert len(standings(night)["deals"]) == 1 and len(rounds(night)) == 2


@pytest.mark.parametrize(
    ("options", "code", "words"),
    [
        (("--bock", "4", "--by", "Ben"), 1, "bock is declared for 1 to 3 rounds at once, not 4"),
        (
            ("--bock", "1", "--bock-by", "Zoe"),
            1,
            "who declares bock: 'Zoe' is not at the table (Anna, Ben, Clara, Dirk)",
        ),
        (("--bock", "1", "--by", "Zoe"), 1, "who declares bock: 'Zoe' is not at the table"),
        (("--bock-by", "Ben"), 2, "--bock-by and --bock-reason describe a --bock mark"),
        (("--bock", "1", "--by", "Ben", "--bock-reason", "x" * 200), 1, "the reason"),
    ],
)
def test_a_refused_mark_records_nothing(night: Cli, options: tuple[str, ...], code: int, words: str) -> None:
    answer = night("record", "--re", "Anna,Ben", "--re-points", "151", *options, "--yes")
    assert answer.exit_code == code
    refused(answer, words)
    assert standings(night)["deals"] == [] and standings(night)["bock_rounds"] == []
