"""Deciding a Dou Dizhu deal recorded by its facts only, as a score sheet holds them: the
landlord, the bid, the bombs and rockets played, and who went out first (no cards)."""

from __future__ import annotations

from doko_ledger.doudizhu.bidding import BIDS
from doko_ledger.doudizhu.cards import hand_size, kitty_size
from doko_ledger.doudizhu.commands import Summarize
from doko_ledger.doudizhu.errors import IllegalMove, IllegalSummary
from doko_ledger.doudizhu.events import DouDizhuSummarized
from doko_ledger.doudizhu.state import DealState
from doko_ledger.i18n import Message, msg, plural

RANKS = 13
"""The plain ranks 3 to 2: the only ranks a bomb can be of (docs/rules.md §D4)."""

BIG = 6
"""The fewest cards of a bomb that doubles a four-player stake (docs/rules.md §D5)."""


def summarize(state: DealState, command: Summarize) -> DouDizhuSummarized:
    """The summary event, or `IllegalSummary` naming the fact that cannot be (`IllegalMove`
    when the deal already has another record)."""
    if not state.dealt:
        raise IllegalMove(msg("the cards have not been dealt"))
    if state.summary is not None or state.dealt_hands is not None or state.calls or state.moves:
        raise IllegalMove(msg("a deal recorded by its facts has no other record: no hands, bidding or play"))
    n = len(state.players)
    if not 0 <= command.landlord < n:
        problem = msg("the landlord must be seat 0-{last}, not {seat}", last=n - 1, seat=command.landlord)
        raise IllegalSummary(problem, "landlord")
    if not 0 <= command.out_first < n:
        problem = msg("who went out first must be seat 0-{last}, not {seat}", last=n - 1, seat=command.out_first)
        raise IllegalSummary(problem, "out_first")
    if command.bid not in BIDS:
        raise IllegalSummary(msg("the bid is 1, 2 or 3, not {bid} (docs/rules.md §D2)", bid=command.bid), "bid")
    counts = (
        ("bombs", command.bombs, msg("{count} bombs: a count of what was played is 0 or more", count=command.bombs)),
        (
            "rockets",
            command.rockets,
            msg("{count} rockets: a count of what was played is 0 or more", count=command.rockets),
        ),
        (
            "big_bombs",
            command.big_bombs,
            msg("{count} bombs of six or more cards: a count of what was played is 0 or more", count=command.big_bombs),
        ),
    )
    for fact, count, problem in counts:
        if count < 0:
            raise IllegalSummary(problem, fact)
    _check_possible(state, command)
    return DouDizhuSummarized(
        command.landlord, command.bid, command.out_first, command.bombs, command.rockets, command.big_bombs
    )


def _check_possible(state: DealState, command: Summarize) -> None:
    """The bombs and rockets fit the deck, and the players' hands, with the given player going
    out first (everybody else keeps at least one card: the deal ends when a hand is empty)."""
    n = len(state.players)
    bombs, big, rockets = command.bombs, command.big_bombs, command.rockets
    jokers = msg("both jokers") if n == 3 else msg("all four jokers")
    if rockets > 1:
        raise IllegalSummary(
            msg(
                "{count} rockets: the rocket is {jokers}, so a deal has one at most (docs/rules.md §D4)",
                count=rockets,
                jokers=jokers,
            ),
            "rockets",
        )
    if n == 3 and big:
        raise IllegalSummary(
            plural(
                "{count} bomb of six or more cards in a three-player deal: with one deck a bomb is four of a rank"
                " (docs/rules.md §D4)",
                "{count} bombs of six or more cards in a three-player deal: with one deck a bomb is four of a rank"
                " (docs/rules.md §D4)",
                big,
            ),
            "big_bombs",
        )
    if big > bombs:
        raise IllegalSummary(
            msg(
                "{big} bombs of six or more cards but {all} in all: the big ones count among the bombs",
                big=big,
                all=_counted(bombs, 0),
            ),
            "big_bombs",
        )
    small = bombs - big
    most = RANKS if n == 3 else 2 * (RANKS - big)
    if small > most:
        if n == 3 or not big:
            per_rank = msg("four") if n == 3 else msg("eight")
            problem = msg(
                "{count} bombs: {ranks} ranks of {per_rank} cards make at most {most} bombs (docs/rules.md §D1, §D4)",
                count=bombs,
                ranks=RANKS,
                per_rank=per_rank,
                most=most,
            )
        else:
            problem = msg(
                "{count} bombs: {ranks} ranks of eight cards make at most {most} bombs beside {big} of six or more"
                " cards (docs/rules.md §D1, §D4)",
                count=bombs,
                ranks=RANKS,
                most=most,
                big=big,
            )
        raise IllegalSummary(problem, "bombs")
    out, landlord = command.out_first, command.landlord
    if _fits(n, landlord, out, small, big, rockets):
        return
    who = state.name(out)
    played = _counted(small + big, rockets)
    if any(_fits(n, landlord, seat, small, big, rockets) for seat in range(n)):
        raise IllegalSummary(
            msg(
                "{played} cannot all be played when {who} goes out first: the others keep a card each, and a"
                " farmer holds {size} cards, the landlord {landlord} {landlord_size} (docs/rules.md §D1, §D3)",
                played=played,
                who=who,
                size=hand_size(n),
                landlord=state.name(landlord),
                landlord_size=hand_size(n) + kitty_size(n),
            ),
            "out_first",
        )
    raise IllegalSummary(
        msg(
            "{played} need more cards than the players can play before one of them goes out (docs/rules.md §D1, §D3)",
            played=played,
        ),
        "bombs",
    )


def _counted(bombs: int, rockets: int) -> Message:
    played = plural("{count} bomb", "{count} bombs", bombs)
    if not rockets:
        return played
    return msg("{bombs} and {rockets}", bombs=played, rockets=plural("{count} rocket", "{count} rockets", rockets))


def _fits(players: int, landlord: int, out_first: int, small: int, big: int, rockets: int) -> bool:
    """Whether the bombs (`small` of four cards at least, `big` of six) and rockets can be shared
    among the hands: the landlord's holds the kitty too; the player going out first plays every
    card, the others all but one."""
    rocket_size = 2 if players == 3 else 4
    best: dict[tuple[int, int], int] = {(0, 0): 0}  # (big bombs, rockets) placed -> most small bombs beside them
    for seat in range(players):
        held = hand_size(players) + (kitty_size(players) if seat == landlord else 0)
        room = held - (0 if seat == out_first else 1)
        step: dict[tuple[int, int], int] = {}
        for (big_so_far, rockets_so_far), small_so_far in best.items():
            for r in range(rockets - rockets_so_far + 1):
                for b in range(big - big_so_far + 1):
                    left = room - r * rocket_size - b * BIG
                    if left < 0:
                        break
                    key = (big_so_far + b, rockets_so_far + r)
                    step[key] = max(step.get(key, -1), small_so_far + left // 4)
        best = step
    return best.get((big, rockets), -1) >= small
