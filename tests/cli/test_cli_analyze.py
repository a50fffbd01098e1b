"""`doko analyze` through typer's CliRunner: the table and summary, the JSON against golden
files (sample games from a late trick, so they run fast), and the refusals as one line, exit 2.

To write the golden files anew after a change of the solver's answers (and `SOLVER_VERSION`):
`DOKO_WRITE_GOLDEN=1 pytest tests/cli/test_cli_analyze.py`, then read the diff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import as_json, flat, ok, refused, table_rows
from typer.testing import Result

from doko_ledger.doppelkopf.analysis.view import DOUBLE_DUMMY

Cli = Callable[..., Result]

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"
GOLDEN_DIR = Path(__file__).resolve().parents[1] / "doppelkopf" / "analysis" / "golden"
GOLDEN = {
    "2026-11-28-kitchen-01-normal": 8,
    "2026-12-05-verein-01-second-dulle": 8,
    "2026-11-28-kitchen-03-heart-solo": 9,
    "2026-12-05-verein-06-poverty": 9,
    "2026-11-29-anker-02-schweinchen": 6,
}


@pytest.fixture
def samples(cli: Cli) -> Cli:
    ok(cli("import", SAMPLES_DIR))
    ok(cli("import", SAMPLES_DIR / "doudizhu"))
    return cli


@pytest.mark.parametrize("game", sorted(GOLDEN))
def test_the_json_of_a_sample_game_is_its_golden_file(samples: Cli, game: str) -> None:
    got = as_json(samples("analyze", game, "--from-trick", str(GOLDEN[game]), "--json"))
    path = GOLDEN_DIR / f"{game}.json"
    if os.environ.get("DOKO_WRITE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert got == json.loads(path.read_text(encoding="utf-8"))


def test_the_table_shows_the_costly_cards_biggest_first_and_each_player(samples: Cli) -> None:
    result = ok(samples("analyze", "2026-11-28-kitchen-01", "--from-trick", "8"))
    text = flat(result.stdout)
    assert "Anna's ♦9 in trick 9: 21 card points, and the game: Re 187 → 166, 1 game point" in text
    assert flat(DOUBLE_DUMMY) in text
    rows = table_rows(result.stdout)
    costly = [r for r in rows if len(r) == 8 and r[0].isdigit()]
    assert costly[0][:6] == ["9", "Anna", "♦9", "♥Q", "21", "1"]
    points = [(int(r[5]), int(r[4])) for r in costly]
    assert points == sorted(points, reverse=True)
    players = [r[0] for r in rows if len(r) == 6]
    assert players == ["Anna", "Ben", "Clara", "Dirk"]


def test_sampled_deals_mark_the_mistakes(samples: Cli) -> None:
    got = as_json(samples("analyze", "2026-11-28-kitchen-01", "--from-trick", "9", "--worlds", "6", "--json"))
    assert got["costly"] and all(0 <= c["worse_share"] <= 1 for c in got["costly"])
    assert sum(p["mistakes"] for p in got["players"]) == sum(1 for c in got["costly"] if c["mistake"])


def test_the_german_table_names_the_cards_as_its_lines_do_and_says_what_a_share_means(samples: Cli) -> None:
    result = ok(samples("--lang", "de", "analyze", "2026-11-28-kitchen-01", "--from-trick", "9", "--worlds", "6"))
    text = flat(result.stdout)
    assert "Anna, ♦9 in Stich 9: 21 Augen" in text
    costly = [r for r in table_rows(result.stdout) if len(r) == 8 and r[0].isdigit()]
    assert costly[0][:4] == ["9", "Anna", "♦9", "♥D"]  # the queen is a Dame, as in every German line
    shares = [r[7] for r in costly if r[7].startswith("nein")]
    assert shares and all(share.startswith("nein (") and share.endswith("%)") for share in shares)
    assert "nein (ein Anteil): kein Fehler, schlechter in diesem Anteil der Verteilungen" in text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("2026-12-05-verein-09",), "recorded by its facts"),
        (("nosuch",), "no game 'nosuch'"),
        (("2026-11-28-kitchen-01", "--from-trick", "13"), "has no trick 13: tricks 1 to 12"),
        (("2026-11-28-kitchen-01", "--from-trick", "0"), "has no trick 0"),
        (("ddz-2026-11-29-01",), "not a Doppelkopf game"),
    ],
)
def test_what_cannot_be_analysed_is_one_line_and_exit_2(samples: Cli, args: tuple[str, ...], fragment: str) -> None:
    result = samples("analyze", *args)
    refused(result, fragment)
    assert result.exit_code == 2


def test_without_from_trick_the_library_default_is_weighed(samples: Cli) -> None:
    from doko_ledger.doppelkopf.analysis.verdicts import DEFAULT_FROM_TRICK

    got = as_json(samples("analyze", "2026-11-28-kitchen-01", "--json"))
    assert DEFAULT_FROM_TRICK == 7 and got["from_trick"] == 7 and got["cards"] == 24  # 12 tricks
    bistro = as_json(samples("analyze", "2026-11-29-anker-02", "--json"))
    assert bistro["from_trick"] == 7 and bistro["cards"] == 16  # 10 tricks: the last four


def test_an_analysis_is_kept_and_read_back_the_next_time(
    samples: Cli, ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from doko_ledger.doppelkopf import analyses
    from doko_ledger.doppelkopf.analysis import analyze
    from doko_ledger.ledger import Ledger

    game = "2026-11-28-kitchen-01-normal"
    first = as_json(ok(samples("analyze", game, "--from-trick", "10", "--json")))
    with Ledger.open(ledger_path) as ledger:
        assert analyses.count(ledger.store.db) == 1

    def not_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("analysed again")

    monkeypatch.setattr(analyze, "analyze_game", not_again)
    assert as_json(ok(samples("analyze", game, "--from-trick", "10", "--json"))) == first
    with Ledger.open(ledger_path) as ledger:
        assert analyses.count(ledger.store.db) == 1
