"""What guards every request: a body size limit, the security headers, the client cookie the
CSRF token is made from, the join code and the CSRF check."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from doko_ledger.i18n import msg, render
from doko_ledger.i18n.formats import Number

POLICY = (
    "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'; object-src 'none'"
)
"""The pages' Content-Security-Policy: every script and style from the app's own files, none inline."""

CLIENT_COOKIE = "doko_client"
JOIN_COOKIE = "doko_join"
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"
JOIN_HEADER = "x-join-code"


class _TooLarge(Exception):
    pass


Refuse = Callable[[Scope, Receive, Send, int, str], Awaitable[None]]
"""Sends a refusal (status, one line) as the app answers it: a page, or JSON under /api/."""


async def plain_refusal(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    body = message.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuses a request body over `limit` bytes with 413, by its Content-Length or as it streams
    (chunked): whatever the app answered to a body cut short (FastAPI says 400) is replaced."""

    def __init__(self, app: ASGIApp, limit: int, refuse: Refuse = plain_refusal) -> None:
        self.app, self.limit, self.refuse = app, limit, refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = render(msg("request body too large: at most {size} KB", size=Number(self.limit // 1024)))
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self.refuse(scope, receive, send, 413, too_large)
            return
        received = 0
        tripped = started = False

        async def counted() -> Message:
            nonlocal received, tripped
            if tripped:
                raise _TooLarge
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    tripped = True
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if tripped:
                return  # the app's answer to a body it could not read whole
            started = started or message["type"] == "http.response.start"
            await send(message)

        with suppress(_TooLarge):
            await self.app(scope, counted, watched)
        if tripped and not started:
            await self.refuse(scope, receive, send, 413, too_large)


class SecurityHeaders:
    """Adds the Content-Security-Policy (unless a route set its own) and the other safety headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", POLICY.encode()))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, headed)


class ClientCookie:
    """Gives every browser a random client id in a cookie; the CSRF token is derived from it."""

    def __init__(self, app: ASGIApp, secret: bytes) -> None:
        self.app, self.secret = app, secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = cookie_of(scope, CLIENT_COOKIE)
        fresh = client is None or len(client) != 32 or not client.isalnum()
        if client is None or fresh:
            client = secrets.token_hex(16)
        state: dict[str, Any] = scope.setdefault("state", {})
        state["client"] = client
        state["csrf"] = csrf_token(self.secret, client)

        async def cookied(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                cookie = f"{CLIENT_COOKIE}={client}; Path=/; HttpOnly; SameSite=Lax"
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie.encode())]}
            await send(message)

        await self.app(scope, receive, cookied)


def cookie_of(scope: Scope, name: str) -> str | None:
    """The value of the request's cookie `name`, or None."""
    for key, value in scope["headers"]:
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k == name:
                    return str(v)
    return None


def csrf_token(secret: bytes, client: str) -> str:
    return hmac.new(secret, f"csrf:{client}".encode(), hashlib.sha256).hexdigest()[:32]


def join_token(secret: bytes, code: str) -> str:
    """What a phone that gave the right join code keeps in its join cookie."""
    return hmac.new(secret, f"join:{code}".encode(), hashlib.sha256).hexdigest()[:32]


def same(a: str | None, b: str) -> bool:
    return a is not None and hmac.compare_digest(a.encode(), b.encode())
