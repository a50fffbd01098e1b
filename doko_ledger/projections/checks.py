"""One audited check, as every game's audit reports it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Check:
    """One audit check: passed (`ok` True), failed (False), or not checked (None: the record
    holds nothing it could check, e.g. a deal recorded without cards), and what it found."""

    name: str
    ok: bool | None
    details: list[str] = field(default_factory=list)

    @classmethod
    def not_checked(cls, name: str, why: str) -> Check:
        """A check that could not run, and why (it neither passed nor failed)."""
        return cls(name, None, [why])

    @property
    def failed(self) -> bool:
        return self.ok is False

    @property
    def mark(self) -> str:
        """A tick when passed, a cross when failed, a dash when not checked."""
        return {True: "✓", False: "✗", None: "–"}[self.ok]
