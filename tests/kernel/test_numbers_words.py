"""A count said with its word in the right number, wherever a user reads one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import doko_ledger
from doko_ledger.numbers import counted


@pytest.mark.parametrize(
    ("count", "word", "plural", "said"),
    [
        (1, "deal", None, "1 deal"),
        (0, "bomb", None, "0 bombs"),
        (2, "payment", None, "2 payments"),
        (1, "party", "parties", "1 party"),
        (3, "party", "parties", "3 parties"),
    ],
)
def test_a_count_takes_the_word_in_its_number(count: int, word: str, plural: str | None, said: str) -> None:
    assert counted(count, word, plural) == said


def test_no_message_or_page_says_a_word_with_s_in_brackets() -> None:
    """Except a score line's cause, which the read models of every ledger hold as it was
    written (`score_lines.because`): new words there would make `doko verify` find the read
    models of every existing ledger changed, so they wait for read models that know their own
    version and rebuild themselves."""
    package = Path(doko_ledger.__file__).parent
    found = [
        f"{path.relative_to(package)}: {line.strip()}"
        for path in sorted(package.rglob("*"))
        if path.suffix in (".py", ".html", ".js")
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"(?<![\w.])[a-z]+\(s\)", line) and not line.endswith("# as the read models keep it")
    ]
    assert found == []
