"""Announcements (*Ansagen*): deadlines, replies, skipped levels, marriages and solos (docs/rules.md §5)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import pytest
from helpers import MARRIAGE_DEAL, c, cards, play_script, run, swap
from hypothesis import given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf.cards import ALTE, deck
from doko_ledger.doppelkopf.events import AnnouncementMade, CardPlayed, DoppelkopfEvent
from doko_ledger.doppelkopf.game import (
    Announce,
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    GameState,
    IllegalMove,
    NameReservation,
    PassPovertyCards,
    PlayCard,
    ReturnPovertyCards,
    StartGame,
    decide,
    evolve,
    fold,
)
from doko_ledger.doppelkopf.game.parties import Announced, announced, party_calls, public_parties
from doko_ledger.doppelkopf.game.state import Call, Hand
from doko_ledger.doppelkopf.rules.announcements import (
    Announcement,
    Party,
    PartyCalls,
    after,
    announcement_problem,
    marriage_shift,
)
from doko_ledger.doppelkopf.rules.game_types import GameType, game_type_problem
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order, next_to_name, trump_count
from doko_ledger.doppelkopf.rules.ruleset import PICTURE_SOLOS, MarriageShift, RuleSet, preset

A = Announcement
G = GameType
K = ReservationKind
RE, KONTRA = Party.RE, Party.KONTRA
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
STANDARD = preset("standard")
BISTRO = preset("bistro")
NORMAL_ORDER = card_order(G.NORMAL)

# docs/rules.md §5, written out again: the most cards the announcer may have played, by level.
FIRST_DEADLINE = {0: 1, 1: 2, 2: 3, 3: 4, 4: 5}
LEVEL = {A.RE: 0, A.KONTRA: 0, A.NO90: 1, A.NO60: 2, A.NO30: 3, A.SCHWARZ: 4}
DENIAL_AT = {1: A.NO90, 2: A.NO60, 3: A.NO30, 4: A.SCHWARZ}
CARD_COUNTS = range(13)


def call_at(party: Party, level: int) -> Announcement:
    if level == 0:
        return A.RE if party is RE else A.KONTRA
    return DENIAL_AT[level]


# The old ones split: Anna and Ben are Re, Cleo and Dirk Kontra.
NORMAL_DEAL = swap(MARRIAGE_DEAL, ANNA, "CQ", BEN, "SQ")
# 40 cards, suit by suit (bistro rules have no nines).
SHORT_DEAL = (
    cards("CA CA C10 C10 CK CK CQ CQ CJ CJ"),
    cards("SA SA S10 S10 SK SK SQ SQ SJ SJ"),
    cards("HA HA H10 H10 HK HK HQ HQ HJ HJ"),
    cards("DA DA D10 D10 DK DK DQ DQ DJ DJ"),
)
PARTY_SEATS = {RE: (ANNA, BEN), KONTRA: (CLEO, DIRK)}


# --- helpers -------------------------------------------------------------------------------------


def refused(state: GameState, command: Command, message: str | None = None) -> IllegalMove:
    with pytest.raises(IllegalMove) as raised:
        decide(state, command)
    if message is not None:
        assert str(raised.value) == message
    return raised.value


def accepts(state: GameState, command: Command) -> bool:
    try:
        decide(state, command)
    except IllegalMove:
        return False
    return True


def game(
    deal: tuple[Hand, ...] | None = NORMAL_DEAL,
    rules: RuleSet = STANDARD,
    dealer: int = DIRK,
    reservation: tuple[int, K, GameType | None] | None = None,
) -> GameState:
    """A game after its reservations: all healthy, or one player's reservation."""
    state = run(GameState(), StartGame("g1", PLAYERS, dealer, rules))
    if deal is not None:
        state = run(state, DealCards(deal))
    for seat in asking_order(dealer):
        state = run(state, DeclareReservation(seat, reservation is None or seat != reservation[0]))
    if reservation is not None:
        state = run(state, NameReservation(*reservation))
    assert state.ready
    return state


def all_plays(state: GameState, script: Sequence[str] = ()) -> list[PlayCard]:
    """The scripted cards, then the first legal card each turn, to the end of the game."""
    plays: list[PlayCard] = []
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        if len(plays) < len(script):
            card = c(script[len(plays)])
        else:
            trick = state.current.cards if state.current is not None else ()
            card = legal_plays(state.hands[seat], trick, state.order)[0]
        plays.append(PlayCard(seat, card))
        state = run(state, plays[-1])
    return plays


def timeline(state: GameState, plays: Sequence[PlayCard], calls: dict[int, list[Announce]]) -> list[GameState]:
    """The state after 0, 1, … plays; `calls[i]` are made just before play i."""
    states = []
    for i in range(len(plays) + 1):
        for command in calls.get(i, ()):
            state = run(state, command)
        states.append(state)
        if i < len(plays):
            state = run(state, plays[i])
    return states


def moments(plays: Sequence[PlayCard], seat: int, played: int) -> tuple[int, int]:
    """The first and the last number of plays at which `seat` has played exactly `played` cards."""
    own = [i for i, p in enumerate(plays) if p.seat == seat]
    first = 0 if played == 0 else own[played - 1] + 1
    last = own[played] if played < len(own) else len(plays)
    return first, last


# --- announcement_problem: the tables of docs/rules.md §5 ----------------------------------------------


def verdicts(announcement: Announcement, party: Party, shift: int, own: PartyCalls, other: PartyCalls) -> list[bool]:
    return [announcement_problem(announcement, party, p, shift, own, other) is None for p in CARD_COUNTS]


def up_to(limit: int) -> list[bool]:
    return [p <= limit for p in CARD_COUNTS]


SHIFTS = [0, 1, 2, 3]
PARTIES = [RE, KONTRA]


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("party", PARTIES, ids=["re", "kontra"])
@pytest.mark.parametrize(("level", "limit"), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)])
def test_each_level_when_the_party_has_the_previous_ones(level: int, limit: int, party: Party, shift: int) -> None:
    own = PartyCalls(level - 1)
    # (the other party's calls matter for Re/Kontra only: see the reply table)
    for other_level in range(-1, 5) if level > 0 else [-1]:
        assert verdicts(call_at(party, level), party, shift, own, PartyCalls(other_level)) == up_to(limit + shift), (
            other_level
        )


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("party", PARTIES, ids=["re", "kontra"])
@pytest.mark.parametrize(
    ("own_level", "level", "limit"),
    [
        # nothing said yet: a denial includes Re/Kontra, due after 1 card
        (-1, 1, 1),
        (-1, 2, 1),
        (-1, 3, 1),
        (-1, 4, 1),
        # Re/Kontra said: the first skipped step is no 90, due after 2 cards
        (0, 2, 2),
        (0, 3, 2),
        (0, 4, 2),
        (1, 3, 3),
        (1, 4, 3),
        (2, 4, 4),
    ],
)
def test_each_level_as_a_skip_needs_every_skipped_step_in_time(
    own_level: int, level: int, limit: int, party: Party, shift: int
) -> None:
    own = PartyCalls(own_level)
    assert limit == FIRST_DEADLINE[own_level + 1]
    for other_level in range(-1, 5):
        assert verdicts(call_at(party, level), party, shift, own, PartyCalls(other_level)) == up_to(limit + shift), (
            other_level
        )


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("party", PARTIES, ids=["re", "kontra"])
@pytest.mark.parametrize(("other_level", "limit"), [(-1, 1), (0, 2), (1, 3), (2, 4), (3, 5), (4, 6)])
def test_replies_are_one_card_later_than_the_call_replied_to(
    other_level: int, limit: int, party: Party, shift: int
) -> None:
    word = call_at(party, 0)
    assert verdicts(word, party, shift, PartyCalls(), PartyCalls(other_level)) == up_to(limit + shift)
    # a partner's repeat of the word is a reply as well
    assert verdicts(word, party, shift, PartyCalls(0), PartyCalls(other_level)) == up_to(limit + shift)


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("party", PARTIES, ids=["re", "kontra"])
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_a_late_reply_carries_no_denial(level: int, party: Party, shift: int) -> None:
    """DDV: a party whose Re/Kontra came only as a late reply makes no "no X" afterwards."""
    late = PartyCalls(0, base_in_time=False)
    for other_level in range(5):
        assert verdicts(call_at(party, level), party, shift, late, PartyCalls(other_level)) == up_to(-1)
    word = party.title
    assert str(announcement_problem(call_at(party, level), party, 0, shift, late, PartyCalls(0))) == (
        f"{call_at(party, level).label} is not allowed: {word}'s {word} came only as a late reply and would not "
        "have been in time as a first announcement (docs/rules.md §5, DDV)"
    )
    # a reply that was also in time as a first announcement does carry denials
    in_time = PartyCalls(0, base_in_time=True)
    assert verdicts(call_at(party, level), party, shift, in_time, PartyCalls(0)) == up_to(FIRST_DEADLINE[1] + shift)


@pytest.mark.parametrize("party", PARTIES, ids=["re", "kontra"])
@pytest.mark.parametrize("played", [0, 1, 5])
def test_the_other_partys_word_is_refused(party: Party, played: int) -> None:
    wrong = call_at(party.other, 0)
    problem = announcement_problem(wrong, party, played, 0, PartyCalls(), PartyCalls())
    assert str(problem) == f"a {party.title} player cannot say {wrong.label}"


@pytest.mark.parametrize("party", PARTIES, ids=["re", "kontra"])
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_a_partners_repeat_keeps_its_own_deadline(level: int, party: Party) -> None:
    """A call the party already made may be repeated by a partner (it adds nothing) — while it is in time."""
    for own_level in range(level, 5):
        assert verdicts(call_at(party, level), party, 0, PartyCalls(own_level), PartyCalls()) == up_to(
            FIRST_DEADLINE[level]
        )


@pytest.mark.parametrize(
    ("announcement", "party", "played", "own", "other", "message"),
    [
        (A.RE, RE, 2, PartyCalls(), PartyCalls(), "Re is too late: allowed with at most 1 card played"),
        (
            A.KONTRA,
            KONTRA,
            3,
            PartyCalls(),
            PartyCalls(0),
            "Kontra is too late: allowed with at most 1 card played, or 2 as a reply to Re",
        ),
        (
            A.RE,
            RE,
            4,
            PartyCalls(),
            PartyCalls(1),
            "Re is too late: allowed with at most 1 card played, or 3 as a reply to no 90",
        ),
        (A.NO90, RE, 3, PartyCalls(0), PartyCalls(), "no 90 is too late: allowed with at most 2 cards played"),
        (
            A.NO60,
            KONTRA,
            2,
            PartyCalls(),
            PartyCalls(),
            "no 60 includes Kontra, which is too late: allowed with at most 1 card played",
        ),
        (
            A.SCHWARZ,
            RE,
            3,
            PartyCalls(0),
            PartyCalls(),
            "schwarz includes no 90, which is too late: allowed with at most 2 cards played",
        ),
    ],
)
def test_too_late_messages(
    announcement: Announcement, party: Party, played: int, own: PartyCalls, other: PartyCalls, message: str
) -> None:
    expected = f"{message}; the announcer has played {played} (docs/rules.md §5)"
    assert str(announcement_problem(announcement, party, played, 0, own, other)) == expected


@pytest.mark.parametrize(
    ("own", "announcement", "played", "shift", "result"),
    [
        (PartyCalls(), A.RE, 0, 0, PartyCalls(0, True)),
        (PartyCalls(), A.RE, 1, 0, PartyCalls(0, True)),
        (PartyCalls(), A.RE, 2, 0, PartyCalls(0, False)),
        (PartyCalls(), A.RE, 2, 1, PartyCalls(0, True)),
        (PartyCalls(), A.NO60, 1, 0, PartyCalls(2, True)),
        # a partner's Kontra in time as a first call lifts the late-reply restriction
        (PartyCalls(0, False), A.KONTRA, 1, 0, PartyCalls(0, True)),
        (PartyCalls(0, False), A.KONTRA, 2, 0, PartyCalls(0, False)),
        (PartyCalls(2, True), A.NO90, 2, 0, PartyCalls(2, True)),
        (PartyCalls(1, True), A.SCHWARZ, 3, 0, PartyCalls(4, True)),
    ],
)
def test_party_calls_after_an_announcement(
    own: PartyCalls, announcement: Announcement, played: int, shift: int, result: PartyCalls
) -> None:
    assert after(own, announcement, played, shift) == result


@pytest.mark.parametrize(
    ("trick", "mode", "shift"),
    [
        (1, "after_first", 0),
        (2, "after_first", 1),
        (3, "after_first", 2),
        (1, "tricks", 1),
        (2, "tricks", 2),
        (3, "tricks", 3),
    ],
)
def test_marriage_shift(trick: int, mode: str, shift: int) -> None:
    assert marriage_shift(trick, mode) == shift


# --- a normal game through decide: every card count 0..12 -----------------------------------------
# NORMAL_DEAL, dealer Dirk: Anna leads; Anna and Ben are Re, Cleo and Dirk Kontra.

Setup = tuple[tuple[str, int], ...]
NORMAL_ROWS: list[tuple[Setup, int, int]] = [
    # (calls made before the first card, by "self", "partner" or "opponent" at a level; the level tried; limit)
    ((), 0, 1),
    ((("partner", 0),), 1, 2),
    ((("self", 0),), 1, 2),
    ((("partner", 1),), 2, 3),
    ((("self", 1),), 2, 3),
    ((("partner", 2),), 3, 4),
    ((("partner", 3),), 4, 5),
    ((), 1, 1),
    ((), 2, 1),
    ((), 3, 1),
    ((), 4, 1),
    ((("partner", 0),), 2, 2),
    ((("partner", 0),), 3, 2),
    ((("partner", 0),), 4, 2),
    ((("partner", 1),), 3, 3),
    ((("partner", 1),), 4, 3),
    ((("partner", 2),), 4, 4),
    ((("opponent", 0),), 0, 2),
    ((("opponent", 1),), 0, 3),
    ((("opponent", 2),), 0, 4),
    ((("opponent", 3),), 0, 5),
    ((("opponent", 4),), 0, 6),
    ((("partner", 0), ("opponent", 1)), 0, 3),
    # an earlier call of the other party does not make denials later
    ((("opponent", 4),), 1, 1),
    ((("opponent", 0),), 2, 1),
]
NORMAL_STATE = game()
NORMAL_PLAYS = all_plays(NORMAL_STATE)


def _setup_calls(seat: int, party: Party, setup: Setup) -> list[Announce]:
    partner = next(s for s in PARTY_SEATS[party] if s != seat)
    who = {"self": (seat, party), "partner": (partner, party), "opponent": (PARTY_SEATS[party.other][0], party.other)}
    return [Announce(who[role][0], call_at(who[role][1], level)) for role, level in setup]


@pytest.mark.parametrize(("setup", "level", "limit"), NORMAL_ROWS)
def test_normal_game_deadlines_at_every_card_count(setup: Setup, level: int, limit: int) -> None:
    for party in PARTIES:
        for seat in PARTY_SEATS[party]:
            states = timeline(NORMAL_STATE, NORMAL_PLAYS, {0: _setup_calls(seat, party, setup)})
            command = Announce(seat, call_at(party, level))
            for moment in range(2):
                outcome = [accepts(states[moments(NORMAL_PLAYS, seat, p)[moment]], command) for p in CARD_COUNTS]
                assert outcome == up_to(limit), (PLAYERS[seat], moment)


def test_an_accepted_call_is_recorded() -> None:
    state = play_script(NORMAL_STATE, "CA", "CK")  # Anna and Ben have played one card

    events = decide(state, Announce(CLEO, A.NO90))

    assert events == [AnnouncementMade(CLEO, A.NO90, KONTRA)]
    state = evolve(state, events[0])
    assert state.calls == (Call(CLEO, A.NO90, KONTRA, 0, 1),)
    assert party_calls(state) == {RE: PartyCalls(), KONTRA: PartyCalls(1, True)}
    assert [(a.party, a.announcement, a.implied) for a in announced(state)] == [
        (KONTRA, A.KONTRA, True),
        (KONTRA, A.NO90, False),
    ]


def test_the_announcers_own_cards_count_not_the_trick() -> None:
    # trick 2 under way: Anna, Ben and Cleo have played two cards, Dirk one
    state = play_script(NORMAL_STATE, "CA", "CK", "CK", "C9", "SA", "SK", "SK")
    assert [len(state.played_by(s)) for s in range(4)] == [2, 2, 2, 1]
    assert accepts(state, Announce(DIRK, A.KONTRA))
    refused(
        state,
        Announce(CLEO, A.KONTRA),
        "Cleo: Kontra is too late: allowed with at most 1 card played; the announcer has played 2 (docs/rules.md §5)",
    )


def test_a_late_reply_carries_no_denial_through_decide() -> None:
    state = run(NORMAL_STATE, Announce(ANNA, A.RE))
    state = play_script(state, "CA", "CK", "CK", "C9", "SA", "SK", "SK")  # Cleo has played 2, Dirk 1
    state = run(state, Announce(CLEO, A.KONTRA))  # a reply to Re: too late as a first announcement
    late = (
        "no 90 is not allowed: Kontra's Kontra came only as a late reply and would not have been in time as a "
        "first announcement (docs/rules.md §5, DDV)"
    )
    refused(state, Announce(CLEO, A.NO90), f"Cleo: {late}")
    # the party is barred, even the partner who could have said Kontra in time himself; the
    # table does not know Dirk's party, so the refusal does not name it
    hidden = (
        "no 90 is not allowed: the announcer's party said its first word only as a late reply, which would not "
        "have been in time as a first announcement (docs/rules.md §5, DDV)"
    )
    refused(state, Announce(DIRK, A.NO90), f"Dirk: {hidden}")
    refused(state, Announce(DIRK, A.NO60))
    # Re is not affected
    assert accepts(state, Announce(ANNA, A.NO90))


def test_a_reply_in_time_as_a_first_announcement_carries_denials() -> None:
    state = run(NORMAL_STATE, Announce(ANNA, A.RE))
    state = play_script(state, "CA", "CK", "CK")
    state = run(state, Announce(CLEO, A.KONTRA))  # Cleo has played 1 card: in time either way
    state = play_script(state, "C9", "SA", "SK", "SK")
    assert len(state.played_by(CLEO)) == 2
    assert accepts(state, Announce(CLEO, A.NO90))
    assert accepts(state, Announce(DIRK, A.NO60))


def test_a_skip_whose_word_would_be_a_late_reply_is_refused() -> None:
    """No 90 directly includes Kontra; when that Kontra could only be a late reply the no 90 cannot
    stand (skipped steps must be in time, and a late reply carries no denial, docs/rules.md §5)."""
    state = run(NORMAL_STATE, Announce(ANNA, A.RE))
    state = play_script(state, "CA", "CK", "CK", "C9", "SA", "SK", "SK")
    assert accepts(state, Announce(CLEO, A.KONTRA))
    refused(
        state,
        Announce(CLEO, A.NO90),
        "Cleo: no 90 includes the party's Re or Kontra, which is too late: allowed with at most 1 card played; "
        "the announcer has played 2 (docs/rules.md §5)",
    )


@pytest.mark.parametrize(("seat", "wrong"), [(CLEO, A.RE), (DIRK, A.RE), (ANNA, A.KONTRA), (BEN, A.KONTRA)])
def test_the_wrong_partys_word_is_refused_without_telling_the_party(seat: int, wrong: Announcement) -> None:
    """Nothing is played: the table does not know the parties, and the refusal must not tell them."""
    error = refused(
        NORMAL_STATE,
        Announce(seat, wrong),
        f"{PLAYERS[seat]} cannot announce {wrong.label}: a player announces only for their own party "
        "(docs/rules.md §5)",
    )
    assert " is Re" not in str(error) and " is Kontra" not in str(error)


def test_a_denial_for_the_wrong_party_is_refused() -> None:
    refused(
        NORMAL_STATE,
        Announce(CLEO, A.NO90, RE),
        "Cleo cannot announce no 90 for Re: a player announces only for their own party (docs/rules.md §5)",
    )
    assert accepts(NORMAL_STATE, Announce(CLEO, A.NO90, KONTRA))


def test_a_wrong_word_names_the_party_once_the_table_knows_it() -> None:
    """Anna played CQ: everyone knows she is Re, so the refusal may say so."""
    state = play_script(NORMAL_STATE, "CQ")
    refused(state, Announce(ANNA, A.KONTRA), "Anna is Re: a Re player cannot speak for Kontra")


def test_the_same_player_cannot_repeat_a_call() -> None:
    state = run(NORMAL_STATE, Announce(ANNA, A.RE))
    refused(state, Announce(ANNA, A.RE), "Anna already announced Re (or more)")
    state = run(state, Announce(ANNA, A.NO60))
    refused(state, Announce(ANNA, A.NO90), "Anna already announced no 90 (or more)")
    refused(state, Announce(ANNA, A.NO60), "Anna already announced no 60 (or more)")
    assert accepts(state, Announce(ANNA, A.NO30))


def test_a_partners_repeat_is_recorded_and_adds_nothing() -> None:
    state = run(NORMAL_STATE, Announce(ANNA, A.RE), Announce(ANNA, A.NO90))
    assert public_parties(state) == (RE, None, None, None)
    before = announced(state)

    state = run(state, Announce(BEN, A.RE), Announce(BEN, A.NO90))

    assert [(c.seat, c.announcement) for c in state.calls] == [
        (ANNA, A.RE),
        (ANNA, A.NO90),
        (BEN, A.RE),
        (BEN, A.NO90),
    ]
    assert announced(state) == before
    assert party_calls(state)[RE] == PartyCalls(1, True)
    # it still reveals Ben's party: two Re known make the others Kontra
    assert public_parties(state) == (RE, RE, KONTRA, KONTRA)


def test_no_announcement_before_the_reservations_or_after_the_game() -> None:
    state = run(GameState(), StartGame("g1", PLAYERS, DIRK, STANDARD), DealCards(NORMAL_DEAL))
    refused(state, Announce(ANNA, A.RE), "Anna cannot announce Re before the reservations are settled")
    over = run(NORMAL_STATE, *NORMAL_PLAYS)
    assert over.finished
    refused(over, Announce(ANNA, A.RE), "Anna cannot announce Re: the game is over")


# --- marriages -----------------------------------------------------------------------------------
# MARRIAGE_DEAL, dealer Dirk: Anna (both CQ) leads.

ANNA_WINS_CLUBS = ("CA", "CK", "CK", "C9")
ANNA_WINS_SPADES = ("SA", "SK", "SK", "S9")
MARRIAGE_SCRIPTS = {
    1: (("C9", "CK", "CA", "C10"), CLEO),
    2: ((*ANNA_WINS_CLUBS, "S9", "SK", "SA", "S10"), CLEO),
    3: ((*ANNA_WINS_CLUBS, *ANNA_WINS_SPADES, "D9", "DJ", "DJ", "DQ"), DIRK),
    4: ((*ANNA_WINS_CLUBS, *ANNA_WINS_SPADES, "HA", "HK", "HA", "H9"), None),  # lone: trick 3 clarifies
}
MARRIAGE_CASES = [
    (key, mode, shift)
    for key, clarifying in ((1, 1), (2, 2), (3, 3), (4, 3))
    for mode, shift in (("after_first", clarifying - 1), ("tricks", clarifying))
]


@dataclass
class MarriageGame:
    state: GameState
    plays: list[PlayCard]
    clarified_at: int  # plays made when the clarifying trick is complete
    parties: tuple[Party, ...]
    calls: dict[int, list[Announce]] = field(default_factory=dict)

    def states(self) -> list[GameState]:
        return timeline(self.state, self.plays, self.calls)


def marriage_game(key: int, mode: MarriageShift) -> MarriageGame:
    rules = replace(STANDARD, marriage_shift=mode)
    state = game(MARRIAGE_DEAL, rules, reservation=(ANNA, K.MARRIAGE, None))
    script, partner = MARRIAGE_SCRIPTS[key]
    parties = tuple(RE if s in (ANNA, partner) else KONTRA for s in range(4))
    return MarriageGame(state, all_plays(state, script), len(script), parties)


@pytest.mark.parametrize(("key", "mode", "shift"), MARRIAGE_CASES)
def test_no_announcement_before_the_marriage_is_clarified(key: int, mode: MarriageShift, shift: int) -> None:
    marriage = marriage_game(key, mode)
    states = marriage.states()
    for i in range(marriage.clarified_at):
        for seat in range(4):
            refused(
                states[i],
                Announce(seat, A.RE),
                f"no announcement before the marriage is clarified (docs/rules.md §5): {PLAYERS[seat]} said Re",
            )
    clarified = states[marriage.clarified_at]
    for seat in range(4):
        assert accepts(clarified, Announce(seat, call_at(marriage.parties[seat], 0)))


@pytest.mark.parametrize(("key", "mode", "shift"), MARRIAGE_CASES)
def test_marriage_deadlines_move_with_the_clarifying_trick(key: int, mode: MarriageShift, shift: int) -> None:
    marriage = marriage_game(key, mode)
    states = marriage.states()
    clarifying = marriage.clarified_at // 4
    for seat in range(4):
        party = marriage.parties[seat]
        for level in range(5):
            outcome = []
            for p in range(clarifying, 13):
                moment = max(moments(marriage.plays, seat, p)[0], marriage.clarified_at)
                assert len(states[moment].played_by(seat)) == p
                outcome.append(accepts(states[moment], Announce(seat, call_at(party, level))))
            expected = [p <= 1 + shift for p in range(clarifying, 13)]
            assert outcome == expected, (PLAYERS[seat], level)


@pytest.mark.parametrize(("key", "mode", "shift"), MARRIAGE_CASES)
def test_marriage_replies_and_further_calls_move_too(key: int, mode: MarriageShift, shift: int) -> None:
    marriage = marriage_game(key, mode)
    marriage.calls = {marriage.clarified_at: [Announce(ANNA, A.RE)]}
    states = marriage.states()
    clarifying = marriage.clarified_at // 4
    for seat in range(4):
        party = marriage.parties[seat]
        tried = Announce(seat, A.NO90) if party is RE else Announce(seat, A.KONTRA)
        outcome = []
        for p in range(clarifying, 13):
            moment = max(moments(marriage.plays, seat, p)[0], marriage.clarified_at)
            outcome.append(accepts(states[moment], tried))
        assert outcome == [p <= 2 + shift for p in range(clarifying, 13)], PLAYERS[seat]


# --- solos ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("solo", [G.CLUB_SOLO, G.QUEEN_SOLO, G.ACE_SOLO])
def test_in_a_solo_the_soloist_is_re_and_the_others_kontra(solo: GameType) -> None:
    state = game(reservation=(BEN, K.SOLO, solo))
    assert accepts(state, Announce(BEN, A.RE))
    refused(state, Announce(BEN, A.KONTRA), "Ben is Re: a Re player cannot speak for Kontra")
    for seat in (ANNA, CLEO, DIRK):
        assert accepts(state, Announce(seat, A.KONTRA))
        refused(state, Announce(seat, A.RE), f"{PLAYERS[seat]} is Kontra: a Kontra player cannot speak for Re")
    state = run(state, Announce(ANNA, A.NO90))  # Anna holds a CQ but plays against the soloist
    assert state.calls[-1].party is KONTRA
    assert party_calls(state) == {RE: PartyCalls(), KONTRA: PartyCalls(1, True)}


def test_in_a_silent_solo_the_soloist_is_re() -> None:
    state = game(MARRIAGE_DEAL)
    assert state.game_type is G.SILENT_SOLO
    assert accepts(state, Announce(ANNA, A.RE))
    for seat in (BEN, CLEO, DIRK):
        # the silent solo is secret: the refusal does not tell the table who is Kontra
        refused(
            state,
            Announce(seat, A.RE),
            f"{PLAYERS[seat]} cannot announce Re: a player announces only for their own party (docs/rules.md §5)",
        )
        assert accepts(state, Announce(seat, A.KONTRA))


def bistro_solo() -> GameState:
    state = game(SHORT_DEAL, BISTRO, reservation=(BEN, K.SOLO, G.QUEEN_SOLO))
    assert state.to_play == BEN  # soloist leads
    return state


def test_bistro_solo_starts_with_the_soloists_no90() -> None:
    state = bistro_solo()
    assert party_calls(state) == {RE: PartyCalls(1, True), KONTRA: PartyCalls()}
    assert announced(state) == [
        Announced(RE, A.RE, BEN, 0, None, True, "solo rule"),
        Announced(RE, A.NO90, BEN, 0, None, True, "solo rule"),
    ]
    assert state.calls == ()
    # not in a normal game under the same rules
    normal = game(swap(SHORT_DEAL, ANNA, "CQ", BEN, "SQ"), BISTRO)
    assert normal.game_type is G.NORMAL
    assert announced(normal) == []


def test_bistro_soloist_already_made_re_and_no90() -> None:
    state = bistro_solo()
    refused(state, Announce(BEN, A.RE), "Ben already announced Re (or more)")
    refused(state, Announce(BEN, A.NO90), "Ben already announced no 90 (or more)")
    assert accepts(state, Announce(BEN, A.NO60))


def test_bistro_solo_deadlines() -> None:
    state = bistro_solo()
    plays = all_plays(state)
    states = timeline(state, plays, {})
    cases = [
        (BEN, A.NO60, 3),  # the next level after the rule's no 90
        (BEN, A.NO30, 3),  # a skip: no 60 must be in time
        (BEN, A.SCHWARZ, 3),
        (ANNA, A.KONTRA, 3),  # a reply to the soloist's no 90
        (CLEO, A.KONTRA, 3),
        (DIRK, A.NO90, 1),  # Kontra's own denial needs Kontra in time as a first call
    ]
    for seat, announcement, limit in cases:
        for moment in range(2):
            outcome = [
                accepts(states[moments(plays, seat, p)[moment]], Announce(seat, announcement)) for p in range(11)
            ]
            assert outcome == [p <= limit for p in range(11)], (PLAYERS[seat], announcement)


def test_bistro_solo_announced_lists_the_soloists_calls_after_the_rule() -> None:
    state = run(bistro_solo(), Announce(BEN, A.NO60), Announce(ANNA, A.KONTRA))
    assert [(a.party, a.announcement, a.implied, a.cause) for a in announced(state)] == [
        (RE, A.RE, True, "solo rule"),
        (RE, A.NO90, True, "solo rule"),
        (RE, A.NO60, False, "Ben"),
        (KONTRA, A.KONTRA, False, "Anna"),
    ]


# --- hands not recorded --------------------------------------------------------------------------


def test_unrecorded_hands_take_the_party_from_the_call() -> None:
    state = game(None)
    assert state.game_type is G.NORMAL and state.hands is None
    state = run(state, Announce(ANNA, A.RE))
    assert state.calls[-1].party is RE
    refused(
        state,
        Announce(BEN, A.NO90),
        "Ben's party is not known from the record: say it with the call (e.g. {Ben: re no90})",
    )
    state = run(state, Announce(BEN, A.NO90, KONTRA))
    assert state.calls[-1] == Call(BEN, A.NO90, KONTRA, 0, 1)
    assert party_calls(state) == {RE: PartyCalls(0, True), KONTRA: PartyCalls(1, True)}
    refused(state, Announce(BEN, A.RE), "Ben is Kontra: a Kontra player cannot speak for Re")
    # the party once known from a call needs no saying again
    assert accepts(state, Announce(BEN, A.NO60))


def test_unrecorded_hands_a_played_old_one_shows_re() -> None:
    state = play_script(game(None), "CQ")
    refused(state, Announce(ANNA, A.KONTRA), "Anna is Re: a Re player cannot speak for Kontra")
    refused(state, Announce(ANNA, A.NO90, KONTRA), "Anna is Re: a Re player cannot speak for Kontra")
    state = run(state, Announce(ANNA, A.NO90))
    assert state.calls[-1].party is RE


def test_unrecorded_hands_deadlines_hold() -> None:
    state = play_script(game(None), "CA", "CK", "CK", "C9", "SA", "SK")  # Anna and Ben have played 2
    refused(state, Announce(ANNA, A.RE))
    refused(state, Announce(BEN, A.NO90, KONTRA))
    assert accepts(state, Announce(CLEO, A.NO90, KONTRA))  # Cleo has played 1


# --- property: random legal games with random announcements ---------------------------------------

DECLARED_SOLOS = [t for t in GameType if t.is_declared_solo]
RULESETS = [
    STANDARD,
    BISTRO,
    replace(STANDARD, marriage_shift="tricks", marriage_clarification="trump"),
    replace(STANDARD, marriage_clarification="plain"),
    preset("ddv"),
    replace(STANDARD, picture_solos=PICTURE_SOLOS),
]
SCENARIOS = ["any", "marriage", "silent", "poverty", "solo"]


@dataclass
class Accepted:
    index: int  # position of the AnnouncementMade event
    seat: int
    announcement: Announcement
    party_given: Party | None
    party: Party
    played: int
    limit: int


@dataclass
class Oracle:
    """docs/rules.md §4-§5 rewritten for the property: who is which party, and each call's deadline."""

    rules: RuleSet
    game_type: GameType
    declarer: int | None
    dealt: tuple[Hand, ...]
    acceptor: int | None = None
    calls: list[Accepted] = field(default_factory=list)

    @property
    def solo_rule(self) -> bool:
        """Option `solo_must_announce_no90`: a declared solo starts with the soloist's no 90."""
        return self.rules.solo_must_announce_no90 and self.game_type.is_declared_solo

    def clarified(self, state: GameState) -> tuple[int | None, int | None]:
        """(partner, clarifying trick) of a marriage, from the completed tricks."""
        for number, trick in enumerate(state.tricks[:3], 1):
            trump_led = NORMAL_ORDER.is_trump(trick.cards[0])
            mode = self.rules.marriage_clarification
            if (mode == "any" or (mode == "trump") == trump_led) and trick.winner != self.declarer:
                return trick.winner, number
        return (None, 3) if len(state.tricks) >= 3 else (None, None)

    def shift(self, state: GameState) -> int | None:
        if self.game_type is not G.MARRIAGE:
            return 0
        _, trick = self.clarified(state)
        if trick is None:
            return None
        return trick if self.rules.marriage_shift == "tricks" else trick - 1

    def party(self, state: GameState, seat: int) -> Party:
        if self.game_type is G.NORMAL:
            return RE if ALTE in self.dealt[seat] else KONTRA
        if self.game_type is G.MARRIAGE:
            re = {self.declarer, self.clarified(state)[0]}
        elif self.game_type is G.POVERTY:
            re = {self.declarer, self.acceptor}
        else:
            re = {self.declarer}
        return RE if seat in re else KONTRA

    def levels(self, party: Party, shift: int) -> tuple[int, bool]:
        """A party's highest level so far and whether its Re/Kontra was in time as a first call."""
        if party is RE and self.solo_rule:
            level, base = 1, True
        else:
            level, base = -1, True
        for call in self.calls:
            if call.party is party:
                if level < 0:
                    base = call.played <= FIRST_DEADLINE[0] + shift
                level = max(level, LEVEL[call.announcement])
        return level, base

    def limit(self, state: GameState, seat: int, announcement: Announcement, given_party: Party | None) -> int | None:
        """The most cards `seat` may have played for this call now, or None when it is refused anyway."""
        shift = self.shift(state)
        if shift is None or state.finished:
            return None
        party = self.party(state, seat)
        if given_party is not None and given_party is not party:
            return None
        level = LEVEL[announcement]
        if level == 0 and announcement is not call_at(party, 0):
            return None
        own_levels = [LEVEL[c.announcement] for c in self.calls if c.seat == seat]
        if self.solo_rule and seat == self.declarer:
            own_levels.append(1)  # the solo rule's no 90 is the soloist's own
        if any(said >= level for said in own_levels):
            return None
        own, base = self.levels(party, shift)
        other, _ = self.levels(party.other, shift)
        if level == 0:
            limit = FIRST_DEADLINE[0] + shift
            if other >= 0:
                limit = max(limit, FIRST_DEADLINE[other] + shift + 1)
            return limit
        if own >= 0 and not base:
            return None
        return FIRST_DEADLINE[min(own + 1, level)] + shift


class Recorder:
    """Decide and evolve, keeping every event."""

    def __init__(self) -> None:
        self.state = GameState()
        self.events: list[DoppelkopfEvent] = []

    def __call__(self, command: Command) -> None:
        for event in decide(self.state, command):
            self.events.append(event)
            self.state = evolve(self.state, event)


def random_deal(rng: random.Random, rules: RuleSet, scenario: str) -> tuple[Hand, ...]:
    full = sorted(deck(rules.with_nines).elements(), key=str)
    rng.shuffle(full)
    size = rules.hand_size
    hands = [full[i * size : (i + 1) * size] for i in range(4)]
    target = rng.randrange(4)
    if scenario in ("marriage", "silent"):
        for seat in range(4):
            while seat != target and ALTE in hands[seat]:
                give = rng.choice([x for x in hands[target] if x is not ALTE])
                hands[seat].remove(ALTE)
                hands[target].remove(give)
                hands[seat].append(give)
                hands[target].append(ALTE)
    if scenario == "poverty":
        want = rng.randint(0, 3)
        while trump_count(hands[target]) > want:
            trump = rng.choice([x for x in hands[target] if NORMAL_ORDER.is_trump(x)])
            seat = rng.choice([s for s in range(4) if s != target])
            plain = rng.choice([x for x in hands[seat] if not NORMAL_ORDER.is_trump(x)])
            hands[target].remove(trump)
            hands[seat].remove(plain)
            hands[target].append(plain)
            hands[seat].append(trump)
    return tuple(tuple(h) for h in hands)


def _intent(rng: random.Random, rules: RuleSet, scenario: str, hand: Hand, soloist: int, seat: int) -> K | None:
    if hand.count(ALTE) == 2 and scenario != "silent" and rng.random() < (0.9 if scenario == "marriage" else 0.5):
        return K.MARRIAGE
    if rules.poverty and trump_count(hand) <= 3 and rng.random() < (0.9 if scenario == "poverty" else 0.3):
        return K.POVERTY
    if (scenario == "solo" and seat == soloist) or rng.random() < 0.04:
        return K.SOLO
    return None


def _expected_contract(dealer: int, intents: dict[int, K], solos: dict[int, GameType]) -> tuple[GameType, int | None]:
    rank = {K.MARRIAGE: 1, K.POVERTY: 2, K.SOLO: 3}
    order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
    reserving = [s for s in order if s in intents]
    if not reserving:
        return G.NORMAL, None
    best = max(rank[k] for k in intents.values())
    seat = next(s for s in reserving if rank[intents[s]] == best)
    kind = intents[seat]
    if kind is K.SOLO:
        return solos[seat], seat
    return (G.MARRIAGE if kind is K.MARRIAGE else G.POVERTY), seat


def _tried_call(rng: random.Random, oracle: Oracle, state: GameState) -> Announce:
    seat = rng.randrange(4)
    if rng.random() < 0.4 and oracle.shift(state) is not None:
        announcement = call_at(oracle.party(state, seat), 0)
    else:
        announcement = rng.choice(list(Announcement))
    party = rng.choice([None, None, None, None, None, None, RE, KONTRA])
    return Announce(seat, announcement, party)


def play_random_game(seed: int, rules: RuleSet, scenario: str) -> tuple[Recorder, Oracle] | None:
    """A random legal game with random announcement attempts; None when the deal is thrown in."""
    rng = random.Random(seed)
    hands = random_deal(rng, rules, scenario)
    dealer = rng.randrange(4)
    record = Recorder()
    record(StartGame(f"random-{seed}", PLAYERS, dealer, rules))
    record(DealCards(hands))
    soloist = rng.randrange(4)
    solo_types = [t for t in DECLARED_SOLOS if game_type_problem(t, rules) is None]
    intents: dict[int, K] = {}
    solos: dict[int, GameType] = {}
    for seat in asking_order(dealer):
        kind = _intent(rng, rules, scenario, hands[seat], soloist, seat)
        if kind is not None:
            intents[seat] = kind
            solos[seat] = rng.choice(solo_types)
        record(DeclareReservation(seat, kind is None))
    while (naming := next_to_name(dealer, record.state.declared, record.state.named)) is not None:
        kind = intents[naming]
        record(NameReservation(naming, kind, solos[naming] if kind is K.SOLO else None))
    game_type, declarer = _expected_contract(dealer, intents, solos)
    if game_type is G.NORMAL:
        declarer = next((s for s, h in enumerate(hands) if h.count(ALTE) == 2), None)
        game_type = G.NORMAL if declarer is None else G.SILENT_SOLO
    assert (record.state.game_type, record.state.declarer) == (game_type, declarer)
    oracle = Oracle(rules, game_type, declarer, hands)

    if game_type is G.POVERTY:
        assert declarer is not None
        poor = hands[declarer]
        trumps = [x for x in poor if NORMAL_ORDER.is_trump(x)]
        plain = [x for x in poor if not NORMAL_ORDER.is_trump(x)]
        record(PassPovertyCards(declarer, tuple(trumps + rng.sample(plain, 3 - len(trumps)))))
        while (asked := record.state.poverty.next_to_answer if record.state.poverty else None) is not None:
            record(AnswerPoverty(asked, rng.random() < 0.45))
        if record.state.abandoned is not None:
            assert record.state.abandoned == "poverty_declined"
            assert not accepts(record.state, PlayCard((dealer + 1) % 4, hands[(dealer + 1) % 4][0]))
            assert not accepts(record.state, Announce(declarer, A.RE))
            return None
        acceptor = record.state.poverty.acceptor if record.state.poverty else None
        assert acceptor is not None and record.state.hands is not None
        oracle.acceptor = acceptor
        record(ReturnPovertyCards(acceptor, tuple(rng.sample(record.state.hands[acceptor], 3))))

    while not record.state.finished:
        state = record.state
        if rng.random() < (0.6 if len(state.tricks) < 7 else 0.1):
            command = _tried_call(rng, oracle, state)
            limit = oracle.limit(state, command.seat, command.announcement, command.party)
            played = len(state.played_by(command.seat))
            legal = limit is not None and played <= limit
            assert accepts(state, command) is legal, (command, played, limit, state.calls)
            if legal:
                assert limit is not None
                record(command)
                party = oracle.party(state, command.seat)
                done = len(state.tricks) - (1 if state.tricks and state.current is None else 0)
                call = Call(command.seat, command.announcement, party, played, len(state.tricks) + 1, done)
                assert record.state.calls == (*state.calls, call)
                oracle.calls.append(
                    Accepted(
                        len(record.events) - 1, command.seat, command.announcement, command.party, party, played, limit
                    )
                )
        turn = record.state.to_play
        assert turn is not None and record.state.hands is not None
        trick = record.state.current.cards if record.state.current is not None else ()
        record(PlayCard(turn, rng.choice(legal_plays(record.state.hands[turn], trick, record.state.order))))
    return record, oracle


def one_card_later(events: Sequence[DoppelkopfEvent], call: Accepted) -> GameState:
    """The game without this call (and without the calls after it) at the moment its announcer has
    played one card more than when the call was made."""
    state = fold(events[: call.index])
    for event in events[call.index + 1 :]:
        if len(state.played_by(call.seat)) == call.played + 1:
            break
        if isinstance(event, CardPlayed):
            state = evolve(state, event)
    assert len(state.played_by(call.seat)) == call.played + 1
    return state


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(RULESETS),
    scenario=st.sampled_from(SCENARIOS),
)
def test_random_games_with_random_announcements(seed: int, rules: RuleSet, scenario: str) -> None:
    played = play_random_game(seed, rules, scenario)
    if played is None:
        return
    record, oracle = played
    final = record.state
    assert final.finished
    assert sum(final.points_won()) == 240
    assert [(c.seat, c.announcement) for c in final.calls] == [(a.seat, a.announcement) for a in oracle.calls]
    for call in oracle.calls:
        later = one_card_later(record.events, call)
        command = Announce(call.seat, call.announcement, call.party_given)
        if call.played == call.limit:
            assert not accepts(later, command), call
        else:
            assert accepts(later, command), call
