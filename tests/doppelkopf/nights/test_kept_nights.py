"""The nights a process keeps folded: what another process appends is caught up from the log's
tail, a log that is not the one folded (a ledger made anew at the same place) is folded from
the start, and what is kept is never changed by a write decided on it."""

from __future__ import annotations

from pathlib import Path

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.book import CardNights, session_stream
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.standings import Standings, standings
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import NewStreamEvents
from doko_ledger.streams import game_stream

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")
AT = "2026-12-02T20:00:00+00:00"
RULES = rules_from_mapping({"bock_triggers": ["tie"]})


def record(nights: CardNights, points: int) -> None:
    playing = nights.standings("n").next.playing
    nights.commit(nights.prepare("n", SummaryRecord("normal", playing[:2], points)), by="t", at=AT)


def read_anew(nights: CardNights) -> Standings:
    events = [r.event for r in nights.store.read_stream(session_stream("n"))]
    names = Night.load(events, {}).state
    ids = (*names.deals, *names.voided, *names.replaced)
    night = Night.load(events, {g: [r.event for r in nights.store.read_stream(game_stream(g))] for g in ids})
    return standings(night.state, night.schedule())


def written_elsewhere(nights: CardNights, points: int) -> None:
    """A deal appended as another process appends it: decided on the log, not on what this
    process keeps."""
    events = [r.event for r in nights.store.read_stream(session_stream("n"))]
    names = Night.load(events, {}).state
    night = Night.load(events, {g: [r.event for r in nights.store.read_stream(game_stream(g))] for g in names.deals})
    night.add(night.deal_record(SummaryRecord("normal", night.schedule().next.playing[:2], points)))
    batches = [NewStreamEvents(session_stream("n"), len(events), night.new_session_events)]
    batches += [NewStreamEvents(game_stream(g), 0, e) for g, e in night.new_games.items()]
    nights.store.append_streams(batches, recorded_by="cli", recorded_at=AT)


def test_a_deal_another_process_appended_is_caught_up(tmp_path: Path) -> None:
    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        nights = card_nights(ledger)
        nights.start(StartNight("n", PLAYERS, 0, RULES), by="t", at=AT)
        for points in (151, 120, 90):  # a tie: a bock round
            record(nights, points)
        kept = nights.page("n")
        written_elsewhere(nights, 181)
        ledger.annotate(nights.state("n").deals[0], None, None, "a note elsewhere", by="cli", at=AT)
        assert len(nights.standings("n").rows) == 4
        assert nights.standings("n") == read_anew(nights)
        assert nights.page("n") is not kept and nights.page("n").version == kept.version + 1
        assert "deal 4 was just recorded (by cli)" in str(nights.change_since("n", kept.version))


def test_a_ledger_made_anew_at_the_same_place_is_folded_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    shown = []
    for points in (151, 90):  # the same number of events, at the same positions, other deals
        path.unlink(missing_ok=True)
        for extra in ("-wal", "-shm"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
        with Ledger.open(path, create=True) as ledger:
            nights = card_nights(ledger)
            nights.start(StartNight("n", PLAYERS, 0, RULES), by="t", at=AT)
            record(nights, points)
        with Ledger.open(path) as ledger:
            nights = card_nights(ledger)
            assert nights.standings("n") == read_anew(nights)
            shown.append(nights.standings("n").rows[0].deltas)
    assert shown[0] != shown[1]


def test_a_write_decided_and_refused_leaves_the_kept_night_as_it_was(tmp_path: Path) -> None:
    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        nights = card_nights(ledger)
        nights.start(StartNight("n", PLAYERS, 0, RULES), by="t", at=AT)
        record(nights, 151)
        before = nights.standings("n")
        prepared = nights.prepare("n", SummaryRecord("normal", ("Anna", "Ben"), 121))  # decided, never committed
        assert len(prepared.night.state.deals) == 2
        assert nights.standings("n") is before and len(nights.night("n").state.deals) == 1
