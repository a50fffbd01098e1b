"""A deal recorded by its facts only (`SummarizeDeal`): what is refused, and the happy path
through a game file's `summary:` key (docs/rules.md §6-§8)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run

from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.events import DealSummarized, SummaryCall, SummarySpecial
from doko_ledger.doppelkopf.files.game_file import dumps, loads, read
from doko_ledger.doppelkopf.game import (
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    PlayCard,
    StartGame,
    decide,
    evolve,
)
from doko_ledger.doppelkopf.game.commands import SummarizeDeal
from doko_ledger.doppelkopf.game.facts import deal_facts
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import asking_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.formats.yaml_source import SourceError

G = GameType
A = Announcement
K = SpecialKind
RE, KONTRA = Party.RE, Party.KONTRA
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
STANDARD = preset("standard")


def started(rules: RuleSet = STANDARD) -> GameState:
    return run(GameState(), StartGame("sheet-1", PLAYERS, DIRK, rules))


def call(seat: int, announcement: Announcement) -> SummaryCall:
    return SummaryCall(seat, announcement)


def special(kind: SpecialKind, party: Party, caught_from: int | None = None) -> SummarySpecial:
    return SummarySpecial(kind, party, caught_from)


def normal(re_points: int = 130, **options: Any) -> SummarizeDeal:
    """A normal game of Anna and Cleo (Re)."""
    return SummarizeDeal(G.NORMAL, (ANNA, CLEO), re_points, **options)


REFUSED: list[Any] = [
    pytest.param(normal(241), "0-240", id="points-above-240"),
    pytest.param(normal(-1), "0-240", id="points-below-0"),
    pytest.param(normal(re_tricks=7, kontra_tricks=4), "add up to 12", id="tricks-short"),
    pytest.param(normal(re_tricks=7, kontra_tricks=6), "add up to 12", id="tricks-over"),
    pytest.param(normal(re_tricks=13, kontra_tricks=-1), "add up to 12", id="tricks-negative"),
    pytest.param(normal(re_tricks=7), "both parties", id="tricks-of-one-party"),
    pytest.param(normal(230, re_tricks=12, kontra_tricks=0), "schwarz claimed", id="kontra-schwarz-with-points"),
    pytest.param(normal(5, re_tricks=0, kontra_tricks=12), "schwarz claimed", id="re-schwarz-with-points"),
    pytest.param(normal(specials=(special(K.FOX_CAUGHT, RE, CLEO),)), "other party's cards", id="fox-from-own-party"),
    pytest.param(
        normal(specials=(special(K.FOX_CAUGHT, KONTRA, BEN),)), "other party's cards", id="kontra-fox-from-kontra"
    ),
    pytest.param(
        normal(specials=(special(K.KARLCHEN_CAPTURED, RE, ANNA),)), "other party's cards", id="cj-from-own-party"
    ),
    pytest.param(
        normal(
            specials=(special(K.FOX_CAUGHT, RE, BEN), special(K.FOX_CAUGHT, RE, DIRK), special(K.FOX_CAUGHT, RE, BEN))
        ),
        "at most 2",
        id="three-foxes",
    ),
    pytest.param(
        normal(
            specials=(
                special(K.FOX_CAUGHT, RE, BEN),
                special(K.FOX_CAUGHT, RE, DIRK),
                special(K.FOX_CAUGHT, KONTRA, ANNA),
            )
        ),
        "at most 2",
        id="three-foxes-both-parties",
    ),
    pytest.param(normal(specials=(special(K.KARLCHEN, RE), special(K.KARLCHEN, RE))), "at most 1", id="two-karlchen"),
    pytest.param(
        normal(specials=(special(K.KARLCHEN, RE), special(K.KARLCHEN_CAPTURED, KONTRA, ANNA))),
        "both parties",
        id="karlchen-for-both-parties",
    ),
    pytest.param(
        normal(specials=(special(K.KARLCHEN, KONTRA), special(K.KARLCHEN, RE))),
        "at most 1",
        id="karlchen-twice-both-parties",
    ),
    pytest.param(
        normal(re_tricks=11, kontra_tricks=1, specials=(special(K.DOPPELKOPF, KONTRA),) * 2),
        "won only 1",
        id="more-doppelkopf-than-tricks",
    ),
    pytest.param(normal(specials=(special(K.DOPPELKOPF, RE),) * 7), "at most 6", id="seven-doppelkopf"),
    pytest.param(normal(specials=(special(K.FOX_CAUGHT, RE),)), "whose card", id="fox-without-victim"),
    pytest.param(normal(specials=(special(K.DOPPELKOPF, RE, BEN),)), "not caught", id="doppelkopf-with-victim"),
    pytest.param(
        SummarizeDeal(G.CLUB_SOLO, (ANNA,), 130, specials=(special(K.DOPPELKOPF, RE),)),
        "special points in a solo",
        id="specials-in-a-solo",
    ),
    pytest.param(
        SummarizeDeal(G.SILENT_SOLO, (BEN,), 100, specials=(special(K.FOX_CAUGHT, KONTRA, BEN),)),
        "special points in a solo",
        id="specials-in-a-silent-solo",
    ),
    pytest.param(
        SummarizeDeal(G.MARRIAGE, (DIRK,), 100, specials=(special(K.DOPPELKOPF, KONTRA),)),
        "special points in a solo",
        id="specials-in-a-lone-marriage",
    ),
    pytest.param(normal(announcements=(call(BEN, A.RE),)), "cannot say Re", id="kontra-player-says-re"),
    pytest.param(normal(announcements=(call(CLEO, A.KONTRA),)), "cannot say Kontra", id="re-player-says-kontra"),
    pytest.param(
        SummarizeDeal(G.QUEEN_SOLO, (DIRK,), 100, announcements=(call(DIRK, A.KONTRA),)),
        "cannot say Kontra",
        id="soloist-says-kontra",
    ),
    pytest.param(normal(announcements=(call(ANNA, A.RE), call(ANNA, A.RE))), "twice", id="repeated-re"),
    pytest.param(normal(announcements=(call(BEN, A.NO90), call(BEN, A.NO90))), "twice", id="repeated-no90"),
    pytest.param(normal(announcements=(call(4, A.RE),)), "seats are 0-3", id="call-by-seat-4"),
    pytest.param(SummarizeDeal(G.CLUB_SOLO, (ANNA, CLEO), 130), "one soloist", id="solo-with-two"),
    pytest.param(SummarizeDeal(G.SILENT_SOLO, (ANNA, CLEO), 130), "one soloist", id="silent-solo-with-two"),
    pytest.param(SummarizeDeal(G.NORMAL, (ANNA,), 130), "two Re players", id="normal-with-one"),
    pytest.param(SummarizeDeal(G.POVERTY, (ANNA,), 130), "two Re players", id="poverty-with-one"),
    pytest.param(SummarizeDeal(G.NORMAL, (ANNA, ANNA), 130), "players, not Anna, Anna", id="re-seat-twice"),
    pytest.param(SummarizeDeal(G.NORMAL, (ANNA, 4), 130), "not Anna, seat 4", id="re-seat-4"),
    # docs/rules.md §4: Re is the soloist alone or two players; never none, three or four
    pytest.param(SummarizeDeal(G.NORMAL, (ANNA, BEN, CLEO), 130), "Re", id="normal-with-three"),
    pytest.param(SummarizeDeal(G.MARRIAGE, (ANNA, BEN, CLEO, DIRK), 130), "Re", id="marriage-with-four"),
    pytest.param(SummarizeDeal(G.NORMAL, (), 130), "Re", id="normal-with-none"),
    pytest.param(SummarizeDeal(G.PURE_CLUB_SOLO, (ANNA,), 130), "pure_suit_solos", id="pure-solo-standard"),
]


@pytest.mark.parametrize(("command", "message"), REFUSED)
def test_refused(command: SummarizeDeal, message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        decide(started(), command)


def test_poverty_is_refused_under_ddv() -> None:
    command = SummarizeDeal(G.POVERTY, (ANNA, BEN), 130)
    with pytest.raises(IllegalMove, match="no poverty"):
        decide(started(preset("ddv")), command)
    assert decide(started(), command)


def test_a_pure_solo_needs_the_option() -> None:
    command = SummarizeDeal(G.PURE_HEART_SOLO, (BEN,), 70, re_tricks=4, kontra_tricks=6)
    assert decide(started(preset("bistro")), command)


def test_bistro_tricks_add_up_to_ten() -> None:
    state = started(preset("bistro"))
    with pytest.raises(IllegalMove, match="add up to 10"):
        decide(state, normal(re_tricks=6, kontra_tricks=6))
    assert decide(state, normal(re_tricks=6, kontra_tricks=4))


def test_before_the_start() -> None:
    with pytest.raises(IllegalMove, match="not started"):
        decide(GameState(), normal())


def test_no_summary_after_cards_were_played() -> None:
    state = run(started(), *(DeclareReservation(seat, healthy=True) for seat in asking_order(DIRK)))
    state = run(state, PlayCard(ANNA, parse_card("CA")))
    with pytest.raises(IllegalMove, match="no other record"):
        decide(state, normal())


def test_no_summary_after_a_deal() -> None:
    deck = sorted([parse_card(f"{s}{r}") for s in "CSHD" for r in ("A", "10", "K", "Q", "J", "9")] * 2, key=str)
    hands = tuple(tuple(deck[i::4]) for i in range(4))
    state = run(started(), DealCards(hands))
    with pytest.raises(IllegalMove, match="no other record"):
        decide(state, normal())


def test_no_second_summary() -> None:
    state = run(started(), normal())
    with pytest.raises(IllegalMove, match="no other record"):
        decide(state, normal())


ACCEPTED: list[Any] = [
    # a partner repeating the party's call is recorded (docs/rules.md §5)
    pytest.param(normal(announcements=(call(ANNA, A.RE), call(CLEO, A.RE))), id="partner-repeats-re"),
    pytest.param(normal(announcements=(call(ANNA, A.RE), call(ANNA, A.NO90))), id="re-then-no90"),
    # a party with all 240 may still have lost a trick of 0 card points
    pytest.param(normal(240, re_tricks=11, kontra_tricks=1), id="0-point-trick"),
    pytest.param(normal(0, re_tricks=0, kontra_tricks=12), id="re-schwarz"),
    pytest.param(normal(240, re_tricks=12, kontra_tricks=0), id="kontra-schwarz"),
    pytest.param(
        normal(
            specials=(
                special(K.FOX_CAUGHT, RE, BEN),
                special(K.FOX_CAUGHT, KONTRA, ANNA),
                special(K.KARLCHEN, RE),
                special(K.KARLCHEN_CAPTURED, RE, DIRK),
                special(K.KARLCHEN_CAPTURED, RE, BEN),
                *(special(K.DOPPELKOPF, RE),) * 6,
            )
        ),
        id="every-special-at-its-most",
    ),
    pytest.param(SummarizeDeal(G.MARRIAGE, (DIRK,), 100), id="lone-marriage"),
    pytest.param(
        SummarizeDeal(G.MARRIAGE, (DIRK, BEN), 100, specials=(special(K.FOX_CAUGHT, KONTRA, BEN),)),
        id="marriage-with-partner",
    ),
    pytest.param(SummarizeDeal(G.SILENT_SOLO, (BEN,), 100, announcements=(call(ANNA, A.KONTRA),)), id="silent-solo"),
]


@pytest.mark.parametrize("command", ACCEPTED)
def test_accepted(command: SummarizeDeal) -> None:
    (event,) = decide(started(), command)
    assert isinstance(event, DealSummarized)
    assert event.game_type is command.game_type
    assert event.re_seats == tuple(sorted(command.re_seats))
    state = evolve(started(), event)
    assert state.finished
    game = score_game(state)
    assert sum(game.deltas) == 0


def test_summary_facts() -> None:
    state = run(
        started(),
        normal(
            151,
            announcements=(call(ANNA, A.NO90), call(BEN, A.KONTRA)),
            specials=(special(K.FOX_CAUGHT, RE, BEN),),
        ),
    )
    facts = deal_facts(state)
    assert facts.announced == {RE: 1, KONTRA: 0}
    assert facts.re_points == 151
    assert not facts.tricks_known
    assert [(s.kind, s.party) for s in facts.specials] == [(K.FOX_CAUGHT, RE)]
    # won 1 + Re 2 + Kontra 2 + Kontra below 90 1 + no 90 announced 1 + fox 1 = 8
    assert score_game(state).deltas == (8, -8, 8, -8)


SHEET = """\
# From the score sheet.
format: doko-game/1
id: sheet-2026-12-05-03
played_on: '2026-12-05'
players: [Anna, Ben, Cleo, Dirk]
dealer: Dirk
rules: standard
summary:
  game: normal
  re: [Ben, Dirk]
  re_points: 151
  tricks: {re: 9, kontra: 3}
  announcements: [{Ben: re}, {Cleo: kontra}, {Dirk: no90}]
  specials:
    - {kind: fox_caught, party: re, from: Anna}
    - {kind: doppelkopf, party: re}
    - {kind: karlchen, party: kontra}
    - {kind: karlchen_captured, party: kontra, from: Dirk}
"""


def test_a_summary_file_round_trips() -> None:
    assert dumps(loads(SHEET)) == SHEET


def test_a_summary_file_is_scored() -> None:
    state = read(SHEET).state
    assert state.summary is not None
    assert state.summary.re_seats == (BEN, DIRK)
    game = score_game(state)
    assert game.score is not None and game.score.winner is RE
    # Re 151 : Kontra 89 with Re, Kontra, Re's no 90:
    # won 1 + Re 2 + Kontra 2 + Kontra below 90 1 + no 90 announced 1 = 7;
    # specials Re 2 (fox, Doppelkopf) - Kontra 2 (Karlchen, CJ caught) = 0: 7
    assert game.deltas == (-7, 7, -7, 7)
    assert game.by_player == {"Anna": -7, "Ben": 7, "Cleo": -7, "Dirk": 7}
    # DDV: won 1 + Re 2 + Kontra 2 + below 90 1 + no 90 1 = 7; Re 2 - Kontra's Karlchen 1 = 8
    assert score_game(state, preset("ddv")).deltas == (-8, 8, -8, 8)


def test_a_summary_file_refuses_an_inconsistent_fact() -> None:
    bad = SHEET.replace("{kind: fox_caught, party: re, from: Anna}", "{kind: fox_caught, party: re, from: Ben}")
    with pytest.raises(SourceError, match="other party's cards"):
        read(bad)


def test_a_minimal_summary_round_trips_and_scores() -> None:
    text = """\
format: doko-game/1
id: sheet-2
players: [Anna, Ben, Cleo, Dirk]
dealer: Anna
rules: standard
summary:
  game: heart_solo
  re: [Cleo]
  re_points: 100
"""
    assert dumps(loads(text)) == text
    game = score_game(read(text).state)
    # Kontra 140 wins: won 1 (no against the old ones in a solo); Cleo pays three shares
    assert game.deltas == (1, 1, -3, 1)
