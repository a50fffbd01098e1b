"""`frozen.quick_init`: the same `__init__` as the dataclass's own, only faster, and refused
for a class it could not give the same one; `frozen`: the class `@dataclass(frozen=True,
slots=True)` under `quick_init` makes, alike in all a program can ask of it."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.scoring import DealFacts, ScoreLine
from doko_ledger.frozen import frozen, quick_init


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


@frozen
class Made:
    name: str
    count: int = 1
    seen: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    kind: GameType | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Declared:
    name: str
    count: int = 1
    seen: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    kind: GameType | None = None


def _alike(made: Made) -> Declared:
    return Declared(made.name, made.count, made.seen, made.kind)


MADE = [Made("a"), Made("a", 2, {"x": 1}), Made("b", kind=GameType.NORMAL), Made("a", seen={"y": 2}), Made("", 0)]


def test_frozen_makes_what_the_dataclass_makes() -> None:
    for name in ("__match_args__", "__slots__"):
        assert getattr(Made, name) == getattr(Declared, name)
    assert [(f.name, f.type, f.default, f.compare, f.repr) for f in dataclasses.fields(Made)] == [
        (f.name, f.type, f.default, f.compare, f.repr) for f in dataclasses.fields(Declared)
    ]
    assert repr(Made.__dataclass_params__) == repr(Declared.__dataclass_params__)
    assert str(inspect.signature(Made)) == str(inspect.signature(Declared))
    assert Made.__doc__ == Declared.__doc__.replace("Declared", "Made")  # type: ignore[union-attr]
    assert not hasattr(Made("a"), "__dict__")


def test_frozen_values_compare_hash_and_show_as_the_dataclass_s() -> None:
    for one in MADE:
        assert repr(one) == repr(_alike(one)).replace("Declared", "Made")
        assert hash(one) == hash(_alike(one))
        assert dataclasses.asdict(one) == dataclasses.asdict(_alike(one))
        for other in MADE:
            assert (one == other) == (_alike(one) == _alike(other))
            assert (one != other) == (_alike(one) != _alike(other))
    assert Made("a", seen={"x": 1}) == Made("a")  # `seen` takes no part, as it says
    assert Made("a") != _alike(Made("a")) and Made("a").__eq__(_alike(Made("a"))) is NotImplemented
    assert Made("a").seen is not Made("a").seen


def test_frozen_values_cannot_change_but_are_copied_replaced_and_pickled() -> None:
    made = Made("a", 2, {"x": 1}, GameType.NORMAL)
    for change in (lambda: setattr(made, "count", 3), lambda: delattr(made, "name"), lambda: setattr(made, "x", 1)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            change()
    assert (made.name, made.count) == ("a", 2)
    for again in (pickle.loads(pickle.dumps(made)), copy.copy(made), copy.deepcopy(made)):
        assert again == made and again.seen == made.seen and type(again) is Made
    assert dataclasses.replace(made, count=5) == Made("a", 5, {}, GameType.NORMAL)


def test_frozen_keeps_the_methods_a_class_writes_and_refuses_what_the_dataclass_refuses() -> None:
    @frozen
    class Own:
        a: int

        def __eq__(self, other: object) -> bool:
            return True

        def __repr__(self) -> str:
            return "own"

    @frozen
    class OwnHash:
        a: int

        def __hash__(self) -> int:
            return 7

    assert Own(1) == Own(2) and repr(Own(1)) == "own" and hash(Own(1)) == hash((1,))
    assert hash(OwnHash(1)) == 7 and OwnHash(1) == OwnHash(1) != OwnHash(2)

    class Settable:
        a: int

        def __setattr__(self, name: str, value: object) -> None:
            pass

    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    class KeywordOnly:
        a: int = field(kw_only=True)

    class DefaultFirst:
        a: int = 1
        b: int

    for cls in (Settable, Checked, KeywordOnly, DefaultFirst):
        with pytest.raises(TypeError):
            frozen(cls)


def test_frozen_takes_the_arguments_the_dataclass_takes() -> None:
    assert Made(name="b", count=3, kind=GameType.NORMAL) == Made("b", 3, {}, GameType.NORMAL)
    for args, kwargs in (((), {}), (("a", 1, {}, None, 5), {}), (("a",), {"name": "b"}), (("a",), {"other": 1})):
        with pytest.raises(TypeError) as made:
            Made(*args, **kwargs)
        with pytest.raises(TypeError) as declared:
            Declared(*args, **kwargs)
        assert str(made.value) == str(declared.value).replace("Declared", "Made")


def test_a_frozen_class_below_a_dataclass_is_the_dataclass_s() -> None:
    @frozen
    class Below(Declared):
        extra: int = 0

    below = Below("a", extra=3)
    assert repr(below).endswith(".Below(name='a', count=1, kind=None, extra=3)") and below != Below("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        below.extra = 4  # type: ignore[misc]
