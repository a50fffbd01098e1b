"""Dou Dizhu refuses in the reader's language: bids, plays and the combinations they name
are messages, rendered in English, German or French when shown; the ledger's JSON keeps its
English words."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from doko_ledger.doudizhu.cards import deck, parse_cards
from doko_ledger.doudizhu.combinations import Combination, Kind, describe, described
from doko_ledger.doudizhu.commands import Bid, Command, Deal, PassBid, Play, TakeKitty
from doko_ledger.doudizhu.decide import decide
from doko_ledger.doudizhu.errors import IllegalMove
from doko_ledger.doudizhu.evolve import evolve
from doko_ledger.doudizhu.projection import deal_view
from doko_ledger.doudizhu.state import DealState
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.i18n import Message, render, using

NAMES = ("Anna", "Ben", "Cleo")
ANNA_HAND = parse_cards("3 3 3 4 5 6 7 8 9 J Q K A 2 2 BJ RJ")
BEN_HAND = parse_cards("4 4 5 5 7 9 9 10 10 J J Q Q K K A A")


def run(state: DealState, *commands: Command) -> DealState:
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def anna_is_landlord() -> DealState:
    rest = sorted((deck(3) - Counter(ANNA_HAND + BEN_HAND)).elements())
    hands = (ANNA_HAND, BEN_HAND, tuple(rest[:17]))
    state = run(DealState(), Deal("deal-1", NAMES, 0, 0, hands, tuple(rest[17:])))
    return run(state, Bid(0, 3), TakeKitty())


def reason(state: DealState, command: Command) -> Message:
    with pytest.raises(IllegalMove) as refused:
        decide(state, command)
    message = refused.value.args[0]
    assert isinstance(message, Message), f"an English text, not a message: {message!r}"
    return message


def test_a_play_that_does_not_beat_is_refused_in_each_language() -> None:
    state = run(anna_is_landlord(), Play(0, parse_cards("3 3 3 4")))

    refusal = reason(state, Play(1, parse_cards("9 9")))

    assert render(refusal, "en") == (
        "Ben's pair of 9s does not beat Anna's trio of 3s with a single:"
        " a pair does not beat a trio with a single: play a higher trio with a single, a bomb or the rocket"
    )
    assert render(refusal, "de") == (
        "Paar 9 von Ben schlägt nicht Drilling 3 mit Einzelkarte von Anna:"
        " Paar schlägt nicht Drilling mit Einzelkarte: höhere(n) Drilling mit Einzelkarte, eine Bombe oder die"
        " Rakete spielen"
    )
    assert render(refusal, "fr") == (
        "paire de 9 de Ben ne bat pas brelan de 3 avec une carte seule de Anna :"
        " paire ne bat pas brelan avec une carte seule : jouer brelan avec une carte seule plus haut,"
        " une bombe ou la fusée"
    )


def test_a_bid_out_of_turn_names_the_landlord_in_the_glossary_s_words() -> None:
    state = anna_is_landlord()

    refusal = reason(state, PassBid(1))

    assert render(refusal, "en") == "the bidding is over: Anna is the landlord at 3"
    assert render(refusal, "de") == "das Bieten ist vorbei: Anna ist Grundherr bei 3"
    assert render(refusal, "fr") == "les enchères sont finies : Anna est propriétaire à 3"


def test_cards_that_are_no_combination_are_refused_in_the_language_of_the_block() -> None:
    state = anna_is_landlord()

    with pytest.raises(IllegalMove) as refused:
        decide(state, Play(0, parse_cards("3 4")))

    with using("de"):
        assert str(refused.value) == (
            "Anna kann nicht spielen: 3 4 ist keine Kombination (ein Paar sind zwei Karten eines Werts)"
        )
    with using("fr"):
        assert str(refused.value) == (
            "Anna ne peut pas jouer : 3 4 n'est pas une combinaison (une paire, ce sont deux cartes de même rang)"
        )


@pytest.mark.parametrize(
    ("combination", "de", "fr"),
    [
        (Combination(Kind.BOMB, parse_cards("7")[0], 5), "Bombe aus fünf 7", "bombe de cinq 7"),
        (Combination(Kind.SEQUENCE, parse_cards("9")[0], 5), "Straße 5 bis 9", "suite de 5 à 9"),
        (Combination(Kind.ROCKET, parse_cards("RJ")[0], 2), "Rakete", "fusée"),
    ],
)
def test_a_combination_is_named_in_each_language_and_in_english_for_the_json(
    combination: Combination, de: str, fr: str
) -> None:
    assert render(described(combination), "de") == de
    assert render(described(combination), "fr") == fr
    with using("de"):
        assert describe(combination) == render(described(combination), "en")  # the JSON's words stay English


def test_the_json_view_of_a_game_is_english_whatever_the_language() -> None:
    state = run(anna_is_landlord(), Play(0, parse_cards("3 3 3 4")))
    in_english = deal_view(state)

    with using("fr"):
        assert deal_view(state) == in_english
    assert any("trio of 3s with a single" in str(value) for value in _values(in_english))


def _values(data: object) -> list[object]:
    if isinstance(data, dict):
        return [v for value in data.values() for v in _values(value)]
    if isinstance(data, list | tuple):
        return [v for value in data for v in _values(value)]
    return [data]


def test_a_bad_kitty_in_a_file_read_in_german_is_still_the_kitty_s_fault(tmp_path: Path) -> None:
    from test_doudizhu_files import BAD_FILE_BUGS, _refusal

    case = BAD_FILE_BUGS["wrong_kitty_size"]
    with using("de"):
        error, _, _ = _refusal(tmp_path, case)

    assert isinstance(error, SourceError)
    assert error.field == "kitty"
    assert "der Stock hat 2 Karten; bei 3 Spielern hat er 3" in error.message
