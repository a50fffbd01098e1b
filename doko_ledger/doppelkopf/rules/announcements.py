"""Announcements (*Ansagen*): deadlines, replies, skipped levels (docs/rules.md §5)."""

from __future__ import annotations

from enum import Enum

from doko_ledger.doppelkopf.rules.ruleset import DeadlinesCount, FirstTrickThirty, RuleSet
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, plural, render


class Party(Enum):
    """The two parties: Re (the old ones, or the soloist) and Kontra."""

    RE = "re"
    KONTRA = "kontra"

    @property
    def other(self) -> Party:
        return Party.KONTRA if self is Party.RE else Party.RE

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @property
    def word(self) -> Message:
        """The party's name in the reader's language (Re, Kontra; in French Contra)."""
        return _PARTY_WORD[self]

    def localized(self, language: str) -> str:
        return render(self.word, language)


class Announcement(Enum):
    """What can be announced; `re`/`kontra` are the party's own word, the rest are denials."""

    RE = "re"
    KONTRA = "kontra"
    NO90 = "no90"
    NO60 = "no60"
    NO30 = "no30"
    SCHWARZ = "schwarz"

    @property
    def level(self) -> int:
        """0 for Re/Kontra, 1 for no 90 … 4 for schwarz."""
        return _LEVEL[self]

    @property
    def label(self) -> str:
        return _LABEL[self]

    @property
    def word(self) -> Message:
        """The call in the reader's language (keine 90, pas de 90)."""
        return _WORD[self]

    def localized(self, language: str) -> str:
        return render(self.word, language)


_LEVEL = {
    Announcement.RE: 0,
    Announcement.KONTRA: 0,
    Announcement.NO90: 1,
    Announcement.NO60: 2,
    Announcement.NO30: 3,
    Announcement.SCHWARZ: 4,
}
_LABEL = {
    Announcement.RE: "Re",
    Announcement.KONTRA: "Kontra",
    Announcement.NO90: "no 90",
    Announcement.NO60: "no 60",
    Announcement.NO30: "no 30",
    Announcement.SCHWARZ: "schwarz",
}
_WORD = {
    Announcement.RE: msg("Re"),
    Announcement.KONTRA: msg("Kontra"),
    Announcement.NO90: msg("no 90"),
    Announcement.NO60: msg("no 60"),
    Announcement.NO30: msg("no 30"),
    Announcement.SCHWARZ: msg("schwarz"),
}
_PARTY_WORD = {Party.RE: _WORD[Announcement.RE], Party.KONTRA: _WORD[Announcement.KONTRA]}
DENIALS = (Announcement.NO90, Announcement.NO60, Announcement.NO30, Announcement.SCHWARZ)

DEADLINE = (1, 2, 3, 4, 5)
"""By level: the most cards the announcer may have played (docs/rules.md §5 table)."""


@frozen
class Deadlines:
    """The deadlines in force (docs/rules.md §5): by level, the most the announcer may have
    played; what is counted (the announcer's `cards`, or the `tricks` before the one being
    played); and whether a late Re or Kontra may answer the other party."""

    by_level: tuple[int, ...] = DEADLINE
    count: DeadlinesCount = "cards"
    late_answer: bool = True

    def played(self, amount: int) -> Message:
        """`3 cards played`, or `3 tricks played` when tricks are counted."""
        if self.count == "cards":
            return plural("{count} card played", "{count} cards played", amount)
        return plural("{count} trick played", "{count} tricks played", amount)


STANDARD = Deadlines()


def deadlines_of(rules: RuleSet) -> Deadlines:
    """The deadlines a rule set plays (options `re_deadline` … `schwarz_deadline`, `deadlines_count`,
    `late_answer`)."""
    by_level = (rules.re_deadline, rules.no90_deadline, rules.no60_deadline, rules.no30_deadline)
    return Deadlines((*by_level, rules.schwarz_deadline), rules.deadlines_count, rules.late_answer)


def party_word(party: Party) -> Announcement:
    return Announcement.RE if party is Party.RE else Announcement.KONTRA


def at_level(party: Party, level: int) -> Announcement:
    """The announcement of `party` at `level` (0 is the party's own word)."""
    return party_word(party) if level == 0 else DENIALS[level - 1]


@frozen
class PartyCalls:
    """What one party has announced: its highest level (-1 none) and whether its
    Re/Kontra was in time as a first announcement (not only as a late reply)."""

    level: int = -1
    base_in_time: bool = True


def deadline(level: int, shift: int, deadlines: Deadlines = STANDARD) -> int:
    """Most cards (or tricks) the announcer may have played for a first announcement at `level`."""
    return deadlines.by_level[level] + shift


def reply_deadline(other: PartyCalls, shift: int, deadlines: Deadlines = STANDARD) -> int | None:
    """Most cards played for a Re/Kontra that replies to the other party's highest call (None:
    nothing to answer, or late answers are not played)."""
    if other.level < 0 or not deadlines.late_answer:
        return None
    return deadline(other.level, shift, deadlines) + 1


def announcement_problem(
    announcement: Announcement,
    party: Party,
    played: int,
    shift: int,
    own: PartyCalls,
    other: PartyCalls,
    party_public: bool = True,
    deadlines: Deadlines = STANDARD,
) -> Message | None:
    """Why `announcement` by a `party` player who has played `played` cards is refused, or None.

    `played` counts what `deadlines` count: the announcer's cards, or the tricks before the one
    being played (a trick just completed counts once the next one is led).

    `shift` moves every deadline (marriages clarified late, docs/rules.md §5). A no X
    also makes every lower step the party has not said; each must still be in
    time. A party whose Re/Kontra came only as a late reply makes no denial.
    Without `party_public` the reason does not name the announcer's party (the table
    does not know it yet).
    """
    if announcement in (Announcement.RE, Announcement.KONTRA) and announcement is not party_word(party):
        return msg("a {party} player cannot say {call}", party=party, call=announcement)
    level = announcement.level
    if level == 0:
        first = deadline(0, shift, deadlines)
        reply = reply_deadline(other, shift, deadlines)
        if played <= first or (reply is not None and played <= reply):
            return None
        allowed = msg("at most {played}", played=deadlines.played(first))
        if reply is not None:
            allowed = msg(
                "at most {played}, or {reply} as a reply to {call}",
                played=deadlines.played(first),
                reply=reply,
                call=at_level(party.other, other.level),
            )
        return _too_late(announcement, None, allowed, played, deadlines)
    if own.level >= 0 and not own.base_in_time:
        if not party_public:
            return msg(
                "{call} is not allowed: the announcer's party said its first word only as a late reply,"
                " which would not have been in time as a first announcement (docs/rules.md §5, DDV)",
                call=announcement,
            )
        return msg(
            "{call} is not allowed: {party}'s {word} came only as a late reply"
            " and would not have been in time as a first announcement (docs/rules.md §5, DDV)",
            call=announcement,
            party=party,
            word=party_word(party),
        )
    lowest = min(own.level + 1, level)
    for step in range(lowest, level + 1):
        due = deadline(step, shift, deadlines)
        if played > due:
            said = at_level(party, step) if party_public or step else msg("the party's Re or Kontra")
            allowed = msg("at most {played}", played=deadlines.played(due))
            return _too_late(announcement, None if step == level else said, allowed, played, deadlines)
    return None


def _too_late(
    call: Announcement, said: Announcement | Message | None, allowed: Message, played: int, deadlines: Deadlines
) -> Message:
    """Why `call` (or the lower step `said` it includes) comes too late."""
    if deadlines.count == "cards":
        done = msg("the announcer has played {count}", count=played)
    else:
        done = msg("{count} played", count=played)
    if said is None:
        return msg(
            "{call} is too late: allowed with {allowed}; {done} (docs/rules.md §5)",
            call=call,
            allowed=allowed,
            done=done,
        )
    return msg(
        "{call} includes {said}, which is too late: allowed with {allowed}; {done} (docs/rules.md §5)",
        call=call,
        said=said,
        allowed=allowed,
        done=done,
    )


def after(
    own: PartyCalls, announcement: Announcement, played: int, shift: int, deadlines: Deadlines = STANDARD
) -> PartyCalls:
    """The party's calls after an accepted announcement."""
    level = max(own.level, announcement.level)
    in_time = played <= deadline(0, shift, deadlines)
    if own.level < 0:
        return PartyCalls(level, in_time)
    # A partner's Re/Kontra in time as a first announcement means the party's call no
    # longer came only as a late reply (docs/rules.md §5).
    return PartyCalls(level, own.base_in_time or (announcement.level == 0 and in_time))


def marriage_shift(clarifying_trick: int, mode: str) -> int:
    """How many cards later every deadline falls when trick `clarifying_trick` clarified the
    marriage: `after_first` (default) 0/1/2 for tricks 1/2/3, `tricks` 1/2/3 (docs/rules.md §5)."""
    return clarifying_trick if mode == "tricks" else clarifying_trick - 1


def too_late_for_any(trick: int, last: int) -> Message | None:
    """Why no announcement may be made during trick `trick` (option `last_announcement_trick`), or None."""
    if trick <= last:
        return None
    return msg("nothing is announced once trick {trick} is complete (docs/rules.md §5)", trick=last)


def first_trick_due(points: int, own: PartyCalls, other: PartyCalls, mode: FirstTrickThirty) -> int | None:
    """The level the winner of a first trick worth `points` must announce for their party in a
    normal game (option `first_trick_thirty`), or None: `own` and `other` are the parties'
    calls when the trick was completed. The duty is the party's next level, at 30 card points
    or more: under `party_silent` only while the winner's party has announced nothing, under
    `all_silent` only while nobody has, under `always` unless the party said schwarz."""
    if mode == "off" or points < 30 or own.level >= len(DEADLINE) - 1:
        return None
    if mode == "party_silent" and own.level >= 0:
        return None
    if mode == "all_silent" and (own.level >= 0 or other.level >= 0):
        return None
    return own.level + 1
