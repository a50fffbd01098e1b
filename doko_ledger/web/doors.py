"""What a request passes before any route sees it: the `Host` it names must be one this server
answers to (a web page elsewhere cannot read the ledger by DNS rebinding), a private server
shows nothing but the join page to a phone that has not joined, and no field holds a number
of more than `MAX_DIGITS` digits (the rule of the CLI and the files)."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, unquote

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from doko_ledger import i18n
from doko_ledger.errors import DokoError
from doko_ledger.i18n import msg
from doko_ledger.numbers import MAX_DIGITS, NumberTooLong, check_length
from doko_ledger.web.common import (
    JOIN_AGAIN,
    error_response,
    is_joined,
    join_lapsed,
    joined_by_header,
    render,
    retry_after,
    said,
    settings_of,
    status_of,
)

OPEN_PATHS = ("/join", "/api/health")
"""What a private server shows to anyone: the join page (and its form), and whether it is up."""
OPEN_PREFIXES = ("/static/",)
PRIVATE_API = msg("this table is private: send its join code in the X-Join-Code header")
_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*")
_FORM = b"application/x-www-form-urlencoded"


def host_of(headers: dict[bytes, bytes]) -> str | None:
    """The name in the `Host` header, without its port, in lower case (None without one)."""
    value = headers.get(b"host")
    if value is None:
        return None
    text = value.decode("latin-1").strip().lower()
    if text.startswith("["):  # [::1]:8000
        return text[1:].partition("]")[0]
    name, _, port = text.rpartition(":") if text.count(":") == 1 else (text, "", "")
    return (name if port.isdigit() or not port else text).rstrip(".")


async def refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str | i18n.Message) -> None:
    """A refusal as the app's errors are: a page, or `{"error": ...}` under /api/."""
    await error_response(Request(scope, receive), status, message)(scope, receive, send)


class Doors:
    """Checks the `Host`, the private server's join, and the numbers in the query and the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        settings = settings_of(request)
        headers = dict(scope["headers"])
        host = host_of(headers)
        if host not in settings.allowed_hosts:
            if host is None:
                wrong = msg("no Host header is not one this server answers to")
            else:
                wrong = msg("the host {host} is not one this server answers to", host=repr(host[:60]))
            await refuse(scope, receive, send, 400, wrong)
            return
        try:
            if settings.private and not _open(scope["path"]) and not (is_joined(request) or joined_by_header(request)):
                await self._join_first(request, scope, receive, send)
                return
            check_numbers(scope["query_string"].decode("latin-1"), scope["path"])
            receive = await _checked_body(headers.get(b"content-type", b""), receive)
        except DokoError as exc:
            answer = error_response(request, status_of(exc), said(exc, settings), retry_after(exc))
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)

    @staticmethod
    async def _join_first(request: Request, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"].startswith("/api/"):
            await refuse(scope, receive, send, 401, JOIN_AGAIN if join_lapsed(request) else PRIVATE_API)
            return
        await render(request, "join.html", {"code": "", "players": ()}, status=401)(scope, receive, send)


def _open(path: str) -> bool:
    return path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)


def check_numbers(query: str, path: str = "") -> None:
    """`NumberTooLong` for a query field or a path segment that is a whole number of more than
    `MAX_DIGITS` digits."""
    for _, value in parse_qsl(query, keep_blank_values=True):
        _check_field(value)
    for segment in path.split("/"):
        _check_field(unquote(segment))


def _check_field(value: str) -> None:
    if len(value) > MAX_DIGITS and _WHOLE.fullmatch(value):
        check_length(value)


def _checked_int(text: str) -> int:
    check_length(text)
    return int(text)


def check_json(body: bytes) -> None:
    """`NumberTooLong` for a number of more than `MAX_DIGITS` digits anywhere in a JSON body
    (one that is not JSON is left to the route to refuse)."""
    try:
        json.loads(body, parse_int=_checked_int)
    except NumberTooLong:
        raise
    except ValueError:
        pass


async def _checked_body(content_type: bytes, receive: Receive) -> Receive:
    """For a JSON or form body: read it whole (the body limit stands outside), check its
    numbers, and hand it on as it came; any other body passes unread."""
    kind = content_type.split(b";")[0].strip().lower()
    if kind != _FORM and not (kind == b"application/json" or kind.endswith(b"+json")):
        return receive
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    if kind == _FORM:
        check_numbers(body.decode("latin-1"))
    else:
        check_json(body)
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
