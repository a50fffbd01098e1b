"""One audited check, as every game's audit reports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from doko_ledger.i18n import Message, render


@dataclass(slots=True)
class Check:
    """One audit check: passed (`ok` True), failed (False), or not checked (None: the record
    holds nothing it could check, e.g. a deal recorded without cards), and what it found: its
    name and its findings are messages, shown in the reader's language (a text that is not,
    such as a hash chain's problem, a row of numbers, as it is)."""

    name: Message | str
    ok: bool | None
    details: list[Message | str] = field(default_factory=list)

    @classmethod
    def not_checked(cls, name: Message | str, why: Message | str) -> Check:
        """A check that could not run, and why (it neither passed nor failed)."""
        return cls(name, None, [why])

    @property
    def failed(self) -> bool:
        return self.ok is False

    @property
    def mark(self) -> str:
        """A tick when passed, a cross when failed, a dash when not checked."""
        return {True: "✓", False: "✗", None: "–"}[self.ok]

    def view(self, language: str | None = "en") -> dict[str, Any]:
        """The check as data: its words in `language` (English, for scripts), or with
        `language` None kept as messages, for a page that shows them in its reader's language."""
        if language is None:
            return {"name": self.name, "ok": self.ok, "details": list(self.details)}
        return {
            "name": render(self.name, language),
            "ok": self.ok,
            "details": [render(d, language) for d in self.details],
        }
