"""Which language a reader gets: from a command's environment as every Unix tool reads it,
from a browser's `Accept-Language`, or as asked for (`doko --lang de`, the page's switch)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

LANGUAGES = ("en", "de", "fr")
"""The languages doko speaks, English first: the language of the message ids."""

DEFAULT = "en"

_CURRENT: ContextVar[str] = ContextVar("doko_language", default=DEFAULT)


def current() -> str:
    """The language texts are rendered in here: the command's, or the request's."""
    return _CURRENT.get()


def choose(language: str) -> str:
    """Render in `language` from now on in this context (a command's whole run); a language
    doko does not speak gives English. Gives the language chosen."""
    _CURRENT.set(_spoken(language))
    return current()


@contextmanager
def using(language: str) -> Iterator[str]:
    """Render in `language` within the block (a command, a request), then as before."""
    token = _CURRENT.set(_spoken(language))
    try:
        yield current()
    finally:
        _CURRENT.reset(token)


def _spoken(language: str) -> str:
    """`language` if doko speaks it, else English."""
    return language if language in LANGUAGES else DEFAULT


def language_of(tag: str) -> str | None:
    """The language of a locale name or language tag doko speaks (`de_DE.UTF-8`, `de-AT`,
    `fr`, `FR_ca`), or None (`C`, `POSIX`, `it_IT`, an empty text)."""
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def from_environ(environ: Mapping[str, str]) -> str:
    """The language of a command, read as gettext reads it: the first of `LC_ALL`,
    `LC_MESSAGES` and `LANG` that is set names the locale (`C` and `POSIX` are English);
    unless that is `C`, `LANGUAGE` may list languages in order of preference
    (`LANGUAGE=fr:de`). A language doko does not speak gives English."""
    locale = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    if locale.split(".")[0] in ("C", "POSIX"):
        return DEFAULT
    for tag in environ.get("LANGUAGE", "").split(":"):
        language = language_of(tag)
        if language is not None:
            return language
    return language_of(locale) or DEFAULT


def from_accept_language(header: str | None) -> str:
    """The language a browser asks for first among those doko speaks (`Accept-Language:
    fr-CH, fr;q=0.9, de;q=0.8`): by quality, and in the header's order among equals; `*`
    or nothing doko speaks gives English. A malformed entry is passed over."""
    wanted: list[tuple[float, int, str]] = []
    for place, entry in enumerate((header or "").split(",")):
        tag, _, parameters = entry.partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        language = language_of(tag) if tag.strip() != "*" else DEFAULT
        if language is not None and 0.0 < quality <= 1.0:
            wanted.append((-quality, place, language))
    return min(wanted)[2] if wanted else DEFAULT
