"""Frozen dataclasses that a fold builds by the thousand, built at half the cost, and declared
at a fraction of it.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__` (its
own `__setattr__` refuses). With slots, each field is a slot whose descriptor sets it just
as well, directly: `quick_init` gives the class an `__init__` that does that, with the same
parameters and defaults. Everything else (immutability, equality, hashing, `repr`,
`dataclasses.replace`) stays the dataclass's own.

Declaring such a class costs the dataclass machinery about a millisecond: it writes the source
of six methods and compiles each. `frozen` is `@dataclass(frozen=True, slots=True)` under
`quick_init` that compiles nothing for the class: the dataclass machinery gathers the fields
and makes the slots; the `__init__` is code compiled once for each number of fields, its
parameters named after the class's fields; equality, hashing, `repr`, the refusal to assign
and pickling are functions shared by every class, reading the fields the class names. A
command that loads a hundred event and value classes starts that much sooner.
"""

from __future__ import annotations

import dataclasses
import inspect  # the dataclass machinery's own import
from collections.abc import Callable
from functools import cache
from operator import attrgetter
from reprlib import recursive_repr
from types import CodeType, FunctionType
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Class decorator, above `@dataclass(frozen=True, slots=True)`: the fast `__init__`.

    Refuses a class it cannot give the same `__init__` (no slots, keyword-only or non-init
    fields, `__post_init__`, `InitVar`s), so that a change to the class cannot go unnoticed.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"quick_init needs a frozen dataclass with slots and no __post_init__: {cls.__name__}")
    init = _slot_init(cls)
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


class _Factory:
    """The default of a field made by its factory, in the `__init__`'s signature: `<factory>`,
    as the dataclass shows it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _slot_init(cls: type[Any]) -> Callable[..., None]:
    """The `__init__` that sets each field's slot directly, with the dataclass's parameters and
    defaults; `TypeError` for a class whose dataclass `__init__` would do more than that."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"quick_init needs a frozen dataclass with slots and no __post_init__: {cls.__name__}")
    if any(f.kw_only or not f.init for f in fields) or len(fields) != len(cls.__dataclass_fields__):
        raise TypeError(f"quick_init takes positional init fields only: {cls.__name__}")
    if any(f.name == "self" for f in fields):
        raise TypeError(f"quick_init takes no field named self: {cls.__name__}")
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    defaults: list[Any] = []
    for i, field in enumerate(fields):
        names[f"_set{i}"] = getattr(cls, field.name).__set__  # the slot, its own or a base's
        if field.default is not dataclasses.MISSING:
            defaults.append(field.default)
        elif field.default_factory is not dataclasses.MISSING:
            names[f"_factory{i}"] = field.default_factory
            defaults.append(_FACTORY)
        elif defaults:
            raise TypeError(f"non-default argument {field.name!r} follows default argument")
    made_by = tuple(i for i, f in enumerate(fields) if f.default_factory is not dataclasses.MISSING)
    code = _init_code(len(fields), made_by).replace(
        co_varnames=("self", *(f.name for f in fields)), co_qualname=f"{cls.__qualname__}.__init__"
    )
    return FunctionType(code, names, "__init__", tuple(defaults))


@cache
def _init_code(count: int, made_by: tuple[int, ...]) -> CodeType:
    """The code of an `__init__` that sets `count` slots, `made_by` their factories when not
    given: compiled once for each shape, its parameters named after each class's fields."""
    lines = [
        f"    _set{i}(self, _factory{i}() if _{i} is _FACTORY else _{i})"
        if i in made_by
        else f"    _set{i}(self, _{i})"
        for i in range(count)
    ]
    source = f"def __init__(self, {', '.join(f'_{i}' for i in range(count))}):\n" + "\n".join(lines or ["    pass"])
    made: dict[str, Any] = {}
    exec(source, {}, made)
    return made["__init__"].__code__  # type: ignore[no-any-return]


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: type[T]) -> type[T]:
    """Class decorator: the class `@dataclass(frozen=True, slots=True)` under `@quick_init`
    makes, alike in everything but the cost of declaring it (its `__dataclass_params__` say
    frozen, with `__init__`, `__eq__` and `__repr__`, as the dataclass's would).

    A method the class writes itself (`__eq__`, `__hash__`, `__repr__`) is kept, as the
    dataclass keeps it; a class that writes `__setattr__` or `__delattr__` is refused, as the
    dataclass refuses it, and so is a class `quick_init` refuses. A class below another
    dataclass is left to the dataclass machinery (its checks of the classes below).
    """
    if any("__dataclass_fields__" in base.__dict__ for base in cls.__mro__[1:]):
        return quick_init(dataclasses.dataclass(frozen=True, slots=True)(cls))
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    undocumented = not cls.__doc__
    if undocumented:  # for now: the dataclass would read a signature for words of its own
        cls.__doc__ = cls.__name__
    made: type[Any] = dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    fields = dataclasses.fields(made)
    init = _slot_init(made)
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    names = tuple(f.name for f in fields)
    own = made.__dict__
    writes_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)  # None: beside an __eq__
    for name, method in {"__init__": init, **_value_methods(made, fields)}.items():
        if name not in own or (name == "__hash__" and not writes_hash):
            method.__qualname__ = f"{made.__qualname__}.{name}"
            setattr(made, name, method)
    made.__setattr__, made.__delattr__ = _refusals(made, frozenset(names))
    made.__getstate__, made.__setstate__ = _pickling(made, names)
    params = made.__dataclass_params__
    params.init = params.repr = params.eq = params.frozen = True
    if undocumented:
        made.__doc__ = _signature_words(made.__name__, fields)
    return made


def _signature_words(name: str, fields: tuple[dataclasses.Field[Any], ...]) -> str:
    """What the dataclass writes for a class without a docstring, its name and its `__init__`'s
    parameters, told from the fields (reading the signature of the class costs more than making it)."""
    parameters = []
    for field in fields:
        parameter = f"{field.name}: {inspect.formatannotation(field.type)}"
        if field.default is not dataclasses.MISSING:
            parameter += f" = {field.default!r}"
        elif field.default_factory is not dataclasses.MISSING:
            parameter += f" = {_FACTORY!r}"
        parameters.append(parameter)
    return f"{name}({', '.join(parameters)})"


def _fields_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple of those fields of a value, as the dataclass's methods make it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda value: (one(value),)
    return lambda value: ()


def _value_methods(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...]) -> dict[str, Callable[..., Any]]:
    """`__eq__`, `__hash__` and `__repr__` over the fields that take part in each."""
    compared = _fields_of(tuple(f.name for f in fields if f.compare))
    hashed = _fields_of(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
    shown = tuple(f.name for f in fields if f.repr)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    @recursive_repr()
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    return {"__eq__": __eq__, "__hash__": __hash__, "__repr__": __repr__}


def _refusals(cls: type[Any], names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    """`__setattr__` and `__delattr__` refusing a field, as a frozen dataclass's do."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    __delattr__.__qualname__ = f"{cls.__qualname__}.__delattr__"
    return __setattr__, __delattr__


def _pickling(cls: type[Any], names: tuple[str, ...]) -> tuple[Callable[..., Any], Callable[..., None]]:
    """`__getstate__` and `__setstate__` of a frozen class with slots: the fields' values in
    order, set back through the slots."""
    values = _fields_of(names)
    setters = tuple(cls.__dict__[name].__set__ for name in names)

    def __getstate__(self: Any) -> list[Any]:
        return list(values(self))

    def __setstate__(self: Any, state: list[Any]) -> None:
        for set_field, value in zip(setters, state, strict=False):
            set_field(self, value)

    return __getstate__, __setstate__
