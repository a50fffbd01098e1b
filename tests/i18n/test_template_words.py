"""Every word a page shows is translated: no template holds a text node, a user-visible
attribute (title, placeholder, aria-label, alt, a confirmation, a button's value) or a text
it prints that is not given to `_()`, `ngettext()` or `{% trans %}`. Symbols, numbers,
card glyphs, the program's own names and what a variable holds are not words to translate."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2 import Environment, nodes

from doko_ledger.doppelkopf.files import html_replay
from doko_ledger.web.common import templates

TEMPLATES = Path(__file__).resolve().parents[2] / "doko_ledger" / "web" / "templates"
SHOWN_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "data-confirm"}
NAMES = {"doko", "doko_ledger", "API", "Doppelkopf", "Dou Dizhu", "QR"}
"""Names no language translates: the program's, its interface's, a game's."""
VARIABLE = "\x00"
"""What stands for a value the template prints (a variable, or text it translated)."""
BUTTONS = ("submit", "button", "reset")
"""The inputs whose value is the words on them (a `<button>`'s value is sent, not shown)."""
WORD = re.compile(r"[^\W\d_]{2,}")


def untranslated(source: str, env: Environment = templates) -> list[str]:
    """The texts of a template a reader would see in English whatever their language."""
    return words_of(_page_outside_translation(source, env))


def words_of(page: str) -> list[str]:
    """The words of a page's text nodes and shown attributes (`VARIABLE` stands for a value)."""
    reader = _HtmlWords()
    reader.feed(page)
    reader.close()
    return reader.found


def _is_words(text: str) -> bool:
    rest = text
    for name in sorted(NAMES, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return bool(WORD.search(rest))


def _page_outside_translation(source: str, env: Environment) -> str:
    """The template's text as a page holds it: its literal text, what it prints as it is
    (`{{ "no rocket" if r else x }}`), a placeholder for every other value it prints, and
    nothing of its blocks and `{% trans %}` sections."""
    out: list[str] = []
    translating, last = 0, ""
    printing: list[str] | None = None
    for _line, kind, value in env.lex(source):
        if kind == "whitespace":
            if printing is not None:
                printing.append(value)
            continue
        if kind == "name" and last == "block_begin":
            translating += (value == "trans") - (value == "endtrans")
        if printing is not None:
            if kind == "variable_end":
                out.append(VARIABLE + VARIABLE.join(_shown(env.parse("{{" + "".join(printing) + "}}"))) + VARIABLE)
                printing = None
            else:
                printing.append(value)
        elif kind == "variable_begin" and not translating:
            printing = []
        elif kind == "data":
            out.append(VARIABLE if translating else value)
        last = kind
    return "".join(out)


def _shown(tree: nodes.Template) -> Iterator[str]:
    for output in tree.find_all(nodes.Output):
        for child in output.nodes:
            yield from _literal(child)


def _literal(expr: nodes.Node) -> Iterator[str]:
    """The string constants of a printed expression that reach the page as they are."""
    if isinstance(expr, nodes.Const) and isinstance(expr.value, str):
        yield expr.value
    elif isinstance(expr, nodes.CondExpr):
        yield from _literal(expr.expr1)
        if expr.expr2 is not None:
            yield from _literal(expr.expr2)
    elif isinstance(expr, nodes.Or | nodes.And):
        yield from _literal(expr.left)
        yield from _literal(expr.right)
    elif isinstance(expr, nodes.Filter) and expr.name in ("capitalize", "upper", "lower", "title", "e", "safe"):
        if expr.node is not None:
            yield from _literal(expr.node)
    elif isinstance(expr, nodes.Concat):
        for part in expr.nodes:
            yield from _literal(part)


class _HtmlWords(HTMLParser):
    """The words of a page's text nodes and shown attributes, outside scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        values = dict(attrs)
        shown = SHOWN_ATTRIBUTES | ({"value"} if tag == "input" and values.get("type") in BUTTONS else set())
        for name, value in attrs:
            if name in shown and value and _is_words(value.replace(VARIABLE, " ")):
                self.found.append(f"<{tag} {name}>: {value.replace(VARIABLE, '…')!r}")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and _is_words(data.replace(VARIABLE, " ")):
            self.found.append(f"text: {data.replace(VARIABLE, '…').strip()!r}")

    def handle_comment(self, data: str) -> None:
        """A comment is for the template's readers."""


@pytest.mark.parametrize("name", sorted(p.name for p in TEMPLATES.iterdir() if p.suffix in (".html", ".svg")))
def test_every_word_of_a_template_is_translated(name: str) -> None:
    found = untranslated((TEMPLATES / name).read_text(encoding="utf-8"))
    assert not found, f"{name}: words outside _() or {{% trans %}}: {found}"


def test_every_word_of_the_html_replays_page_is_translated() -> None:
    page = re.sub(r"\{\w+(\[\w+\])?\}", VARIABLE, html_replay._PAGE)
    assert VARIABLE in page and words_of(page) == []


@pytest.mark.parametrize(
    "source",
    [
        "<p>Deal {{ n }}</p>",
        '<input placeholder="your name">',
        "<a title='correct deal {{ n }}'>✎</a>",
        '<button data-confirm="Close it?">{{ _("Close") }}</button>',
        '<input type="submit" value="Record">',
        "<p>{% if closed %}closed{% endif %}</p>",
        "<p>{% trans %}Deal{% endtrans %} of the night</p>",
        '<p>{{ "no rocket" if r == "0" else _("rocket") }}</p>',
        '<p>{{ name or "nobody" }}</p>',
    ],
)
def test_an_untranslated_text_is_found(source: str) -> None:
    assert untranslated(source)


@pytest.mark.parametrize(
    "source",
    [
        "<p>{{ _('Deal %(number)s', number=n) }}</p>",
        '<input placeholder="{{ _("your name") }}" value="{{ typed }}">',
        "<p>{% trans n=n %}Deal {{ n }} is open{% endtrans %}</p>",
        '<td class="num">{{ v|signed }}</td><td>·</td><td>—</td><span>×2</span><b>♣Q ♥10</b> <th>#</th>',
        '<span class="tag">Dou Dizhu</span> <a class="brand">doko</a> <input value="0-240">',
        '{# a comment for the template\'s readers #}<p>{{ ", ".join(players) }}</p>',
        '<input type="hidden" name="action" value="record"><option value="re">{{ _("Re") }}</option>',
        '<button name="action" value="preview" class="{{ "ok" if good else "bad" }}">{{ _("Show") }}</button>',
        '<tr{% if gone %} class="voided"{% endif %}><td>{% if n %}{{ n }}{% endif %}</td></tr>',
    ],
)
def test_symbols_numbers_names_and_variables_are_no_words_to_translate(source: str) -> None:
    assert untranslated(source) == []
