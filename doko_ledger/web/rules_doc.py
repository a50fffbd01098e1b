"""The rules documents as pages: docs/rules.md (`/rules`; the option forms link to its sections,
`/rules#s9`, so that a phone at the table reads them from the ledger's own server), and beside
it the scoring summed up in German (`/rules/wertung`) and the glossary of the game's words in
the three languages (`/rules/glossary`)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response
from markupsafe import Markup

from doko_ledger.web.common import render

router = APIRouter(tags=["pages"], include_in_schema=False)

PAGES = {"rules.md": "/rules", "wertung.md": "/rules/wertung", "glossary.md": "/rules/glossary"}
"""Each document served, by its file name in docs/, and its page."""


def doc_path(name: str) -> Path:
    """A document of docs/, installed (inside the package) or in a source checkout."""
    packaged = Path(__file__).resolve().parent.parent / "docs" / name
    if packaged.is_file():
        return packaged
    return Path(__file__).resolve().parents[2] / "docs" / name


@cache
def doc_html(name: str) -> Markup:
    """The document as HTML: our own text (its anchors are raw HTML), so raw HTML is kept; its
    links to the other documents served lead to their pages."""
    from markdown_it import MarkdownIt

    text = doc_path(name).read_text(encoding="utf-8")
    text = re.sub(r"\]\((rules|wertung|glossary)\.md", lambda link: "](" + PAGES[link.group(1) + ".md"], text)
    return Markup(MarkdownIt("commonmark", {"html": True}).enable("table").render(text))


def _page(request: Request, name: str) -> Response:
    return render(request, "rules.html", {"body": doc_html(name), "pages": PAGES, "shown": PAGES[name]})


@router.get("/rules")
def rules_page(request: Request) -> Response:
    """The rules doko_ledger applies (docs/rules.md), with its section anchors."""
    return _page(request, "rules.md")


@router.get("/rules/wertung")
def scoring_in_german(request: Request) -> Response:
    """The scoring summed up in German (docs/wertung.md)."""
    return _page(request, "wertung.md")


@router.get("/rules/glossary")
def glossary(request: Request) -> Response:
    """The game's words in English, German and French (docs/glossary.md)."""
    return _page(request, "glossary.md")
