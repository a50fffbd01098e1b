"""Which language a reader gets: a command's environment read as gettext reads it, and a
browser's Accept-Language."""

from __future__ import annotations

import pytest

from doko_ledger.i18n import current, from_accept_language, from_environ, using


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_CH.utf8"}, "fr"),
        ({"LANG": "de_AT@euro"}, "de"),
        ({"LANG": "it_IT.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": ""}, "de"),
        ({"LANG": "en_GB.UTF-8", "LANGUAGE": "fr:de"}, "fr"),
        ({"LANG": "en_GB.UTF-8", "LANGUAGE": "it:de"}, "de"),
        ({"LANG": "C", "LANGUAGE": "de"}, "en"),
        ({"LC_ALL": "POSIX", "LANGUAGE": "fr"}, "en"),
    ],
)
def test_a_command_speaks_the_language_of_its_locale(environ: dict[str, str], language: str) -> None:
    assert from_environ(environ) == language


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("de", "de"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("en;q=0.5, de;q=0.9", "de"),
        ("it, de-DE;q=0.8", "de"),
        ("it, es", "en"),
        ("*", "en"),
        ("de;q=0, fr;q=0.1", "fr"),
        ("de;q=abc, fr;q=0.5", "fr"),
        ("de;q=2, fr;q=0.5", "fr"),
        ("fr;q=0.8, de;q=0.8", "fr"),
        (";;,,=;q", "en"),
    ],
)
def test_a_browser_gets_the_first_language_it_asks_for_that_doko_speaks(header: str | None, language: str) -> None:
    assert from_accept_language(header) == language


def test_a_language_is_used_within_its_block_only() -> None:
    assert current() == "en"
    with using("de") as language:
        assert language == "de" and current() == "de"
        with using("xx"):
            assert current() == "en"
        assert current() == "de"
    assert current() == "en"
