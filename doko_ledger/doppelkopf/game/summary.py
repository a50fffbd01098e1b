"""Deciding a deal recorded by its facts only, as many tables write it down (no cards)."""

from __future__ import annotations

from collections import Counter

from doko_ledger.doppelkopf.events import DealSummarized, DoppelkopfEvent
from doko_ledger.doppelkopf.game.commands import IllegalMove, SummarizeDeal, seat_name
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType, game_type_problem
from doko_ledger.doppelkopf.rules.order import plain_hearts
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.scoring import SpecialKind, special_points_count
from doko_ledger.i18n import msg

_MOST = {
    SpecialKind.FOX_CAUGHT: 2,
    SpecialKind.KARLCHEN: 1,
    SpecialKind.KARLCHEN_CAPTURED: 2,
    SpecialKind.FOX_LAST_TRICK: 2,
    SpecialKind.FOX_CAUGHT_LAST_TRICK: 2,
    SpecialKind.DULLE_CAUGHT_DULLE: 1,
    SpecialKind.HEART_TRICK: 2,
}
"""The most of each special one deal can hold: two DA, one last trick, two CJ, two H10, eight
hearts (a second Karlchen of one last trick only with `double_karlchen`)."""


def summarize(state: GameState, command: SummarizeDeal) -> list[DoppelkopfEvent]:
    """The summary event, or `IllegalMove` naming the inconsistent fact."""
    if not state.started:
        raise IllegalMove(msg("the game has not started"))
    if state.summary is not None or state.dealt is not None or state.declared or state.cards_played:
        raise IllegalMove(msg("a summarized deal has no other record: no hands, reservations or cards"))
    game, rules = command.game_type, state.rules
    problem = game_type_problem(game, rules)
    if problem is not None:
        raise IllegalMove(problem)
    re_seats = command.re_seats
    bad_seats = any(not 0 <= s < SEATS for s in re_seats) or len(set(re_seats)) != len(re_seats)
    if bad_seats or len(re_seats) not in (1, 2):
        named = ", ".join(seat_name(state, s) for s in re_seats)
        if not named:
            raise IllegalMove(msg("Re is one player or two different players, not nobody"))
        raise IllegalMove(msg("Re is one player or two different players, not {names}", names=named))
    lone = len(re_seats) == 1
    if game.is_solo and not lone:
        raise IllegalMove(msg("a {game} is played by one soloist, not {count}", game=game, count=len(re_seats)))
    if game in (GameType.NORMAL, GameType.POVERTY) and lone:
        raise IllegalMove(msg("a {game} has two Re players", game=game))
    _check_duel(state, command)
    _check_points(state, command, lone)
    _check_calls(state, command)
    _check_specials(state, command, not special_points_count(game, lone, state.rules) and (lone or game.is_solo))
    _check_heart_trick(state, command)
    return [
        DealSummarized(
            game,
            tuple(sorted(re_seats)),
            command.re_points,
            command.re_tricks,
            command.kontra_tricks,
            command.announcements,
            command.specials,
            command.heart_trick,
        )
    ]


def _check_heart_trick(state: GameState, command: SummarizeDeal) -> None:
    """A trick of four hearts needs four hearts that are not trumps in the game (docs/rules.md §9)."""
    if not command.heart_trick:
        return
    game = command.game_type
    if plain_hearts(game, state.rules.with_nines) < SEATS:
        raise IllegalMove(
            msg(
                "a trick of four hearts in a {game}: there are not four hearts that are not trumps (docs/rules.md §9)",
                game=game,
            )
        )


def _check_duel(state: GameState, command: SummarizeDeal) -> None:
    """Duel rules (docs/rules.md §8): computers play no solo and never say Re/Kontra; the two
    people are never one party in a normal game."""
    rules = state.rules
    if not rules.computer_seats:
        return
    if command.game_type.is_solo and any(rules.is_computer(s) for s in command.re_seats):
        raise IllegalMove(msg("a computer seat never plays a solo (duel rules, docs/rules.md §8)"))
    people = tuple(s for s in range(SEATS) if not rules.is_computer(s))
    if command.game_type is GameType.NORMAL and sorted(command.re_seats) == sorted(people):
        raise IllegalMove(msg("in a duel the two people are never one party in a normal game (docs/rules.md §8)"))
    said: set[Party] = set()
    for call in command.announcements:
        party = _party(command, call.seat)
        if rules.is_computer(call.seat) and party not in said:
            who = seat_name(state, call.seat)
            raise IllegalMove(
                msg(
                    "{who} is a computer seat: computers never announce Re or Kontra (duel rules, docs/rules.md §8)",
                    who=who,
                )
            )
        said.add(party)


def _check_points(state: GameState, command: SummarizeDeal, lone: bool) -> None:
    points = command.re_points
    if not 0 <= points <= 240:
        raise IllegalMove(msg("Re's card points must be 0-240, not {points}", points=points))
    re_tricks, kontra_tricks = command.re_tricks, command.kontra_tricks
    if (re_tricks is None) != (kontra_tricks is None):
        raise IllegalMove(msg("give the tricks of both parties, or of neither"))
    if re_tricks is None or kontra_tricks is None:
        return
    size = state.hand_size
    if re_tricks < 0 or kontra_tricks < 0 or re_tricks + kontra_tricks != size:
        raise IllegalMove(
            msg(
                "the parties' tricks must add up to {size}, not {re} + {kontra}",
                size=size,
                re=re_tricks,
                kontra=kontra_tricks,
            )
        )
    for party, tricks, party_points in ((Party.RE, re_tricks, points), (Party.KONTRA, kontra_tricks, 240 - points)):
        if tricks == 0 and party_points > 0:
            raise IllegalMove(
                msg(
                    "schwarz claimed while {party} has {points} card points: a party without a trick has none",
                    party=party,
                    points=party_points,
                )
            )


def _party(command: SummarizeDeal, seat: int) -> Party:
    return Party.RE if seat in command.re_seats else Party.KONTRA


def _check_calls(state: GameState, command: SummarizeDeal) -> None:
    said: set[tuple[int, int]] = set()
    for call in command.announcements:
        if not 0 <= call.seat < SEATS:
            raise IllegalMove(msg("an announcement by seat {seat}: seats are 0-3", seat=call.seat))
        who, party = seat_name(state, call.seat), _party(command, call.seat)
        word = {Announcement.RE: Party.RE, Announcement.KONTRA: Party.KONTRA}.get(call.announcement)
        if word is not None and word is not party:
            raise IllegalMove(
                msg(
                    "{who} is {party}: a {party} player cannot say {call}",
                    who=who,
                    party=party,
                    call=call.announcement,
                )
            )
        if (call.seat, call.announcement.level) in said:
            raise IllegalMove(msg("{who} announced {call} twice", who=who, call=call.announcement))
        said.add((call.seat, call.announcement.level))


def _check_specials(state: GameState, command: SummarizeDeal, solo: bool) -> None:
    if command.specials and solo:
        raise IllegalMove(
            msg("special points in a solo: no special points count when one plays against three (docs/rules.md §7)")
        )
    counts = Counter(s.kind for s in command.specials)
    for kind, most in _MOST.items():
        if kind is SpecialKind.KARLCHEN and state.rules.double_karlchen:
            most = 2
        if counts[kind] > most:
            raise IllegalMove(
                msg("{count} × {special}: a deal holds at most {most}", count=counts[kind], special=kind, most=most)
            )
    doppelkopf = counts[SpecialKind.DOPPELKOPF]
    if doppelkopf > 240 // 40:
        raise IllegalMove(msg("{count} tricks of 40 or more: 240 card points allow at most 6", count=doppelkopf))
    for special in command.specials:
        caught = special.caught_from
        needs_victim = special.kind.caught
        if needs_victim and caught is None:
            raise IllegalMove(msg("{special}: say whose card was caught", special=special.kind))
        if caught is not None:
            if not needs_victim:
                raise IllegalMove(msg("{special} is not caught from anybody", special=special.kind))
            if not 0 <= caught < SEATS:
                raise IllegalMove(msg("{special} from seat {seat}: seats are 0-3", special=special.kind, seat=caught))
            if _party(command, caught) is special.party:
                who = seat_name(state, caught)
                raise IllegalMove(
                    msg(
                        "{special} from {who}, who is {party} too: a party catches only the other party's cards",
                        special=special.kind,
                        who=who,
                        party=special.party,
                    )
                )
    last_trick = {s.party for s in command.specials if s.kind.last_trick}
    if len(last_trick) > 1:
        raise IllegalMove(msg("last trick points (Karlchen, fox) for both parties: only one party wins the last trick"))
    for party in Party:
        tricks = command.re_tricks if party is Party.RE else command.kontra_tricks
        mine = sum(1 for s in command.specials if s.party is party and s.kind is SpecialKind.DOPPELKOPF)
        if tricks is not None and mine > tricks:
            raise IllegalMove(
                msg(
                    "{party} has {count} Doppelkopf tricks but won only {tricks} tricks",
                    party=party,
                    count=mine,
                    tricks=tricks,
                )
            )
