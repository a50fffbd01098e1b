"""Named house-rule sets: a table's rules saved in the ledger under a name (`kitchen`), picked by
that name the next time (`--rules kitchen`, the start form). Each set is its own stream,
`rules/<name>`; saving it again appends a new version, and the newest is the set in force
(docs/rules.md §8)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from doko_ledger.doppelkopf import events as _game_events  # noqa: F401 (the codec of a RuleSet)
from doko_ledger.doppelkopf.rules.options import rules_with
from doko_ledger.doppelkopf.rules.ruleset import PRESETS, RuleSet, RuleSetError, preset
from doko_ledger.events.codec import Event, event
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg

if TYPE_CHECKING:
    from doko_ledger.events.envelope import Envelope
    from doko_ledger.store.base import EventStore

HOUSE_RULES_PREFIX = "rules/"
MAX_NAME = 40
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


@event(version=1)
class HouseRulesSaved(Event):
    """A named house-rule set saved (or saved again: the newest version is the set); `request_id`:
    the client's id of the write, so that the same save sent again finds this one."""

    name: str
    rules: RuleSet
    request_id: str | None = None


class HouseRulesNotFound(RuleSetError):
    """No preset, saved house-rule set or rule file of that name."""


@frozen
class HouseRules:
    """A saved set as it stands: its newest version, who saved it and when."""

    name: str
    rules: RuleSet
    version: int
    saved_by: str
    saved_at: str

    def changes(self) -> dict[str, object]:
        """What it changes from its preset."""
        return self.rules.changed_from_preset()


@frozen
class NamedRules:
    """The rules a `--rules NAME` names, and the saved set's name when it named one."""

    rules: RuleSet
    name: str | None = None

    def changed(self, typed: Mapping[str, str]) -> NamedRules:
        """These rules with the options typed as text changed (`rules_with`); the saved set's
        name is kept only if no option differs from it."""
        rules = rules_with(self.rules, typed)
        return NamedRules(rules, self.name if rules == self.rules else None)


def checked_name(name: str) -> str:
    """A house-rule set's name, or `RuleSetError` saying what a name takes (a preset's is taken)."""
    if not NAME.fullmatch(name):
        raise RuleSetError(
            msg(
                "a house-rule set's name takes 1 to {most} of a-z, A-Z, 0-9, '-' and '_', starting with a letter"
                " or digit, not {name}",
                most=MAX_NAME,
                name=repr(name[:60]),
            )
        )
    if name.casefold() in PRESETS:
        raise RuleSetError(msg("{name} is a preset's name: name the house rules otherwise", name=repr(name)))
    return name


def may_be_saved(spec: str) -> bool:
    """Whether `--rules SPEC` may name a saved set (not a preset, and a name a set may have)."""
    return spec not in PRESETS and NAME.fullmatch(spec) is not None


def _stream(name: str) -> str:
    return HOUSE_RULES_PREFIX + name.casefold()


class HouseRulesBook:
    """The named house-rule sets of a ledger."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def save(self, name: str, rules: RuleSet, *, by: str, at: str, request_id: str | None = None) -> HouseRules:
        """Save `rules` as `name` (a new version if the name is saved already; a name differing only
        in case is the same set). Sent again with the same `request_id`, nothing is written twice."""
        checked_name(name)
        stream = _stream(name)
        if request_id is not None:
            first = next((r for r in self.store.read_stream(stream) if r.event.request_id == request_id), None)
            if first is not None:
                return _saved(first.event, first.envelope)
        version = self.store.stream_version(stream)
        self.store.append(
            stream, [HouseRulesSaved(name, rules, request_id)], expected_version=version, recorded_by=by, recorded_at=at
        )
        return HouseRules(name, rules, version + 1, by, at)

    def find(self, name: str) -> HouseRules | None:
        """The newest version of the set `name` (in any case), or None."""
        if not NAME.fullmatch(name):
            return None
        recorded = self.store.read_stream(_stream(name))
        if not recorded:
            return None
        last = recorded[-1]
        return _saved(last.event, last.envelope)

    def named(self, name: str) -> HouseRules:
        found = self.find(name)
        if found is None:
            raise HouseRulesNotFound(
                msg("no house-rule set {name} in the ledger ({known})", name=repr(name[:60]), known=self._known())
            )
        return found

    def names(self) -> list[str]:
        """The names of the saved sets, as last saved, in the order of their streams."""
        return [h.name for h in self.list()]

    def list(self) -> list[HouseRules]:
        """Every saved set, its newest version."""
        streams = self.store.streams(HOUSE_RULES_PREFIX)
        found = (self.find(stream.removeprefix(HOUSE_RULES_PREFIX)) for stream in streams)
        return sorted((h for h in found if h is not None), key=lambda h: h.name.casefold())

    def _known(self) -> Message:
        names = self.names()
        if names:
            return msg("saved: {names}", names=", ".join(names))
        return msg("none is saved: `doko rules save NAME`")


def _saved(saved: HouseRulesSaved, envelope: Envelope) -> HouseRules:
    return HouseRules(saved.name, saved.rules, envelope.version, envelope.recorded_by, envelope.recorded_at)


def rules_named(spec: str, saved: HouseRulesBook | None = None, *, files: bool = True) -> NamedRules:
    """The rules `--rules SPEC` names: a preset, else a saved house-rule set (of `saved`), else
    (with `files`: never for what a client sends over the network) a house-rule file by its path."""
    from doko_ledger.doppelkopf.files import rules_file

    if spec in PRESETS:
        return NamedRules(preset(spec))
    found = None if saved is None else saved.find(spec)
    if found is not None:
        return NamedRules(found.rules, found.name)
    path = Path(spec)
    if files and (path.suffix in (".yaml", ".yml") or path.exists()):
        return NamedRules(rules_file.load(path))
    presets, named = ", ".join(PRESETS), repr(spec[:60])
    if saved is not None and saved.names():
        known = msg("presets: {presets}; saved: {names}", presets=presets, names=", ".join(saved.names()))
    else:
        known = msg("presets: {presets}", presets=presets)
    if not files:
        raise HouseRulesNotFound(msg("no preset or house-rule set {name} ({known})", name=named, known=known))
    raise HouseRulesNotFound(
        msg("no preset, house-rule set or rule file {name} ({known}; or a .yaml file)", name=named, known=known)
    )
