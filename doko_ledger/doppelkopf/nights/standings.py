"""The running table of a card night, and settling it up in money (docs/rules.md §9)."""

from __future__ import annotations

from decimal import Decimal

from doko_ledger.doppelkopf.nights.schedule import DealRow, NextDeal, NightChangeRow, Schedule
from doko_ledger.doppelkopf.nights.state import NightState
from doko_ledger.doppelkopf.rules.bock import BockCause
from doko_ledger.doppelkopf.rules.counting import money
from doko_ledger.doppelkopf.rules.ruleset import Counting, RuleSet
from doko_ledger.frozen import frozen


@frozen
class PlayerStanding:
    """One player's night: points, deals played and won, solos played and won, a solo owed."""

    player: str
    total: int
    played: int
    won: int
    solos: int
    solos_won: int
    owes_solo: bool
    money: Decimal | None


@frozen
class Standings:
    """A night's sheet: `players` everyone who sat at the table (in seat order), each deal's
    row, each player's standing, the next deal, and the bock rounds in force and queued;
    `seating` who is at the table now, `rules` the rules in force now, `changes` the night's
    changes in order, where each took effect."""

    session_id: str
    players: tuple[str, ...]
    rows: tuple[DealRow, ...]
    table: tuple[PlayerStanding, ...]
    next: NextDeal
    rate: Decimal | None
    closed: bool
    bock_deals_left: int
    bock_causes: tuple[BockCause, ...] = ()
    """Why bock is in force or queued after the last deal: the rounds in force first, then the queue."""
    seating: tuple[str, ...] = ()
    rules: RuleSet = RuleSet()
    changes: tuple[NightChangeRow, ...] = ()
    zero_sum: bool = True
    """Every deal was counted `plus_minus`: the totals sum to zero, and money is the total times the rate."""

    @property
    def counting(self) -> Counting:
        """How the sheet counts from the next deal on."""
        return self.rules.counting


def standings(state: NightState, schedule: Schedule) -> Standings:
    """Per player sheet totals after the last deal, with what each deal contributed, and the
    money (docs/rules.md §9): the total times the rate while every deal was counted plus/minus, else each
    pair of players who played settles the difference of their totals."""
    rate = None if state.rate is None else Decimal(state.rate)
    everyone = schedule.everyone or state.everyone
    last = schedule.rows[-1].totals if schedule.rows else {}
    totals = {p: last.get(p, 0) for p in everyone}
    zero_sum = all(r.rules.counting == "plus_minus" for r in schedule.rows)
    scored = {p: t for p, t in totals.items() if any(p in r.playing for r in schedule.rows)}
    owed = {} if rate is None else money(scored, rate, zero_sum)
    table = []
    for player in everyone:
        rows = [r for r in schedule.rows if player in r.playing and r.outcome.finished]
        solos = [r for r in rows if r.outcome.solo_by == player]
        total = totals[player]
        table.append(
            PlayerStanding(
                player=player,
                total=total,
                played=len(rows),
                won=sum(1 for r in rows if r.outcome.won(player)),
                solos=len(solos),
                solos_won=sum(1 for r in solos if r.outcome.won(player)),
                owes_solo=player in schedule.owed,
                money=None if rate is None else owed.get(player, Decimal(0)),
            )
        )
    return Standings(
        state.session_id,
        everyone,
        schedule.rows,
        tuple(table),
        schedule.next,
        rate,
        state.closed,
        schedule.bock_deals_left,
        schedule.bock_causes,
        schedule.seating,
        schedule.rules,
        schedule.changes,
        zero_sum,
    )


def payments(night: Standings) -> list[Payment]:
    """Who pays whom to settle the night: in money with a rate, else in points (the same
    settling as `money`, at one point a point)."""
    if night.rate is not None:
        return settle({s.player: s.money for s in night.table if s.money is not None})
    played = {s.player: s.total for s in night.table if s.played or any(s.player in r.playing for r in night.rows)}
    return settle(money(played, Decimal(1), night.zero_sum))


@frozen
class Payment:
    payer: str
    payee: str
    amount: Decimal


def settle(balances: dict[str, Decimal]) -> list[Payment]:
    """Who pays whom, in the fewest payments. Settling k players among themselves takes k - 1
    payments, so the fewest come from splitting the players into as many groups that each
    sum to zero as possible: found exactly over all subsets (a table has at most 7 players)."""
    names = sorted(p for p, b in balances.items() if b != 0)
    if sum(balances[p] for p in names) != 0:
        raise ValueError(f"balances do not sum to zero: {sum(balances[p] for p in names)}")
    payments: list[Payment] = []
    for group in _zero_groups(names, balances):
        payments += _settle_group({p: balances[p] for p in group})
    return payments


def _zero_groups(names: list[str], balances: dict[str, Decimal]) -> list[tuple[str, ...]]:
    """The partition of `names` into the most zero-sum groups (dynamic programming over subsets)."""
    n = len(names)
    full = (1 << n) - 1
    total = [Decimal(0)] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + balances[names[low]]
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for mask in range(1, full + 1):
        if total[mask] != 0:
            continue
        low = mask & -mask  # every group containing the lowest member, to count each partition once
        sub = mask
        choice: tuple[int, list[int]] | None = None
        while sub:
            if sub & low and total[sub] == 0 and (mask ^ sub) in best:
                count, groups = best[mask ^ sub]
                if choice is None or count + 1 > choice[0]:
                    choice = (count + 1, [*groups, sub])
            sub = (sub - 1) & mask
        if choice is not None:
            best[mask] = choice
    return [tuple(names[i] for i in range(n) if group >> i & 1) for group in best[full][1]]


def _settle_group(balances: dict[str, Decimal]) -> list[Payment]:
    debtors = sorted((p for p in balances if balances[p] < 0), key=lambda p: (balances[p], p))
    creditors = sorted((p for p in balances if balances[p] > 0), key=lambda p: (-balances[p], p))
    owe = {p: -balances[p] for p in debtors}
    due = {p: balances[p] for p in creditors}
    out = []
    while debtors and creditors:
        payer, payee = debtors[0], creditors[0]
        amount = min(owe[payer], due[payee])
        out.append(Payment(payer, payee, amount))
        owe[payer] -= amount
        due[payee] -= amount
        if owe[payer] == 0:
            debtors.pop(0)
        if due[payee] == 0:
            creditors.pop(0)
    return out
