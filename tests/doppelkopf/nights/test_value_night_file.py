"""Deals by their value only in a session file (`{winners: [A, B], value: 3}`, `losers:`,
`solo: true`): loaded through the recorder, written back byte for byte, exported from a
recorded night, and refused with the path of the field."""

from __future__ import annotations

import pytest

from doko_ledger.doppelkopf.files import night_file
from doko_ledger.doppelkopf.game.record import SummaryRecord, ValueRecord
from doko_ledger.formats.yaml_source import SourceError

MIXED = """\
format: doko-session/1
id: counted
players: [Anna, Ben, Clara, Dirk, Emil]
first_dealer: Anna
rules: {preset: standard, bock_triggers: [lost_solo]}
deals:  # totals: Anna +9, Ben +3, Clara +2, Dirk -8, Emil -6
  - {winners: [Ben, Clara], value: 3}  # 1: Anna deals and sits out, Ben +3 Clara +3 Dirk -3 Emil -3
  - {losers: [Dirk], value: 1, solo: true}  # 2: Ben deals and sits out, starts a bock round, \
Clara +1 Dirk -3 Emil +1 Anna +1
  - {game: normal, re: [Anna, Ben], re_points: 130}  # 3: Clara deals and sits out, bock ×2, \
Dirk -2 Emil -2 Anna +2 Ben +2
  - {winners: [Anna], value: 1}  # 4: Dirk deals and sits out, bock ×2, Emil -2 Anna +6 Ben -2 Clara -2
"""


def test_a_night_of_facts_and_values_reads_and_writes_back_byte_for_byte() -> None:
    session = night_file.loads(MIXED)
    assert session.deals == (
        ValueRecord(3, winners=("Ben", "Clara")),
        ValueRecord(1, losers=("Dirk",), solo=True),
        SummaryRecord("normal", ("Anna", "Ben"), 130),
        ValueRecord(1, winners=("Anna",)),
    )
    assert night_file.dumps(session) == MIXED


def test_a_recorded_night_exports_its_value_deals_and_reads_back_the_same_standings() -> None:
    night = night_file.to_night(night_file.loads(MIXED))
    exported = night_file.dumps(night_file.from_night(night))
    assert exported == MIXED
    again = night_file.to_night(night_file.loads(exported)).schedule().rows
    assert [row.deltas for row in again] == [row.deltas for row in night.schedule().rows]
    assert again[-1].totals == {"Anna": 9, "Ben": 3, "Clara": 2, "Dirk": -8, "Emil": -6}


def test_a_night_file_may_name_the_winners_and_the_losers_together() -> None:
    text = MIXED.replace("{winners: [Ben, Clara], value: 3}", "{winners: [Ben, Clara], losers: [Dirk, Emil], value: 3}")
    rows = night_file.to_night(night_file.loads(text)).schedule().rows
    assert rows[0].deltas == {"Anna": 0, "Ben": 3, "Clara": 3, "Dirk": -3, "Emil": -3}


def _error(text: str) -> SourceError:
    with pytest.raises(SourceError) as info:
        night_file.loads(text, "night.yaml")
    return info.value


@pytest.mark.parametrize(
    ("deal", "field", "message"),
    [
        ("{winners: [Ben, Anna], value: 3}", "deals[0].winners[1]", "Anna sits out deal 1 (Anna deals"),
        ("{winners: [Ben, Zoe], value: 3}", "deals[0].winners[1]", "unknown player 'Zoe'"),
        ("{losers: [Ben, Clara, Dirk, Emil], value: 3}", "deals[0].losers", "all four lost"),
        ("{winners: [Ben, Clara], value: 120}", "deals[0].value", "not 120"),
        ("{winners: [Ben, Clara], value: -2}", "deals[0].value", "not -2"),
        ("{winners: [Ben, Clara], value: 3, solo: true}", "deals[0].solo", "the solo mark needs a player alone"),
        ("{winners: [Ben, Clara]}", "deals[0].game", "or winners (or losers) and value"),
        ("{winners: [Ben, Clara], value: 3, re_points: 100}", "deals[0].re_points", "known: winners, losers, value"),
    ],
)
def test_a_value_deal_the_rules_refuse_names_its_field(deal: str, field: str, message: str) -> None:
    text = MIXED.split("deals:")[0] + f"deals:\n  - {deal}\n"
    error = _error(text)
    assert error.field == field
    assert message in error.message
    assert error.line == 7
