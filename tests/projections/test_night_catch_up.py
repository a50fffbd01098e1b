"""Hypothesis over card nights recorded through the ledger, on SQLite and on PostgreSQL: after
every write (deals, bock marked with a deal, undos, corrections, joins, leaves, rule changes,
bock by hand, a note on a deal), the read models caught up step by step (a night that only
grew takes its new deals' rows alone) are exactly the read models folded from the whole log
(`doko verify`), and the night this process keeps folded is the night read anew from the log."""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import pytest
from backends import new_target
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.book import BockMark, CardNights, session_stream
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.kept import KEPT
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.standings import standings
from doko_ledger.doppelkopf.projection import FOLDS
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, rules_from_mapping
from doko_ledger.errors import DokoError
from doko_ledger.ledger import Ledger
from doko_ledger.streams import game_stream

NAMES = ("Anna", "Ben", "Clara", "Dirk", "Emil", "Fritz")
AT = "2026-12-02T20:00:00+00:00"
RULES = st.builds(
    lambda triggers, overlap, effect: rules_from_mapping(
        {"bock_triggers": list(triggers), "bock_overlap": overlap, "bock_effect": effect}
    ),
    st.lists(st.sampled_from(["tie", "lost_solo", "lost_re", "nobody_wins"]), unique=True, max_size=2),
    st.sampled_from(["queue", "stack", "extend"]),
    st.sampled_from(["multiply", "extra_point"]),
)
KINDS = ["deal", "deal", "deal", "deal", "marked", "solo", "misdeal", "undo", "correct", "join", "leave"]
OPS = st.lists(
    st.tuples(st.sampled_from([*KINDS, "rules", "bock", "note"]), st.integers(0, 1000), RULES), min_size=6, max_size=18
)
Ops = list[tuple[str, int, RuleSet]]
_examples = itertools.count()


def _summary(nights: CardNights, sid: str, kind: str, pick: int) -> SummaryRecord:
    playing = nights.standings(sid).next.playing
    if kind == "solo":
        return SummaryRecord("club_solo", (playing[pick % 4],), (60, 120, 121, 180)[pick % 4])
    re = (playing[pick % 4], playing[(pick + 1 + pick % 3) % 4])
    return SummaryRecord("normal", re, (0, 90, 120, 121, 151, 240)[pick % 6])


def step(ledger: Ledger, sid: str, op: str, pick: int, rules: RuleSet) -> None:
    """One write as the phones and the CLI make them; one the night refuses writes nothing."""
    nights = card_nights(ledger)
    version = nights.version(sid)
    if op in ("deal", "marked", "solo"):
        mark = BockMark(pick % 3 + 1, NAMES[pick % 4]) if op == "marked" else None
        prepared = nights.prepare(
            sid, _summary(nights, sid, op, pick), version=version, request_id=f"r{pick}", bock=mark
        )
        nights.commit(prepared, by="t", at=AT)
    elif op == "misdeal":
        nights.commit(nights.prepare(sid, None, misdeal=True, version=version), by="t", at=AT)
    elif op == "undo":
        nights.undo(sid, by="t", at=AT, version=version)
    elif op == "correct":
        deals = nights.state(sid).deals
        if deals:
            number = pick % len(deals) + 1
            nights.correct(sid, str(number), _summary(nights, sid, "deal", pick * 7), by="t", at=AT, version=version)
    elif op == "join":
        nights.join(sid, NAMES[pick % len(NAMES)], by="t", at=AT, version=version)
    elif op == "leave":
        nights.leave(sid, NAMES[pick % len(NAMES)], by="t", at=AT, version=version)
    elif op == "rules":
        nights.change_rules(sid, rules, by="t", at=AT, version=version)
    elif op == "bock":
        nights.declare_bock(sid, declared_by=NAMES[pick % 4], reason="", rounds=pick % 2 + 1, by="t", at=AT)
    else:
        deals = nights.state(sid).deals
        if deals:
            ledger.annotate(deals[pick % len(deals)], None, None, f"note {pick}", by="t", at=AT)


def read_anew(nights: CardNights, sid: str) -> Night:
    """The night folded from the log alone, as a new process would."""
    events = [r.event for r in nights.store.read_stream(session_stream(sid))]
    night = Night.load(events, {})
    names = (*night.state.deals, *night.state.voided, *night.state.replaced)
    return Night.load(events, {g: [r.event for r in nights.store.read_stream(game_stream(g))] for g in names})


def check_write_by_write(backend: str, request: pytest.FixtureRequest, folder: Path, first: RuleSet, ops: Ops) -> None:
    """Record `ops` on a new ledger on `backend`; after each write, the read models and the kept
    night are what the whole log gives."""
    with Ledger.open(new_target(backend, request, folder), create=True) as ledger:
        nights = card_nights(ledger)
        nights.start(StartNight("n", NAMES[:5], 0, first), by="t", at=AT)
        ledger.refresh()
        for op, pick, rules in ops:
            with contextlib.suppress(DokoError):  # refused: nothing written
                step(ledger, "n", op, pick, rules)
            ledger.refresh()
            report = ledger.verify()
            assert report.ok, (op, report.problems)
            anew = read_anew(nights, "n")
            assert nights.standings("n") == standings(anew.state, anew.schedule()), op
        assert FOLDS.get(ledger.store.db.execute("SELECT token FROM night_folds").fetchone()[0]) is not None
        KEPT.clear()  # a new process: the night read from the log alone
        anew = read_anew(nights, "n")
        assert nights.standings("n") == standings(anew.state, anew.schedule())


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / str(next(_examples))
    folder.mkdir()
    return folder


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=RULES, ops=OPS)
def test_read_models_caught_up_write_by_write_are_the_fold_of_the_whole_log(
    request: pytest.FixtureRequest, tmp_path: Path, first: RuleSet, ops: Ops
) -> None:
    check_write_by_write("sqlite", request, _folder(tmp_path), first, ops)


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=RULES, ops=OPS)
def test_the_same_on_postgresql(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: object, first: RuleSet, ops: Ops
) -> None:
    check_write_by_write("postgresql", request, _folder(tmp_path), first, ops)
