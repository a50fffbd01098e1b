"""Who wins (docs/rules.md §6) and what a game is worth (§7, the DDV's and bistro's differences in §8).

Every expected value is worked out by hand in the table's comment, item by item, from the
wording of docs/rules.md; the engine's derivation is never used to build an expectation.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import DealFacts, Score, Special, SpecialKind, score, winner

G = GameType
RE, KONTRA = Party.RE, Party.KONTRA
# Announced levels: -1 nothing, 0 Re/Kontra, 1 no 90, 2 no 60, 3 no 30, 4 schwarz.
NONE, BASE, NO90, NO60, NO30, SCHWARZ = -1, 0, 1, 2, 3, 4

STANDARD = preset("standard")
DOUBLING = rules_from_mapping({"announcement_scoring": "doubling"})
DOUBLING_SPECIALS = rules_from_mapping({"announcement_scoring": "doubling", "specials_doubled": True})
NO_CAPTURE = rules_from_mapping({"karlchen_capture": False})
NO_SPECIALS_IN_POVERTY = rules_from_mapping({"special_points_in_poverty": False})
DDV = preset("ddv")
DDV_WITH_POVERTY = rules_from_mapping({"preset": "ddv", "poverty": True})
BISTRO = preset("bistro")

_KINDS = {
    "fox": SpecialKind.FOX_CAUGHT,
    "karlchen": SpecialKind.KARLCHEN,
    "captured": SpecialKind.KARLCHEN_CAPTURED,
    "doppelkopf": SpecialKind.DOPPELKOPF,
}


def sp(*texts: str) -> tuple[Special, ...]:
    """`sp("re fox", "kontra doppelkopf")`: special points earned, by party."""
    out = []
    for text in texts:
        party, kind = text.split()
        out.append(Special(_KINDS[kind], Party(party)))
    return tuple(out)


def facts(
    re_points: int,
    re: int = NONE,
    kontra: int = NONE,
    *,
    re_tricks: int = 6,
    kontra_tricks: int | None = None,
    game: GameType = G.NORMAL,
    lone: bool | None = None,
    specials: tuple[Special, ...] = (),
    hand_size: int = 12,
) -> DealFacts:
    """The facts of a deal; tricks default to 6 : 6 (give them where schwarz matters)."""
    return DealFacts(
        game_type=game,
        lone=game.is_solo if lone is None else lone,
        re_points=re_points,
        re_tricks=re_tricks,
        kontra_tricks=hand_size - re_tricks if kontra_tricks is None else kontra_tricks,
        announced={RE: re, KONTRA: kontra},
        specials=specials,
    )


# -- who wins (docs/rules.md §6) ---------------------------------------------------------------


WINNERS: list[Any] = [
    # nothing announced: Re needs 121, Kontra 120
    pytest.param(facts(121), RE, id="nothing-121"),
    pytest.param(facts(120), KONTRA, id="nothing-120:120-kontra"),
    pytest.param(facts(240, re_tricks=12), RE, id="nothing-240"),
    pytest.param(facts(0, re_tricks=0), KONTRA, id="nothing-0"),
    # Re (and Kontra) announced: targets stay 121/120
    pytest.param(facts(121, BASE), RE, id="re-121"),
    pytest.param(facts(120, BASE), KONTRA, id="re-120"),
    pytest.param(facts(121, BASE, BASE), RE, id="re-kontra-121"),
    pytest.param(facts(120, BASE, BASE), KONTRA, id="re-kontra-120"),
    # Kontra alone announced: Re needs 120, Kontra 121
    pytest.param(facts(120, NONE, BASE), RE, id="kontra-only-120:120-re"),
    pytest.param(facts(119, NONE, BASE), KONTRA, id="kontra-only-119"),
    # only Re denied: Kontra wins by breaking it at exactly 90 / 60 / 30 / one trick
    pytest.param(facts(150, NO90), KONTRA, id="re-no90-kontra-90"),
    pytest.param(facts(151, NO90), RE, id="re-no90-kontra-89"),
    pytest.param(facts(150, NO90, BASE), KONTRA, id="re-no90-kontra-said-kontra-90"),
    pytest.param(facts(180, NO60), KONTRA, id="re-no60-kontra-60"),
    pytest.param(facts(181, NO60), RE, id="re-no60-kontra-59"),
    pytest.param(facts(210, NO30), KONTRA, id="re-no30-kontra-30"),
    pytest.param(facts(211, NO30), RE, id="re-no30-kontra-29"),
    pytest.param(facts(240, SCHWARZ, re_tricks=12, kontra_tricks=0), RE, id="re-schwarz-made"),
    pytest.param(facts(240, SCHWARZ, re_tricks=11, kontra_tricks=1), KONTRA, id="re-schwarz-0-point-trick"),
    pytest.param(facts(230, SCHWARZ, re_tricks=11, kontra_tricks=1), KONTRA, id="re-schwarz-broken"),
    # only Kontra denied: Re wins by breaking it
    pytest.param(facts(90, NONE, NO90), RE, id="kontra-no90-re-90"),
    pytest.param(facts(89, NONE, NO90), KONTRA, id="kontra-no90-re-89"),
    pytest.param(facts(90, BASE, NO90), RE, id="kontra-no90-re-said-re-90"),
    pytest.param(facts(60, NONE, NO60), RE, id="kontra-no60-re-60"),
    pytest.param(facts(59, NONE, NO60), KONTRA, id="kontra-no60-re-59"),
    pytest.param(facts(30, NONE, NO30), RE, id="kontra-no30-re-30"),
    pytest.param(facts(29, NONE, NO30), KONTRA, id="kontra-no30-re-29"),
    pytest.param(facts(0, NONE, SCHWARZ, re_tricks=1), RE, id="kontra-schwarz-0-point-trick"),
    pytest.param(facts(0, NONE, SCHWARZ, re_tricks=0), KONTRA, id="kontra-schwarz-made"),
    # both denied: each needs its own target (151 / 181 / 211 / every trick); both miss: nobody
    pytest.param(facts(151, NO90, NO90), RE, id="both-no90-re-151"),
    pytest.param(facts(89, NO90, NO90), KONTRA, id="both-no90-kontra-151"),
    pytest.param(facts(150, NO90, NO90), None, id="both-no90-150"),
    pytest.param(facts(120, NO90, NO90), None, id="both-no90-120"),
    pytest.param(facts(90, NO90, NO90), None, id="both-no90-90"),
    pytest.param(facts(181, NO60, NO90), RE, id="re-no60-kontra-no90-181"),
    pytest.param(facts(180, NO60, NO90), None, id="re-no60-kontra-no90-180"),
    pytest.param(facts(89, NO60, NO90), KONTRA, id="re-no60-kontra-no90-89"),
    pytest.param(facts(29, NO90, NO30), KONTRA, id="re-no90-kontra-no30-211"),
    pytest.param(facts(30, NO90, NO30), None, id="re-no90-kontra-no30-210"),
    pytest.param(facts(240, SCHWARZ, NO90, re_tricks=12, kontra_tricks=0), RE, id="re-schwarz-kontra-no90-made"),
    pytest.param(facts(240, SCHWARZ, NO90, re_tricks=11, kontra_tricks=1), None, id="re-schwarz-kontra-no90-1-trick"),
    pytest.param(facts(0, NO90, SCHWARZ, re_tricks=0), KONTRA, id="kontra-schwarz-re-no90-made"),
    pytest.param(facts(0, NO90, SCHWARZ, re_tricks=1), None, id="kontra-schwarz-re-no90-0-point-trick"),
]


@pytest.mark.parametrize(("deal", "expected"), WINNERS)
def test_winner(deal: DealFacts, expected: Party | None) -> None:
    assert winner(deal) is expected
    assert score(deal, STANDARD).winner is expected


# -- game values ----------------------------------------------------------------------------


class Case(NamedTuple):
    deal: DealFacts
    rules: RuleSet
    winner: Party | None
    re_value: int
    """Per two-against-two share, from Re's side: what each Re player gets (x3 for a soloist)."""


def check(case: Case) -> Score:
    result = score(case.deal, case.rules)
    assert result.winner is case.winner
    assert result.re_value == case.re_value
    if case.winner is not None:
        # the value is what each winner gets per share: the net value of docs/rules.md §7
        assert result.value == (case.re_value if case.winner is RE else -case.re_value)
    else:
        assert result.value == case.re_value
    re_seats = (0,) if result.lone else (0, 2)
    deltas = result.deltas(re_seats, range(4))
    assert sum(deltas.values()) == 0
    share = 3 if result.lone else 1
    assert [deltas[s] for s in range(4)] == [
        case.re_value * share if s in re_seats else -case.re_value for s in range(4)
    ]
    return result


STANDARD_VALUES: list[Any] = [
    # won 1
    pytest.param(Case(facts(121), STANDARD, RE, 1), id="re-121"),
    # won 1 + against the old ones 1
    pytest.param(Case(facts(120), STANDARD, KONTRA, -2), id="kontra-120"),
    # won 1 (Kontra 90 is not below 90)
    pytest.param(Case(facts(150), STANDARD, RE, 1), id="re-150"),
    # won 1 + Kontra below 90 (89) 1
    pytest.param(Case(facts(151), STANDARD, RE, 2), id="re-151"),
    # won 1 + below 90 1 (Kontra 60 is not below 60)
    pytest.param(Case(facts(180), STANDARD, RE, 2), id="re-180"),
    # won 1 + below 90 1 + below 60 1
    pytest.param(Case(facts(181), STANDARD, RE, 3), id="re-181"),
    # won 1 + below 90 1 + below 60 1 (30 is not below 30)
    pytest.param(Case(facts(210), STANDARD, RE, 3), id="re-210"),
    # won 1 + below 90, 60, 30: 3
    pytest.param(Case(facts(211), STANDARD, RE, 4), id="re-211"),
    # won 1 + below 90, 60, 30, no trick: 4
    pytest.param(Case(facts(240, re_tricks=12), STANDARD, RE, 5), id="re-240-schwarz"),
    # won 1 + below 90, 60, 30: 3; a 0-point trick is a trick
    pytest.param(Case(facts(240, re_tricks=11), STANDARD, RE, 4), id="re-240-kontra-0-point-trick"),
    # Kontra: won 1 + against the old ones 1 + Re below 90 1
    pytest.param(Case(facts(89), STANDARD, KONTRA, -3), id="kontra-151"),
    # Kontra: won 1 + against the old ones 1 + Re below 90, 60, 30, no trick 4
    pytest.param(Case(facts(0, re_tricks=0), STANDARD, KONTRA, -6), id="kontra-schwarz"),
    # Kontra: won 1 + against the old ones 1 + below 90, 60, 30 3
    pytest.param(Case(facts(0, re_tricks=1), STANDARD, KONTRA, -5), id="kontra-240-re-0-point-trick"),
    # won 1 + Re 2
    pytest.param(Case(facts(121, BASE), STANDARD, RE, 3), id="re-said-re-121"),
    # Kontra: won 1 + against the old ones 1 + Re 2
    pytest.param(Case(facts(120, BASE), STANDARD, KONTRA, -4), id="re-said-kontra-120"),
    # Re: won 1 + Kontra 2 (Kontra alone announced: Re needs 120)
    pytest.param(Case(facts(120, NONE, BASE), STANDARD, RE, 3), id="kontra-said-re-120"),
    # Kontra: won 1 + against the old ones 1 + Kontra 2
    pytest.param(Case(facts(119, NONE, BASE), STANDARD, KONTRA, -4), id="kontra-said-kontra-121"),
    # won 1 + Re 2 + Kontra 2
    pytest.param(Case(facts(121, BASE, BASE), STANDARD, RE, 5), id="both-said-re-121"),
    # won 1 + against the old ones 1 + Re 2 + Kontra 2
    pytest.param(Case(facts(120, BASE, BASE), STANDARD, KONTRA, -6), id="both-said-kontra-120"),
    # won 1 + Re 2 + Kontra below 90 1 + no 90 announced by the winners 1
    pytest.param(Case(facts(151, NO90), STANDARD, RE, 5), id="re-no90-made"),
    # Kontra: won 1 + against the old ones 1 + Re 2 + Re's no 90 missed 2
    pytest.param(Case(facts(150, NO90), STANDARD, KONTRA, -6), id="re-no90-missed"),
    # won 1 + Re 2 + below 90 1 + below 60 1 + no 90 1 + no 60 1 announced by the winners
    pytest.param(Case(facts(181, NO60), STANDARD, RE, 7), id="re-no60-made"),
    # Kontra took 60: won 1 + against the old ones 1 + Re 2 + Re's no 60 missed 2;
    # Re's no 90 was kept (Kontra stayed below 90), so nothing for it
    pytest.param(Case(facts(180, NO60), STANDARD, KONTRA, -6), id="re-no60-missed-at-60"),
    # Kontra took 90: won 1 + against the old ones 1 + Re 2 + no 90 missed 2 + no 60 missed 2
    pytest.param(Case(facts(150, NO60), STANDARD, KONTRA, -8), id="re-no60-missed-at-90"),
    # won 1 + Re 2 + below 90, 60, 30 3 + no 90, no 60, no 30 announced 3
    pytest.param(Case(facts(211, NO30), STANDARD, RE, 9), id="re-no30-made"),
    # Kontra took 30: won 1 + against the old ones 1 + Re 2 + no 30 missed 2
    pytest.param(Case(facts(210, NO30), STANDARD, KONTRA, -6), id="re-no30-missed"),
    # won 1 + Re 2 + below 90, 60, 30, no trick 4 + no 90, 60, 30, schwarz announced 4
    pytest.param(Case(facts(240, SCHWARZ, re_tricks=12), STANDARD, RE, 11), id="re-schwarz-made"),
    # Kontra won a 0-point trick: won 1 + against the old ones 1 + Re 2 + schwarz missed 2
    # (Re's no 90, no 60, no 30 were kept: Kontra has 0 card points)
    pytest.param(Case(facts(240, SCHWARZ, re_tricks=11), STANDARD, KONTRA, -6), id="re-schwarz-missed"),
    # Re: won 1 + Kontra 2 + Kontra's no 90 missed 2
    pytest.param(Case(facts(90, NONE, NO90), STANDARD, RE, 5), id="kontra-no90-missed"),
    # Kontra: won 1 + against the old ones 1 + Kontra 2 + Re below 90 1 + no 90 announced 1
    pytest.param(Case(facts(89, NONE, NO90), STANDARD, KONTRA, -6), id="kontra-no90-made"),
    # Kontra: won 1 + against the old ones 1 + Kontra 2 + below 90, 60, 30, no trick 4 + four denials 4
    pytest.param(Case(facts(0, NONE, SCHWARZ, re_tricks=0), STANDARD, KONTRA, -12), id="kontra-schwarz-made"),
    # Re won a 0-point trick: won 1 + Kontra 2 + schwarz missed 2 (the lower denials were kept)
    pytest.param(Case(facts(0, NONE, SCHWARZ, re_tricks=1), STANDARD, RE, 5), id="kontra-schwarz-missed"),
    # Kontra: won 1 + against the old ones 1 + Re 2 + Kontra 2 + Re below 90 1 + no 90 announced 1
    pytest.param(Case(facts(89, BASE, NO90), STANDARD, KONTRA, -8), id="re-said-kontra-no90-made"),
    # both no 90 and both miss: nobody wins, nothing scored
    pytest.param(Case(facts(120, NO90, NO90), STANDARD, None, 0), id="both-no90-nobody"),
    # won 1 + Re 2 + Kontra 2 + Kontra below 90 1 + no 90 by Re 1 + Kontra's no 90 missed 2
    pytest.param(Case(facts(151, NO90, NO90), STANDARD, RE, 9), id="both-no90-re"),
    # Kontra: won 1 + against the old ones 1 + 2 + 2 + Re below 90 1 + no 90 by Kontra 1 + Re's missed 2
    pytest.param(Case(facts(89, NO90, NO90), STANDARD, KONTRA, -10), id="both-no90-kontra"),
]


@pytest.mark.parametrize("case", STANDARD_VALUES)
def test_standard_additive_value(case: Case) -> None:
    check(case)


SPECIAL_VALUES: list[Any] = [
    # won 1 + Re's fox 1 + Re's Doppelkopf 1 - Kontra's Karlchen 1
    pytest.param(
        Case(facts(121, specials=sp("re fox", "re doppelkopf", "kontra karlchen")), STANDARD, RE, 2), id="netted"
    ),
    # Kontra: won 1 + against the old ones 1 - Re's two foxes 2 = 0
    pytest.param(Case(facts(100, specials=sp("re fox", "re fox")), STANDARD, KONTRA, 0), id="netted-to-zero"),
    # won 1 + Karlchen 1 + CJ caught 1
    pytest.param(Case(facts(130, specials=sp("re karlchen", "re captured")), STANDARD, RE, 3), id="karlchen-captured"),
    # karlchen_capture: false drops the capture point: won 1 + Karlchen 1
    pytest.param(Case(facts(130, specials=sp("re karlchen", "re captured")), NO_CAPTURE, RE, 2), id="no-capture"),
    # nobody wins (both no 90 missed): only the specials, Re's fox 1 - Kontra's two Doppelkopf 2
    pytest.param(
        Case(
            facts(120, NO90, NO90, specials=sp("re fox", "kontra doppelkopf", "kontra doppelkopf")), STANDARD, None, -1
        ),
        id="nobody-wins-specials-only",
    ),
    # partnered marriage: Kontra won 1 + against the old ones 1 + fox 1
    pytest.param(
        Case(facts(100, game=G.MARRIAGE, lone=False, specials=sp("kontra fox")), STANDARD, KONTRA, -3),
        id="marriage-with-partner",
    ),
    # poverty (standard): Kontra won 1 + against the old ones 1 - Re's Karlchen 1
    pytest.param(
        Case(facts(100, game=G.POVERTY, specials=sp("re karlchen")), STANDARD, KONTRA, -1), id="poverty-standard"
    ),
    # special_points_in_poverty: false: won 1, Re's fox does not count
    pytest.param(
        Case(facts(130, game=G.POVERTY, specials=sp("re fox")), NO_SPECIALS_IN_POVERTY, RE, 1),
        id="poverty-without-specials",
    ),
]


@pytest.mark.parametrize("case", SPECIAL_VALUES)
def test_special_points(case: Case) -> None:
    result = check(case)
    for line in result.lines:
        if line.special:
            assert line.points == 1 and line.factor == 1


def test_a_negative_net_value_is_what_the_winners_get() -> None:
    """docs/rules.md §7: net value = winners' game value + their specials - the losers' (may be negative).
    Re wins (won 1) but Kontra has three Doppelkopf: the net is 1 - 3 = -2 for each Re player."""
    case = Case(facts(121, specials=sp(*["kontra doppelkopf"] * 3)), STANDARD, RE, -2)
    result = score(case.deal, case.rules)
    assert result.winner is RE
    assert result.re_value == -2
    assert result.deltas((0, 2), range(4)) == {0: -2, 1: 2, 2: -2, 3: 2}
    assert result.value == -2


def test_a_negative_net_value_for_kontra_winning() -> None:
    """Kontra wins 140 : 100 (won 1 + against the old ones 1), Re has four Doppelkopf: net 2 - 4 = -2."""
    result = score(facts(100, specials=sp(*["re doppelkopf"] * 4)), STANDARD)
    assert result.winner is KONTRA
    assert result.re_value == 2
    assert result.deltas((0, 2), range(4)) == {0: 2, 1: -2, 2: 2, 3: -2}
    assert result.value == -2


LONE_VALUES: list[Any] = [
    # solo: won 1, no against the old ones
    pytest.param(Case(facts(121, game=G.CLUB_SOLO), STANDARD, RE, 1), id="club-solo-won"),
    # Kontra: won 1 only (no against the old ones in any solo)
    pytest.param(Case(facts(120, game=G.CLUB_SOLO), STANDARD, KONTRA, -1), id="club-solo-lost"),
    # silent solo lost: won 1; Kontra's fox does not count in a solo
    pytest.param(Case(facts(100, game=G.SILENT_SOLO, specials=sp("kontra fox")), STANDARD, KONTRA, -1), id="silent"),
    # lone marriage: Kontra won 1 + Re below 90 1; no against the old ones, no fox
    pytest.param(
        Case(facts(80, game=G.MARRIAGE, lone=True, specials=sp("kontra fox")), STANDARD, KONTRA, -2),
        id="lone-marriage",
    ),
    # queen solo schwarz: Kontra won 1 + below 90, 60, 30, no trick 4
    pytest.param(Case(facts(0, game=G.QUEEN_SOLO, re_tricks=0), STANDARD, KONTRA, -5), id="queen-solo-schwarz"),
    # jack solo: won 1 + Re 2 + below 90 1 + below 60 1; the soloist's specials do not count
    pytest.param(
        Case(facts(200, BASE, game=G.JACK_SOLO, specials=sp("re doppelkopf", "re karlchen")), STANDARD, RE, 5),
        id="jack-solo-announced",
    ),
]


@pytest.mark.parametrize("case", LONE_VALUES)
def test_lone_games(case: Case) -> None:
    result = check(case)
    assert result.lone
    assert not any(line.special for line in result.lines)
    deltas = result.deltas((0,), range(4))
    assert deltas[0] == -3 * deltas[1] == -3 * deltas[2] == -3 * deltas[3]


DOUBLING_VALUES: list[Any] = [
    # nothing announced: nothing doubled, won 1
    pytest.param(Case(facts(121), DOUBLING, RE, 1), id="nothing-announced"),
    # Kontra wins without calls: won 1 + against the old ones 1 (added, nothing to double)
    pytest.param(Case(facts(100), DOUBLING, KONTRA, -2), id="kontra-no-calls"),
    # Re: won 1, doubled by Re = 2
    pytest.param(Case(facts(121, BASE), DOUBLING, RE, 2), id="re-doubles"),
    # (won 1 + Kontra below 90 1) x 2 x 2 = 8
    pytest.param(Case(facts(160, BASE, BASE), DOUBLING, RE, 8), id="re-and-kontra-double-twice"),
    # Kontra: won 1 x 2 (Kontra) = 2, then against the old ones + 1 = 3
    pytest.param(Case(facts(100, NONE, BASE), DOUBLING, KONTRA, -3), id="old-ones-after-doubling"),
    # specials_doubled: (won 1) x 2 + against the old ones 1 x 2 = 4
    pytest.param(Case(facts(100, NONE, BASE), DOUBLING_SPECIALS, KONTRA, -4), id="old-ones-doubled"),
    # (won 1 + Kontra below 90 1 + no 90 announced 1) x 2 (Re implied by no 90) = 6
    pytest.param(Case(facts(170, NO90), DOUBLING, RE, 6), id="no90-implies-re"),
    # won 1 x 2 = 2, then specials Re's fox 1 - Kontra's two Doppelkopf 2 = -1: 1
    pytest.param(
        Case(facts(121, BASE, specials=sp("re fox", "kontra doppelkopf", "kontra doppelkopf")), DOUBLING, RE, 1),
        id="specials-after-doubling",
    ),
    # specials_doubled: 1 x 2 + (1 - 2) x 2 = 0
    pytest.param(
        Case(
            facts(121, BASE, specials=sp("re fox", "kontra doppelkopf", "kontra doppelkopf")),
            DOUBLING_SPECIALS,
            RE,
            0,
        ),
        id="specials-doubled",
    ),
    # Kontra: won 1 x 2 x 2 = 4, + against the old ones 1 = 5
    pytest.param(Case(facts(120, BASE, BASE), DOUBLING, KONTRA, -5), id="both-double-kontra"),
    # specials_doubled: (won 1 + against the old ones 1) x 4 = 8
    pytest.param(Case(facts(120, BASE, BASE), DOUBLING_SPECIALS, KONTRA, -8), id="both-double-kontra-specials"),
    # Kontra: (won 1 + Re's no 90 missed 2) x 2 (Re) = 6, + against the old ones 1 = 7
    pytest.param(Case(facts(150, NO90), DOUBLING, KONTRA, -7), id="no90-missed"),
    # club solo: won 1 x 2 = 2 per share, the soloist 6
    pytest.param(Case(facts(130, BASE, game=G.CLUB_SOLO), DOUBLING, RE, 2), id="solo-doubled"),
]


@pytest.mark.parametrize("case", DOUBLING_VALUES)
def test_doubling_value(case: Case) -> None:
    result = check(case)
    announced = sum(1 for party in Party if case.deal.level(party) >= 0)
    assert sum(1 for line in result.lines if line.factor == 2) == announced
    assert all(line.points == 0 for line in result.lines if line.factor == 2)


DDV_VALUES: list[Any] = [
    # won 1
    pytest.param(Case(facts(121), DDV, RE, 1), id="re-121"),
    # Kontra: won 1 + against the old ones 1
    pytest.param(Case(facts(100), DDV, KONTRA, -2), id="kontra-old-ones"),
    # won 1 + Re 2 + Kontra 2
    pytest.param(Case(facts(121, BASE, BASE), DDV, RE, 5), id="re-and-kontra"),
    # won 1 + Re 2 + Kontra below 90 1 + no 90 (Re's) 1
    pytest.param(Case(facts(151, NO90), DDV, RE, 5), id="re-no90-made"),
    # Kontra: won 1 + against the old ones 1 + Re 2 + no 90 (Re's, failed) 1; 90 < 120: no threshold
    pytest.param(Case(facts(150, NO90), DDV, KONTRA, -5), id="re-no90-missed-at-90"),
    # Kontra 130: as above + 120 reached against Re's no 90 1
    pytest.param(Case(facts(110, NO90), DDV, KONTRA, -6), id="re-no90-missed-at-130"),
    # Kontra 110: won 1 + old ones 1 + Re 2 + no 90 1 + no 60 1 + 90 reached against no 60 1 (110 < 120)
    pytest.param(Case(facts(130, NO60), DDV, KONTRA, -7), id="re-no60-missed"),
    # Kontra 40: won 1 + old ones 1 + Re 2 + no 90, no 60, no 30 3; 40 reaches none of 120 / 90 / 60
    pytest.param(Case(facts(200, NO30), DDV, KONTRA, -7), id="re-no30-missed"),
    # Kontra 30: won 1 + old ones 1 + Re 2 + four denials 4 + 30 reached against schwarz 1
    pytest.param(Case(facts(210, SCHWARZ, re_tricks=11), DDV, KONTRA, -9), id="re-schwarz-missed-at-30"),
    # Kontra's 0-point trick: won 1 + old ones 1 + Re 2 + four denials 4; 0 < 30
    pytest.param(Case(facts(240, SCHWARZ, re_tricks=11), DDV, KONTRA, -8), id="re-schwarz-missed-at-0"),
    # Re 90: won 1 + Kontra 2 + no 90 (Kontra's, failed) 1; 90 < 120
    pytest.param(Case(facts(90, NONE, NO90), DDV, RE, 4), id="kontra-no90-missed-at-90"),
    # Re 125: as above + 120 reached against Kontra's no 90 1
    pytest.param(Case(facts(125, NONE, NO90), DDV, RE, 5), id="kontra-no90-missed-at-125"),
    # won 1 + Re 2 + Kontra 2 + Kontra below 90 1 + no 90 by Re 1 + no 90 by Kontra 1
    # + 120 reached against Kontra's no 90 1
    pytest.param(Case(facts(151, NO90, NO90), DDV, RE, 9), id="both-no90-re"),
    # nobody: Re 120 against Kontra's no 90 1, Kontra 120 against Re's no 90 1: 1 - 1 = 0
    pytest.param(Case(facts(120, NO90, NO90), DDV, None, 0), id="nobody-even"),
    # nobody (Re 170 misses 181, Kontra 70 misses 151): Re: Kontra below 90 1 + 120 against no 90 1;
    # Kontra: nothing (70 < 120, 70 < 90): 2 - 0 = 2
    pytest.param(Case(facts(170, NO60, NO90), DDV, None, 2), id="nobody-re-ahead"),
    # nobody (Re 80 misses 151, Kontra 160 misses 181): Re: 80 < 120, 80 < 90: nothing;
    # Kontra: Re below 90 1 + 120 against Re's no 90 1: 0 - 2 = -2
    pytest.param(Case(facts(80, NO90, NO60), DDV, None, -2), id="nobody-kontra-ahead"),
    # normal game: won 1 + fox 1 + Karlchen 1; the capture point does not count under the DDV
    pytest.param(
        Case(facts(121, specials=sp("re fox", "re karlchen", "re captured")), DDV, RE, 3), id="specials-no-capture"
    ),
    # lone marriage: Kontra won 1, no against the old ones, no fox
    pytest.param(
        Case(facts(100, game=G.MARRIAGE, lone=True, specials=sp("kontra fox")), DDV, KONTRA, -1), id="lone-marriage"
    ),
    # marriage with a partner: Kontra won 1 + against the old ones 1 + fox 1
    pytest.param(
        Case(facts(100, game=G.MARRIAGE, lone=False, specials=sp("kontra fox")), DDV, KONTRA, -3),
        id="partnered-marriage",
    ),
    # a poverty (re-enabled): Kontra won 1; no against the old ones, no special points
    pytest.param(
        Case(facts(100, game=G.POVERTY, specials=sp("kontra fox", "re doppelkopf")), DDV_WITH_POVERTY, KONTRA, -1),
        id="poverty-no-specials",
    ),
    # silent solo: won 1 + Re 2, soloist x3
    pytest.param(Case(facts(121, BASE, game=G.SILENT_SOLO), DDV, RE, 3), id="silent-solo"),
]


@pytest.mark.parametrize("case", DDV_VALUES)
def test_ddv_value(case: Case) -> None:
    check(case)


def test_ddv_presets_its_scoring_options() -> None:
    assert DDV.scoring == "ddv"
    assert DDV.karlchen_capture is False
    assert DDV.special_points_in_poverty is False
    assert DDV.poverty is False
    assert BISTRO.karlchen_in_poverty is False


BISTRO_VALUES: list[Any] = [
    # poverty: won 1 + fox 1; the Karlchen point only in normal and marriage games
    pytest.param(
        Case(
            facts(130, game=G.POVERTY, specials=sp("re fox", "re karlchen"), re_tricks=5, hand_size=10), BISTRO, RE, 2
        ),
        id="poverty-karlchen-dropped",
    ),
    # the same deal under standard rules: won 1 + fox 1 + Karlchen 1
    pytest.param(
        Case(facts(130, game=G.POVERTY, specials=sp("re fox", "re karlchen")), STANDARD, RE, 3),
        id="poverty-karlchen-standard",
    ),
    # poverty: the capture point is a Karlchen point too: won 1
    pytest.param(
        Case(facts(130, game=G.POVERTY, specials=sp("re captured"), re_tricks=5, hand_size=10), BISTRO, RE, 1),
        id="poverty-capture-dropped",
    ),
    # normal game: won 1 + Karlchen 1
    pytest.param(
        Case(facts(130, specials=sp("re karlchen"), re_tricks=5, hand_size=10), BISTRO, RE, 2), id="normal-karlchen"
    ),
    # marriage with a partner: won 1 + Karlchen 1
    pytest.param(
        Case(
            facts(130, game=G.MARRIAGE, lone=False, specials=sp("re karlchen"), re_tricks=5, hand_size=10),
            BISTRO,
            RE,
            2,
        ),
        id="marriage-karlchen",
    ),
]


@pytest.mark.parametrize("case", BISTRO_VALUES)
def test_bistro_value(case: Case) -> None:
    check(case)


# -- Score.deltas ------------------------------------------------------------------------------


def test_deltas_two_against_two() -> None:
    result = score(facts(151, BASE), STANDARD)  # won 1 + Re 2 + below 90 1 = 4
    assert result.deltas((1, 3), range(4)) == {0: -4, 1: 4, 2: -4, 3: 4}


def test_deltas_give_the_soloist_three_shares() -> None:
    result = score(facts(100, game=G.HEART_SOLO), STANDARD)  # Kontra won 1
    assert result.deltas((2,), range(4)) == {0: 1, 1: 1, 2: -3, 3: 1}


def test_deltas_of_a_lone_game_need_one_re_player() -> None:
    result = score(facts(130, game=G.ACE_SOLO), STANDARD)
    with pytest.raises(ValueError):
        result.deltas((0, 2), range(4))


def test_nobody_wins_scores_nothing_without_specials() -> None:
    result = score(facts(150, NO90, NO90), STANDARD)
    assert result.winner is None
    assert result.deltas((0, 1), range(4)) == {0: 0, 1: 0, 2: 0, 3: 0}
    assert not any(line.item == "won" for line in result.lines)


# -- invariants over random facts and rules ----------------------------------------------------


@st.composite
def random_facts(draw: st.DrawFn) -> DealFacts:
    game = draw(st.sampled_from(list(GameType)))
    lone = game.is_solo or (game is G.MARRIAGE and draw(st.booleans()))
    size = draw(st.sampled_from((10, 12)))
    re_tricks = draw(st.integers(0, size))
    kontra_tricks = size - re_tricks
    if re_tricks == 0:
        re_points = 0
    elif kontra_tricks == 0:
        re_points = 240
    else:
        re_points = draw(st.integers(0, 240))
    specials = draw(st.lists(st.builds(Special, st.sampled_from(list(SpecialKind)), st.sampled_from(list(Party)))))
    return DealFacts(
        game_type=game,
        lone=lone,
        re_points=re_points,
        re_tricks=re_tricks,
        kontra_tricks=kontra_tricks,
        announced={RE: draw(st.integers(-1, 4)), KONTRA: draw(st.integers(-1, 4))},
        specials=tuple(specials),
    )


random_rules = st.builds(
    RuleSet,
    announcement_scoring=st.sampled_from(("additive", "doubling")),
    specials_doubled=st.booleans(),
    karlchen_capture=st.booleans(),
    scoring=st.sampled_from(("standard", "ddv")),
    special_points_in_poverty=st.booleans(),
    karlchen_in_poverty=st.booleans(),
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(deal=random_facts(), rules=random_rules)
def test_score_invariants(deal: DealFacts, rules: RuleSet) -> None:
    result = score(deal, rules)
    assert result.winner is winner(deal)
    re_seats = (0,) if deal.lone else (0, 2)
    deltas = result.deltas(re_seats, range(4))
    assert sum(deltas.values()) == 0
    if deal.lone:
        assert deltas[0] == 3 * result.re_value
        assert deltas[1] == deltas[2] == deltas[3] == -result.re_value
        assert not any(line.special and line.item != "against the old ones" for line in result.lines)
    else:
        assert len({d % 2 for d in deltas.values()}) == 1
    specials = [line for line in result.lines if line.special and line.item != "against the old ones"]
    if result.winner is None:
        # the winner's value is never counted: no won, no Re/Kontra, nothing doubled
        assert not any(line.item in ("won", "against the old ones") for line in result.lines)
        assert all(line.factor == 1 for line in result.lines)
        assert not any(line.item in ("Re announced", "Kontra announced") for line in result.lines)
        if rules.scoring == "standard":
            assert all(line.points == 0 for line in result.lines if not line.special)
        if not (rules.announcement_scoring == "doubling" and rules.specials_doubled):
            net = sum(line.points for line in result.lines if line.party is RE)
            net -= sum(line.points for line in result.lines if line.party is KONTRA)
            assert result.re_value == net
    elif not specials:
        # without special points the winners always gain
        assert (result.re_value > 0) == (result.winner is RE)
        assert result.value == abs(result.re_value) >= 1
    assert any(line.item.startswith("Re's goal") for line in result.lines)
    assert any(line.item.startswith("Kontra's goal") for line in result.lines)
