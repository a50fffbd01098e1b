"""Every published scoring example of ../shared/examples/scoring_vectors.yaml, as a test.

The file is read from ../shared when the checkout sits beside it (as in CI), else from
the copy in tests/fixtures; the copy must equal the original wherever both exist.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import DealFacts, Special, SpecialKind, score

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "examples" / "scoring_vectors.yaml"
COPY = ROOT / "tests" / "fixtures" / "scoring_vectors.yaml"
SOURCE = SHARED if SHARED.exists() else COPY
VECTORS: list[dict[str, Any]] = yaml.safe_load(SOURCE.read_text(encoding="utf-8"))


def test_the_fixture_copy_is_the_published_file() -> None:
    if SHARED.exists():
        assert COPY.read_text(encoding="utf-8") == SHARED.read_text(encoding="utf-8")
    assert len(VECTORS) >= 10


def facts_of(vector: dict[str, Any]) -> DealFacts:
    game = GameType(vector["game"])
    announced = {
        Party(party): max((Announcement(a).level for a in calls), default=-1)
        for party, calls in vector["announced"].items()
    }
    points = vector["card_points"]
    assert points["re"] + points["kontra"] == 240
    tricks = vector.get("tricks", {p: (1 if points[p] > 0 else 0) for p in ("re", "kontra")})
    specials = tuple(
        Special(SpecialKind(kind), Party(party)) for party, kinds in vector["specials"].items() for kind in kinds
    )
    return DealFacts(
        game_type=game,
        lone=game.is_solo,
        re_points=points["re"],
        re_tricks=tricks["re"],
        kontra_tricks=tricks["kontra"],
        announced=announced,
        specials=specials,
    )


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_scoring_vector(vector: dict[str, Any]) -> None:
    spec = vector["rules"]
    rules = preset(spec) if isinstance(spec, str) else rules_from_mapping(spec)
    result = score(facts_of(vector), rules)
    expect = vector["expect"]
    assert result.winner is Party(expect["winner"])
    assert result.value == expect["value"]
    re_seats = (0,) if result.lone else (0, 2)
    deltas = result.deltas(re_seats, range(4))
    assert sum(deltas.values()) == 0
    winners = [s for s in range(4) if (s in re_seats) == (result.winner is Party.RE)]
    assert all(deltas[s] == expect["value"] * (3 if result.lone and s in re_seats else 1) for s in winners)
