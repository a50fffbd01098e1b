"""Messages rendered in the reader's language: translated by the catalogs, their parameters
in each language's form, plurals as each language forms them, and errors that carry them."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from doko_ledger.doppelkopf.cards import CardError, parse_card
from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message, msg, plural, render, using
from doko_ledger.i18n.formats import Day, Money, Number


def test_an_unknown_card_is_refused_in_the_readers_language() -> None:
    with pytest.raises(CardError) as refused:
        parse_card("Xylophon")
    error = refused.value
    assert str(error) == "unknown card 'Xylophon' (write e.g. 'CQ', 'H10', '♥10' or 'Kreuz Dame')"
    with using("de"):
        assert str(error) == "unbekannte Karte 'Xylophon' (schreibe z. B. 'CQ', 'H10', '♥10' oder 'Kreuz-Dame')"
    with using("fr"):
        assert str(error).startswith("carte inconnue 'Xylophon' (écrire par ex.")
    assert render(error.args[0], "de").startswith("unbekannte Karte")


def test_a_message_not_in_a_catalog_is_written_as_its_id() -> None:
    message = msg("Anna took {points} card points", points=121)
    assert render(message, "de") == render(message, "en") == "Anna took 121 card points"


def test_parameters_are_written_in_the_languages_form() -> None:
    message = msg(
        "{a} {b} {c} {d} {e}",
        a=Number(1234),
        b=Money(Decimal("0.05")),
        c=Day(datetime.date(2026, 12, 1)),
        d=parse_card("CJ"),
        e=1234,
    )
    assert render(message, "en") == "1,234 €0.05 01/12/2026 ♣J 1234"
    assert render(message, "de") == "1.234 0,05\xa0€ 01.12.2026 ♣B 1234"
    assert render(message, "fr") == "1\u202f234 0,05\xa0€ 01/12/2026 ♣V 1234"
    assert render(msg("{x}", x=Number(Decimal("2.5"))), "de") == "2,5"


def test_a_message_inside_a_message_is_rendered_in_the_same_language() -> None:
    inner = msg("not a card: {text} (expected text such as 'CQ' or 'H10')", text="7")
    outer = msg("{why}; {who}", why=inner, who="Ben")
    assert render(outer, "de") == "keine Karte: 7 (erwartet ist ein Text wie 'CQ' oder 'H10'); Ben"


@pytest.mark.parametrize(
    ("count", "english"), [(0, "0 payments"), (1, "1 payment"), (3, "3 payments"), (1234, "1,234 payments")]
)
def test_a_count_takes_its_languages_plural_form(count: int, english: str) -> None:
    message = plural("{count} payment", "{count} payments", count)
    assert isinstance(message, Message)
    assert render(message, "en") == english


def test_plural_forms_follow_each_languages_rule() -> None:
    from doko_ledger.i18n.catalogs import catalog

    # the form's index for a count: German says "0 Zahlungen", French "0 paiement"
    assert [catalog("de").plural(n) for n in (0, 1, 2, 21)] == [1, 0, 1, 1]  # type: ignore[attr-defined]
    assert [catalog("fr").plural(n) for n in (0, 1, 2, 21)] == [0, 0, 1, 1]  # type: ignore[attr-defined]


def test_an_error_with_a_text_reason_is_shown_as_before() -> None:
    assert str(DokoError("plain words")) == "plain words"
    assert str(DokoError("two", "args")) == "('two', 'args')"
