"""The announcement house rules (docs/rules.md §5, "Other deadlines", and §7): a deadline per
level, counting tricks, late answers, a last trick for announcements, the first trick's thirty
points and against the old ones doubled; every default leaves the game as it was."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from helpers import MARRIAGE_DEAL, c, play_script, run, swap

from doko_ledger.doppelkopf.game import (
    Announce,
    Command,
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    PlayCard,
    StartGame,
    decide,
)
from doko_ledger.doppelkopf.game.parties import party_calls
from doko_ledger.doppelkopf.game.state import Hand
from doko_ledger.doppelkopf.rules.announcements import (
    DEADLINE,
    STANDARD,
    Announcement,
    Deadlines,
    Party,
    PartyCalls,
    deadlines_of,
    first_trick_due,
)
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.doppelkopf.rules.reservations import asking_order
from doko_ledger.doppelkopf.rules.ruleset import PRESETS, FirstTrickThirty, RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import DealFacts, Special, SpecialKind, score

A = Announcement
RE, KONTRA = Party.RE, Party.KONTRA
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
# Anna and Ben are Re, Cleo and Dirk Kontra; Dirk deals, Anna leads.
NORMAL_DEAL = swap(MARRIAGE_DEAL, ANNA, "CQ", BEN, "SQ")
FREEDOKO = {"re_deadline": 1, "no90_deadline": 3, "no60_deadline": 6, "no30_deadline": 9, "schwarz_deadline": 9}
"""FreeDoko's default deadlines as cards played."""
HOUSE = {"re_deadline": 2, "no90_deadline": 4, "no60_deadline": 5, "no30_deadline": 7, "schwarz_deadline": 10}
LEVELS = (A.RE, A.NO90, A.NO60, A.NO30, A.SCHWARZ)
THIRTY = ("CA", "C10", "CA", "C9")  # trick 1: 32 card points, Anna's ace first: Anna (Re) takes it
NINETEEN = ("CA", "CK", "CK", "C9")
NAMES = ("re_deadline", "no90_deadline", "no60_deadline", "no30_deadline", "schwarz_deadline")


def rules(**options: object) -> RuleSet:
    return rules_from_mapping({"preset": "standard", **options})


def game(rules: RuleSet, deal: tuple[Hand, ...] = NORMAL_DEAL) -> GameState:
    state = run(GameState(), StartGame("g1", PLAYERS, DIRK, rules), DealCards(deal))
    for seat in asking_order(DIRK):
        state = run(state, DeclareReservation(seat, True))
    return state


def accepts(state: GameState, command: Command) -> bool:
    try:
        decide(state, command)
    except IllegalMove:
        return False
    return True


def refusal(state: GameState, command: Command) -> str:
    with pytest.raises(IllegalMove) as raised:
        decide(state, command)
    return str(raised.value)


def all_plays(state: GameState) -> list[PlayCard]:
    """The first legal card each turn, to the end of the game."""
    plays: list[PlayCard] = []
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        trick = state.current.cards if state.current is not None else ()
        plays.append(PlayCard(seat, legal_plays(state.hands[seat], trick, state.order)[0]))
        state = run(state, plays[-1])
    return plays


def verdicts(state: GameState, before: Sequence[Command], command: Announce) -> list[bool]:
    """Whether `command` is accepted when its announcer has played 0, 1, … 12 cards (just before
    the next own card), after `before` was said ahead of the first card."""
    state = run(state, *before)
    out = []
    for play in all_plays(state):
        if play.seat == command.seat:
            out.append(accepts(state, command))
        state = run(state, play)
    out.append(accepts(state, command))
    return out


# --- defaults ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_keeps_the_table_of_section_5(name: str) -> None:
    ruleset = preset(name)
    assert deadlines_of(ruleset) == STANDARD == Deadlines(DEADLINE, "cards", True)
    assert DEADLINE == (1, 2, 3, 4, 5)
    assert (ruleset.last_announcement_trick, ruleset.first_trick_thirty) == (12, "off")


# --- a deadline per level ---------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, FREEDOKO, HOUSE], ids=["standard", "freedoko", "house"])
@pytest.mark.parametrize("level", range(5))
def test_each_level_is_allowed_up_to_its_own_deadline(options: dict[str, int], level: int) -> None:
    ruleset = rules(**options)
    limit = getattr(ruleset, NAMES[level])
    for seat, partner in ((ANNA, BEN), (BEN, ANNA)):
        # the partner made the step below before the first card: only this level's deadline counts
        before = [] if level == 0 else [Announce(partner, LEVELS[level - 1])]
        got = verdicts(game(ruleset), before, Announce(seat, LEVELS[level]))
        assert got == [played <= limit for played in range(13)], (PLAYERS[seat], limit)


def test_a_jump_needs_every_skipped_step_in_time() -> None:
    state = game(rules(**FREEDOKO))
    # Anna has played two cards: no 90 alone would be in time (3), Re is not (1)
    got = verdicts(state, [], Announce(ANNA, A.NO90))
    assert got == [played <= 1 for played in range(13)]


def test_a_late_reply_gets_one_card_more_than_the_call_it_answers() -> None:
    state = game(rules(**FREEDOKO))
    got = verdicts(state, [Announce(ANNA, A.NO90)], Announce(CLEO, A.KONTRA))
    assert got == [played <= 3 + 1 for played in range(13)]


def test_too_late_names_the_deadline_in_force() -> None:
    state = run(game(rules(**FREEDOKO)), Announce(BEN, A.RE))
    state = play_script(state, *THIRTY, "SA", "S10", "SA", "S9", "HA", "HK", "HA", "H9", "DK")
    assert refusal(state, Announce(ANNA, A.NO60)) == (
        "Anna: no 60 includes no 90, which is too late: allowed with at most 3 cards played; "
        "the announcer has played 4 (docs/rules.md §5)"
    )


# --- late answers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("late", [True, False])
def test_late_answer_off_leaves_only_the_first_deadline(late: bool) -> None:
    state = game(rules(late_answer=late))
    got = verdicts(state, [Announce(ANNA, A.NO60)], Announce(CLEO, A.KONTRA))
    assert got == [played <= (4 if late else 1) for played in range(13)]


# --- counting tricks --------------------------------------------------------------------------------


def test_counting_tricks_lets_a_player_announce_after_playing_until_the_next_lead() -> None:
    state = play_script(game(rules(deadlines_count="tricks")), *THIRTY, "SA", "S10")
    call = Announce(ANNA, A.RE)  # Anna has played her second card, trick 2 is still under way
    assert accepts(state, call)
    state = play_script(state, "SA", "S9")  # trick 2 complete: still the trick being played
    assert state.current is None and len(state.tricks) == 2
    assert accepts(state, call)
    state = play_script(state, "HA")  # Anna took trick 2 and leads trick 3
    assert refusal(state, call) == (
        "Anna: Re is too late: allowed with at most 1 trick played; 2 played (docs/rules.md §5)"
    )


def test_counting_cards_refuses_the_same_call() -> None:
    state = play_script(game(RuleSet()), *THIRTY, "SA", "S10")
    assert refusal(state, Announce(ANNA, A.RE)) == (
        "Anna: Re is too late: allowed with at most 1 card played; the announcer has played 2 (docs/rules.md §5)"
    )


def test_a_call_between_two_tricks_counts_in_the_trick_just_completed() -> None:
    ruleset = rules(deadlines_count="tricks", no90_deadline=2)
    state = play_script(game(ruleset), *THIRTY, "SA", "S10", "SA", "S9")
    state = run(state, Announce(BEN, A.RE))  # after trick 2, before trick 3 is led: in time
    assert state.calls[-1].tricks_before == 1 and state.calls[-1].trick == 3
    assert party_calls(state)[RE] == PartyCalls(0, True)
    state = play_script(state, "HA")
    assert accepts(state, Announce(ANNA, A.NO90))  # Re was a first announcement, not a late answer


# --- a last trick for announcements -----------------------------------------------------------------


def test_nothing_is_announced_once_the_last_trick_for_it_is_complete() -> None:
    ruleset = rules(re_deadline=12, last_announcement_trick=2)
    state = play_script(game(ruleset), *THIRTY, "SA", "S10", "SA")
    assert accepts(state, Announce(DIRK, A.KONTRA))  # trick 2 under way
    state = play_script(state, "S9")
    assert refusal(state, Announce(DIRK, A.KONTRA)) == (
        "Dirk cannot announce Kontra: nothing is announced once trick 2 is complete (docs/rules.md §5)"
    )


# --- the first trick's thirty points ----------------------------------------------------------------


def test_without_the_option_the_second_trick_is_led_freely() -> None:
    assert accepts(play_script(game(RuleSet()), *THIRTY), PlayCard(ANNA, c("SA")))


def test_the_winner_of_a_thirty_point_first_trick_must_announce_before_the_next_lead() -> None:
    state = play_script(game(rules(first_trick_thirty="party_silent")), *THIRTY)
    assert refusal(state, PlayCard(ANNA, c("SA"))) == (
        "Anna cannot lead SA yet: Anna took the first trick with 32 card points and must announce Re "
        "before the second trick is led (docs/rules.md §5)"
    )
    assert accepts(run(state, Announce(ANNA, A.RE)), PlayCard(ANNA, c("SA")))
    assert accepts(run(state, Announce(ANNA, A.NO90)), PlayCard(ANNA, c("SA")))  # a jump makes Re too
    assert not accepts(run(state, Announce(BEN, A.RE)), PlayCard(ANNA, c("SA")))  # the winner owes it


def test_a_first_trick_below_thirty_owes_nothing() -> None:
    state = play_script(game(rules(first_trick_thirty="always")), *NINETEEN)
    assert accepts(state, PlayCard(ANNA, c("SA")))


@pytest.mark.parametrize(
    ("mode", "before", "owed"),
    [
        ("party_silent", [], A.RE),
        ("party_silent", [Announce(BEN, A.RE)], None),
        ("party_silent", [Announce(CLEO, A.KONTRA)], A.RE),
        ("all_silent", [], A.RE),
        ("all_silent", [Announce(CLEO, A.KONTRA)], None),
        ("always", [Announce(BEN, A.RE)], A.NO90),
        ("always", [Announce(BEN, A.SCHWARZ)], None),
    ],
)
def test_which_calls_before_the_first_trick_leave_a_duty(
    mode: FirstTrickThirty, before: list[Announce], owed: A | None
) -> None:
    state = play_script(run(game(rules(first_trick_thirty=mode)), *before), *THIRTY)
    lead = PlayCard(ANNA, c("SA"))
    assert accepts(state, lead) is (owed is None)
    if owed is not None:
        assert f"must announce {owed.label} " in refusal(state, lead)
        assert accepts(run(state, Announce(ANNA, owed)), lead)


def test_the_duty_falls_away_when_the_call_would_be_too_late() -> None:
    state = play_script(game(rules(first_trick_thirty="party_silent", re_deadline=0)), *THIRTY)
    assert accepts(state, PlayCard(ANNA, c("SA")))


def test_the_duty_is_only_for_a_normal_game() -> None:
    state = play_script(game(rules(first_trick_thirty="always"), MARRIAGE_DEAL), *THIRTY)  # a silent solo
    assert accepts(state, PlayCard(ANNA, c("SA")))


@pytest.mark.parametrize(
    ("own", "other", "mode", "due"),
    [
        (PartyCalls(), PartyCalls(), "off", None),
        (PartyCalls(), PartyCalls(), "party_silent", 0),
        (PartyCalls(0), PartyCalls(), "party_silent", None),
        (PartyCalls(), PartyCalls(0), "all_silent", None),
        (PartyCalls(1), PartyCalls(), "always", 2),
        (PartyCalls(4), PartyCalls(), "always", None),
    ],
)
def test_first_trick_due(own: PartyCalls, other: PartyCalls, mode: FirstTrickThirty, due: int | None) -> None:
    assert first_trick_due(30, own, other, mode) == due
    assert first_trick_due(29, own, other, mode) is None


def test_the_options_are_checked_by_name() -> None:
    with pytest.raises(ValueError, match="re_deadline"):
        rules(re_deadline=13)
    with pytest.raises(ValueError, match="first_trick_thirty"):
        rules(first_trick_thirty="sometimes")
    assert replace(RuleSet(), **HOUSE).changed_from_preset() == HOUSE


# --- against the old ones doubled -------------------------------------------------------------------


def kontra_wins(kontra: int, *specials: Special) -> DealFacts:
    """Kontra takes 140 in a normal game; Re announced nothing, Kontra up to `kontra`."""
    return DealFacts(GameType.NORMAL, False, 100, 6, 6, {RE: -1, KONTRA: kontra}, specials)


@pytest.mark.parametrize(
    ("facts", "options", "value"),
    [
        # won 1 x 2 (Kontra), then against the old ones 1
        (kontra_wins(0), {"announcement_scoring": "doubling"}, 3),
        # (won 1 + against the old ones 1) x 2
        (kontra_wins(0), {"announcement_scoring": "doubling", "against_old_ones_doubled": True}, 4),
        # the fox stays after the doubling: (1 + 1) x 2 + 1
        (
            kontra_wins(0, Special(SpecialKind.FOX_CAUGHT, KONTRA)),
            {"announcement_scoring": "doubling", "against_old_ones_doubled": True},
            5,
        ),
        # without doubling nothing changes: won 1 + against the old ones 1 + Kontra 2
        (kontra_wins(0), {"against_old_ones_doubled": True}, 4),
        (kontra_wins(-1), {"announcement_scoring": "doubling", "against_old_ones_doubled": True}, 2),
    ],
)
def test_against_the_old_ones_doubled(facts: DealFacts, options: dict[str, object], value: int) -> None:
    result = score(facts, rules(**options))
    assert result.winner is KONTRA and result.value == value
    assert [line.points for line in result.lines if line.item == "against the old ones"] == [1]
