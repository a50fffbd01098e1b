"""Access to the JSON Schemas in `schemas/` (shipped inside the wheel as `doko_ledger/schemas`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported when a schema is first needed: read commands never are
    from jsonschema import Draft202012Validator
    from referencing import Registry


def schema_dir() -> Path:
    """The folder of the project's JSON Schemas, installed or in a source checkout."""
    packaged = Path(__file__).resolve().parent / "schemas"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "schemas"


@cache
def load_schema(relative: str) -> dict[str, Any]:
    path = schema_dir() / relative
    with path.open(encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


@cache
def _registry() -> Registry:
    """Every top-level schema by its `$id`, so that schemas can `$ref` each other."""
    from referencing import Registry, Resource

    registry: Registry = Registry()
    for path in sorted(schema_dir().glob("*.json")):
        resource = Resource.from_contents(load_schema(path.name))
        uri = resource.id()
        if uri:
            registry = registry.with_resource(uri, resource)
    return registry


@cache
def validator(relative: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    schema = load_schema(relative)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


def event_schema_validator(name: str, version: int) -> Draft202012Validator:
    """The validator of one event type at one schema version (precise messages)."""
    return validator(f"events/{name}.v{version}.json")


@cache
def fast_event_check(name: str, version: int) -> Callable[[Any], Any]:
    """The same schema compiled by fastjsonschema: a check ~20x faster on the append path.

    The event schemas use only keywords draft 7 knows, and refer only within themselves, so
    they compile as draft 7; a failure is re-validated with jsonschema for its message.
    """
    import fastjsonschema

    schema = dict(load_schema(f"events/{name}.v{version}.json"))
    schema = _inline_refs(schema, schema.get("$defs", {}), 0)
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    check: Callable[[Any], Any] = fastjsonschema.compile(schema)
    return check


def _inline_refs(node: Any, defs: dict[str, Any], depth: int) -> Any:
    """The schema with every `#/$defs/...` reference replaced by its definition: fastjsonschema
    calls a function (and formats a name) for each reference, per card of a hand; inlined, a
    hand of cards is checked in one loop. A reference nested too deep is kept as it is."""
    if isinstance(node, list):
        return [_inline_refs(item, defs, depth) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1 and depth < 8:
        target = defs.get(ref.removeprefix("#/$defs/"))
        if isinstance(target, dict):
            return _inline_refs(target, defs, depth + 1)
    return {key: _inline_refs(value, defs, depth) for key, value in node.items()}


@cache
def known_event_versions() -> dict[str, int]:
    """Every event type this doko_ledger has a schema for, with its newest schema version."""
    known: dict[str, int] = {}
    for path in (schema_dir() / "events").glob("*.v*.json"):
        name, _, version = path.name.removesuffix(".json").rpartition(".v")
        if version.isdigit():
            known[name] = max(known.get(name, 0), int(version))
    return known


_DRAFT_7 = "http://json-schema.org/draft-07/schema#"


def _fast_form(node: Any) -> Any:
    """A schema as fastjsonschema (draft 7) checks it fastest, accepting the same documents as
    jsonschema (2020-12): no annotations (`description`, `title`); a `oneOf` whose branches are of
    different types as `anyOf` (with disjoint types at most one branch can match, so the two say
    the same; fastjsonschema tries an `anyOf` only until a branch matches, a `oneOf` every branch,
    at an exception each); keywords beside a `$ref` in an `allOf` with it (draft 7 would ignore
    them)."""
    if isinstance(node, list):
        return [_fast_form(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _fast_form(value) for key, value in node.items() if key not in ("description", "title")}
    branches = out.get("oneOf")
    if isinstance(branches, list):
        types = [b.get("type") if isinstance(b, dict) else None for b in branches]
        if all(isinstance(t, str) for t in types) and len(set(types)) == len(types):
            out["anyOf"] = out.pop("oneOf")
    siblings = {key: value for key, value in out.items() if key not in ("$ref", "$schema", "$id", "$defs")}
    if "$ref" in out and siblings:  # draft 7 ignores what stands beside a `$ref`; 2020-12 applies it
        kept = {key: value for key, value in out.items() if key not in siblings and key != "$ref"}
        return kept | {"allOf": [{"$ref": out["$ref"]}, siblings]}
    return out


def _as_draft_7(schema: dict[str, Any]) -> dict[str, Any]:
    """The file schemas use only keywords draft 7 knows (fastjsonschema's newest)."""
    fast: dict[str, Any] = _fast_form(schema)
    return fast | {"$schema": _DRAFT_7}


@cache
def fast_file_check(relative: str) -> Callable[[Any], Any]:
    """A file schema (game, session, Dou Dizhu) compiled by fastjsonschema, its `$ref`s to the
    other schemas resolved from `schemas/` (never fetched)."""
    import fastjsonschema

    def fetch(uri: str) -> dict[str, Any]:
        return _as_draft_7(load_schema(uri.rsplit("/", 1)[-1]))

    check: Callable[[Any], Any] = fastjsonschema.compile(
        _as_draft_7(load_schema(relative)), handlers={"https": fetch}, use_formats=False
    )
    return check


def schema_errors(relative: str, data: Any) -> list[Any]:
    """Every `jsonschema` error of `data` under a file schema: none at the cost of a fastjsonschema
    check when the file is valid, jsonschema's precise errors (their paths and words) when not."""
    try:
        fast_file_check(relative)(data)
        return []
    except ValueError:  # fastjsonschema's JsonSchemaException; jsonschema says where and why
        return list(validator(relative).iter_errors(data))


def unknown_fields_message(message: str) -> str:
    """jsonschema's "Additional properties are not allowed ('x' was unexpected)" in the file's
    words: "unknown field ('x' was unexpected)", "unknown fields (...)" for more than one."""
    words = "unknown field" if " was unexpected" in message else "unknown fields"
    return message.replace("Additional properties are not allowed", words)
