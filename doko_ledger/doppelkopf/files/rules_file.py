"""House-rule files: a YAML mapping that names a preset and changes options.

```yaml
preset: standard
second_dulle_beats_first: true
announcement_scoring: doubling
```

`load / loads / dump / dumps` (schema: the mapping form of `schemas/rules.schema.json`);
`house_rules.rules_named(spec)` takes a preset, saved house rules or a file path, as `--rules` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from doko_ledger.doppelkopf.rules.ruleset import RuleSet, RuleSetError, rules_from_mapping
from doko_ledger.errors import in_english, reason_of
from doko_ledger.formats.yaml_source import dump_flow, parse_yaml, read_text
from doko_ledger.i18n import msg


def loads(text: str, source: str = "<text>") -> RuleSet:
    """A rule set from a house-rule file's text; `SourceError` naming the line of a bad option."""
    doc = parse_yaml(text, source)
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error(msg("a rule file is a mapping: preset: NAME and the options it changes"), ())
    try:
        return rules_from_mapping(data)
    except RuleSetError as exc:
        key = next((k for k in data if repr(k) in in_english(exc)), None)
        raise doc.error(reason_of(exc), () if key is None else (key,)) from None


def load(path: str | Path) -> RuleSet:
    return loads(read_text(path), str(path))


def dumps(rules: RuleSet, *, full: bool = False) -> str:
    """The rule file: the preset and the options it changes (every option with `full`)."""
    options: dict[str, Any] = rules.to_dict() if full else {"preset": rules.preset, **rules.changed_from_preset()}
    return "".join(f"{key}: {dump_flow(value)}\n" for key, value in options.items())


def dump(rules: RuleSet, path: str | Path) -> None:
    Path(path).write_text(dumps(rules), encoding="utf-8")
