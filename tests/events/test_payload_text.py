"""The quick yes to a payload's schema check (`events.payload_text`): it says yes only to texts
whose JSON the schema accepts, it says yes to the payloads the ledger writes, and the check's
answers and messages are the full check's."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import CLI_ENV
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from doko_ledger.cli.app import app
from doko_ledger.events.codec import EventCodecError, _schema_problem, validate
from doko_ledger.events.payload_text import payload_matcher, quickly_valid
from doko_ledger.schema_files import event_schema_validator, schema_dir

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
EVENT_SCHEMAS = sorted(p.name.removesuffix(".json").split(".v") for p in (schema_dir() / "events").glob("*.json"))


def _accepted(name: str, version: int, text: str) -> bool:
    """What the schema itself says (jsonschema on the parsed text)."""
    try:
        payload = json.loads(text)
    except ValueError:
        return False
    return not any(True for _ in event_schema_validator(name, version).iter_errors(payload))


@pytest.fixture(scope="module")
def payloads(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, int, str]]:
    """Every distinct payload the sample games and nights store, as the ledger wrote it."""
    path = tmp_path_factory.mktemp("samples") / "samples.sqlite"
    for file in sorted(SAMPLES.rglob("*.yaml")):
        CliRunner().invoke(app, ["--db", str(path), "import", str(file)], env=CLI_ENV)
    rows = sqlite3.connect(path).execute("SELECT DISTINCT type, schema_version, payload FROM events").fetchall()
    assert len({r[0] for r in rows}) >= 15
    return rows


@pytest.mark.parametrize(("name", "version"), EVENT_SCHEMAS)
def test_every_event_schema_gets_an_expression_or_none(name: str, version: str) -> None:
    payload_matcher(name, int(version))


def test_the_common_events_have_an_expression() -> None:
    for name in ("GameStarted", "CardsDealt", "CardPlayed", "ReservationDeclared", "AnnouncementMade"):
        assert payload_matcher(name, 3 if name == "GameStarted" else 1) is not None, name


def test_what_the_ledger_writes_is_accepted_quickly_and_by_the_schema(payloads: list[tuple[str, int, str]]) -> None:
    quick = 0
    for name, version, text in payloads:
        if quickly_valid(name, version, text):
            quick += 1
            assert _accepted(name, version, text), (name, text)
        elif payload_matcher(name, version) is not None and "\\" not in text:  # an escape: the full check
            pytest.fail(f"{name} v{version}: the ledger's own text is not matched: {text}")
    assert quick >= len(payloads) // 2


JSONISH = st.text(alphabet='{}[],:" \\0123456789-.eEtruefalsnCSHDAQKJ9x_aépz\n\u2028', max_size=6)


@settings(max_examples=600, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_changed_text_is_accepted_quickly_only_when_the_schema_accepts_it(
    payloads: list[tuple[str, int, str]], data: st.DataObject
) -> None:
    name, version, text = data.draw(st.sampled_from(payloads))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 8)))
    changed = text[:start] + data.draw(JSONISH) + text[end:]
    if quickly_valid(name, version, changed):
        assert _accepted(name, version, changed), (name, changed)


@pytest.mark.parametrize(
    ("name", "version", "text"),
    [
        ("CardPlayed", 1, '{"card":"CX","seat":1}'),
        ("CardPlayed", 1, '{"card":"CQ","seat":4}'),
        ("CardPlayed", 1, '{"card":"CQ","seat":-1}'),
        ("CardPlayed", 1, '{"card":"CQ"}'),
        ("CardPlayed", 1, '{"card":"CQ","seat":1,"more":1}'),
        ("CardPlayed", 1, '{"card":"CQ","seat":1,"seat":7}'),
        ("CardPlayed", 1, '{"card":"CQ","seat":true}'),
        ("CardsDealt", 1, '{"hands":[["CQ"],["CQ"],["CQ"],["CQ"]]}'),
        ("GameStarted", 3, '{"dealer":0,"game_id":"g","players":["A","B","C","D"],"rules":{}}'),
    ],
)
def test_an_invalid_payload_is_refused_with_the_full_checks_message(name: str, version: int, text: str) -> None:
    _schema_problem.cache_clear()
    assert not quickly_valid(name, version, text)
    assert not _accepted(name, version, text)
    with pytest.raises(EventCodecError, match=f"{name} v{version}"):
        validate(name, version, text)


def test_text_the_expression_does_not_know_still_passes_the_full_check() -> None:
    """Spaces, escapes and keys out of order are valid JSON: the full check accepts them, as
    it accepts what the schema's own pattern lets through."""
    texts = ('{"card": "CQ", "seat": 1}', '{"seat":1,"card":"CQ"}', '{"card":"\\u0043Q","seat":1}')
    for text in (*texts, '{"card":"CQ","seat":1.0}', '{"card":"CQ\\n","seat":1}'):  # 1.0 is an integer, and
        # the schema's `$` allows a final newline
        assert not quickly_valid("CardPlayed", 1, text)
        validate("CardPlayed", 1, text)


def test_a_rule_set_snapshot_needs_its_preset_and_plain_values() -> None:
    started = (
        '{"dealer":0,"dealt_by":null,"game_id":"g","note":null,"played_on":null,'
        '"players":["A","B","C","D"],"rules":%s,"solo_owed_by":[]}'
    )
    assert quickly_valid("GameStarted", 3, started % '{"preset":"standard","schweinchen":true}')
    for rules in ('{"schweinchen":true}', '{"preset":1}', '{"preset":"x","preset":2}', '{"preset":"x","a":{}}'):
        assert not quickly_valid("GameStarted", 3, started % rules), rules
        assert not _accepted("GameStarted", 3, started % rules) or "{}" in rules
