"""The README's and the manual's promises: the README stays short, every `doko` example of the
README and of docs/*.md runs, every relative link finds its file and anchor, and the quick start
names real make targets."""

from __future__ import annotations

import re
import shlex
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
"""The README first, then the manual's pages: the order their examples run in."""

FENCE = re.compile(r"^```.*?^```[^\n]*$", flags=re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _doko_examples(page: Path) -> list[list[str]]:
    """Every `.venv/bin/doko --db demo.sqlite ...` line of a page's shell blocks, as arguments."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text(page), flags=re.S):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if command.startswith(".venv/bin/doko "):
                words = shlex.split(command)[1:]
                assert words[:2] == ["--db", "demo.sqlite"], f"{page.name}: {command}"
                out.append(words[2:])
    return out


def anchors(page: Path) -> set[str]:
    """The anchors a page has, as GitHub makes them: each heading's slug (a repeated one with
    -1, -2, ...) and every `<a id="...">`."""
    prose = FENCE.sub("", text(page))
    found = set(re.findall(r'<a id="([^"]+)"></a>', prose))
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", prose, flags=re.M):
        plain = re.sub(r"<[^>]+>|\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
        slug = "".join(c for c in plain if c in " -_" or unicodedata.category(c)[0] in "LN").replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def relative_links(page: Path) -> list[str]:
    """The links of a page's prose (not of its code blocks) that stay in the repository."""
    return [t for t in LINK.findall(FENCE.sub("", text(page))) if not t.startswith(("http://", "https://", "mailto:"))]


def test_the_readme_is_under_10_kb() -> None:
    assert len(README.read_bytes()) < 10_000


def test_the_readme_has_doko_examples() -> None:
    assert len(_doko_examples(README)) >= 3


def test_the_manual_has_its_pages_and_the_readme_links_each() -> None:
    names = {p.name for p in PAGES[1:]}
    wanted = {"commands.md", "game-files.md", "ledger.md", "card-nights.md", "web.md", "doudizhu.md"}
    assert wanted | {"decisions.md", "architecture.md", "rules.md"} <= names
    linked = {t.split("#")[0] for t in relative_links(README)}
    assert {f"docs/{name}" for name in names} <= linked


def test_every_example_runs_against_the_samples(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `make demo` imports, in its order (games, card nights, Dou Dizhu), then every
    example of the README and of each page of the manual, in that order, run in an empty
    directory so that files the examples write land there."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^\t\$\(BIN\)/doko --db \$\(DEMO_DB\) import \$\(SAMPLES\)$", makefile, flags=re.M)
    (line,) = re.findall(r"^SAMPLES := (.*)$", makefile, flags=re.M)
    samples = [p for pattern in line.split() for p in sorted(ROOT.glob(pattern))]
    assert len(samples) > 40
    imported = cli("import", *samples)
    assert imported.exit_code == 0, imported.output
    monkeypatch.chdir(tmp_path)
    examples = [(page.name, args) for page in PAGES for args in _doko_examples(page)]
    assert {"README.md", "doudizhu.md"} <= {name for name, _ in examples}
    for name, args in examples:
        result = cli(*args)
        assert result.exit_code == 0, (name, args, result.output)
        assert result.output.strip(), (name, args)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_finds_its_file_and_anchor(page: Path) -> None:
    for link in relative_links(page):
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        assert path.is_relative_to(ROOT), f"{page.name}: {link} points outside the repository"
        assert path.exists(), f"{page.name}: {link} points at no file"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{page.name}: {link} names no heading of {path.name}"


def test_the_anchors_are_found_as_github_makes_them() -> None:
    """The slugs the link check relies on, for headings with code, punctuation and a repeat."""
    page = ROOT / "docs" / "web.md"
    assert {"the-doors-of-doko-serve", "the-json-api", "safety"} <= anchors(page)
    assert {"s1", "s9", "d", "d5"} <= anchors(ROOT / "docs" / "rules.md")
    assert "our-kitchen-table" not in anchors(ROOT / "docs" / "game-files.md")  # a YAML comment, not a heading


def test_the_quick_start_targets_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = re.findall(r"^make (\w+)", text(README), flags=re.M)
    assert {"demo", "serve", "test"} <= set(targets)
    for target in targets:
        assert re.search(rf"^{target}:", makefile, flags=re.M), target
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci
