"""The fast folds give exactly what evolving one event at a time gives.

`fold` plays each run of cards at once (`cards_played`), and the projection's
`fold_revealing` also skips what cannot reveal a party; both are checked here against
the plain definitions (`reduce(evolve)` and a revelation check after every event), on
every prefix of the sample games and of random games, with and without recorded hands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import reduce
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from doko_ledger.doppelkopf.events import CardsDealt, GameStarted
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game.evolve import evolve, fold
from doko_ledger.doppelkopf.game.parties import public_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.revelations import Revelation, _cause, _may_reveal, fold_revealing
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import preset, rules_from_mapping

if TYPE_CHECKING:
    from conftest import RandomGame

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "sample_games").glob("*.yaml"))


def reference_revealing(events: Sequence[Any]) -> tuple[GameState, list[Revelation]]:
    """Revelations by the definition: after every event, what became public and why."""
    state = GameState()
    known: list[Party | None] = [None] * 4
    out: list[Revelation] = []
    for event in events:
        before, state = state, evolve(state, event)
        trick_done = len(state.tricks) > len(before.tricks)
        if state.game_type is None or not _may_reveal(trick_done, state, event):
            continue
        trick = len(before.tricks) + 1 if before.ready else 0
        for seat, party in enumerate(public_parties(state)):
            if party is not None and known[seat] is None:
                out.append(Revelation(seat, party, trick, _cause(trick_done, state, event, seat)))
                known[seat] = party
    return state, out


def without_hands(events: Sequence[Any]) -> list[Any]:
    """The same game as most tables record it: no deal."""
    return [e for e in events if not isinstance(e, CardsDealt)]


def under(events: Sequence[Any], rules: Any) -> list[Any]:
    """The same events with the game started under other rules (evolve never validates)."""
    return [dataclasses.replace(e, rules=rules) if isinstance(e, GameStarted) else e for e in events]


def check_every_prefix(events: Sequence[Any]) -> None:
    for end in range(len(events) + 1):
        prefix = events[:end]
        expected = reduce(evolve, prefix, GameState())
        assert fold(prefix) == expected, f"fold differs after {end} events"
        assert fold_revealing(prefix) == reference_revealing(prefix), f"revelations differ after {end} events"


def sample_events(path: Path) -> list[Any]:
    return list(game_file.read(path.read_text(encoding="utf-8"), str(path)).events)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
@pytest.mark.parametrize("variant", ["as recorded", "without hands", "under duel rules"])
def test_the_fast_folds_match_evolve_on_the_samples(path: Path, variant: str) -> None:
    events = sample_events(path)
    if variant == "without hands":
        events = without_hands(events)
    elif variant == "under duel rules":  # the marriages' partner search runs card by card
        events = under(events, preset("duel"))
    check_every_prefix(events)


RULES = [
    preset("standard"),
    rules_from_mapping({"second_dulle_beats_first": True}),
    rules_from_mapping({"preset": "standard", "schweinchen": True, "soloist_leads": True}),
    rules_from_mapping({"preset": "standard", "with_nines": False}),
]


@pytest.mark.parametrize("seed", range(12))
def test_the_fast_folds_match_evolve_on_random_games(make_game: Callable[..., RandomGame], seed: int) -> None:
    rules = RULES[seed % len(RULES)]
    game = make_game(seed, rules=rules, game_type=GameType.NORMAL if seed % 3 == 0 else None)
    assert fold(game.events) == game.final
    check_every_prefix(game.events)
    check_every_prefix(without_hands(game.events))  # a CQ may reveal a silent solo mid-run


def test_a_fold_may_start_from_a_state(make_game: Callable[..., RandomGame]) -> None:
    events = make_game(5).events
    for cut in (0, 7, 20, len(events)):
        assert fold(events[cut:], fold(events[:cut])) == reduce(evolve, events, GameState())
