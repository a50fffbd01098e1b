"""The languages doko speaks (English, German, French): which one a reader gets, the words
of each, and numbers, money and dates in each one's form.

A text for a person is kept as a `Message` (its message id, the English text with `{name}`
placeholders, and its parameters) until a front end renders it in the reader's language;
nothing is built in English first and translated by matching strings. The catalogs are the
gettext ones under `doko_ledger/locale/`, loaded the first time a language other than
English is rendered, so a command run in English reads none of them (docs/i18n.md)."""

from doko_ledger.i18n.languages import DEFAULT, LANGUAGES, current, from_accept_language, from_environ, using
from doko_ledger.i18n.message import Message, msg, plural, render

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "Message",
    "current",
    "from_accept_language",
    "from_environ",
    "msg",
    "plural",
    "render",
    "using",
]
