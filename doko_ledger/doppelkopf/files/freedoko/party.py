"""A FreeDoko party file as a card night of deals by their facts.

FreeDoko's party file holds the rules (only those changed from its defaults), the players and
a summary of every game played: the game type, the teams, each player's trick points, the
highest announcement of each team and the special points. Each summary becomes a deal written
down by its facts, as a table would write it: the Re players, Re's card points, the
announcements, the fox, Karlchen and Doppelkopf points; doko scores it, bock rounds included,
under the party's rules.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from doko_ledger.doppelkopf.files.freedoko.claim import KINDS
from doko_ledger.doppelkopf.files.freedoko.log import SEATS, FreeDokoFileError, Party, Summary, loads_party
from doko_ledger.doppelkopf.files.freedoko.rules import GAME_TYPES, read_rules
from doko_ledger.doppelkopf.files.night_file import (
    MISDEAL,
    Deal,
    LoadedNight,
    NightFile,
    NightFileError,
    to_night,
)
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.rules.announcements import Announcement
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.errors import reason_of
from doko_ledger.i18n import msg

LEVELS = ("no 120", "no 90", "no 60", "no 30", "no 0")
"""FreeDoko's announcements from Re/Kontra up to schwarz, in order."""
CALLS = {
    "no 90": Announcement.NO90,
    "no 60": Announcement.NO60,
    "no 30": Announcement.NO30,
    "no 0": Announcement.SCHWARZ,
}
NONE = "no announcement"
REPLY = "reply"
THROWN = ("thrown nines", "thrown kings", "thrown nines and kings", "thrown richness", "fox highest trump")
"""FreeDoko's game types of a deal thrown in."""
LONE_MARRIAGE = "marriage solo"
"""A marriage that found no partner: its bride is Re alone (scored as a solo, docs/rules.md §4)."""
SPECIALS = {name: kind for name, kind in KINDS.items() if kind in {k.value for k in SpecialKind}}
"""FreeDoko's trick extras that a deal's facts name, by doko's special kinds."""
CAUGHT = frozenset({"fox_caught", "karlchen_captured", "fox_caught_last_trick", "dulle_caught_dulle"})


def read(text: str, source: str = "<text>") -> LoadedNight:
    """A party file as a closed card night; `FreeDokoFileError` naming the line of a game doko
    cannot record (an unknown game type, an option it cannot honour)."""
    party = loads_party(text, source)
    if not party.summaries:
        raise FreeDokoFileError(
            msg("the party file holds no game summaries yet (FreeDoko writes one for every game played)"), source=source
        )
    rules = read_rules(party.rules, source, with_defaults=True)
    first = party.summaries[0]
    session = NightFile(
        id=_night_id(party, text),
        players=party.players,
        first_dealer=party.players[(first.startplayer - 1) % SEATS],
        rules=rules.rules,
        deals=tuple(deal_of(party, summary, source, rules.rules.hand_size) for summary in party.summaries),
        closed=True,
        note=f"Imported from a FreeDoko party file: {Path(source).name}",
    )
    try:
        night = to_night(session)
    except NightFileError as exc:
        index = exc.path[1] if len(exc.path) > 1 and isinstance(exc.path[1], int) else None
        line = None if index is None else party.summaries[index].line
        raise FreeDokoFileError(reason_of(exc), source=source, line=line) from None
    return LoadedNight(session, night)


def _night_id(party: Party, text: str) -> str:
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    seed = party.first_seed if party.first_seed is not None else "party"
    return f"freedoko-{seed}-{digest}"


def deal_of(party: Party, summary: Summary, source: str, hand_size: int = 12) -> Deal:
    """One game's summary as a deal by its facts (a deal thrown in as a misdeal); `hand_size`: the
    tricks of a game under the party's rules."""
    if summary.gametype in THROWN:
        return MISDEAL
    game = GameType.MARRIAGE if summary.gametype == LONE_MARRIAGE else GAME_TYPES.get(summary.gametype)
    if game is None:
        raise FreeDokoFileError(
            msg("game type {gametype} is not one doko can record", gametype=repr(summary.gametype)),
            source=source,
            line=summary.line,
        )
    players = party.players
    re_seats = [seat for seat, team in enumerate(summary.teams) if team == "re"]
    re_points = sum(summary.trick_points[seat] for seat in re_seats)
    return SummaryRecord(
        game=game.value,
        re=tuple(players[seat] for seat in re_seats),
        re_points=re_points,
        tricks=_tricks(summary, hand_size),
        announcements=_announcements(summary, players),
        specials=_specials(summary, players),
    )


def _tricks(summary: Summary, hand_size: int) -> tuple[int, int] | None:
    """The tricks each party took, where the summary tells: a party that took none."""
    for point in summary.specials:
        if point.name == "no 0":
            return (hand_size, 0) if point.counts_for == "re" else (0, hand_size)
    return None


def _announcements(summary: Summary, players: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    calls: list[tuple[str, str]] = []
    for team, highest, word in (("re", summary.highest_re, "re"), ("contra", summary.highest_contra, "kontra")):
        if highest == NONE:
            continue
        said = [
            p.of_player
            for p in summary.specials
            if p.team == team and p.name.endswith(" said") and p.of_player is not None
        ]
        members = [seat for seat, t in enumerate(summary.teams) if t == team]
        who = players[said[0] if said else members[0]]
        calls.append((who, word))
        if highest in LEVELS:
            calls += [(who, CALLS[level].value) for level in LEVELS[1 : LEVELS.index(highest) + 1]]
    return tuple(calls)


def _specials(summary: Summary, players: tuple[str, ...]) -> tuple[tuple[str, str, str | None], ...]:
    out = []
    for point in summary.specials:
        kind = SPECIALS.get(point.name)
        if kind is None:
            continue
        party = "re" if point.counts_for == "re" else "kontra"
        caught = players[point.of_player] if kind in CAUGHT and point.of_player is not None else None
        out.append((kind, party, caught))
    return tuple(out)
