"""Schemathesis against the JSON API of a real server (uvicorn on 127.0.0.1, started once for
the module) on a ledger with a night, deals and a Dou Dizhu session: for every operation of
`/api/openapi.json`, a bounded, derandomized set of generated requests (reads, and writes with
the join code) must get no server error, only documented status codes and content types, and
bodies that conform to the schema (a refusal's `{"error": ...}` included)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from typer.testing import CliRunner
from web_helpers import CODE, app_for, client, serving, start_night

from doko_ledger.cli.app import app as cli_app
from doko_ledger.games import DOUDIZHU
from doko_ledger.ledger import Ledger
from doko_ledger.web.app import Settings, create_app

pytestmark = [pytest.mark.live_server, pytest.mark.slow]  # schemathesis on a live server

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 10
"""Generated requests per operation: the whole module runs in well under a minute."""
HEADERS = {"X-Join-Code": CODE, "X-Doko-User": "schemathesis"}


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("schema") / "ledger.sqlite"
    root = Path(__file__).resolve().parents[2]
    sessions = sorted((root / "sample_games" / "doudizhu" / "sessions").glob("*.yaml"))
    imported = CliRunner().invoke(cli_app, ["--db", str(db), "import", *map(str, sessions)])
    assert imported.exit_code == 0, imported.output
    start_night(db)
    api = client(app_for(db))
    for version, (re, points) in enumerate(((["Ben", "Clara"], 151), (["Clara", "Dirk"], 100)), start=1):
        body = {"version": version, "deal": {"re": re, "re_points": points}}
        assert api.post("/api/nights/night/deals", json=body, headers={"x-join-code": CODE}).status_code == 201
    return db


@pytest.fixture(scope="module")
def base_url(ledger: Path) -> Iterator[str]:
    with serving(app_for(ledger)) as url:
        yield url


@pytest.fixture(scope="module")
def known(ledger: Path) -> dict[str, dict[str, str]]:
    """Path parameters that name what the ledger holds, by the path's first part."""
    with Ledger.open(ledger) as opened:
        (session,) = opened.book_of(DOUDIZHU).session_ids()
    return {"nights": {"session": "night", "game": "night-01"}, "games": {"game": "night-01"}} | {
        "doudizhu": {"session": session}
    }


@pytest.fixture(scope="module")
def api_schema(base_url: str) -> Any:
    return schemathesis.openapi.from_url(f"{base_url}/api/openapi.json")


def operations() -> list[tuple[str, str]]:
    """Every operation of the API, from the app's own schema (no server needed to list them)."""
    spec = create_app(Settings(db="unused.sqlite", join_code=CODE, secret=b"s" * 32)).openapi()
    return [(method.upper(), path) for path, methods in spec["paths"].items() for method in methods]


@pytest.mark.parametrize(("method", "path"), operations(), ids=[f"{m} {p}" for m, p in operations()])
def test_the_api_answers_as_its_schema_says(
    api_schema: Any, known: dict[str, dict[str, str]], method: str, path: str
) -> None:
    """Each generated request as it is, and again with its path naming a night, game or session
    the ledger holds (else nearly all would only find nothing)."""
    operation = api_schema[path][method]
    ours = known.get(path.split("/")[2], {})

    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers(case: Any) -> None:
        case.call_and_validate(headers=HEADERS, checks=CHECKS)
        if case.path_parameters:
            case.path_parameters = {**case.path_parameters, **ours}
            case.call_and_validate(headers=HEADERS, checks=CHECKS)

    answers()


def test_every_operation_documents_its_refusals(api_schema: Any) -> None:
    paths = api_schema.raw_schema["paths"]
    operations = [(path, method, spec) for path, methods in paths.items() for method, spec in methods.items()]
    assert len(operations) >= 15
    for path, method, spec in operations:
        for status in ("400", "404", "409", "413", "422", "503"):
            documented = spec["responses"].get(status)
            assert documented is not None, (method, path, status)
            schema_ref = documented["content"]["application/json"]["schema"]["$ref"]
            assert schema_ref == "#/components/schemas/Refusal", (method, path, status)
    refusal = api_schema.raw_schema["components"]["schemas"]["Refusal"]
    assert refusal["required"] == ["error"] and refusal["properties"]["error"]["type"] == "string"
