"""The language of each answer: a page in the one its reader chose with the switch on every
page (kept in a cookie), else the first of the browser's `Accept-Language` that doko speaks;
the JSON API in English unless its client asks with `Accept-Language` (its texts are for
programs). The switch is a link to `/language/{code}`, which keeps the choice and goes back."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from doko_ledger.i18n import LANGUAGES, from_accept_language, using
from doko_ledger.web.guard import cookie_of

LANGUAGE_COOKIE = "doko_lang"
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}
"""Each language in its own words, as the switch shows it."""
YEAR = 365 * 24 * 3600

router = APIRouter()


class Language:
    """Renders everything a request answers in its reader's language (`i18n.using`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with using(language_of(scope)):
            await self.app(scope, receive, send)


def language_of(scope: Scope) -> str:
    """The cookie's language for a page (the API's own page `/api/` too), else the browser's;
    the API's is the client's `Accept-Language` alone, English without one."""
    accept = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"accept-language"), None)
    if scope["path"].startswith("/api/") and scope["path"] != "/api/":  # /api/ is a page: the API for people
        return from_accept_language(accept)
    chosen = cookie_of(scope, LANGUAGE_COOKIE)
    return chosen if chosen in LANGUAGES else from_accept_language(accept)


BACK = 200
"""The longest way back a switch names: a longer address (a hostile query) is not echoed
into every page; its switch goes back to the path alone, or to the start page."""


def switch(path: str, query: str = "") -> list[dict[str, str]]:
    """The language switch of a page at `path` (and `query`): each language's name, code, and
    the link that chooses it and comes back here."""
    whole = f"{path}?{query}" if query else path
    back = quote(next((way for way in (whole, path) if len(way) <= BACK), "/"), safe="/?&=%")
    return [{"code": code, "name": NAMES[code], "href": f"/language/{code}?next={back}"} for code in LANGUAGES]


@router.get("/language/{code}", include_in_schema=False)
def choose_language(code: str, next: str = "/") -> RedirectResponse:
    """Keep the reader's language (a cookie for a year) and go back to the page (only a path of
    this server: never another site)."""
    back = next if next.startswith("/") and not next.startswith("//") and "\\" not in next else "/"
    response = RedirectResponse(back, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(LANGUAGE_COOKIE, code, max_age=YEAR, path="/", samesite="lax", httponly=True)
    return response
