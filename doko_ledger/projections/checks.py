"""One audited check, as every game's audit reports it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Check:
    """One audit check: passed or not, and what it found, with the events' positions."""

    name: str
    ok: bool
    details: list[str] = field(default_factory=list)
