"""doko's deadlines under FreeDoko's announcement options, against FreeDoko's check written out
again: random games under random settings, every call tried at random moments.

FreeDoko allows a call while the announcer holds at least N cards (with `till full trick`: while
at least N tricks are not yet taken), a Re or Kontra too late for that as an answer one card
longer than the other party's highest call allows, a jump only if the step below is in time as
itself, nothing after a party's late answer, and nothing once fewer tricks are left than `last
announcement`. Between two tricks FreeDoko may still hold the full trick or have opened the next
one, and a log may show a call at either moment: doko accepts a call allowed at either (and,
counting tricks, also one that only the full trick's count allows but its last-announcement check
would not).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from helpers import run

from doko_ledger.doppelkopf.cards import deck
from doko_ledger.doppelkopf.files.freedoko.announcements import announcement_options
from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.game import (
    Announce,
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    PlayCard,
    StartGame,
    decide,
)
from doko_ledger.doppelkopf.game.parties import true_parties
from doko_ledger.doppelkopf.rules.announcements import Party, at_level
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.doppelkopf.rules.reservations import asking_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, rules_from_mapping

TRICKS = 12
REPLY = 5
"""FreeDoko's late answer: above every real announcement of the party."""
NONE = -1


@dataclass
class Settings:
    held: tuple[int, ...]
    till_full_trick: bool
    reply: bool
    last: int

    def rules(self) -> RuleSet:
        names = ("announcement no 120", "announcement no 90", "announcement no 60", "announcement no 30")
        values = dict(zip((*names, "announcement no 0"), map(str, self.held), strict=True))
        values["last announcement"] = str(self.last)
        values["announcement till full trick"] = str(self.till_full_trick).lower()
        values["announcement reply"] = str(self.reply).lower()
        entries = {k: Entry(k, v, 1) for k, v in values.items()}
        return rules_from_mapping({"preset": "standard", **announcement_options(entries, True, "t")})


@dataclass
class FreeDoko:
    """FreeDoko's check, on the moments a doko state can be."""

    settings: Settings
    highest: dict[Party, int] = field(default_factory=lambda: {Party.RE: NONE, Party.KONTRA: NONE})

    def result(self, level: int, party: Party, count: int, last_ok: bool) -> int | None:
        """What FreeDoko makes of `level`: the level, REPLY, or None (not allowed)."""
        if not last_ok:
            return None
        own, other = self.highest[party], self.highest[party.other]
        if own == REPLY or own >= level:
            return None
        held = self.settings.held
        valid = count >= held[level]
        if not valid and level == 0:
            if not self.settings.reply or own != NONE or other in (NONE, REPLY):
                return None
            return REPLY if count + 1 >= held[other] else None
        if level > 0 and own != level - 1:
            valid = valid and self.result(level - 1, party, count, last_ok) == level - 1
        return level if valid else None

    def moments(self, state: GameState, seat: int) -> list[tuple[int, bool]]:
        """(count, last announcement passed) for each FreeDoko moment the doko state can be."""
        held = TRICKS - len(state.played_by(seat))
        done = len(state.tricks)
        last = self.settings.last
        opened = (held if not self.settings.till_full_trick else TRICKS - done, TRICKS - done >= last)
        if done == 0 or state.current is not None:
            return [opened]
        full = (held if not self.settings.till_full_trick else TRICKS - (done - 1), TRICKS - done >= last + 1)
        return [opened, full]


def random_settings(rng: random.Random) -> Settings:
    return Settings(
        tuple(rng.randint(1, 12) for _ in range(5)), rng.random() < 0.4, rng.random() < 0.7, rng.randint(1, 12)
    )


def accepts(state: GameState, command: Announce) -> bool:
    try:
        decide(state, command)
    except IllegalMove:
        return False
    return True


def one_game(seed: int) -> int:
    """Play a random game, trying calls; returns how many calls were tried."""
    rng = random.Random(seed)
    settings = random_settings(rng)
    cards = list(deck(True)) * 2  # every card twice
    rng.shuffle(cards)
    hands = tuple(tuple(cards[i * 12 : i * 12 + 12]) for i in range(4))
    state = run(GameState(), StartGame("g", ("A", "B", "C", "D"), 3, settings.rules()), DealCards(hands))
    for seat in asking_order(3):
        state = run(state, DeclareReservation(seat, True))
    freedoko = FreeDoko(settings)
    tried = 0
    while not state.finished:
        for _ in range(rng.choice((0, 0, 1, 2))):
            seat = rng.randrange(4)
            party = true_parties(state)[seat]
            assert party is not None
            own = freedoko.highest[party]
            if own == 4:
                continue
            level = rng.randint(1, 4) if own == REPLY else rng.randint(own + 1, 4)
            command = Announce(seat, at_level(party, level))
            moments = freedoko.moments(state, seat)
            # doko's moment: the count of the full trick (tricks counted) and the opened trick's last check
            made = freedoko.result(level, party, moments[-1][0], moments[0][1])
            got = accepts(state, command)
            tried += 1
            assert got is (made is not None), (seed, settings, command, state.calls, len(state.tricks))
            if any(freedoko.result(level, party, count, ok) is not None for count, ok in moments):
                assert got, (seed, settings, command)
            if made is not None:
                state = run(state, command)
                freedoko.highest[party] = made
        seat = state.to_play
        assert seat is not None and state.hands is not None
        trick = state.current.cards if state.current is not None else ()
        state = run(state, PlayCard(seat, rng.choice(legal_plays(state.hands[seat], trick, state.order))))
    return tried


@pytest.mark.parametrize("block", range(8))
def test_doko_allows_what_freedoko_allows_and_no_more(block: int) -> None:
    assert sum(one_game(block * 50 + i) for i in range(50)) > 100


def test_freedokos_own_defaults_are_among_them() -> None:
    rules = Settings((11, 9, 6, 3, 3), False, True, 3).rules()
    assert (rules.re_deadline, rules.no90_deadline, rules.schwarz_deadline, rules.last_announcement_trick) == (
        1,
        3,
        9,
        10,
    )
