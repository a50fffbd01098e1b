"""`frozen.quick_init`: the same `__init__` as the dataclass's own, only faster, and refused
for a class it could not give the same one."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field
from typing import Any

import pytest

from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.scoring import DealFacts, ScoreLine
from doko_ledger.frozen import quick_init


@dataclass(frozen=True, slots=True)
class Plain:
    name: str
    count: int = 1
    seen: dict[str, int] = field(default_factory=dict)


@quick_init
@dataclass(frozen=True, slots=True)
class Quick:
    name: str
    count: int = 1
    seen: dict[str, int] = field(default_factory=dict)


@pytest.mark.parametrize(
    ("args", "kwargs"), [(("a",), {}), (("a", 2), {}), (("a",), {"seen": {"x": 1}}), ((), {"name": "b", "count": 3})]
)
def test_it_builds_what_the_dataclass_builds(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    plain, quick = Plain(*args, **kwargs), Quick(*args, **kwargs)
    assert dataclasses.asdict(plain) == dataclasses.asdict(quick)
    assert repr(quick) == repr(plain).replace("Plain", "Quick")
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.count = 5  # type: ignore[misc]
    assert Quick("a").seen is not Quick("a").seen  # a new dict each time, as the factory makes


def test_the_arguments_are_the_dataclasss_own() -> None:
    assert list(inspect.signature(Quick).parameters) == list(inspect.signature(Plain).parameters)
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", 1, {}, 4)  # type: ignore[call-arg]
    line = ScoreLine("won", Party.RE, 1, cause="x")
    assert (line.item, line.party, line.points, line.factor, line.cause, line.special) == (
        "won",
        Party.RE,
        1,
        1,
        "x",
        False,
    )
    facts = DealFacts(GameType.NORMAL, False, 121, 6, 6, {Party.RE: -1})
    assert facts.causes == {} and facts.tricks_known and facts == dataclasses.replace(facts)


def test_a_class_it_cannot_build_alike_is_refused() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(frozen=True, slots=True)
    class KeywordOnly:
        a: int = field(kw_only=True)

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (NoSlots, KeywordOnly, Checked):
        with pytest.raises(TypeError):
            quick_init(cls)
