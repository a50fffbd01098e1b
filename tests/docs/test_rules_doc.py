"""The project's own rules document, docs/rules.md, and the citations of it.

Every message, docstring and paragraph of the README and the manual cites `docs/rules.md §N`; the sections
keep their numbers (§1 cards … §9 card nights, §D1 … §D5 Dou Dizhu) and have stable
anchors; nothing points outside the repository or speaks of the project's history.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.rules.ruleset import BOCK_TRIGGERS, OPTION_NAMES, PRESETS, RuleSet

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
SHIPPED = ("README.md", "docs", "doko_ledger", "schemas", "sample_games")
"""What a user reads: the README, the docs, messages and help, schemas, sample files."""

SECTIONS = {f"{n}": f"s{n}" for n in range(1, 11)} | {f"D{n}": f"d{n}" for n in range(1, 6)} | {"D": "d"}


def shipped_texts() -> list[tuple[Path, str]]:
    out = []
    for name in SHIPPED:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            if file.suffix in (".py", ".md", ".json", ".yaml", ".yml", ".txt", ".html", ".css", ".js"):
                out.append((file, file.read_text(encoding="utf-8")))
    return out


def doc() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def test_every_section_has_its_number_and_a_stable_anchor() -> None:
    text = doc()
    for number, anchor in SECTIONS.items():
        heading = re.search(rf'<a id="{anchor}"></a>\s*\n\s*#+ §{number}\b', text)
        assert heading, f"§{number} has no heading with the anchor #{anchor}"
    numbers = re.findall(r"^## §(\d+)\b", text, flags=re.M)
    assert numbers == [str(n) for n in range(1, 11)]


def test_every_option_is_in_the_table_with_its_default() -> None:
    text = doc()
    defaults = RuleSet().to_dict()
    for name in OPTION_NAMES:
        value = defaults[name]
        shown = "[]" if value == [] else str(value).lower() if isinstance(value, bool) else str(value)
        assert re.search(rf"^\| `{name}` \| `{re.escape(shown)}` \|", text, flags=re.M), name
    for trigger in BOCK_TRIGGERS:
        assert f"`{trigger}`" in text
    for name in PRESETS:
        assert f"- `{name}`" in text, name


def test_citations_name_sections_that_exist() -> None:
    cited = 0
    for path, text in shipped_texts():
        for match in re.finditer(r"docs/rules\.md( §(?:D?\d+|D)(?:-§D?\d+)?)?", text):
            for number in re.findall(r"§(D?\d+|D)", match.group(1) or ""):
                assert number in SECTIONS, f"{path.relative_to(ROOT)} cites §{number}, which docs/rules.md lacks"
                cited += 1
        for anchor in re.findall(r"docs/rules\.md#([\w-]+)", text):
            assert anchor in SECTIONS.values(), f"{path.relative_to(ROOT)} links to #{anchor}"
    assert cited > 80  # the messages and docstrings cite the document, not a file outside


@pytest.mark.parametrize(
    "pattern",
    [r"RULES(-doudizhu)?\.md", r"\.\./shared", r"\bseeds?/", r"(?i)\bseed 0\d\d\b", r"(?i)\bissue \d+\b"],
)
def test_nothing_shown_points_outside_or_at_the_projects_history(pattern: str) -> None:
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for path, text in shipped_texts()
        for m in re.finditer(pattern, text)
    ]
    assert found == []
