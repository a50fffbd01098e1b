"""A FreeDoko game log replayed as a doko game: every action through `decide`, line by line.

The dealt hands, reservations, poverty exchange, announcements and cards become the ledger's
own events; FreeDoko's trick lines (leader and winner) and its marriage line are checked
against the game as doko's rules play it, so a rule read differently is found at the trick
where it first shows, not at the score.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.events import AbandonReason, DoppelkopfEvent
from doko_ledger.doppelkopf.files.freedoko.claim import claim_of
from doko_ledger.doppelkopf.files.freedoko.log import (
    SEATS,
    Action,
    FreeDokoFileError,
    GameLog,
    card_of,
    loads_game,
)
from doko_ledger.doppelkopf.files.freedoko.rules import GAME_TYPES, MARRIAGE_SELECTORS, FreeDokoRules, read_rules
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.doppelkopf.game.commands import (
    Announce,
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    IllegalMove,
    NameReservation,
    PassPovertyCards,
    PlayCard,
    ReturnPovertyCards,
    ShowHyperschweinchen,
    ShowSchweinchen,
    StartGame,
)
from doko_ledger.doppelkopf.game.decide import decide
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.parties import marriage_status, true_parties
from doko_ledger.doppelkopf.game.record import from_events
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, Throw, asking_order, next_to_name
from doko_ledger.errors import reason_of
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg

ANNOUNCEMENTS = {
    "no 90": Announcement.NO90,
    "no 60": Announcement.NO60,
    "no 30": Announcement.NO30,
    "no 0": Announcement.SCHWARZ,
}
"""FreeDoko's denials; its `no 120` is the party's Re or Kontra, `reply` a late one."""
PARTY_CALL = ("no 120", "reply")
HEALTHY = "normal"
THROWS = {
    "thrown nines": Throw.NINES,
    "thrown kings": Throw.KINGS,
    "thrown nines and kings": Throw.NINES_AND_KINGS,
    "thrown richness": Throw.RICHNESS,
    "fox highest trump": Throw.FOX_HIGHEST_TRUMP,
}
"""FreeDoko's reservations that throw the deal in, and why."""


@frozen
class ImportedGame:
    """A game log as the ledger's events, the state they fold to, and what the rules mapping
    left out (FreeDoko options that only concern its display or players)."""

    log: GameLog
    rules: FreeDokoRules
    events: list[DoppelkopfEvent]
    state: GameState


def read(text: str, source: str = "<text>") -> LoadedGame:
    """A FreeDoko game log as a doko game: its events, FreeDoko's result as a claim after them,
    and the state they fold to; `FreeDokoFileError` (`file:line: what`) for what doko refuses."""
    log = loads_game(text, source)
    imported = import_game(log, game_id_of(log, text), note_of(log))
    claim = claim_of(log, imported.rules.rules.announcement_scoring == "doubling", Path(source).name)
    events: list[DoppelkopfEvent | AnnotationAdded] = [*imported.events]
    if claim is not None:
        events.append(claim)
    return LoadedGame(from_events(events), events, imported.state, remarks_of(imported.rules))


def remarks_of(rules: FreeDokoRules) -> tuple[str, ...]:
    """The FreeDoko options the import left out, as one remark."""
    if not rules.ignored:
        return ()
    return (f"FreeDoko options left out (its display, computer players, party length): {', '.join(rules.ignored)}",)


def game_id_of(log: GameLog, text: str) -> str:
    """`freedoko-<seed>-<digest>`: the same log always gets the same id (imported twice, it is
    refused), two games of one seed get two (the digest is of the hands and the play)."""
    start = text.find("dealt hands")
    digest = hashlib.sha256(text[max(start, 0) :].encode()).hexdigest()[:8]
    return f"freedoko-{log.seed if log.seed is not None else 'game'}-{digest}"


def seed_of(game_id: str) -> int:
    """FreeDoko's seed of a game imported from it (`game_id_of`), else 0 (doko keeps none)."""
    prefix, _, rest = game_id.partition("-")
    seed = rest.partition("-")[0]
    return int(seed) if prefix == "freedoko" and seed.isdigit() else 0


def note_of(log: GameLog) -> str:
    """Where the game came from, as its note."""
    seed = "" if log.seed is None else f", seed {log.seed}"
    return f"Imported from FreeDoko {log.version}: {Path(log.source).name}{seed}"


def import_game(log: GameLog, game_id: str, note: str | None = None) -> ImportedGame:
    """The game log replayed under its own rules; `FreeDokoFileError` at the first line doko
    refuses (an option it cannot honour, an illegal card, a trick won by someone else)."""
    rules = read_rules(log.party.rules, log.source)
    runner = _Runner(log, rules.forbidden_solos)
    dealer = (log.startplayer - 1) % SEATS
    actions = list(log.actions)
    reservations = [a for a in actions if a.kind == "reservation"]
    rules = runner.marriage_choice(rules, reservations)
    runner.run(StartGame(game_id, log.players, dealer, rules.rules, log.played_on, note), log.hands_line)
    runner.run(DealCards(log.hands), log.hands_line)
    if reservations:
        runner.reserve(reservations, dealer)
    for action in actions:
        runner.act(action)
    if not runner.state.over:
        last = actions[-1].line if actions else log.hands_line
        raise runner.error(
            msg("the game stops after {count} tricks; a game log holds every card", count=len(runner.state.tricks)),
            last,
        )
    return ImportedGame(log, rules, runner.events, runner.state)


class _Runner:
    def __init__(self, log: GameLog, forbidden_solos: Mapping[GameType, str]) -> None:
        self.log = log
        self.forbidden_solos = forbidden_solos
        self.state = GameState()
        self.events: list[DoppelkopfEvent] = []

    def error(self, message: str | Message, line: int) -> FreeDokoFileError:
        return FreeDokoFileError(message, source=self.log.source, line=line)

    def run(self, command: Command, line: int) -> None:
        try:
            new = decide(self.state, command)
        except IllegalMove as exc:
            raise self.error(reason_of(exc), line) from None
        for event in new:
            self.state = evolve(self.state, event)
        self.events.extend(new)

    def reserve(self, actions: list[Action], dealer: int) -> None:
        said: dict[int, Action] = {}
        for action in actions:
            if action.seat is None or not action.fields:
                raise self.error(msg("a reservation names its player and what it is"), action.line)
            if action.seat in said:
                raise self.error(msg("player {seat} makes a second reservation", seat=action.seat), action.line)
            said[action.seat] = action
        if len(said) != SEATS:
            raise self.error(msg("{count} reservations; every player makes one", count=len(said)), actions[-1].line)
        for seat in asking_order(dealer):
            self.run(DeclareReservation(seat, said[seat].fields[0] == HEALTHY), said[seat].line)
        while (naming := self.to_name(dealer)) is not None:
            action = said[naming]
            self.run(self.reservation(naming, action), action.line)

    def to_name(self, dealer: int) -> int | None:
        state = self.state
        return next_to_name(dealer, state.declared, state.named, state.rules, state.hands)

    def marriage_choice(self, rules: FreeDokoRules, reservations: list[Action]) -> FreeDokoRules:
        """The rules with the marriage player's choice of the tricks that find the partner as
        `marriage_clarification`; a choice FreeDoko's rules do not allow refuses the game."""
        for action in reservations:
            if action.fields[:1] != ("marriage",):
                continue
            chosen = next((f for f in action.fields[1:] if f in MARRIAGE_SELECTORS), "first foreign")
            clarification, allowed_by = MARRIAGE_SELECTORS[chosen]
            if allowed_by in rules.forbidden:
                raise self.error(
                    msg(
                        "marriage '{chosen}' is not allowed by these rules ('{allowed_by}' is off)",
                        chosen=chosen,
                        allowed_by=allowed_by,
                    ),
                    action.line,
                )
            return replace(rules, rules=replace(rules.rules, marriage_clarification=clarification))
        return rules

    def reservation(self, seat: int, action: Action) -> NameReservation:
        what = action.fields[0]
        if what == "marriage":
            return NameReservation(seat, ReservationKind.MARRIAGE)
        if what == "poverty":
            return NameReservation(seat, ReservationKind.POVERTY)
        if what in THROWS:
            return NameReservation(seat, ReservationKind.THROW, throw=THROWS[what])
        solo = GAME_TYPES.get(what)
        if solo is None or not solo.is_declared_solo:
            raise self.error(msg("reservation {what} is not a game doko can record", what=repr(what)), action.line)
        forbidden_by = self.forbidden_solos.get(solo)
        if forbidden_by is not None:
            raise self.error(
                msg(
                    "reservation {what} is not allowed under these rules ({forbidden_by})",
                    what=repr(what),
                    forbidden_by=forbidden_by,
                ),
                action.line,
            )
        return NameReservation(seat, ReservationKind.SOLO, solo)

    def cards(self, action: Action) -> tuple[Card, ...]:
        out = []
        for text in action.fields:
            card = card_of(text)
            if card is None:
                raise self.error(msg("{text} is not a card", text=repr(text)), action.line)
            out.append(card)
        return tuple(out)

    def act(self, action: Action) -> None:
        seat = action.seat
        match action.kind:
            case "reservation":
                return
            case "card played":
                cards = self.cards(action)
                if seat is None or len(cards) != 1:
                    raise self.error(msg("a card played names its player and one card"), action.line)
                self.run(PlayCard(seat, cards[0]), action.line)
            case "trick full":
                self.check_trick(action)
            case "announcement":
                self.announce(action)
            case "poverty shift":
                self.run(PassPovertyCards(self.seat(action), self.cards(action)), action.line)
            case "poverty denied":
                self.run(AnswerPoverty(self.seat(action), False), action.line)
            case "poverty accepted":
                self.run(AnswerPoverty(self.seat(action), True), action.line)
            case "poverty returned":
                self.run(ReturnPovertyCards(self.seat(action), self.cards(action)), action.line)
            case "marriage":
                self.check_marriage(action)
            case "poverty denied by all":
                if self.state.abandoned != AbandonReason.POVERTY_DECLINED.value:
                    raise self.error(msg("FreeDoko has the poverty denied by all; here it is not"), action.line)
            case "genscher":
                raise self.error(
                    msg("a genscher is not a game doko can record (the rule 'genscher' allows it)"), action.line
                )
            case "swines":
                self.run(ShowSchweinchen(self.seat(action)), action.line)
            case "hyperswines":
                self.run(ShowHyperschweinchen(self.seat(action)), action.line)
            case _:
                raise self.error(
                    msg("gameplay action {kind} is not one doko can record", kind=repr(action.kind)), action.line
                )

    def seat(self, action: Action) -> int:
        if action.seat is None:
            raise self.error(msg("{kind} names no player", kind=action.kind), action.line)
        return action.seat

    def announce(self, action: Action) -> None:
        seat = self.seat(action)
        what = action.fields[0] if action.fields else ""
        if what in PARTY_CALL:
            call = None
        elif what in ANNOUNCEMENTS:
            call = ANNOUNCEMENTS[what]
        else:
            raise self.error(msg("announcement {what} is not one doko knows", what=repr(what)), action.line)
        if call is None:
            call = Announcement.RE if self.is_re(seat) else Announcement.KONTRA
        self.run(Announce(seat, call), action.line)

    def check_marriage(self, action: Action) -> None:
        """FreeDoko's `marriage = bride, partner` (the bride again: alone) against the partner
        these rules find, at the trick that finds it."""
        bride = self.seat(action)
        if len(action.fields) != 1 or not action.fields[0].isdigit():
            raise self.error(msg("a marriage line names the marriage player and the partner"), action.line)
        partner = int(action.fields[0])
        found, clarified = marriage_status(self.state)
        if clarified is None or self.state.declarer != bride or found != (None if partner == bride else partner):
            alone = msg("alone") if partner == bride else msg("with player {seat}", seat=partner)
            number = len(self.state.tricks)
            if clarified is None:
                ours = msg("still open")
            else:
                ours = msg("alone") if found is None else msg("with player {seat}", seat=found)
            raise self.error(
                msg(
                    "trick {number}: FreeDoko's marriage is settled {alone}, these rules have it {ours}",
                    number=number,
                    alone=alone,
                    ours=ours,
                ),
                action.line,
            )

    def is_re(self, seat: int) -> bool:
        return true_parties(self.state)[seat] is Party.RE

    def check_trick(self, action: Action) -> None:
        trick = self.state.tricks[-1] if self.state.tricks and self.state.current is None else None
        if trick is None or len(action.fields) != SEATS + 1:
            raise self.error(msg("'trick full' where no trick was completed"), action.line)
        winner = action.fields[-1]
        if trick.leader != action.seat or str(trick.winner) != winner:
            number = len(self.state.tricks)
            raise self.error(
                msg(
                    "trick {number}: FreeDoko gives it to player {winner}, these rules to player {ours}",
                    number=number,
                    winner=winner,
                    ours=trick.winner,
                ),
                action.line,
            )
