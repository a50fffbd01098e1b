"""What the web routers share: settings, the ledger per request, templates, the join code and
the CSRF check, and the one place that maps a refusal to an HTTP status."""

from __future__ import annotations

import logging
import math
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import unquote

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import FormData

from doko_ledger.doppelkopf.nights.book import DealAlreadyRecorded
from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message, current, msg
from doko_ledger.i18n import render as render_message
from doko_ledger.i18n.catalogs import catalog
from doko_ledger.ledger import Ledger
from doko_ledger.sight import DealBeingPlayed
from doko_ledger.store.base import ConcurrencyError, LedgerBusy
from doko_ledger.store.errors import DiskError, LedgerUnreachable
from doko_ledger.store.location import is_url, shown
from doko_ledger.web.guard import CSRF_FIELD, CSRF_HEADER, JOIN_COOKIE, JOIN_HEADER, csrf_token, join_token, same
from doko_ledger.web.guesses import JoinGuesses
from doko_ledger.web.join_code import join_code_of as join_code_of  # the pages read it here
from doko_ledger.web.kept_open import kept_open
from doko_ledger.web.language import switch
from doko_ledger.web.shown import FILTERS

HERE = Path(__file__).parent
STATIC = HERE / "static"
NAME_COOKIE = "doko_name"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
UNREACHABLE = msg("the ledger is not reachable; try again")
UNREACHABLE_RETRY = 5
"""Seconds a client is asked to wait (`Retry-After`) when the ledger cannot be reached."""
JOIN_LAPSED = msg("this phone's join is no longer valid: the table's code changed")
JOIN_AGAIN = msg("{lapsed}; join again", lapsed=JOIN_LAPSED)
"""What a phone whose join cookie no longer holds is told: above every page (with the join
link), and when it writes (403, by the API too)."""
log = logging.getLogger("doko_ledger.web")


@dataclass(frozen=True, slots=True)
class Settings:
    """One server: its ledger file, the table's join code, the secret CSRF and join tokens are
    made with, the URL players join by (shown as a QR code), the largest request body accepted,
    the names it answers to in the `Host` header, whether only those who joined see anything
    (`private`), and the clock wrong join codes are timed by."""

    db: str | Path
    join_code: str
    secret: bytes
    join_url: str | None = None
    max_body: int = 256 * 1024
    allowed_hosts: frozenset[str] = LOOPBACK
    private: bool = False
    clock: Callable[[], float] = time.monotonic


class NotJoined(DokoError):
    """A write without the table's join code, or a form without its CSRF token."""

    status = 403


class TooManyGuesses(DokoError):
    """A join code tried while this client, or the whole table, waits after wrong ones."""

    def __init__(self, seconds: float) -> None:
        self.retry_after = max(1, math.ceil(seconds))
        super().__init__(msg("too many wrong join codes: try again in {seconds} s", seconds=self.retry_after))


templates = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html", "svg"], default_for_string=True, default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
templates.filters.update(FILTERS)  # `{{ pts | signed }}`, `{{ amount | money }}`: in the page's language
templates.add_extension("jinja2.ext.i18n")
templates.install_gettext_callables(  # type: ignore[attr-defined]
    lambda text: catalog(current()).gettext(text),
    lambda singular, plural, n: catalog(current()).ngettext(singular, plural, n),
    newstyle=True,
)
"""The templates' texts (`{{ _("Nights") }}`) in the language of the request (`web.language`); the
i18n extension adds `install_gettext_callables` to the environment."""


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def is_joined(request: Request) -> bool:
    """Whether this phone joined the table: its join cookie holds the token only the right code
    was given (never the code itself, so guessing through the cookie gets nowhere)."""
    settings = settings_of(request)
    return same(request.cookies.get(JOIN_COOKIE), join_token(settings.secret, join_code_of(settings.join_code)))


def join_lapsed(request: Request) -> bool:
    """Whether this phone joined once but its join no longer holds (the table's code changed):
    it has a join cookie, not the right token."""
    return JOIN_COOKIE in request.cookies and not is_joined(request)


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def code_accepted(request: Request, typed: str) -> bool:
    """Whether `typed` is the table's join code (in any case). A wrong one is counted against
    this client and the table and logged; while they wait, no code is even compared:
    `TooManyGuesses` (429), the right code too, so that a wait tells a guesser nothing."""
    typed = join_code_of(typed)
    if not typed:
        return False
    guesses: JoinGuesses = request.app.state.guesses
    client = client_of(request)
    verdict = guesses.judge(client, same(typed, join_code_of(settings_of(request).join_code)))
    if verdict.waiting:
        if verdict.first:
            log.warning("join codes from %s refused for %d s: too many wrong ones", client, math.ceil(verdict.wait))
        raise TooManyGuesses(verdict.wait)
    if not verdict.accepted:
        log.warning(
            "wrong join code from %s (%s… of %d characters): %d in a row from it, %d at the table; next try in %d s",
            client,
            typed[:1],
            len(typed),
            verdict.failures,
            verdict.table,
            math.ceil(verdict.wait),
        )
    return verdict.accepted


def joined_by_header(request: Request) -> bool:
    """Whether the request carries the join code in `X-Join-Code` (scripts); asked once per request."""
    state = request.state
    if not hasattr(state, "header_joined"):
        state.header_joined = code_accepted(request, request.headers.get(JOIN_HEADER, ""))
    joined: bool = state.header_joined
    return joined


def player_name(request: Request) -> str:
    """Who records from this phone (chosen when joining); `web` when nobody said."""
    name = unquote(request.cookies.get(NAME_COOKIE, "")).strip()  # quoted: a cookie holds latin-1 only
    return name[:40] if name else "web"


def render(request: Request, template: str, context: Mapping[str, Any], status: int = 200) -> HTMLResponse:
    """A page: the template with what every page needs (join state, CSRF token, the QR link)."""
    return HTMLResponse(_page_text(request, template, context, request.state.csrf), status_code=status)


def _page_text(request: Request, template: str, context: Mapping[str, Any], csrf: str) -> str:
    settings = settings_of(request)
    joined = is_joined(request)
    return templates.get_template(template).render(
        request=request,
        lang=current(),
        languages=switch(request.url.path, request.url.query),
        joined=joined,
        csrf=csrf,
        me=player_name(request),
        join_url=settings.join_url if joined else None,
        private=settings.private,
        join_lapsed=not joined and context.get("message") != render_message(JOIN_AGAIN) and join_lapsed(request),
        join_lapsed_text=JOIN_LAPSED,
        **{
            key: hidden(value, settings) if type(value) is str else value for key, value in context.items()
        },  # not Markup
    )


T = TypeVar("T")


class KeptViews:
    """What was made for a view, kept by name with what it was made from (the most recently
    used `size` of them)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[str, ...], tuple[object, Any]] = OrderedDict()

    def made(self, key: tuple[str, ...], source: object, view: Callable[[], T]) -> T:
        """`view()`, made again only when `source` is not (or does not equal) what it was made from."""
        with self._lock:
            known = self._kept.get(key)
        if known is None or not (known[0] is source or known[0] == source):
            known = (source, view())
            with self._lock:
                self._kept[key] = known
                self._kept.move_to_end(key)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        made: T = known[1]
        return made


_VIEWS = KeptViews(64)
_PAGES = KeptViews(16)
"""Pages rendered once for many answers: fewer, a page of a long night is large."""

STAND_IN = secrets.token_hex(16)
"""A text no page holds otherwise: where a page rendered once for many answers holds each
answer's own CSRF token and request id (`render_kept`)."""


def render_kept(
    request: Request,
    template: str,
    context: Mapping[str, Any],
    kept_as: tuple[str, ...],
    source: object,
    request_id: Callable[[], str],
) -> HTMLResponse:
    """`render` of a page made once for each `source` it shows (a night's page as the library
    derived it once for a point of the log) and what it shows of the phone (joined, its player,
    its language):
    phones that load it between two deals cost a look-up. Each answer gets its own CSRF token
    and a new request id (`request_id()`) where `context` says `request_id`; `kept_as` names the
    page among those kept (the night's id)."""
    joined = is_joined(request)
    lapsed = not joined and context.get("message") != render_message(JOIN_AGAIN) and join_lapsed(request)
    key = (template, str(settings_of(request).db), *kept_as, str(joined), player_name(request), str(lapsed), current())
    csrf, fresh = "c" + STAND_IN, "r" + STAND_IN
    text = _PAGES.made(key, source, lambda: _page_text(request, template, {**context, "request_id": fresh}, csrf))
    return HTMLResponse(text.replace(csrf, request.state.csrf).replace(fresh, request_id()))


def status_of(exc: DokoError) -> int:
    """The HTTP status of a refusal: 403 not joined or a deal being played, 404 no such game or
    night, 409 someone else recorded first, 429 too many wrong join codes, 503 the ledger
    cannot be reached, is locked by another writer for too long, or its disk is full or
    failing, 422 anything else the library refuses."""
    if isinstance(exc, NotJoined | DealBeingPlayed):  # not joined; a deal being played, not yours to see
        return 403
    if isinstance(exc, TooManyGuesses):
        return 429
    if isinstance(exc, LedgerUnreachable | DiskError | LedgerBusy):
        return 503
    if isinstance(exc, ConcurrencyError | DealAlreadyRecorded):  # a deal recorded first, or already
        return 409
    if isinstance(exc, LookupError):
        return 404
    return 422


def retry_after(exc: DokoError) -> dict[str, str]:
    """The `Retry-After` header of a refusal that may pass later (429, 503), else none."""
    if isinstance(exc, TooManyGuesses):
        return {"Retry-After": str(exc.retry_after)}
    if isinstance(exc, LedgerUnreachable | LedgerBusy):
        return {"Retry-After": str(UNREACHABLE_RETRY)}
    return {}


def said(exc: DokoError, settings: Settings) -> str:
    """A refusal's one line as a client reads it: an unreachable ledger in fixed words, and
    never where the ledger is (a database URL names its user, database and socket)."""
    if isinstance(exc, LedgerUnreachable):
        return render_message(UNREACHABLE)
    return hidden(str(exc), settings)


_SERVER = re.compile(r'connection to server (on socket "[^"]*"|at "[^"]*"(, port \d+)?) failed: ')
"""How the database driver names the server it tried (its socket or address and port)."""


def hidden(text: str, settings: Settings) -> str:
    """`text` with the ledger's location (its database URL, or its path unless a bare file name)
    said as "the ledger", and without the database server's socket or address."""
    text = _SERVER.sub("", text)
    if not is_url(settings.db) and "/" not in str(settings.db):
        return text
    for where in sorted({str(settings.db), shown(settings.db)}, key=len, reverse=True):
        text = text.replace(where, render_message(msg("the ledger")))
    return text


def error_response(
    request: Request, status: int, refusal: str | Message, headers: Mapping[str, str] | None = None
) -> Response:
    """A refusal as one line: `{"error": ...}` under /api/, else a page; in the request's language."""
    message = render_message(refusal)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    page = render(request, "error.html", {"message": message, "status": status}, status=status)
    page.headers.update(headers or {})
    return page


WRITES = threading.Lock()
"""One write at a time in this server: a phone whose form is out of date is then told so at
once instead of folding the night only to lose at the append. The store's version check still
decides against other processes (the CLI)."""


def viewed(key: tuple[str, ...], source: object, view: Callable[[], T]) -> T:
    """`view()`, made once for each `source` it is made from (a page the library derived once for
    a point of the log, or that point itself): phones that poll between two deals cost a
    look-up. What is returned is shared: the caller copies it before adding to it. A view is
    kept per language: its words are in the language it was made in."""
    return _VIEWS.made((*key, current()), source, view)


def json_bytes(content: object) -> bytes:
    """`content` as the JSON API answers it (FastAPI's encoding of a returned dict)."""
    return bytes(JSONResponse(content).body)


@contextmanager
def open_ledger(request: Request, *, writing: bool = False) -> Iterator[Ledger]:
    """The ledger for one request, kept open by the server between requests (`kept_open`);
    `writing` takes this server's write turn for the request."""
    with WRITES if writing else nullcontext(), kept_open(settings_of(request).db) as ledger:
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
    if not is_joined(request) and not joined_by_header(request):
        if join_lapsed(request):
            raise NotJoined(JOIN_AGAIN)
        raise NotJoined(msg("this phone has not joined the table: open the join link or enter the table's join code"))


async def posted(request: Request) -> Posted:
    """The posted form, refused unless the phone joined and the form carries its CSRF token."""
    form = await request.form()
    require_joined(request)
    token = form.get(CSRF_FIELD)
    if not same(token if isinstance(token, str) else None, request.state.csrf):
        raise NotJoined(msg("the form's security token is missing or old: reload the page and try again"))
    return Posted(form, player_name(request))


def api_writer(request: Request) -> str:
    """A JSON write: the join code in a header (scripts), or the join cookie with the CSRF token
    in `X-CSRF-Token` (the pages' script)."""
    settings = settings_of(request)
    if joined_by_header(request):
        return writer_named(request)
    require_joined(request)
    expected = csrf_token(settings.secret, request.state.client)
    if not same(request.headers.get(CSRF_HEADER), expected):
        raise NotJoined(msg("send the page's CSRF token in the X-CSRF-Token header, or the join code in X-Join-Code"))
    return writer_named(request)


def writer_named(request: Request) -> str:
    """Who a JSON request is from: a script's `X-Doko-User` (with the join code in a header), else
    the phone's player."""
    if joined_by_header(request):
        return request.headers.get("x-doko-user", "api")[:40] or "api"
    return player_name(request)


PostedForm = Annotated[Posted, Depends(posted)]
ApiWriter = Annotated[str, Depends(api_writer)]


def not_doppelkopf(what: Message, game_id: str, title: str) -> Message:
    """The refusal of what only a Doppelkopf game has (its analysis, its replay) for another game."""
    return msg("{what} is for Doppelkopf games; {game} is a {title} game", what=what, game=game_id, title=title)
