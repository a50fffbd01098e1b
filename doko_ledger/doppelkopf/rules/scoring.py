"""Who wins (docs/rules.md §6) and what the game is worth (§7, and the DDV's differences in §8).

Pure: the facts of a deal in, a score with one derivation line per item out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from enum import Enum

from doko_ledger.doppelkopf.rules.announcements import DENIALS, Party
from doko_ledger.doppelkopf.rules.game_types import GameType, name_key
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, plural, render

THRESHOLDS = (90, 60, 30)
"""The losers stay below these for no 90, no 60, no 30 (schwarz: no trick)."""

OWN_TARGETS = (151, 181, 211)
"""Card points a party needs after its own no 90, no 60, no 30 (schwarz: every trick)."""

AGAINST_DENIAL = (120, 90, 60, 30)
"""DDV: card points that earn +1 against the losers' no 90, no 60, no 30, schwarz."""

_PARTIES = tuple(Party)
"""Re, Kontra: iterating the Enum itself is slower."""
_TITLES = tuple(party.title for party in _PARTIES)
_DENIAL_LABELS = tuple(denial.label for denial in DENIALS)


class SpecialKind(Enum):
    """Special points (*Sonderpunkte*), scored by the party that earns them."""

    FOX_CAUGHT = "fox_caught"
    KARLCHEN = "karlchen"
    KARLCHEN_CAPTURED = "karlchen_captured"
    DOPPELKOPF = "doppelkopf"
    FOX_LAST_TRICK = "fox_last_trick"
    FOX_CAUGHT_LAST_TRICK = "fox_caught_last_trick"
    DULLE_CAUGHT_DULLE = "dulle_caught_dulle"
    HEART_TRICK = "heart_trick"

    @property
    def label(self) -> str:
        return _SPECIAL_LABEL[self]

    @property
    def word(self) -> Message:
        """The label in the reader's language (Fuchs gefangen, renard pris)."""
        return _SPECIAL_WORD[self]

    def localized(self, language: str) -> str:
        return render(self.word, language)

    @property
    def caught(self) -> bool:
        """Earned by catching a card of the other party: the record says whose."""
        return self in _CAUGHT

    @property
    def last_trick(self) -> bool:
        """Earned only in the last trick, by the party that takes it."""
        return self in _LAST_TRICK


_SPECIAL_LABEL = {
    SpecialKind.FOX_CAUGHT: "fox caught (Fuchs)",
    SpecialKind.KARLCHEN: "last trick won with CJ (Karlchen)",
    SpecialKind.KARLCHEN_CAPTURED: "CJ caught in the last trick (Karlchen)",
    SpecialKind.DOPPELKOPF: "trick of 40 or more (Doppelkopf)",
    SpecialKind.FOX_LAST_TRICK: "last trick won with DA (Fuchs)",
    SpecialKind.FOX_CAUGHT_LAST_TRICK: "DA caught in the last trick (Fuchs)",
    SpecialKind.DULLE_CAUGHT_DULLE: "H10 caught with H10 (Dulle)",
    SpecialKind.HEART_TRICK: "trick of four hearts (heart trick)",
}
_SPECIAL_WORD = {
    SpecialKind.FOX_CAUGHT: msg("fox caught (Fuchs)"),
    SpecialKind.KARLCHEN: msg("last trick won with CJ (Karlchen)"),
    SpecialKind.KARLCHEN_CAPTURED: msg("CJ caught in the last trick (Karlchen)"),
    SpecialKind.DOPPELKOPF: msg("trick of 40 or more (Doppelkopf)"),
    SpecialKind.FOX_LAST_TRICK: msg("last trick won with DA (Fuchs)"),
    SpecialKind.FOX_CAUGHT_LAST_TRICK: msg("DA caught in the last trick (Fuchs)"),
    SpecialKind.DULLE_CAUGHT_DULLE: msg("H10 caught with H10 (Dulle)"),
    SpecialKind.HEART_TRICK: msg("trick of four hearts (heart trick)"),
}
_CAUGHT = frozenset(
    {
        SpecialKind.FOX_CAUGHT,
        SpecialKind.KARLCHEN_CAPTURED,
        SpecialKind.FOX_CAUGHT_LAST_TRICK,
        SpecialKind.DULLE_CAUGHT_DULLE,
    }
)
_LAST_TRICK = frozenset(
    {
        SpecialKind.KARLCHEN,
        SpecialKind.KARLCHEN_CAPTURED,
        SpecialKind.FOX_LAST_TRICK,
        SpecialKind.FOX_CAUGHT_LAST_TRICK,
    }
)
_SPECIAL_ALIASES = {
    SpecialKind.FOX_CAUGHT: ("fox", "fox caught", "fuchs", "fuchs gefangen"),
    SpecialKind.KARLCHEN: ("karlchen", "charlie", "karlchen won"),
    SpecialKind.KARLCHEN_CAPTURED: ("karlchen caught", "karlchen gefangen", "charlie caught", "charlie captured"),
    SpecialKind.DOPPELKOPF: ("doppelkopf", "doko"),
    SpecialKind.FOX_LAST_TRICK: ("fox last trick", "fuchs letzter stich"),
    SpecialKind.FOX_CAUGHT_LAST_TRICK: ("fox caught last trick", "caught fox last trick"),
    SpecialKind.DULLE_CAUGHT_DULLE: ("dulle caught", "dolle caught dolle", "dulle fängt dulle"),
    SpecialKind.HEART_TRICK: ("heart trick", "herzstich"),
}
_SPECIAL_BY_KEY: dict[str, SpecialKind] = {name_key(k.value): k for k in SpecialKind} | {
    name_key(alias): kind for kind, aliases in _SPECIAL_ALIASES.items() for alias in aliases
}


def special_kind_named(text: str) -> SpecialKind | None:
    """The special point a text names, without regard to case, as docs/rules.md §7 names them:
    the canonical name (`fox_caught`), a short or German one (`fox`, `Fuchs`, `Karlchen`,
    `charlie`, `karlchen caught`, `doko`); None for any other text."""
    return _SPECIAL_BY_KEY.get(name_key(text))


RECORDED = msg("recorded")
"""What earned a special point recorded without its cards: the record says so."""


@frozen
class Special:
    """One special point a party earned, and what earned it: `because` in words (`trick 8:
    Dirk caught Clara's DA`, rendered in the reader's language), and where, for a file that
    names the players by seat: the `trick` (None: recorded without cards) and the seat
    `from_seat` whose card was caught (None: no card caught, or not recorded whose)."""

    kind: SpecialKind
    party: Party
    because: Message = field(default=RECORDED, compare=False, repr=False)
    trick: int | None = None
    from_seat: int | None = None

    @property
    def cause(self) -> str:
        """`because` in English, as the JSON and the read models keep it."""
        return render(self.because, "en")


Cause = Message | str | tuple[str, Message]
"""Who announced a call, or what implied it: a player's name, a message, or a message beside
the English words the read models and the JSON keep for it where those differ from the
message in English."""


@frozen
class DealFacts:
    """What scoring needs of a deal: the game, Re's card points, the tricks each party
    won, each party's highest announced level (-1 none, 0 Re/Kontra, 1 no 90 … 4 schwarz),
    the special points earned in play (before the rules decide which count), and whether a
    trick of four hearts that are not trumps was played (a bock trigger, docs/rules.md §9)."""

    game_type: GameType
    lone: bool
    re_points: int
    re_tricks: int
    kontra_tricks: int
    announced: dict[Party, int]
    specials: tuple[Special, ...] = ()
    causes: dict[tuple[Party, int], Cause] = field(default_factory=dict)
    tricks_known: bool = True
    heart_trick: bool = False

    def points(self, party: Party) -> int:
        return self.re_points if party is Party.RE else 240 - self.re_points

    def tricks(self, party: Party) -> int:
        return self.re_tricks if party is Party.RE else self.kontra_tricks

    def level(self, party: Party) -> int:
        # by identity rather than `announced.get(party, -1)`: an Enum's hash is a Python call
        for key, value in self.announced.items():
            if key is party:
                return value
        return -1


@frozen
class ScoreLine:
    """One item of the derivation: `points` for `party`, or a doubling (`factor` 2).

    `item` and `cause` are the line's stable English words, as the JSON and the files give
    them; `words` and `because`, where the line has them, are the same as messages, for a
    reader in another language (`shown` and `shown_cause` give either)."""

    item: str
    party: Party | None
    points: int = 0
    factor: int = 1
    cause: str = ""
    special: bool = False
    words: Message | None = field(default=None, compare=False, repr=False)
    because: Message | None = field(default=None, compare=False, repr=False)
    earned: Special | None = field(default=None, compare=False, repr=False)
    """For a special point, the special point itself: where it was earned, and from whom."""

    @property
    def shown(self) -> Message | str:
        """The item in the reader's language (`render` it), or its English words."""
        return self.item if self.words is None else self.words

    @property
    def shown_cause(self) -> Message | str:
        """The cause in the reader's language (`render` it), or its English words."""
        return self.cause if self.because is None else self.because


@frozen
class Score:
    """The result: the winner (None: nobody), the derivation, and the value for Re per
    two-against-two share (negative when Re loses); a lone player gets three shares."""

    winner: Party | None
    lines: tuple[ScoreLine, ...]
    re_value: int
    lone: bool

    @property
    def value(self) -> int:
        """What each winner gets per share (may be negative, docs/rules.md §7); Re's net when nobody wins."""
        return -self.re_value if self.winner is Party.KONTRA else self.re_value

    def deltas(self, re_seats: Sequence[int], seats: Sequence[int]) -> dict[int, int]:
        """Points per seat; they always sum to zero. A lone Re player gets three shares."""
        re_share = self.re_value * (3 if self.lone else 1)
        out = {}
        for seat in seats:
            out[seat] = re_share if seat in re_seats else -self.re_value
        if self.lone and len(re_seats) != 1:
            raise ValueError("a lone game has one Re player")
        return out


# -- who wins (docs/rules.md §6) ---------------------------------------------------
#
# The helpers below take a party by its index in `_PARTIES` (0 Re, 1 Kontra) and a `_Deal`:
# the facts' levels, card points and tricks read once per score rather than on every test.

_RE, _KONTRA = 0, 1


class _Deal:
    """`facts` with each party's announced level, card points and tricks by party index."""

    __slots__ = ("facts", "levels", "points", "tricks")

    def __init__(self, facts: DealFacts) -> None:
        self.facts = facts
        self.levels = (facts.level(Party.RE), facts.level(Party.KONTRA))
        self.points = (facts.re_points, 240 - facts.re_points)
        self.tricks = (facts.re_tricks, facts.kontra_tricks)


def _index(party: Party) -> int:
    return _RE if party is Party.RE else _KONTRA


def own_target(facts: DealFacts, party: Party) -> str:
    """The party's own target, for the derivation."""
    return _own_target(_Deal(facts), _index(party))


def _own_target(deal: _Deal, i: int) -> str:
    level = deal.levels[i]
    if level >= 4:
        return "every trick"
    if level >= 1:
        return f"{OWN_TARGETS[level - 1]}"
    return f"{_base_target(deal, i)}"


def _goal(deal: _Deal, i: int) -> tuple[str, Message, bool]:
    """What the party had to do (docs/rules.md §6), in English and as a message, and whether it
    did: its own target, or, when only the other party denied, to break that denial."""
    other = 1 - i
    other_level = deal.levels[other]
    if deal.levels[i] < 1 and other_level >= 1:
        step = other_level - 1
        denial, words = _DENIAL_LABELS[step], DENIALS[step]
        if step == 3:
            said = msg("one trick against {party}'s {call}", party=_PARTIES[other], call=words)
            return f"one trick against {_TITLES[other]}'s {denial}", said, deal.tricks[i] > 0
        said = msg("{points} against {party}'s {call}", points=THRESHOLDS[step], party=_PARTIES[other], call=words)
        return f"{THRESHOLDS[step]} against {_TITLES[other]}'s {denial}", said, deal.points[i] >= THRESHOLDS[step]
    target = _own_target(deal, i)
    said = msg("target every trick") if deal.levels[i] >= 4 else msg("target {points}", points=target)
    return f"target {target}", said, _reaches_target(deal, i)


def _base_target(deal: _Deal, i: int) -> int:
    """121 for Re and 120 for Kontra, swapped when only Kontra announced (docs/rules.md §6)."""
    kontra_only = deal.levels[_KONTRA] >= 0 and deal.levels[_RE] < 0
    if i == _RE:
        return 120 if kontra_only else 121
    return 121 if kontra_only else 120


def reaches_target(facts: DealFacts, party: Party) -> bool:
    return _reaches_target(_Deal(facts), _index(party))


def _reaches_target(deal: _Deal, i: int) -> bool:
    level = deal.levels[i]
    if level >= 4:
        return deal.tricks[1 - i] == 0
    if level >= 1:
        return deal.points[i] >= OWN_TARGETS[level - 1]
    return deal.points[i] >= _base_target(deal, i)


def winner(facts: DealFacts) -> Party | None:
    """Who wins: the party that reaches its target; when both denied and both miss, nobody."""
    i = _winner(_Deal(facts))
    return None if i is None else _PARTIES[i]


def _winner(deal: _Deal) -> int | None:
    re_denied, kontra_denied = deal.levels[_RE] >= 1, deal.levels[_KONTRA] >= 1
    if re_denied and kontra_denied:
        for i in (_RE, _KONTRA):
            if _reaches_target(deal, i):
                return i
        return None
    if kontra_denied:
        return _KONTRA if _reaches_target(deal, _KONTRA) else _RE
    return _RE if _reaches_target(deal, _RE) else _KONTRA


# -- game value (docs/rules.md §7, §8 ddv) ------------------------------------------


def _below(deal: _Deal, i: int, step: int) -> bool:
    """Party `i` stayed below the threshold of denial `step` (0: no 90 … 3: schwarz)."""
    if step == 3:
        return deal.tricks[i] == 0
    return deal.points[i] < THRESHOLDS[step]


def _threshold_lines(deal: _Deal, i: int, rules: RuleSet, won: bool) -> list[ScoreLine]:
    """The no 90 … schwarz items party `i` scores against the other party."""
    other = 1 - i
    party = _PARTIES[i]
    title, other_title = _TITLES[i], _TITLES[other]
    own_level, other_level = deal.levels[i], deal.levels[other]
    causes = deal.facts.causes
    ddv = rules.scoring == "ddv"
    lines: list[ScoreLine] = []
    other_party = _PARTIES[other]
    for step, name in enumerate(_DENIAL_LABELS):
        level, call = step + 1, DENIALS[step]
        if _below(deal, other, step):
            if step == 3:
                what, words = "no trick", msg("{party} no trick", party=other_party)
            else:
                what = f"below {THRESHOLDS[step]}"
                words = msg("{party} below {points}", party=other_party, points=THRESHOLDS[step])
            took, took_words = _took(deal, other)
            lines.append(
                ScoreLine(
                    f"{other_title} {what}",
                    party,
                    1,
                    cause=f"{other_title} took {took}",
                    words=words,
                    because=msg("{party} took {took}", party=other_party, took=took_words),
                )
            )
        if ddv:
            if won:
                for announcer in (i, other):
                    if deal.levels[announcer] >= level:
                        cause, because = _called(causes, _PARTIES[announcer], level)
                        words = msg("{call} announced by {party}", call=call, party=_PARTIES[announcer])
                        item = f"{name} announced by {_TITLES[announcer]}"
                        lines.append(ScoreLine(item, party, 1, cause=cause, words=words, because=because))
            if other_level >= level and deal.points[i] >= AGAINST_DENIAL[step]:
                took, took_words = _took(deal, i)
                lines.append(
                    ScoreLine(
                        f"{AGAINST_DENIAL[step]} reached against {other_title}'s {name}",
                        party,
                        1,
                        cause=f"{title} took {took}",
                        words=msg(
                            "{points} reached against {party}'s {call}",
                            points=AGAINST_DENIAL[step],
                            party=other_party,
                            call=call,
                        ),
                        because=msg("{party} took {took}", party=party, took=took_words),
                    )
                )
        else:
            if own_level >= level:
                cause, because = _called(causes, party, level)
                words = msg("{call} announced by {party}", call=call, party=party)
                item = f"{name} announced by {title}"
                lines.append(ScoreLine(item, party, 1, cause=cause, words=words, because=because))
            if other_level >= level and not _below(deal, i, step):
                cause, because = _called(causes, other_party, level)
                words = msg("{party}'s {call} missed", party=other_party, call=call)
                item = f"{other_title}'s {name} missed"
                lines.append(ScoreLine(item, party, 2, cause=cause, words=words, because=because))
    return lines


def _called(causes: dict[tuple[Party, int], Cause], party: Party, level: int) -> tuple[str, Message | None]:
    """Who announced `party`'s `level`, or what implied it, in English and as a message (none for
    a player's name alone, or for a level nobody announced)."""
    said = causes.get((party, level), "")
    if isinstance(said, tuple):
        return said
    if isinstance(said, Message):
        return render(said, "en"), said
    return said, None


def _took(deal: _Deal, i: int) -> tuple[str, Message]:
    """What party `i` took, in English and as a message: `130 card points in 7 tricks`."""
    points = deal.points[i]
    if not deal.facts.tricks_known:
        return f"{points} card points", msg("{points} card points", points=points)
    tricks = deal.tricks[i]
    words = plural(
        "{points} card points in {count} trick", "{points} card points in {count} tricks", tricks, points=points
    )
    return f"{points} card points in {tricks} trick{'' if tricks == 1 else 's'}", words


def special_points_count(game_type: GameType, lone: bool, rules: RuleSet) -> bool:
    """Special points count in a deal of `game_type` (`lone`: one against three, a lone marriage
    included): in no solo, and in a poverty only where the rules say (docs/rules.md §7; §8 ddv
    and bistro); in a lone marriage, with `lone_marriage_specials`, those of its first tricks."""
    if lone and game_type is GameType.MARRIAGE and rules.lone_marriage_specials:
        return True  # the tricks up to the one that left the marriage player alone (docs/rules.md §4)
    if lone or game_type.is_solo:
        return False
    return not (game_type is GameType.POVERTY and not rules.special_points_in_poverty)


def special_lines(facts: DealFacts, rules: RuleSet) -> list[ScoreLine]:
    if not facts.specials or not special_points_count(facts.game_type, facts.lone, rules):
        return []
    lines = []
    seen: dict[SpecialKind, int] = {}
    for special in facts.specials:
        kind = special.kind
        seen[kind] = nth = seen.get(kind, 0) + 1
        if kind is SpecialKind.KARLCHEN_CAPTURED and not rules.karlchen_capture:
            continue
        karlchen = kind in (SpecialKind.KARLCHEN, SpecialKind.KARLCHEN_CAPTURED)
        if karlchen and facts.game_type is GameType.POVERTY and not rules.karlchen_in_poverty:
            continue
        if not special_counts(kind, nth, rules):
            continue
        lines.append(
            ScoreLine(
                kind.label,
                special.party,
                1,
                cause=special.cause,
                special=True,
                words=kind.word,
                because=special.because,
                earned=special,
            )
        )
    return lines


def special_counts(kind: SpecialKind, nth: int, rules: RuleSet) -> bool:
    """Whether the `nth` special point of `kind` in a deal counts under the extra point options
    (docs/rules.md §7): a second Karlchen, a second fox in the last trick and a second Karlchen
    caught each need their own option."""
    match kind:
        case SpecialKind.FOX_CAUGHT:
            return rules.fox_caught
        case SpecialKind.FOX_CAUGHT_LAST_TRICK:
            return rules.fox_caught and rules.fox_caught_last_trick
        case SpecialKind.FOX_LAST_TRICK:
            return rules.fox_last_trick and (nth == 1 or rules.double_fox_last_trick)
        case SpecialKind.KARLCHEN:
            return rules.karlchen and (nth == 1 or rules.double_karlchen)
        case SpecialKind.KARLCHEN_CAPTURED:
            return nth == 1 or rules.karlchen_captured_twice
        case SpecialKind.DULLE_CAUGHT_DULLE:
            return rules.dulle_caught_dulle
        case SpecialKind.HEART_TRICK:
            return rules.heart_trick_point
    return True


def score(facts: DealFacts, rules: RuleSet) -> Score:
    """The score of a deal with its derivation (docs/rules.md §6-§8)."""
    deal = _Deal(facts)
    won = _winner(deal)
    lines: list[ScoreLine] = []
    for i, party in enumerate(_PARTIES):
        goal, goal_words, reached = _goal(deal, i)
        title = _TITLES[i]
        took, took_words = _took(deal, i)
        cause = f"{title} took {took}; " + ("reached" if reached else "missed")
        if reached:
            result = msg("{party} took {took}; reached", party=party, took=took_words)
        else:
            result = msg("{party} took {took}; missed", party=party, took=took_words)
        words = msg("{party}'s goal: {goal}", party=party, goal=goal_words)
        lines.append(ScoreLine(f"{title}'s goal: {goal}", party, 0, cause=cause, words=words, because=result))
    specials = special_lines(facts, rules)
    if won is None:
        if rules.scoring == "ddv":
            for i in (_RE, _KONTRA):
                lines += _threshold_lines(deal, i, rules, won=False)
        lines += specials
        re_value = _net(lines, Party.RE, rules, doubling=False)
        return Score(None, tuple(lines), re_value, facts.lone)
    winning = _PARTIES[won]
    lines.append(ScoreLine("won", winning, 1, words=msg("won")))
    aold = won == _KONTRA and not facts.lone and not facts.game_type.is_solo
    if aold and rules.scoring == "ddv":
        aold = special_points_count(facts.game_type, facts.lone, rules)
    if aold:
        old_ones = msg("against the old ones")
        lines.append(
            ScoreLine("against the old ones", winning, 1, special=_old_ones_after_doubling(rules), words=old_ones)
        )
    for i, party in enumerate(_PARTIES):
        if deal.levels[i] >= 0:
            cause, because = _called(facts.causes, party, 0)
            if rules.announcement_scoring == "doubling":
                words = msg("{party} announced: doubles", party=party)
                item = f"{_TITLES[i]} announced: doubles"
                lines.append(ScoreLine(item, winning, 0, factor=2, cause=cause, words=words, because=because))
            else:
                words = msg("{party} announced", party=party)
                item = f"{_TITLES[i]} announced"
                lines.append(ScoreLine(item, winning, 2, cause=cause, words=words, because=because))
    lines += _threshold_lines(deal, won, rules, won=True)
    lines += specials
    net = _net(lines, winning, rules, doubling=rules.announcement_scoring == "doubling")
    return Score(winning, tuple(lines), net if won == _RE else -net, facts.lone)


def _old_ones_after_doubling(rules: RuleSet) -> bool:
    """Under doubling, the point against the old ones is added after the doubling, as a special
    point; with `against_old_ones_doubled` it is a game point and doubled (docs/rules.md §7)."""
    return rules.announcement_scoring == "doubling" and not rules.against_old_ones_doubled


def _net(lines: list[ScoreLine], party: Party, rules: RuleSet, doubling: bool) -> int:
    """`party`'s points minus the other party's, doublings applied (docs/rules.md §7)."""
    factor, game, specials = 1, 0, 0
    other = party.other
    for line in lines:
        factor *= line.factor
        if line.party is party:
            points = line.points
        elif line.party is other:
            points = -line.points
        else:
            continue
        if line.special:
            specials += points
        else:
            game += points
    if not doubling:
        return game + specials
    return game * factor + specials * (factor if rules.specials_doubled else 1)
