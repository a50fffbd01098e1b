"""A text for a person, kept as its message id and parameters until it is rendered in the
reader's language."""

from __future__ import annotations

from doko_ledger.i18n.catalogs import catalog
from doko_ledger.i18n.formats import Number
from doko_ledger.i18n.languages import current


class Message:
    """A message id (the English text, with `{name}` placeholders), its parameters, and for a
    count its plural id: `1 payment`, `3 payments`. A parameter that is itself a `Message`,
    or that has a `localized(language)` form (`Number`, `Money`, `Day`, a card), is rendered
    in the same language; any other is written as `str` writes it (a player's name, a game
    id, a deal's number: never translated, never grouped).

    A plain class with slots, not a dataclass: every command imports it, and a class made by
    `dataclass` costs its import a compilation of the methods it generates."""

    __slots__ = ("count", "id", "params", "plural_id")

    def __init__(
        self, id: str, params: tuple[tuple[str, object], ...] = (), plural_id: str | None = None, count: int = 1
    ) -> None:
        self.id, self.params, self.plural_id, self.count = id, params, plural_id, count

    def _key(self) -> tuple[object, ...]:
        return (self.id, self.params, self.plural_id, self.count)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Message({self.id!r}, {self.params!r})"

    def __str__(self) -> str:
        return render(self)


def msg(id: str, /, **params: object) -> Message:
    """A message: `msg("deal {deal} is already recorded", deal=3)`. The id is a literal, so
    that the catalogs' extraction finds it."""
    return Message(id, tuple(params.items()))


def plural(singular: str, plural_id: str, count: int, /, **params: object) -> Message:
    """A message about `count` things, in the plural form its language gives that count
    (German and English have two, French counts 0 and 1 as singular); `{count}` in the
    texts is the count in the language's form."""
    return Message(singular, (("count", count), *params.items()), plural_id, count)


def render(message: Message | str, language: str | None = None) -> str:
    """The message's text in `language` (by default the language of the command or the
    request): translated by the language's catalog, its parameters filled in. A text that
    is not a `Message` is given back as it is."""
    if not isinstance(message, Message):
        return message
    language = language or current()
    translations = catalog(language)
    if message.plural_id is None:
        text = translations.gettext(message.id)
    else:
        text = translations.ngettext(message.id, message.plural_id, message.count)
    if not message.params:
        return text
    values = {name: _parameter(value, language) for name, value in message.params}
    if message.plural_id is not None:
        values["count"] = Number(message.count).localized(language)
    return text.format_map(values)


def _parameter(value: object, language: str) -> str:
    if isinstance(value, Message):
        return render(value, language)
    localized = getattr(value, "localized", None)
    return str(value) if localized is None else str(localized(language))
