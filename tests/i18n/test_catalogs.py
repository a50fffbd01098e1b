"""The catalogs hold every message of the code, in German and in French, with the same
placeholders, and the compiled catalogs are the ones their `.po` files make."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from doko_ledger.i18n.catalogs import catalog_path

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"msg": None, "plural": (1, 2), "helped": None, "described": None}
"""The functions whose texts `make messages` extracts (and `_` in templates): messages, and the CLI's help."""
TRANSLATED = ("de", "fr")
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}|%\((\w+)\)s")  # the code's `{name}`, the templates' `%(name)s`


def _in_the_code() -> dict[str, tuple[str, ...]]:
    """Every message id of the code (with its plural id), and where it is."""
    found: dict[str, tuple[str, ...]] = {}
    templates = [f"doko_ledger/web/templates/**.{kind}" for kind in ("html", "svg")]
    methods = [("doko_ledger/**.py", "python")] + [(files, "jinja2") for files in templates]
    options = {files: {"extensions": "jinja2.ext.i18n"} for files in templates}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map=methods, options_map=options, keywords={**KEYWORDS, "_": None, "ngettext": (1, 2)}
    ):
        ids = message if isinstance(message, tuple) else (message,)
        found[ids[0]] = ids
        assert all(ids), f"{filename}: an empty message id"
    return found


def _po(language: str) -> Catalog:
    with (catalog_path(language).with_suffix(".po")).open("rb") as file:
        return read_po(file, locale=language)


CODE = _in_the_code()


def test_the_code_has_messages_to_translate() -> None:
    assert "unknown card {text} (write e.g. 'CQ', 'H10', '♥10' or 'Kreuz Dame')" in CODE


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_code_is_translated(language: str) -> None:
    po = _po(language)
    missing = [ids[0] for ids in CODE.values() if not _translated(po, ids)]
    assert not missing, f"{len(missing)} messages without a {language} translation (`make messages`): {missing[:5]}"
    stale = [m.id for m in po if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in CODE]
    assert not stale, f"the {language} catalog translates messages the code no longer has: {stale[:5]}"


def _translated(po: Catalog, ids: tuple[str, ...]) -> bool:
    entry = po.get(ids[0])
    if entry is None or entry.fuzzy:
        return False
    strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
    return all(strings) and (len(ids) == 1) == isinstance(entry.string, str)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_keeps_every_placeholder(language: str) -> None:
    for entry in _po(language):
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) == wanted, f"{language}: {entry.id!r} → {text!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_its_po_file(language: str) -> None:
    with catalog_path(language).open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    for entry in _po(language):
        if not entry.id or entry.fuzzy:
            continue
        if isinstance(entry.id, tuple):
            assert [compiled.ngettext(*entry.id, n) for n in (1, 2)] == [
                entry.string[compiled.plural(n)]  # type: ignore[attr-defined]
                for n in (1, 2)
            ], f"{catalog_path(language)} is older than its .po (`make`)"
        else:
            assert compiled.gettext(entry.id) == entry.string, (
                f"{catalog_path(language)} is older than its .po (`make`)"
            )
