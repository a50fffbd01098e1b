"""The rules document, docs/rules.md, as a page (`/rules`): the option forms link to its sections
(`/rules#s9`), so that a phone at the table reads them from the ledger's own server."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response
from markupsafe import Markup

from doko_ledger.web.common import render

router = APIRouter(tags=["pages"], include_in_schema=False)


def rules_doc_path() -> Path:
    """docs/rules.md, installed (inside the package) or in a source checkout."""
    packaged = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
    if packaged.is_file():
        return packaged
    return Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@cache
def rules_html() -> Markup:
    """The document as HTML: our own text (its anchors are raw HTML), so raw HTML is kept."""
    from markdown_it import MarkdownIt

    text = rules_doc_path().read_text(encoding="utf-8")
    return Markup(MarkdownIt("commonmark", {"html": True}).enable("table").render(text))


@router.get("/rules")
def rules_page(request: Request) -> Response:
    """The rules doko_ledger applies (docs/rules.md), with its section anchors."""
    return render(request, "rules.html", {"body": rules_html()})
