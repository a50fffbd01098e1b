"""The floor of `bench/bench_serve.py`: the least a server can do to answer what `doko serve`
answers, on the same uvicorn, with the same FastAPI and the same Jinja2 templates.

Run by the bench as `python bench/floor_app.py SIDE --port PORT`. SIDE is a copy of the
bench's ledger file with two tables more, filled by the bench from the library's own views:

- `floor_pages`: per page (by its path), a header row (seq 0) and one row per deal of the
  night (seq 1, 2, …) holding the JSON of what the page shows of that deal. A page's header is
  pickled for the HTML pages (their template and context hold decimals, rule options and
  markup, which JSON does not keep) and JSON for the API's answers.
- `floor_writes`: the rows one recorded deal adds to the event log and to the read models,
  as the bench saw a real record write them.

Per request, as `doko serve` does, a fresh SQLite connection to the file; a page reads its rows,
`json.loads` each, puts them in the header's place and renders the template (an answer of the
API is `json.dumps`'d as FastAPI answers it), with fresh tokens where the real page has them. A
recorded deal checks the night's version, then inserts the captured rows with fresh positions,
versions and game id in one transaction, under one lock, with the store's SQLite settings (WAL,
`synchronous = NORMAL`); a deal sent for an old version is refused (409) with one line.
"""

from __future__ import annotations

import argparse
import json
import pickle
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel

from doko_ledger.web.common import templates

BUSY_TIMEOUT_MS = 5000
PAGES = (
    "CREATE TABLE floor_pages (page TEXT NOT NULL, seq INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (page, seq))"
)
WRITES = "CREATE TABLE floor_writes (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)"
"""Row 0: `{"session", "game_id", "position"}` of the deal captured (its id, its first position);
then one row per row written: `{"table", "columns", "values"}`, in the order written."""


def deal_rows(deals: list[dict[str, Any]]) -> list[str]:
    """The rows of a page's deals, as the floor keeps them."""
    return [json.dumps(deal, ensure_ascii=False) for deal in deals]


def api_text(data: Any) -> bytes:
    """An answer of the API, byte for byte as FastAPI's `JSONResponse` renders it."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


class DealAt(BaseModel):
    version: int
    deal: dict[str, Any]


class Floor:
    """The side file and what one recorded deal writes."""

    def __init__(self, side: Path) -> None:
        self.side = side
        self.lock = threading.Lock()
        with closing(self.connect()) as db:
            rows = [json.loads(body) for (body,) in db.execute("SELECT body FROM floor_writes ORDER BY seq")]
        self.captured, self.writes = rows[0], rows[1:]
        for write in self.writes:
            columns = write["columns"]
            write["pairs"] = list(zip(columns, write["values"], strict=True))
            if write["table"] == "events":
                write["stream"], write["version"] = columns.index("stream"), columns.index("version")
        self.stream = f"session/{self.captured['session']}"

    def connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.side, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA synchronous = NORMAL")
        return db

    @contextmanager
    def opened(self) -> Iterator[sqlite3.Connection]:
        with closing(self.connect()) as db:
            yield db

    def page(self, path: str) -> tuple[bytes, list[Any]]:
        """A page's header and its deals' rows, read and parsed."""
        with self.opened() as db:
            rows = db.execute("SELECT body FROM floor_pages WHERE page = ? ORDER BY seq", (path,)).fetchall()
        if not rows:
            raise LookupError(path)
        return rows[0][0], [json.loads(body) for (body,) in rows[1:]]

    def version(self, db: sqlite3.Connection) -> int:
        found = db.execute("SELECT max(version) FROM events WHERE stream = ?", (self.stream,)).fetchone()[0]
        return int(found or 0)

    def record(self, version: int) -> dict[str, Any] | None:
        """Write one deal's rows if the night is at `version` (else None, nothing written)."""
        with self.lock, self.opened() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                if self.version(db) != version:
                    db.execute("ROLLBACK")
                    return None
                position = int(db.execute("SELECT max(position) FROM events").fetchone()[0]) + 1
                number = version  # the night's version counts its start and every deal before this one
                game_id = f"{self.captured['session']}-{number:02d}"
                shift = position - int(self.captured["position"])
                for write in self.writes:
                    values = [_fresh(c, v, self.captured["game_id"], game_id, shift) for c, v in write["pairs"]]
                    if write["table"] == "events" and values[write["stream"]] == self.stream:
                        values[write["version"]] = version + 1  # the night's next event
                    marks = ", ".join("?" * len(values))
                    db.execute(f"INSERT INTO {write['table']} ({', '.join(write['columns'])}) VALUES ({marks})", values)
                last = position + sum(1 for w in self.writes if w["table"] == "events") - 1
                db.execute("UPDATE projection_positions SET position = ?", (last,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return {"game_id": game_id, "number": number, "version": version + 1}


def _fresh(column: str, value: Any, old_id: str, new_id: str, shift: int) -> Any:
    """A captured value made fresh for a new deal: its game id, its positions."""
    if isinstance(value, str):
        return value.replace(old_id, new_id)
    if column in ("position", "first_position", "last_position"):
        return value + shift
    return value


def create_floor(side: Path) -> FastAPI:
    floor = Floor(side)
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    def html(request: Request) -> Response:
        header, deals = floor.page(request.url.path)
        template, context = pickle.loads(header)
        if deals:
            context["night"]["deals"] = deals
        if "request_id" in context:
            context["request_id"] = secrets.token_urlsafe(12)  # a new id per form, as the real page makes
        page = templates.get_template(template).render(request=request, csrf=secrets.token_hex(16), **context)
        return HTMLResponse(page)

    def api(request: Request) -> Response:
        header, deals = floor.page(request.url.path)
        data = json.loads(header)
        if deals:
            data["deals"] = deals
        return Response(api_text(data), media_type="application/json")

    for path in ("/nights/{session}", "/games/{game}"):
        app.add_api_route(path, html, methods=["GET"])
    for path in ("/api/nights/{session}/standings", "/api/nights/{session}/settle"):
        app.add_api_route(path, api, methods=["GET"])

    @app.get("/nights/{session}/live")
    def live(session: str) -> dict[str, Any]:
        with floor.opened() as db:
            return {"version": floor.version(db), "change": ""}

    @app.post("/api/nights/{session}/deals", status_code=201)
    def record(session: str, body: DealAt) -> Any:
        written = floor.record(body.version)
        if written is None:
            return JSONResponse({"error": "someone else recorded first: nothing was written"}, status_code=409)
        return written

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("side", type=Path)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(create_floor(args.side), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
