"""The wheel carries the compiled catalogs: a machine that installs it speaks German and
French without Babel's tools or the repository's `.po` files."""

from __future__ import annotations

import gettext
import io
import zipfile
from pathlib import Path

import pytest


@pytest.mark.slow
def test_the_wheel_carries_each_languages_compiled_catalog(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for language, words in (("de", "unbekannte Karte"), ("fr", "carte inconnue")):
            name = f"doko_ledger/locale/{language}/LC_MESSAGES/doko.mo"
            assert name in names
            compiled = gettext.GNUTranslations(io.BytesIO(archive.read(name)))
            message = "unknown card {text} (write e.g. 'CQ', 'H10', '♥10' or 'Kreuz Dame')"
            assert compiled.gettext(message).startswith(words)
            assert f"doko_ledger/locale/{language}/glossary.yaml" in names
