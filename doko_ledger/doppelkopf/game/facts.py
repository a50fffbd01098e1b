"""The facts of a played game that scoring needs (docs/rules.md §7): points, tricks, calls, specials."""

from __future__ import annotations

from typing import NamedTuple

from doko_ledger.doppelkopf.cards import DULLE, FUCHS, KARLCHEN, Card, Cards, Rank, Suit
from doko_ledger.doppelkopf.events import DealSummarized
from doko_ledger.doppelkopf.game.parties import (
    Parties,
    announced,
    is_lone,
    marriage_status,
    party_calls,
    solo_no90,
    true_parties,
)
from doko_ledger.doppelkopf.game.state import GameState, Trick
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import is_heart_trick, schweinchen_card
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.scoring import RECORDED, Cause, DealFacts, Special, SpecialKind
from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message, msg, plural


class NotScorable(DokoError):
    """A game that cannot be scored (yet): unfinished, or its parties unknown."""


DAME_KARO = Card(Suit.DIAMONDS, Rank.QUEEN)
"""The DQ: with `karlchen_capture_with_dq` only it catches a Karlchen (docs/rules.md §7)."""

DOPPELKOPF_POINTS = 40
"""The card points from which a trick is a Doppelkopf (docs/rules.md §7)."""


def specials(state: GameState, parties: tuple[Party | None, ...], upto: int | None = None) -> tuple[Special, ...]:
    """Every special point earned in play (in the first `upto` tricks), by the party of the
    trick's winner (docs/rules.md §7).

    The points of the extra point options (a fox or a second Karlchen in the last trick, a
    Dulle caught, a heart trick) are looked for only where the rules have them."""
    fox = fox_card(state)
    extras = _has_extras(state.rules)
    out: list[Special] = []
    for trick in state.tricks[:upto]:
        out += trick_specials(state, trick, parties, fox, extras)
    return tuple(out)


def fox_card(state: GameState) -> Card | None:
    """The card a fox is in this game: the DA, unless it is a Schweinchen."""
    order = state.order
    return None if order.schweinchen and schweinchen_card(order.game_type) is FUCHS else FUCHS


def special_cards(state: GameState) -> frozenset[Card]:
    """The cards a special point of this game can name by themselves (the fox, the Karlchen and
    the DQ that catches it, the Dulle that catches a Dulle): any other card counts in
    `trick_specials` only by its suit, its points and whether it wins the trick, so two cards
    alike in those are alike for the special points too."""
    fox = fox_card(state)
    return frozenset({KARLCHEN, DAME_KARO, DULLE} | ({fox} if fox is not None else set()))


class Weight(NamedTuple):
    """The most special points one card can earn in one trick by itself: for the party of the
    player who holds it (`own`: a Karlchen that takes the last trick), and for the other party
    (`other`: a fox caught)."""

    own: int
    other: int


def special_weights(state: GameState) -> dict[Card, Weight]:
    """The weight of each card a special point of this game can name (any other card earns
    none by itself): every special point of a trick is the party's that took it, and
    `trick_specials` finds at most its cards' weights for that party (`own` of the cards its
    players played, `other` of the others'), plus one where the trick holds DOPPELKOPF_POINTS
    or more. So a trick under them that holds no weighed card earns no special point, and the
    tricks still to play cannot earn a party more than the cards left weigh for it."""
    rules = state.rules
    fox = fox_card(state)
    weights = {KARLCHEN: Weight(1, 1)}  # it takes the last trick, or is caught in it
    if fox is not None:  # it takes the last trick; it is caught, in the last trick too
        weights[fox] = Weight(int(rules.fox_last_trick), 1 + rules.fox_caught_last_trick)
    if rules.dulle_caught_dulle:
        weights[DULLE] = Weight(0, 1)
    if rules.heart_trick_point:  # the four of a heart trick earn one for the heart that took it
        weights.update(dict.fromkeys(state.order.hearts, Weight(1, 0)))
    return weights


def trick_specials(
    state: GameState, trick: Trick, parties: tuple[Party | None, ...], fox: Card | None, extras: bool = True
) -> list[Special]:
    """The special points earned in one complete trick (`fox`: `fox_card(state)`; `extras`:
    whether to look for the extra point options' points at all)."""
    names = state.players
    last = state.hand_size
    rules = state.rules
    winner = trick.winner
    assert winner is not None
    side = parties[winner]
    if side is None:
        return []
    out: list[Special] = []
    cards, leader = trick.cards, trick.leader
    if fox is not None and fox in cards:  # most tricks hold no DA: look before walking the cards
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            if card is fox and parties[seat] is not side:
                caught = _caught(trick, names, seat, fox)
                out.append(Special(SpecialKind.FOX_CAUGHT, side, caught, trick.number, seat))
                if trick.number == last and rules.fox_caught_last_trick:
                    out.append(Special(SpecialKind.FOX_CAUGHT_LAST_TRICK, side, caught, trick.number, seat))
    if trick.points >= DOPPELKOPF_POINTS:
        took = msg(
            "trick {trick}: {player} took {points}", trick=trick.number, player=names[winner], points=trick.points
        )
        out.append(Special(SpecialKind.DOPPELKOPF, side, took, trick.number))
    if extras:
        out += _extras(state, trick, side, parties, fox)
    if trick.number == last:
        won_with = (winner - leader) % 4
        if cards[won_with] is KARLCHEN:
            out.append(Special(SpecialKind.KARLCHEN, side, _won_with(trick, names, KARLCHEN), trick.number))
            if rules.double_karlchen:
                out += _also_played(trick, KARLCHEN, SpecialKind.KARLCHEN, side, parties, names)
        if not rules.karlchen_capture_with_dq or cards[won_with] is DAME_KARO:
            out += _karlchen_captured(trick, side, parties, names)
    return out


def _karlchen_captured(
    trick: Trick, side: Party, parties: tuple[Party | None, ...], names: tuple[str, ...]
) -> list[Special]:
    """A Karlchen caught for each CJ of the other party in the last trick `side` took."""
    winner = trick.winner
    assert winner is not None
    out = []
    for i, card in enumerate(trick.cards):
        seat = (trick.leader + i) % 4
        if card is KARLCHEN and parties[seat] is not side:
            caught = _caught(trick, names, seat, KARLCHEN)
            out.append(Special(SpecialKind.KARLCHEN_CAPTURED, side, caught, trick.number, seat))
    return out


def _has_extras(rules: RuleSet) -> bool:
    return rules.fox_last_trick or rules.dulle_caught_dulle or rules.heart_trick_point


def _extras(
    state: GameState, trick: Trick, side: Party, parties: tuple[Party | None, ...], fox: Card | None
) -> list[Special]:
    """The special points of the extra point options in one trick won by `side` (docs/rules.md §7)."""
    rules, names, order = state.rules, state.players, state.order
    winner, leader, cards = trick.winner, trick.leader, trick.cards
    assert winner is not None
    won_with = (winner - leader) % 4
    out: list[Special] = []
    if rules.dulle_caught_dulle and cards[won_with] is DULLE and order.is_trump(DULLE) and rules.dullen:
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            if i != won_with and card is DULLE and parties[seat] is not side:
                cause = msg(
                    "trick {trick}: {player} caught {whose}'s {card} with the other",
                    trick=trick.number,
                    player=names[winner],
                    whose=names[seat],
                    card=Cards((DULLE,)),
                )
                out.append(Special(SpecialKind.DULLE_CAUGHT_DULLE, side, cause, trick.number, seat))
    if rules.heart_trick_point and is_heart_trick(cards, order):
        hearts = msg("trick {trick}: {player} took four hearts", trick=trick.number, player=names[winner])
        out.append(Special(SpecialKind.HEART_TRICK, side, hearts, trick.number))
    if rules.fox_last_trick and trick.number == state.hand_size and fox is not None and cards[won_with] is fox:
        out.append(Special(SpecialKind.FOX_LAST_TRICK, side, _won_with(trick, names, fox), trick.number))
        if rules.double_fox_last_trick:
            out += _also_played(trick, fox, SpecialKind.FOX_LAST_TRICK, side, parties, names)
    return out


def _also_played(
    trick: Trick,
    card: Card,
    kind: SpecialKind,
    side: Party,
    parties: tuple[Party | None, ...],
    names: tuple[str, ...],
) -> list[Special]:
    """One more `kind` for each `card` the winner's partner (of `side`) played after the winning card."""
    winner, leader = trick.winner, trick.leader
    assert winner is not None
    out = []
    for i in range((winner - leader) % 4 + 1, len(trick.cards)):
        seat = (leader + i) % 4
        if trick.cards[i] is card and parties[seat] is side:
            also = msg(
                "trick {trick}: {player} played the second {card} too",
                trick=trick.number,
                player=names[seat],
                card=Cards((card,)),
            )
            out.append(Special(kind, side, also, trick.number))
    return out


def _caught(trick: Trick, names: tuple[str, ...], seat: int, card: Card) -> Message:
    """`trick 8: Dirk caught Clara's DA`: the trick's winner caught the card `seat` played."""
    assert trick.winner is not None
    return msg(
        "trick {trick}: {player} caught {whose}'s {card}",
        trick=trick.number,
        player=names[trick.winner],
        whose=names[seat],
        card=Cards((card,)),
    )


def _won_with(trick: Trick, names: tuple[str, ...], card: Card) -> Message:
    """`trick 12: Anna won it with CJ`."""
    assert trick.winner is not None
    return msg(
        "trick {trick}: {player} won it with {card}",
        trick=trick.number,
        player=names[trick.winner],
        card=Cards((card,)),
    )


def lone_marriage_tricks(state: GameState) -> int | None:
    """The tricks whose special points count in a lone marriage under `lone_marriage_specials`
    (up to the one that left the marriage player alone); None: every trick (docs/rules.md §4)."""
    if state.game_type is not GameType.MARRIAGE or not state.rules.lone_marriage_specials:
        return None
    partner, clarified = marriage_status(state)
    return clarified if partner is None else None


def summary_facts(state: GameState, summary: DealSummarized) -> DealFacts:
    """The facts of a deal recorded without cards. Unknown tricks: a party with card points won one."""
    names = state.players
    re_seats = summary.re_seats
    level = {Party.RE: -1, Party.KONTRA: -1}
    causes: dict[tuple[Party, int], Cause] = {}
    for call in summary.announcements:
        party = Party.RE if call.seat in re_seats else Party.KONTRA
        for step in range(level[party] + 1, call.announcement.level + 1):
            implied = step < call.announcement.level
            causes[(party, step)] = _implied_by(names[call.seat], call.announcement) if implied else names[call.seat]
        level[party] = max(level[party], call.announcement.level)
    re_tricks, kontra_tricks = summary.re_tricks, summary.kontra_tricks
    known = re_tricks is not None and kontra_tricks is not None
    if re_tricks is None or kontra_tricks is None:
        re_tricks, kontra_tricks = int(summary.re_points > 0), int(summary.re_points < 240)
    specials = tuple(
        Special(s.kind, s.party, _recorded(names, s.caught_from), None, s.caught_from) for s in summary.specials
    )
    return DealFacts(
        game_type=summary.game_type,
        lone=len(re_seats) == 1,
        re_points=summary.re_points,
        re_tricks=re_tricks,
        kontra_tricks=kontra_tricks,
        announced=level,
        specials=specials,
        causes=causes,
        tricks_known=known,
        heart_trick=summary.heart_trick,
    )


SOLO_RULE = msg("solo rule")
"""Why a solo's Re and no 90 count as announced where the rules say so (`solo_no90`)."""


def _announced_at(player: str, played: int, trick: int) -> tuple[str, Message]:
    """`Dirk, after 1 card, trick 1`: when a call was made, as a message, beside the English
    words the read models and the JSON have always kept for it."""
    said = plural(
        "{player}, after {count} card, trick {trick}",
        "{player}, after {count} cards, trick {trick}",
        played,
        player=player,
        trick=trick,
    )
    return f"{player}, after {played} card(s), trick {trick}", said  # as the read models keep it


def _implied_by(player: str, call: Announcement) -> Message:
    """`implied by Dirk's no 90`: a level the call skipped counts as announced."""
    return msg("implied by {player}'s {call}", player=player, call=call)


def _recorded(names: tuple[str, ...], caught_from: int | None) -> Message:
    """A special point recorded without cards: `recorded`, or `recorded: from Anna` whose card it was."""
    return RECORDED if caught_from is None else msg("recorded: from {player}", player=names[caught_from])


def deal_facts(
    state: GameState,
    parties: Parties | None = None,
    won: tuple[int, ...] | None = None,
    tricks: tuple[int, ...] | None = None,
) -> DealFacts:
    """The facts of a finished game; `NotScorable` when it is not finished or its parties are unknown.

    `parties`, `won` and `tricks` are `true_parties(state)`, `state.points_won()` and
    `state.tricks_won()`, when the caller has them already.
    """
    if state.summary is not None:
        return summary_facts(state, state.summary)
    if state.game_type is None or not state.finished:
        raise NotScorable(
            msg(
                "game {game} is not finished: {count} of {size} tricks",
                game=repr(state.game_id),
                count=len(state.tricks),
                size=state.hand_size,
            )
        )
    parties = true_parties(state) if parties is None else parties
    if None in parties:
        raise NotScorable(msg("game {game}: the record does not show every player's party", game=repr(state.game_id)))
    won = state.points_won() if won is None else won
    tricks = state.tricks_won() if tricks is None else tricks
    re_seats = [s for s, p in enumerate(parties) if p is Party.RE]
    causes: dict[tuple[Party, int], Cause] = {}
    if state.calls or solo_no90(state):
        for a in announced(state):
            who = "" if a.seat is None else state.players[a.seat]
            cause: Cause
            if a.implied:
                cause = SOLO_RULE if a.by_call is None else _implied_by(who, a.by_call)
            else:
                assert a.played is not None and a.trick is not None  # a call made has its moment
                cause = _announced_at(who, a.played, a.trick)
            causes.setdefault((a.party, a.announcement.level), cause)
        levels = {party: calls.level for party, calls in party_calls(state).items()}
    else:  # nothing announced: what `party_calls` gives then
        levels = {Party.RE: -1, Party.KONTRA: -1}
    return DealFacts(
        game_type=state.game_type,
        lone=is_lone(state),
        re_points=sum([won[s] for s in re_seats]),
        re_tricks=sum([tricks[s] for s in re_seats]),
        kontra_tricks=sum([tricks[s] for s in range(4) if s not in re_seats]),
        announced=levels,
        specials=specials(state, parties, lone_marriage_tricks(state)),
        causes=causes,
        heart_trick=heart_trick(state),
    )


def heart_trick(state: GameState) -> bool:
    """A trick of four hearts that are not trumps was played (a bock trigger, docs/rules.md §9)."""
    order = state.order
    return any(is_heart_trick(trick.cards, order) for trick in state.tricks)
