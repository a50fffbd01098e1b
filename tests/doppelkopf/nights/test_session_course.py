"""A card night derived as it grows: reading a session file derives each deal's outcome once
and folds each deal into the night's course once (linear, not every earlier deal again per
deal), and the course it keeps is the one `plan` folds from scratch, through voids and
corrections too. The CPU time for 250/500/1,000 deals is in bench/bench_session_file.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from doko_ledger.doppelkopf.files import night_file as session_file
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights import night as recorder
from doko_ledger.doppelkopf.nights import schedule
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.outcome import deal_outcome
from doko_ledger.doppelkopf.nights.schedule import plan
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping

PLAYERS = ("Anna", "Ben", "Clara", "Dirk", "Emil")


def _night_text(deals: int) -> str:
    """Five players, so dealers and sit-outs matter, with misdeals, solos and bock rounds."""
    rng = random.Random(15)
    lines = [
        "format: doko-session/1",
        "id: long-night",
        f"players: [{', '.join(PLAYERS)}]",
        "first_dealer: Anna",
        "rules: {preset: standard, bock_triggers: [tie, lost_solo]}",
        "deals:",
    ]
    dealer = 0
    for _ in range(deals):
        at_table = schedule.playing(PLAYERS, dealer)
        roll = rng.random()
        if roll < 0.1:
            lines.append("  - {misdeal: true}")
            continue
        if roll < 0.2:
            lines.append(f"  - {{game: club_solo, re: [{rng.choice(at_table)}], re_points: {rng.randint(60, 200)}}}")
        else:
            re = rng.sample(at_table, 2)
            points = 120 if rng.random() < 0.15 else rng.randint(40, 220)
            lines.append(f"  - {{game: normal, re: [{re[0]}, {re[1]}], re_points: {points}}}")
        dealer = (dealer + 1) % len(PLAYERS)
    return "\n".join(lines) + "\n"


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls = [0]
    original: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_reading_a_night_derives_each_deal_once(monkeypatch: pytest.MonkeyPatch) -> None:
    deals = 120
    outcomes = _counting(monkeypatch, recorder, "deal_outcome")
    rows = _counting(monkeypatch, schedule, "DealRow")
    loaded = session_file.read(_night_text(deals))
    assert len(loaded.night.state.deals) == deals
    assert len(loaded.night.schedule().rows) == deals
    assert (outcomes[0], rows[0]) == (deals, deals)
    loaded.night.schedule()  # asked again: nothing is derived again
    assert (outcomes[0], rows[0]) == (deals, deals)


def _fresh(night: Night) -> schedule.Schedule:
    return plan(night.state, [deal_outcome(night.games[g]) for g in night.state.deals])


def test_the_course_kept_is_the_course_folded_from_scratch() -> None:
    rules = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "lost_solo"]})
    night = Night()
    night.start(StartNight("night", PLAYERS, 2, rules, 8))
    rng = random.Random(3)
    for step in range(60):
        at_table = night.schedule().next.playing
        roll = rng.random()
        if roll < 0.1 and night.state.deals:
            night.void_last()
        elif roll < 0.2 and night.state.deals:
            game_id = night.state.deals[-1]
            players = night.games[game_id].players
            night.correct(game_id, SummaryRecord("normal", players[:2], rng.choice((120, 150)), None, ()))
        elif roll < 0.3:
            night.add(night.deal_record(None, abandoned=True))
        else:
            re = tuple(rng.sample(at_table, 1 if roll < 0.4 else 2))
            game = "club_solo" if len(re) == 1 else "normal"
            night.add(night.deal_record(SummaryRecord(game, re, rng.choice((80, 120, 160)), None, ())))
        assert night.schedule() == _fresh(night), f"step {step}"
