"""A doko game as a FreeDoko game log (`*.BugReport.FreeDoko`), so that a game recorded at the
table can be opened in FreeDoko: `dumps_game(events)`.

The log is written as FreeDoko 0.7.13 writes its own: the head, the party (its rules, the four
players, no games before, no points yet), the dealt hands, the game type, the hands at the
first card, every action in order (reservations, Schweinchen, the poverty's exchange,
announcements, cards, the marriage's partner, every trick with its leader and winner) and
FreeDoko's summary of the game, computed from doko's own score.

Only a game played card by card with its hands known can be written, under rules FreeDoko can
play; anything else is a `FreeDokoExportError` saying why. `log.loads_game` and
`game.import_game` read the text back to the same events.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.events import (
    AnnouncementMade,
    CardPlayed,
    CardsDealt,
    DealAbandoned,
    DealSummarized,
    DealValued,
    GameStarted,
    HyperschweinchenShown,
    PenaltyImposed,
    PovertyAnswered,
    PovertyCardsPassed,
    PovertyCardsReturned,
    ResultClaimed,
    SchweinchenShown,
)
from doko_ledger.doppelkopf.files.freedoko.game import THROWS
from doko_ledger.doppelkopf.files.freedoko.log import card_name
from doko_ledger.doppelkopf.files.freedoko.rules import GAME_TYPES, MARRIAGE_SELECTORS
from doko_ledger.doppelkopf.files.freedoko.write_rules import FreeDokoExportError, rule_lines
from doko_ledger.doppelkopf.files.freedoko.write_summary import REPLY, SummaryFacts, highest, summary_lines
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.facts import specials
from doko_ledger.doppelkopf.game.parties import announcement_shift, is_lone, marriage_status, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party, deadline
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import has_schweinchen
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.voiding import in_force
from doko_ledger.i18n import msg

__all__ = ["FreeDokoExportError", "dumps_game"]

VERSION = "0.7.13"
"""The FreeDoko version whose game log layout is written."""
FD_NAMES = {game_type: name for name, game_type in GAME_TYPES.items()}
CHOSEN = {clarification: chosen for chosen, (clarification, _) in MARRIAGE_SELECTORS.items()}
"""The marriage player's choice FreeDoko writes, by `marriage_clarification`."""
THROW_NAMES = {throw: name for name, throw in THROWS.items()}
"""FreeDoko's names of the reasons to throw the cards in."""
"""FreeDoko's names of doko's game types."""
LONE_MARRIAGE = "marriage solo"
CHOSEN_IN_GAME = frozenset({"lone_marriage_specials", "marriage_clarification"})
"""Options FreeDoko does not set by its rules: the marriage player chooses the tricks that find
the partner (written with the reservation), and a lone marriage's first tricks always count
(checked once the game is known)."""
DENIALS = {
    Announcement.NO90: "no 90",
    Announcement.NO60: "no 60",
    Announcement.NO30: "no 30",
    Announcement.SCHWARZ: "no 0",
}
PARTY_CALL = "no 120"


def dumps_game(events: Sequence[Any], seed: int = 0, place: DealPlace | None = None) -> str:
    """The FreeDoko game log of a game's events (those voided left out); `seed` is FreeDoko's
    seed for the deal, which doko does not keep; `place`: the game's place in its card night,
    whose bock multiplies the summary's points as it does the night's. `FreeDokoExportError` for
    a game the log cannot hold: no hands, not played to the end, thrown in, summarized or valued,
    a penalty, or rules FreeDoko cannot play (each named)."""
    return _Writer(in_force(list(events)), seed, place).text()


class _Writer:
    def __init__(self, events: list[Any], seed: int, place: DealPlace | None) -> None:
        self.events = events
        self.seed = seed
        self.place = place
        self.state = GameState()
        self.actions: list[str] = []
        self.start_hands: tuple[tuple[Card, ...], ...] | None = None
        self.replied: dict[Party, bool] = {Party.RE: False, Party.KONTRA: False}
        self.reservations_written = False
        self.trick_full: list[str] = []
        self.rules: list[str] = []
        for event in events:
            self.take(event)
        self.close_trick()
        self.check_finished()

    # -- the actions, event by event --------------------------------------------------

    def take(self, event: Any) -> None:
        if isinstance(event, (ResultClaimed, AnnotationAdded)):
            return  # someone's claimed result and the table's notes: no part of the play
        before = self.state
        match event:
            case DealSummarized() | DealValued():
                raise FreeDokoExportError(msg("a deal recorded without its cards cannot be a FreeDoko game log"))
            case DealAbandoned():
                raise FreeDokoExportError(msg("a deal thrown in has no FreeDoko game log: FreeDoko deals again"))
            case PenaltyImposed():
                raise FreeDokoExportError(msg("FreeDoko has no penalties: a game with one cannot be its game log"))
            case GameStarted(solo_owed_by=owed) if owed:
                raise FreeDokoExportError(msg("FreeDoko's duty solos are not doko's compulsory solos"))
            case GameStarted(rules=rules):
                self.rules = rule_lines(rules, CHOSEN_IN_GAME)  # rules FreeDoko cannot play are refused first
            case PovertyCardsPassed() | PovertyCardsReturned() if event.cards is None:
                raise FreeDokoExportError(msg("the poverty's cards were not recorded; FreeDoko's log names them"))
            case PovertyCardsPassed() | PovertyAnswered() | PovertyCardsReturned():
                self.write_reservations()
            case AnnouncementMade() | CardPlayed():
                self.write_reservations()
                if self.start_hands is None:
                    self.start_hands = self.state.hands
        self.state = evolve(self.state, event)
        match event:
            case PovertyCardsPassed(seat=seat, cards=cards) if cards is not None:
                self.actions.append(f"poverty shift = {seat}, {_cards(cards)}")
            case PovertyAnswered(seat=seat, accepted=accepted):
                self.actions.append(f"poverty {'accepted' if accepted else 'denied'} = {seat}")
            case PovertyCardsReturned(seat=seat, cards=cards) if cards is not None:
                self.actions.append(f"poverty returned = {seat}, {_cards(cards)}")
            case AnnouncementMade():
                self.announcement(before, event)
            case CardPlayed():
                self.card(before, event)
            case SchweinchenShown(seat=seat) if self.reservations_written:
                self.actions.append(f"swines = {seat}")  # called in the game (`while_held`)
            case HyperschweinchenShown(seat=seat) if self.reservations_written:
                self.actions.append(f"hyperswines = {seat}")

    def write_reservations(self) -> None:
        if self.reservations_written:
            return
        self.reservations_written = True
        state = self.state
        if state.hands is None or state.dealt is None:
            raise FreeDokoExportError(msg("the hands were not recorded; a FreeDoko game log starts from them"))
        named = {n.seat: n for n in state.named}
        settled = FD_NAMES.get(state.game_type) if state.game_type is not None else None
        swines = self.swines()
        for seat in asking_order(state.dealer):
            healthy = dict(state.declared).get(seat, True)
            said = named.get(seat)
            if healthy:
                what = "normal"
            elif said is None:  # never asked: a solo before it settled the game; any solo is as good
                what = settled or "normal"
            elif said.kind is ReservationKind.MARRIAGE:
                what = f"marriage, {CHOSEN[state.rules.marriage_clarification]}"
            elif said.kind is ReservationKind.POVERTY:
                what = "poverty"
            elif said.kind is ReservationKind.THROW:
                assert said.throw is not None
                what = THROW_NAMES[said.throw]
            else:
                assert said.solo is not None
                what = _game_name(said.solo)
            # FreeDoko's players ask for their swines with a healthy or marriage reservation
            extra = ", swines" if seat == swines and not what.startswith("solo") else ""
            self.actions.append(f"reservation = {seat}, {what}{extra}")
        if swines is not None:
            self.actions.append(f"swines = {swines}")
            if self.state.hyperschweinchen_seat is not None:
                self.actions.append(f"hyperswines = {self.state.hyperschweinchen_seat}")

    def swines(self) -> int | None:
        """Who has the game's Schweinchen by now, where its rules give them (docs/rules.md §2):
        FreeDoko's swines, announced."""
        state = self.state
        game = state.game_type
        return state.schweinchen_seat if game is not None and has_schweinchen(game, state.rules) else None

    def announcement(self, before: GameState, event: AnnouncementMade) -> None:
        level = max((c.announcement.level for c in before.calls if c.party is event.party), default=-1)
        if level >= event.announcement.level:
            who = before.players[event.seat]
            raise FreeDokoExportError(
                msg(
                    "{who}'s {label} repeats what {title} already said; FreeDoko takes only an announcement "
                    "that raises its party's",
                    who=who,
                    label=event.announcement.label,
                    title=event.party.title,
                )
            )
        if event.announcement.level == 0:
            shift = announcement_shift(before) or 0
            late = len(before.played_by(event.seat)) > deadline(0, shift)
            self.replied[event.party] = late
            word = REPLY if late else PARTY_CALL
        else:
            word = DENIALS[event.announcement]
        self.actions.append(f"announcement = {event.seat}, {word}")

    def card(self, before: GameState, event: CardPlayed) -> None:
        if before.current is None:
            self.close_trick()
            self.actions.append(f"# trick {len(before.tricks) + 1}")
        self.actions.append(f"card played = {event.seat}, {card_name(event.card)}")
        state = self.state
        if len(state.tricks) == len(before.tricks):
            return
        trick = state.tricks[-1]
        full = []
        if state.game_type is GameType.MARRIAGE and marriage_status(before)[1] is None:
            partner, clarified = marriage_status(state)
            if clarified is not None and state.declarer is not None:
                full.append(f"marriage = {state.declarer}, {state.declarer if partner is None else partner}")
        full.append(f"trick full = {trick.leader}, {_cards(trick.cards)}, {trick.winner}")
        self.trick_full = full
        if len(full) > 1:  # the trick found the marriage's partner: announcements only after it
            self.close_trick()

    def close_trick(self) -> None:
        """FreeDoko closes a trick when the next one starts: an announcement made after its
        fourth card comes before its `trick full` line (unless the trick decided a marriage)."""
        self.actions += self.trick_full
        self.trick_full = []

    def check_finished(self) -> None:
        state = self.state
        if not state.started:
            raise FreeDokoExportError(msg("these events hold no game"))
        if not any(isinstance(e, CardsDealt) for e in self.events):
            raise FreeDokoExportError(msg("the hands were not recorded; a FreeDoko game log starts from them"))
        if not state.finished:
            raise FreeDokoExportError(
                msg(
                    "the game stops after {count} of {hand_size} tricks; a FreeDoko game log holds them all",
                    count=len(state.tricks),
                    hand_size=state.hand_size,
                )
            )
        if state.game_type is GameType.MARRIAGE and is_lone(state) and not state.rules.lone_marriage_specials:
            raise FreeDokoExportError(
                msg(
                    "FreeDoko counts a lone marriage's special points of its first tricks; these rules do not "
                    "(lone_marriage_specials)"
                )
            )
        if any(isinstance(e, SchweinchenShown) for e in self.events) and self.swines() is None:
            raise FreeDokoExportError(msg("FreeDoko's swines are announced at the start, from the hands"))
        rules = state.rules
        if rules.karlchen_capture and rules.karlchen_captured_twice and not rules.double_karlchen:
            caught = [s for s in specials(state, true_parties(state)) if s.kind is SpecialKind.KARLCHEN_CAPTURED]
            if len(caught) > 1:
                raise FreeDokoExportError(
                    msg(
                        "both Karlchen were caught in the last trick: FreeDoko counts the second one only with its "
                        "double Karlchen, which doko's rules here do not play (karlchen_captured_twice)"
                    )
                )

    # -- the text -------------------------------------------------------------------------

    def text(self) -> str:
        state = self.state
        for name in state.players:
            _check_name(name)
        startplayer = (state.dealer + 1) % SEATS
        lines = [
            "# FreeDoko Bugreport",
            "",
            f"version: {VERSION}",
            *_time(state.played_on),
            "",
            "language: en",
            f"trick: {state.hand_size}",
            "",
            "/---------\\",
            "| message |",
            "\\---------/",
            "game log",
            "",
            "/--------\\",
            "| output |",
            "\\--------/",
            f"seed: {self.seed}",
            f"startplayer: {startplayer}",
            "",
            "party",
            "{",
            f"first seed = {self.seed}",
            f"first startplayer = {startplayer}",
            "",
            "rules",
            "{",
            *self.rules,
            "}",
            "",
            "players",
            "{",
            *(line for name in state.players for line in ("{", f"name = {name}", "type = human", "}", "")),
            "}",
            "",
            "game summaries",
            "{",
            "}",
            "",
            "points",
            "{",
            *(f"{name}: 0" for name in state.players),
            "}",
            "}",
            "",
            *_hands("dealt hands", state.players, state.dealt),
            "",
            *self.game_type_lines(),
            "",
            *_hands("hands", state.players, self.start_hands),
            "",
            "gameplay actions",
            "{",
            *(f"  {action}" for action in self.actions),
            "}",
            "",
            *summary_lines(state, score_game(state, place=self.place), self.summary_facts(startplayer)),
        ]
        return "\n".join(lines) + "\n"

    def game_name(self) -> str:
        state = self.state
        assert state.game_type is not None
        if state.game_type is GameType.MARRIAGE and is_lone(state):
            return LONE_MARRIAGE
        return _game_name(state.game_type)

    def game_type_lines(self) -> list[str]:
        state = self.state
        assert state.game_type is not None
        lines = [f"gametype: {_game_name(state.game_type)}"]
        if state.game_type is GameType.MARRIAGE:
            lines += [
                f"selector: {CHOSEN[state.rules.marriage_clarification]}",
                f"bride: player {state.declarer}",
            ]
        elif state.game_type.is_solo:
            lines.append(f"soloplayer: player {state.declarer}")
        return lines

    def summary_facts(self, startplayer: int) -> SummaryFacts:
        state = self.state
        parties = true_parties(state)
        teams = tuple(Party.RE if p is Party.RE else Party.KONTRA for p in parties)
        return SummaryFacts(
            seed=self.seed,
            startplayer=startplayer,
            soloplayer=None if state.game_type is GameType.NORMAL else state.declarer,
            gametype=self.game_name(),
            swines=self.swines(),
            teams=teams,
            highest_re=highest(state, Party.RE, self.replied[Party.RE]),
            highest_contra=highest(state, Party.KONTRA, self.replied[Party.KONTRA]),
        )


def _game_name(game_type: GameType) -> str:
    name = FD_NAMES.get(game_type)
    if name is None:
        raise FreeDokoExportError(msg("FreeDoko has no {value}", value=game_type.value.replace("_", " ")))
    return name


def _time(played_on: str | None) -> list[str]:
    """The `time:` line of FreeDoko's head (as C's `ctime` writes it) for the day played."""
    try:
        day = date.fromisoformat((played_on or "")[:10])
    except ValueError:
        return []
    return [f"time: {day.ctime()}"]


def _cards(cards: Sequence[Card]) -> str:
    return ", ".join(card_name(c) for c in cards)


def _hands(title: str, players: Sequence[str], hands: Sequence[Sequence[Card]] | None) -> list[str]:
    assert hands is not None
    lines = [title, "{"]
    for seat, hand in enumerate(hands):
        lines.append(f"player {seat} ({players[seat]})")
        lines += [f"{index:x}  {card_name(card)}" for index, card in enumerate(hand)]
        lines.append("")
    return [*lines, "}"]


def _check_name(name: str) -> None:
    """A name FreeDoko's block grammar can hold on one `name = ...` line."""
    text = name.strip()
    if text != name or not text or text[0] in "#{}" or "\n" in text or " = " in text:
        raise FreeDokoExportError(msg("FreeDoko cannot keep the player name {name} in its file", name=repr(name)))
