"""What started a bock round, in the reader's language where the night's course knows it (the
English words, for scripts and the read models, as they were)."""

from __future__ import annotations

from doko_ledger.doppelkopf.rules.bock import MARKED_WITH_THE_DEAL, BockRounds
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.i18n import render


def rounds() -> BockRounds:
    rules = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "lost_solo"], "bock_overlap": "extend"})
    bock = BockRounds(rules, 4)
    bock.play(1, True, ("lost_solo",))
    bock.declare(1, "Anna", "Hochzeit", 1)
    return bock


def test_a_rounds_cause_is_said_in_each_language() -> None:
    bock = rounds().next_bock
    assert bock is not None and bock.because is not None
    assert bock.cause == "deal 1, lost solo, declared by Anna (Hochzeit)"
    assert render(bock.because, "en") == bock.cause
    assert render(bock.because, "de") == "Spiel 1, verlorenes Solo, angesagt von Anna (Hochzeit)"
    assert render(bock.because, "fr").startswith("donne 1, solo perdu, ")


def test_the_score_line_of_a_bock_deal_carries_the_cause_in_words() -> None:
    bock = rounds().next_bock
    assert bock is not None
    line = bock.line()
    assert line.cause == bock.cause
    assert render(line.shown_cause, "de") == "Spiel 1, verlorenes Solo, angesagt von Anna (Hochzeit)"


def test_a_bock_marked_without_a_reason_says_so_in_each_language_and_keeps_its_english() -> None:
    rules = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie"]})
    bock = BockRounds(rules, 4)
    bock.declare(1, "Anna", MARKED_WITH_THE_DEAL, 1)
    marked = bock.next_bock
    assert marked is not None and marked.because is not None
    assert marked.cause == "deal 1, declared by Anna (marked with the deal)"
    assert render(marked.because, "de") == "Spiel 1, angesagt von Anna (mit dem Spiel vermerkt)"
    assert render(marked.because, "fr").endswith("(noté avec la donne)")
    # a table's own reason is its own words in every language
    bock = BockRounds(rules, 4)
    bock.declare(2, "Ben", "marked with the deal, twice", 1)
    own = bock.next_bock
    assert own is not None and own.because is not None
    assert render(own.because, "de") == "Spiel 2, angesagt von Ben (marked with the deal, twice)"
