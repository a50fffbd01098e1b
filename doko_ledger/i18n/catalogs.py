"""The translations of each language: gettext catalogs (`doko_ledger/locale/<language>/
LC_MESSAGES/doko.mo`, compiled from the `.po` files beside them by the package build and by
`make`), each read the first time its language is rendered."""

from __future__ import annotations

import gettext
import logging
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "doko"

log = logging.getLogger("doko_ledger")


def catalog_path(language: str) -> Path:
    """Where the compiled catalog of `language` is."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The translations of `language`; English is the message ids themselves. A catalog that
    was not compiled (a checkout that `make` has not built) gives English, with a note."""
    if language == "en":
        return gettext.NullTranslations()
    path = catalog_path(language)
    try:
        with path.open("rb") as file:
            return gettext.GNUTranslations(file)
    except OSError:
        log.warning("no %s catalog at %s (run `make`): showing English", language, path)
        return gettext.NullTranslations()
