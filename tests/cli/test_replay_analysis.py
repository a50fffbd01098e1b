"""`doko replay --analysis`: the cards that cost their party something marked with one glyph each,
their verdicts as `analysis.view` words them (never worded again here), and the line that says
every hand was known; in the stepper's frames, the printed replay and the JSON."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import as_json, flat, ok, refused
from rich.console import Console
from typer.testing import Result

from doko_ledger.cli import render_frames
from doko_ledger.doppelkopf.analysis.verdicts import GameAnalysis
from doko_ledger.doppelkopf.analysis.view import DOUBLE_DUMMY, verdict_line
from doko_ledger.doppelkopf.analysis_marks import CARD_POINTS, GAME, Mark, marks, marks_view
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

Cli = Callable[..., Result]
SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = "2026-11-28-kitchen-01-normal"
FROM = "9"
"""Where the analyses here start: a few tricks, so quick."""


@pytest.fixture
def imported(cli: Cli, ledger_path: Path) -> GameAnalysis:
    """The sample normal game, a game recorded by its facts and a Dou Dizhu deal; the normal
    game's analysis from trick `FROM`, as the library gives it."""
    for name in ("01-normal.yaml", "31-summary-specials.yaml", "doudizhu/01-landlord-rocket.yaml"):
        ok(cli("import", SAMPLES / name))
    with Ledger.open(ledger_path) as ledger:
        found = ledger.book_of(DOPPELKOPF).analysis(NORMAL, int(FROM))
    assert found.costly(), "the sample's analysis marks no card: choose another starting trick"
    return found


def _players(ledger_path: Path) -> list[str]:
    with Ledger.open(ledger_path) as ledger:
        return list(ledger.book_of(DOPPELKOPF).state(NORMAL).players)


def test_the_printed_replay_ends_with_each_costly_card_in_play_order_and_the_honest_line(
    cli: Cli, imported: GameAnalysis, ledger_path: Path
) -> None:
    players = _players(ledger_path)
    text = flat(ok(cli("replay", NORMAL, "--analysis", "--from-trick", FROM)).stdout)
    costly = sorted(imported.costly(), key=lambda v: v.index)
    expected = [f"{GAME if v.game_points else CARD_POINTS} {verdict_line(v, players)}" for v in costly]
    assert text.endswith(flat(" ".join([*expected, DOUBLE_DUMMY])))
    assert flat(DOUBLE_DUMMY) not in flat(ok(cli("replay", NORMAL)).stdout)


def test_a_players_view_marks_only_that_players_cards(cli: Cli, imported: GameAnalysis, ledger_path: Path) -> None:
    players = _players(ledger_path)
    for player in players:
        text = flat(ok(cli("replay", NORMAL, "--analysis", "--from-trick", FROM, "--as", player)).stdout)
        for v in imported.costly():
            assert (flat(verdict_line(v, players)) in text) is (players[v.seat] == player)
        assert DOUBLE_DUMMY in text


def test_the_json_holds_the_marks(cli: Cli, imported: GameAnalysis, ledger_path: Path) -> None:
    players = _players(ledger_path)
    data = as_json(cli("replay", NORMAL, "--analysis", "--from-trick", FROM, "--json"))
    assert data["analysis"] == marks_view(imported, players)
    steps = [m["step"] for m in data["analysis"]["marks"]]
    assert steps == sorted(v.index + 1 for v in imported.costly())
    assert data["analysis"]["note"] == DOUBLE_DUMMY
    assert "analysis" not in as_json(cli("replay", NORMAL, "--json"))


def test_the_analysis_is_kept_and_read_again(cli: Cli, imported: GameAnalysis, monkeypatch: pytest.MonkeyPatch) -> None:
    from doko_ledger.doppelkopf.analysis import analyze

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("analysed again")

    monkeypatch.setattr(analyze, "analyze_game", never)
    ok(cli("replay", NORMAL, "--analysis", "--from-trick", FROM))


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--from-trick", "3"], "add --analysis"),
        (["--analysis", "--tournament"], "--tournament hides"),
    ],
)
def test_options_that_do_not_go_together_are_refused(
    cli: Cli, imported: GameAnalysis, args: list[str], fragment: str
) -> None:
    refused(cli("replay", NORMAL, *args), fragment)


def test_games_without_cards_or_of_another_game_are_refused(cli: Cli, imported: GameAnalysis) -> None:
    refused(cli("replay", "2026-12-05-verein-09", "--analysis"))  # the deal recorded by its facts
    refused(cli("replay", "ddz-", "--analysis"), "--analysis is for Doppelkopf games")


# -- the stepper's frames -------------------------------------------------------------------


def _frame_text(view: dict[str, Any], index: int, shown: dict[int, Mark] | None) -> str:
    console = Console(width=120, color_system=None, record=True)
    console.print(render_frames.frame(view, index, keys=True, marks=shown))
    return console.export_text()


def test_each_frame_marks_the_costly_cards_on_the_table_and_says_the_verdict_at_its_step(
    cli: Cli, imported: GameAnalysis, ledger_path: Path
) -> None:
    with Ledger.open(ledger_path) as ledger:
        view = ledger.book_of(DOPPELKOPF).frames(NORMAL)
    shown = marks(imported, view["players"])
    for index, frame in enumerate(view["frames"]):
        text = _frame_text(view, index, shown)
        here = shown.get(frame["step"])
        lines = [m.line for m in shown.values() if flat(m.line) in flat(text)]
        assert lines == ([] if here is None else [here.line])
        assert flat(DOUBLE_DUMMY) in flat(text)
        first = frame["step"] - frame["card"] + 1
        on_table = {first + k: play for k, play in enumerate(frame["trick_cards"])}
        for step, mark in shown.items():
            if step in on_table:
                row = next(line for line in text.splitlines() if line.startswith(f"│ {on_table[step]['player']}"))
                assert mark.card.pretty + mark.glyph in row
        assert text.count(GAME) + text.count(CARD_POINTS) >= sum(1 for s in shown if s in on_table)
    plain = _frame_text(view, len(view["frames"]) - 1, None)
    assert flat(DOUBLE_DUMMY) not in flat(plain)


def test_the_exported_html_replay_keeps_the_marks(cli: Cli, imported: GameAnalysis, ledger_path: Path) -> None:
    import json
    import re

    page = ok(cli("export", NORMAL, "--format", "html", "--analysis", "--from-trick", FROM)).stdout
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)[1])
    assert data["analysis"] == marks_view(imported, _players(ledger_path))
    assert "connect-src" not in page  # the file asks nothing of any server
    assert '"analysis"' not in ok(cli("export", NORMAL, "--format", "html")).stdout
    refused(cli("export", NORMAL, "--analysis"), "add --format html")
