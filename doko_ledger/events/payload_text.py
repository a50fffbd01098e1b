"""A quick yes to a payload's schema check, read off its JSON text (`codec.validate`'s fast path).

An event's payload is stored as canonical JSON (sorted keys, no spaces, every field written).
For an event schema built from a few plain keywords, a regular expression over that text
accepts only texts whose JSON the schema accepts: each string without escapes (so its
characters are its value, counted as the schema counts them), each integer in its bounds,
each object with its properties in sorted order. Matching it is a few microseconds where
parsing the text and running the schema's checks on it are tens (a dealt hand's 48 cards).

The expression only ever says yes: a text it does not match (spaces, an escape, a keyword it
does not know, an invalid payload) goes through the full check, so it may be stricter than
the schema, never looser. A schema with a keyword not listed here gets no expression.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from doko_ledger.schema_files import load_schema

_NOTES = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"})
"""Keywords that do not constrain a value."""
_KNOWN = frozenset(
    {"type", "enum", "properties", "required", "additionalProperties", "items", "minItems", "maxItems"}
    | {"minLength", "maxLength", "pattern", "minimum", "maximum", "$ref"}
)

_CHAR = r'[^"\\\x00-\x1f]'
"""A character of a JSON string that needs no escape: one character of the value."""
_KEY = re.compile(r"[A-Za-z0-9_]+")
_INTEGER = r"-?(?:0|[1-9][0-9]{0,17})"
"""An integer as JSON writes it, short enough for any reader to take it as one."""
_SCALAR = rf'(?:"{_CHAR}*"|{_INTEGER}|true|false|null)'
_PLAIN_PATTERN = re.compile(r"\^[A-Za-z0-9\[\]()|?+*{},]*\$")
"""A `pattern` that can sit inside a string's quotes as it is: anchored at both ends, no
escape, no negated class, no dot, no range (none of which could reach past a quote)."""


@cache
def payload_matcher(name: str, version: int) -> re.Pattern[str] | None:
    """The expression for one event type's payloads at one schema version, or None when its
    schema uses a keyword this module does not know. Raises `FileNotFoundError` for no schema."""
    schema = load_schema(f"events/{name}.v{version}.json")
    pattern = _value(schema, schema.get("$defs", {}), 0)
    try:
        return None if pattern is None else re.compile(pattern)
    except re.error:  # a `pattern` keyword that is no regular expression: the full check says so
        return None


def _value(node: Any, defs: dict[str, Any], depth: int) -> str | None:
    """The expression of the JSON texts that `node` accepts (a subset of them), or None."""
    if not isinstance(node, dict) or depth > 16:
        return None
    keys = set(node) - _NOTES
    if not keys <= _KNOWN:
        return None
    if "$ref" in node:
        ref = node["$ref"]
        if keys != {"$ref"} or not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            return None
        return _value(defs.get(ref.removeprefix("#/$defs/")), defs, depth + 1)
    if "enum" in node:
        return _enum(node)
    kinds = node.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    if not isinstance(kinds, list) or not kinds:
        return None
    choices = [_typed(kind, node, defs, depth) for kind in kinds]
    if None in choices:
        return None
    return "(?:" + "|".join(c for c in choices if c is not None) + ")"


def _enum(node: dict[str, Any]) -> str | None:
    values = node["enum"]
    if set(node) - _NOTES - {"enum", "type"} or node.get("type", "string") != "string":
        return None
    if not isinstance(values, list) or not values or any(type(v) is not str for v in values):
        return None
    return "(?:" + "|".join(re.escape(json.dumps(v, ensure_ascii=False)) for v in values) + ")"


def _typed(kind: Any, node: dict[str, Any], defs: dict[str, Any], depth: int) -> str | None:
    if kind == "null":
        return "null"
    if kind == "boolean":
        return "(?:true|false)"
    if kind == "integer":
        return _integer(node.get("minimum"), node.get("maximum"))
    if kind == "string":
        return _string(node)
    if kind == "array":
        return _array(node, defs, depth)
    if kind == "object":
        return _object(node, defs, depth)
    return None


def _bound(value: Any) -> bool:
    return value is None or type(value) is int


def _integer(low: Any, high: Any) -> str | None:
    if not (_bound(low) and _bound(high)):
        return None
    if low is not None and high is not None:
        if high - low > 64:
            return None
        return "(?:" + "|".join(str(i) for i in range(high, low - 1, -1)) + ")" if high >= low else None
    if high is not None:
        return None
    if low is None:
        return _INTEGER
    if low == 0:
        return "(?:0|[1-9][0-9]{0,17})"
    if low == 1:
        return "[1-9][0-9]{0,17}"
    return None


def _string(node: dict[str, Any]) -> str | None:
    low, high = node.get("minLength", 0), node.get("maxLength")
    if type(low) is not int or not _bound(high):
        return None
    length = f"{{{low},{'' if high is None else high}}}"
    pattern = node.get("pattern")
    if pattern is None:
        return f'"{_CHAR}{length}"'
    if not isinstance(pattern, str) or not _PLAIN_PATTERN.fullmatch(pattern) or "[^" in pattern:
        return None
    inner = pattern[1:-1]
    if "^" in inner or "$" in inner:
        return None
    counted = "" if (low, high) == (0, None) else f'(?={_CHAR}{length}")'
    return f'"{counted}(?:{inner})"'


def _array(node: dict[str, Any], defs: dict[str, Any], depth: int) -> str | None:
    low, high = node.get("minItems", 0), node.get("maxItems")
    if type(low) is not int or not _bound(high):
        return None
    item = _SCALAR if "items" not in node else _value(node["items"], defs, depth + 1)
    if item is None or (high is not None and high < low):
        return None
    if high == 0:
        return r"\[\]"
    more = f"{{{max(low - 1, 0)},{'' if high is None else high - 1}}}"
    items = f"{item}(?:,{item}){more}"
    return rf"\[{items}\]" if low > 0 else rf"\[(?:{items})?\]"


def _object(node: dict[str, Any], defs: dict[str, Any], depth: int) -> str | None:
    properties = node.get("properties", {})
    required = node.get("required", [])
    extra = node.get("additionalProperties")
    if not isinstance(properties, dict) or not isinstance(required, list) or extra is None:
        return None
    if not all(isinstance(k, str) and _KEY.fullmatch(k) for k in properties):
        return None
    values = {k: _value(v, defs, depth + 1) for k, v in sorted(properties.items())}
    if None in values.values():
        return None
    if extra is False:  # every property, in the sorted order of canonical JSON
        if not set(required) <= set(properties):
            return None
        members = ",".join(f'"{k}":{v}' for k, v in values.items())
        return rf"\{{{members}\}}"
    # Further properties of one schema: the members in any order, each known name only with
    # its own value (a repeated name, which JSON readers take the last of, is valid either
    # way), and a look-ahead for each required name. Values hold no object, so the look-ahead
    # stays inside this object, and `"name":` is found only as a name (a string holds no quote).
    other = _value(extra, defs, depth + 1)
    if other is None or not all(isinstance(k, str) and _KEY.fullmatch(k) for k in required):
        return None
    if any(r"\{" in v for v in (other, *values.values()) if v is not None):
        return None
    known = "|".join(values)
    member = "|".join([*(f'"{k}":{v}' for k, v in values.items()), f'"(?!(?:{known})")[A-Za-z0-9_]+":{other}'])
    ahead = "".join(f'(?=[^{{}}]*"{k}":)' for k in required)
    return rf"\{{{ahead}(?:(?:{member})(?:,(?:{member}))*)?\}}"


def quickly_valid(name: str, version: int, payload_text: str) -> bool:
    """True when the text is certainly a payload its schema accepts; False says nothing."""
    try:
        matcher = payload_matcher(name, version)
    except FileNotFoundError:  # no such event: the full check says so
        return False
    return matcher is not None and matcher.fullmatch(payload_text) is not None
