"""The web app of `doko serve`: pages for the table's phones and a JSON API, over the same ledger
functions the CLI calls. Built by `create_app(settings)`; `doko serve` runs it with uvicorn."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from doko_ledger.errors import DokoError
from doko_ledger.web import api, doudizhu, games, nights
from doko_ledger.web.common import STATIC, Settings, render, status_of
from doko_ledger.web.guard import BodyLimit, ClientCookie, SecurityHeaders

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings) -> FastAPI:
    """The app for one ledger file and one join code."""
    app = FastAPI(
        title="doko_ledger",
        summary="A card night's ledger: the same views as `doko ... --json`, and the writes the pages use.",
        docs_url=None,  # FastAPI's own docs page loads its script from the network; /api/ is ours
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.add_middleware(ClientCookie, secret=settings.secret)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.mount("/static", StaticFiles(directory=Path(STATIC)), name="static")
    app.include_router(nights.router)
    app.include_router(games.router)
    app.include_router(doudizhu.router)
    app.include_router(api.router)
    app.include_router(doudizhu.api)

    @app.exception_handler(DokoError)
    async def refused(request: Request, exc: DokoError) -> Response:
        return _error(request, status_of(exc), str(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        problem = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        return _error(request, 422, f"{where}: {problem.get('msg', 'bad input')}" if where else "bad input")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return _error(request, exc.status_code, str(exc.detail))

    return app


def _error(request: Request, status: int, message: str) -> Response:
    """A refusal as one line: JSON under /api/, else a page."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status)
    return render(request, "error.html", {"message": message, "status": status}, status=status)
