"""FreeDoko's own result for a game, as the claim that travels with the imported game.

FreeDoko's summary gives the winning team, the game value (`points`), every special point
with its value, and (in the `corpus` block) each player's points as its counting wrote them.
The claim keeps FreeDoko's words for each line and says what each is in doko's derivation,
so `doko audit` can set the two side by side without knowing FreeDoko.
"""

from __future__ import annotations

from doko_ledger.doppelkopf.events import ClaimedLine, ResultClaimed
from doko_ledger.doppelkopf.files.freedoko.log import GameLog, SpecialPoint, Summary
from doko_ledger.doppelkopf.rules.announcements import Party

SOURCE = "FreeDoko"
TEAMS = {"re": Party.RE, "contra": Party.KONTRA}

KINDS: dict[str, str] = {
    "won": "won",
    "contra won": "against_the_old_ones",
    "no 90": "game_points",
    "no 60": "game_points",
    "no 30": "game_points",
    "no 0": "game_points",
    "no 90 said": "game_points",
    "no 60 said": "game_points",
    "no 30 said": "game_points",
    "no 0 said": "game_points",
    "got 120 against no 90": "game_points",
    "got 90 against no 60": "game_points",
    "got 60 against no 30": "game_points",
    "got 30 against no 0": "game_points",
    "caught fox": "fox_caught",
    "charlie": "karlchen",
    "caught charlie": "karlchen_captured",
    "Doppelkopf": "doppelkopf",
    "fox last trick": "fox_last_trick",
    "caught fox last trick": "fox_caught_last_trick",
    "dolle caught dolle": "dulle_caught_dulle",
    "heart trick": "heart_trick",
    "solo": "solo",
    "bock": "bock",
}
"""FreeDoko's special points by what they are in doko's derivation; `no 120 said` is a doubling
or two game points by the rules, and a name not here is kept as `other`."""


def _kind(point: SpecialPoint, doubling: bool) -> str:
    if point.name == "no 120 said":
        return "doubling" if doubling else "game_points"
    return KINDS.get(point.name, "other")


def points_of(summary: Summary) -> tuple[int, ...]:
    """Each seat's points plus and minus from FreeDoko's value and teams: the winners +value,
    the losers -value (nobody winning: the value is Re's), a lone player three times."""
    re_seats = [seat for seat, team in enumerate(summary.teams) if team == "re"]
    lone = len(re_seats) == 1
    re_value = -summary.points if summary.winner == "contra" else summary.points
    return tuple((re_value * (3 if lone else 1)) if team == "re" else -re_value for team in summary.teams)


def claim_of(log: GameLog, doubling: bool, origin: str) -> ResultClaimed | None:
    """FreeDoko's result as a claim (None for a log without its summary)."""
    summary = log.summary
    if summary is None:
        return None
    lines = tuple(ClaimedLine(p.name, _kind(p, doubling), TEAMS.get(p.counts_for), p.value) for p in summary.specials)
    return ResultClaimed(
        source=f"{SOURCE} {log.version}",
        origin=origin,
        points=points_of(summary),
        winner=TEAMS.get(summary.winner),
        value=summary.points,
        lines=lines,
        sheet=summary.player_points,
    )
