"""The web app of `doko serve`: pages for the table's phones and a JSON API, over the same ledger
functions the CLI calls. Built by `create_app(settings)`; `doko serve` runs it with uvicorn."""

from __future__ import annotations

import mimetypes
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from doko_ledger.errors import DokoError
from doko_ledger.i18n import msg
from doko_ledger.web import api, doudizhu, games, language, nights, rules_doc
from doko_ledger.web.common import STATIC, Settings, error_response, retry_after, said, status_of
from doko_ledger.web.doors import Doors, refuse
from doko_ledger.web.guard import BodyLimit, ClientCookie, SecurityHeaders
from doko_ledger.web.guesses import JoinGuesses
from doko_ledger.web.kept_open import KEPT

__all__ = ["Settings", "create_app"]

mimetypes.add_type("application/manifest+json", ".webmanifest")  # the home-screen manifest, on any system


class Refusal(BaseModel):
    """Every refusal of the API: one line."""

    error: str


REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": Refusal, "description": description}
    for status, description in (
        (400, "A Host this server does not answer to"),
        (401, "A private server, and no join code"),
        (403, "A write without the join code (or the page's CSRF token)"),
        (404, "No such game or night"),
        (409, "Someone else recorded first: nothing was written"),
        (413, "A request body over the limit"),
        (422, "Bad input, or a write the ledger refuses"),
        (429, "Too many wrong join codes: wait as Retry-After says"),
        (503, "The ledger is not reachable: try again after Retry-After"),
    )
}
"""What every API operation may answer besides its own result (all as `{"error": "one line"}`)."""


@asynccontextmanager
async def _serving(app: FastAPI) -> AsyncIterator[None]:
    """While the server runs: once it stops, the ledger it kept open between requests is closed."""
    yield
    KEPT.close_all()


def create_app(settings: Settings) -> FastAPI:
    """The app for one ledger file and one join code."""
    app = FastAPI(
        lifespan=_serving,
        title="doko_ledger",
        summary="A card night's ledger: the same views as `doko ... --json`, and the writes the pages use.",
        docs_url=None,  # FastAPI's own docs page loads its script from the network; /api/ is ours
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.guesses = JoinGuesses(settings.clock)
    # outermost last: the language (the refusals of the rest are in it too), headers on every answer,
    # the client cookie, the body limit, the doors
    app.add_middleware(Doors)
    app.add_middleware(BodyLimit, limit=settings.max_body, refuse=refuse)
    app.add_middleware(ClientCookie, secret=settings.secret)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(language.Language)
    app.mount("/static", StaticFiles(directory=Path(STATIC)), name="static")
    app.include_router(nights.router)
    app.include_router(games.router)
    app.include_router(doudizhu.router)
    app.include_router(rules_doc.router)
    app.include_router(language.router)
    app.include_router(api.router, responses=REFUSALS)
    app.include_router(doudizhu.api, responses=REFUSALS)

    @app.exception_handler(DokoError)
    async def refused(request: Request, exc: DokoError) -> Response:
        return error_response(request, status_of(exc), said(exc, settings), retry_after(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        problem = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        if not where:
            return error_response(request, 422, msg("bad input"))
        said = problem.get("msg")
        return error_response(request, 422, msg("{field}: {problem}", field=where, problem=said or msg("bad input")))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return error_response(request, exc.status_code, str(exc.detail))

    return app
