"""What the web routers share: settings, the ledger per request, templates, the join code and
the CSRF check, and the one place that maps a refusal to an HTTP status."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import FormData

from doko_ledger.errors import DokoError
from doko_ledger.events.store import ConcurrencyError
from doko_ledger.ledger import Ledger
from doko_ledger.projections.sight import DealBeingPlayed
from doko_ledger.web.guard import CSRF_FIELD, CSRF_HEADER, JOIN_COOKIE, JOIN_HEADER, csrf_token, same

HERE = Path(__file__).parent
STATIC = HERE / "static"
NAME_COOKIE = "doko_name"


@dataclass(frozen=True, slots=True)
class Settings:
    """One server: its ledger file, the table's join code, the secret CSRF tokens are made with,
    the URL players join by (shown as a QR code), and the largest request body accepted."""

    db: str | Path
    join_code: str
    secret: bytes
    join_url: str | None = None
    max_body: int = 256 * 1024


class NotJoined(DokoError):
    """A write without the table's join code, or a form without its CSRF token."""

    status = 403


templates = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html", "svg"], default_for_string=True, default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def is_joined(request: Request) -> bool:
    return same(request.cookies.get(JOIN_COOKIE), settings_of(request).join_code)


def player_name(request: Request) -> str:
    """Who records from this phone (chosen when joining); `web` when nobody said."""
    name = unquote(request.cookies.get(NAME_COOKIE, "")).strip()  # quoted: a cookie holds latin-1 only
    return name[:40] if name else "web"


def render(request: Request, template: str, context: Mapping[str, Any], status: int = 200) -> HTMLResponse:
    """A page: the template with what every page needs (join state, CSRF token, the QR link)."""
    settings = settings_of(request)
    joined = is_joined(request)
    page = templates.get_template(template).render(
        request=request,
        joined=joined,
        csrf=request.state.csrf,
        me=player_name(request),
        join_url=settings.join_url if joined else None,
        **context,
    )
    return HTMLResponse(page, status_code=status)


def status_of(exc: DokoError) -> int:
    """The HTTP status of a refusal: 403 not joined, 404 no such game or night, 409 someone
    else recorded first, 422 anything else the library refuses."""
    if isinstance(exc, NotJoined | DealBeingPlayed):  # not joined; a deal being played, not yours to see
        return 403
    if isinstance(exc, ConcurrencyError):
        return 409
    if isinstance(exc, LookupError):
        return 404
    return 422


WRITES = threading.Lock()
"""One write at a time in this server: a phone whose form is out of date is then told so at
once instead of folding the night only to lose at the append. The store's version check still
decides against other processes (the CLI)."""


@contextmanager
def open_ledger(request: Request, *, writing: bool = False) -> Iterator[Ledger]:
    """The ledger for one request (opened in the thread that uses it: SQLite connections stay
    in their thread); `writing` takes this server's write turn for the request."""
    with WRITES if writing else nullcontext(), Ledger.open(settings_of(request).db) as ledger:
        yield ledger


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class Posted:
    """A form posted by a phone that joined the table, with a valid CSRF token."""

    form: FormData
    by: str

    def get(self, name: str, default: str = "") -> str:
        value = self.form.get(name, default)
        return value.strip() if isinstance(value, str) else default

    def all(self, name: str) -> list[str]:
        return [v.strip() for v in self.form.getlist(name) if isinstance(v, str) and v.strip()]


def require_joined(request: Request) -> None:
    if not is_joined(request) and not same(request.headers.get(JOIN_HEADER), settings_of(request).join_code):
        raise NotJoined("this phone has not joined the table: open the join link or enter the table's join code")


async def posted(request: Request) -> Posted:
    """The posted form, refused unless the phone joined and the form carries its CSRF token."""
    form = await request.form()
    require_joined(request)
    token = form.get(CSRF_FIELD)
    if not same(token if isinstance(token, str) else None, request.state.csrf):
        raise NotJoined("the form's security token is missing or old: reload the page and try again")
    return Posted(form, player_name(request))


def api_writer(request: Request) -> str:
    """A JSON write: the join code in a header (scripts), or the join cookie with the CSRF token
    in `X-CSRF-Token` (the pages' script)."""
    settings = settings_of(request)
    if same(request.headers.get(JOIN_HEADER), settings.join_code):
        return request.headers.get("x-doko-user", "api")[:40] or "api"
    require_joined(request)
    expected = csrf_token(settings.secret, request.state.client)
    if not same(request.headers.get(CSRF_HEADER), expected):
        raise NotJoined("send the page's CSRF token in the X-CSRF-Token header, or the join code in X-Join-Code")
    return player_name(request)


PostedForm = Annotated[Posted, Depends(posted)]
ApiWriter = Annotated[str, Depends(api_writer)]
