"""Event types, their schema versions, and the conversion between events and JSON payloads.

Game-agnostic: a game module declares each of its events once, a subclass of `Event`
under `@event(version=N)`, and registers its value types (cards, rule sets) with
`register_value`. Payloads are validated against `schemas/events/<Name>.v<N>.json`
when encoded, and older versions are upcast step by step when decoded; stored rows
are never rewritten.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import lru_cache
from typing import Any, ClassVar, TypeVar, dataclass_transform, get_type_hints

from doko_ledger.errors import DokoError, excerpt
from doko_ledger.events.payload_text import quickly_valid
from doko_ledger.frozen import frozen
from doko_ledger.i18n import msg
from doko_ledger.schema_files import event_schema_validator, fast_event_check


class EventCodecError(DokoError):
    """An event that does not match its schema, or a stored row that cannot be read."""


class Event:
    """A domain event, named in the past tense, with payload fields only: a subclass declared
    with `@event`, which makes it a frozen dataclass and registers it with the codec."""

    __slots__ = ()
    event_name: ClassVar[str]
    """The type name its rows are stored under: the log's contract, never changed."""
    schema_version: ClassVar[int]
    """The version of its payload's JSON Schema, `schemas/events/<event_name>.v<N>.json`."""


E = TypeVar("E", bound=Event)
Payload = dict[str, Any]

_EVENT_TYPES: dict[str, type[Event]] = {}
_UPCASTERS: dict[tuple[str, int], Callable[[Payload], Payload]] = {}
_VALUES: dict[type[Any], tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {}


@dataclass_transform(frozen_default=True)
def event(*, version: int, name: str | None = None) -> Callable[[type[E]], type[E]]:
    """Class decorator: declare a subclass of `Event` as the event `name` (the class's own name
    unless given) at schema `version`: a frozen dataclass with slots, registered with the codec.

    A name declared twice is refused (`ValueError`): one stored name, one class.
    """

    def declare(cls: type[E]) -> type[E]:
        event_name = cls.__name__ if name is None else name
        if not issubclass(cls, Event):
            raise TypeError(f"event {event_name!r} must subclass Event")
        if not isinstance(version, int) or version < 1:
            raise ValueError(f"event {event_name!r}: schema version {version!r} is not a whole number from 1")
        if event_name in _EVENT_TYPES:
            raise ValueError(f"event type {event_name!r} declared twice")
        declared = frozen(cls)
        declared.event_name, declared.schema_version = event_name, version
        _EVENT_TYPES[event_name] = declared
        return declared

    return declare


def upcaster(name: str, from_version: int) -> Callable[[Callable[[Payload], Payload]], Callable[[Payload], Payload]]:
    """Register a function that turns a `name` payload of `from_version` into `from_version + 1`."""

    def register(fn: Callable[[Payload], Payload]) -> Callable[[Payload], Payload]:
        _UPCASTERS[(name, from_version)] = fn
        return fn

    return register


def register_value(
    cls: type[Any], encode: Callable[[Any], Any], decode: Callable[[Any], Any], *, flat_object: bool = False
) -> None:
    """Teach the codec a value type that is stored as JSON by `encode` and read by `decode`.

    `flat_object`: its JSON form is an object that holds no object (a rule set), so that a stored
    payload gives it as one piece of text: read once for each distinct text (`decode_event`),
    however many events hold it.
    """
    _VALUES[cls] = (encode, decode)
    if flat_object:
        _FLAT_OBJECTS.add(cls)


_FLAT_OBJECTS: set[type[Any]] = set()


def event_class(name: str) -> type[Event]:
    """The class of an event type; the event modules not loaded yet are loaded to find it."""
    cls = _EVENT_TYPES.get(name)
    if cls is None:
        from doko_ledger.events.catalog import load_all

        load_all()
        cls = _EVENT_TYPES.get(name)
    if cls is None:
        raise EventCodecError(msg("unknown event type {name}", name=repr(name)))
    return cls


def event_names() -> tuple[str, ...]:
    return tuple(_EVENT_TYPES)


def _encode(value: Any) -> Any:
    codec = _VALUES.get(type(value))
    if codec is not None:
        return codec[0](value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


class _ValueMemo(dict[str, Any]):
    """A registered value type's decoded values by their JSON text (a card's `"CQ"`): value
    types are immutable, and the same few texts recur in every game."""

    def __init__(self, decode: Callable[[Any], Any]) -> None:
        super().__init__()
        self.decode = decode

    def __missing__(self, text: str) -> Any:
        value = self.decode(text)
        if type(text) is str and len(self) < 4096:
            self[text] = value
        return value


def _decoder(hint: Any) -> Callable[[Any], Any]:
    """A function that builds a value of type `hint` from its JSON form."""
    if hint in _VALUES:
        return _value_decoder(_VALUES[hint][1])
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        decode_inner = _decoder(inner[0])
        return lambda v: None if v is None else decode_inner(v)
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if item in _VALUES:
            return _value_tuple_decoder(_VALUES[item][1])
        decode_item = _decoder(item)
        return lambda v: tuple(map(decode_item, v))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    return lambda v: v


def _value_decoder(decode: Callable[[Any], Any]) -> Callable[[Any], Any]:
    memo = _ValueMemo(decode)

    def read(value: Any) -> Any:
        if type(value) is str:
            return memo[value]
        return decode(value)

    return read


def _value_tuple_decoder(decode: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A tuple of a registered value type (a hand of cards): one memo look-up per item."""
    memo = _ValueMemo(decode)
    lookup = memo.__getitem__

    def read(values: Any) -> Any:
        try:
            return tuple(map(lookup, values))
        except TypeError:  # an item whose JSON form is not text (a list, an object)
            return tuple(decode(v) for v in values)

    return read


_DECODERS: dict[type[Any], tuple[tuple[str, Callable[[Any], Any]], ...]] = {}


def _field_decoders(cls: type[Any]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """Per field of an event class, the function that reads its JSON form (built once)."""
    decoders = _DECODERS.get(cls)
    if decoders is None:
        hints = get_type_hints(cls)
        decoders = _DECODERS[cls] = tuple((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls))
        _FLAT_FIELDS[cls] = tuple(_FlatField(name, read) for name, read in decoders if hints[name] in _FLAT_OBJECTS)
    return decoders


class _FlatField:
    """A field of an event class whose value type is a flat object (`register_value`): its key as
    the payload's text gives it, what reads its JSON form, and the values read by their text."""

    __slots__ = ("decode", "key", "name", "read")

    def __init__(self, name: str, decode: Callable[[Any], Any]) -> None:
        self.name, self.key, self.decode = name, f"{json.dumps(name)}:{{", decode
        self.read: dict[str, Any] = {}


_FLAT_FIELDS: dict[type[Any], tuple[_FlatField, ...]] = {}


def _flat_fields(cls: type[Any]) -> tuple[_FlatField, ...]:
    fields = _FLAT_FIELDS.get(cls)
    if fields is None:
        _field_decoders(cls)  # which tells the flat fields, reading the class's hints once
        fields = _FLAT_FIELDS[cls]
    return fields


def _read_flat(name: str, cls: type[Any], payload_text: str) -> Any:
    """The event of a current-version payload whose flat objects are read by their text: each
    object's text cut out (from its key to the first `}`: a string or an object inside would
    make that text no JSON, which is then read the usual way), read once per distinct text, and
    the rest of the payload parsed without it. None when the payload is not of that shape."""
    decoded: dict[str, Any] = {}
    rest = payload_text
    for field in _flat_fields(cls):
        start = rest.find(field.key)
        end = rest.find("}", start) + 1
        if start < 0 or not end:
            return None
        opening = start + len(field.key) - 1
        text = rest[opening:end]
        value = field.read.get(text)
        if value is None:
            try:
                value = field.decode(json.loads(text))
            except (TypeError, ValueError, KeyError):
                return None
            if len(field.read) < 1024:
                field.read[text] = value
        decoded[field.name] = value
        rest = f"{rest[:opening]}0{rest[end:]}"
    try:
        payload = json.loads(rest)
    except ValueError:
        return None
    if type(payload) is not dict or any(payload.get(f) != 0 or type(payload[f]) is not int for f in decoded):
        return None  # the key was found inside another object of the payload
    for read in decoded:
        del payload[read]
    return from_payload(name, payload, decoded)


def to_payload(event: Any) -> Payload:
    """The JSON payload of an event (not validated)."""
    return {f.name: _encode(getattr(event, f.name)) for f in dataclasses.fields(event)}


def from_payload(name: str, payload: Mapping[str, Any], decoded: Mapping[str, Any] | None = None) -> Any:
    """The event of a current-version payload (with `decoded`: fields already read, left out of it)."""
    cls = event_class(name)
    try:
        values = {field: decode(payload[field]) for field, decode in _field_decoders(cls) if field in payload}
        if decoded:
            values.update(decoded)
        return cls(**values)
    except (TypeError, ValueError, KeyError) as exc:
        raise EventCodecError(msg("cannot read {name} event: {problem}", name=name, problem=exc)) from exc


def validate(name: str, version: int, payload_text: str) -> None:
    """Check a payload's JSON text against its JSON Schema; raise `EventCodecError` naming the field."""
    problem = _schema_problem(name, version, payload_text)
    if problem is not None:
        raise EventCodecError(problem)


@lru_cache(maxsize=8192)
def _schema_problem(name: str, version: int, payload_text: str) -> str | None:
    """Validation is a pure function of the text, and most payloads recur (a card played by a seat).
    A canonical text that a plain schema certainly accepts is accepted without parsing it
    (`payload_text`: a dealt hand costs a regular expression instead of 48 checked cards)."""
    if quickly_valid(name, version, payload_text):
        return None
    try:
        payload = json.loads(payload_text)
    except ValueError as exc:
        return f"{name} v{version} payload is not JSON: {exc}"
    try:
        fast_event_check(name, version)(payload)
        return None
    except FileNotFoundError:
        return f"no schema for {name} v{version}: not an event this doko_ledger knows"
    except ValueError:  # fastjsonschema's JsonSchemaException; jsonschema names the field precisely
        pass
    error = next(iter(event_schema_validator(name, version).iter_errors(payload)), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(payload)"
    return f"{name} v{version} event does not match its schema at {where}: {excerpt(error.message)}"


@lru_cache(maxsize=8192)
def encode_event(event: Any) -> tuple[str, int, str]:
    """Validated (type name, schema version, payload JSON text) of an event, ready to store.

    Events are immutable values, so equal events (a seat's card, a reservation) share one encoding.
    """
    name, version = event.event_name, event.schema_version
    text = dumps_canonical(to_payload(event))
    validate(name, version, text)
    return name, version, text


@lru_cache(maxsize=8192)
def decode_event(name: str, version: int, payload_text: str) -> Any:
    """An event from a stored row, upcast to the current version of its type.

    Events are immutable values, so equal rows share one decoded event.
    """
    cls = event_class(name)
    if version == cls.schema_version and _flat_fields(cls):
        event = _read_flat(name, cls, payload_text)
        if event is not None:
            return event
    payload = json.loads(payload_text)
    while version < cls.schema_version:
        step = _UPCASTERS.get((name, version))
        if step is None:
            raise EventCodecError(msg("no upcaster for {name} v{version}", name=name, version=version))
        payload = step(payload)
        version += 1
    if version > cls.schema_version:
        raise EventCodecError(
            msg(
                "{name} v{version} is newer than this doko_ledger knows (v{known})",
                name=name,
                version=version,
                known=cls.schema_version,
            )
        )
    return from_payload(name, payload)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dumps_canonical(data: Any) -> str:
    """One fixed JSON text for a value: sorted keys, no spaces, UTF-8 kept."""
    return _CANONICAL.encode(data)
