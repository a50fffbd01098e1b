"""The join link as a QR code: SVG for the night's page, text for the terminal (segno)."""

from __future__ import annotations

import io
from functools import cache

from markupsafe import Markup


@cache
def svg(url: str) -> Markup:
    import segno

    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=7, border=2, title="join the table"))


def terminal(url: str) -> str:
    import segno

    buffer = io.StringIO()
    segno.make(url, error="m").terminal(out=buffer, compact=True)
    return buffer.getvalue()
