"""Rounds planned ahead (``round start --rounds R``): a plan's later rounds are kept in
``planned_table`` with the round the plan began at and its length; at its round a planned round
is taken as planned when nothing changed (``--rounds R`` given again with the same R, or not
given), and the rounds still ahead are planned again, saying why, when ``--rounds`` says
another length, when the players present are not those planned, or when a pair to keep apart
shares a planned table.

Each function works inside the caller's transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlmodel import Session, select

from ..models import PlannedTable

Round = list[tuple[str, ...]]


@dataclass
class PlanChange:
    """Why the rounds ahead were planned again: ``--rounds`` said another length (the plan's
    and the new), players planned but not present, players present but not planned, pairs to
    keep apart that the planned round seated together."""

    rounds: tuple[int, int] | None = None
    missing: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    apart: list[tuple[str, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.rounds or self.missing or self.new or self.apart)

    def to_json(self) -> dict:
        return {
            "rounds": list(self.rounds) if self.rounds else None,
            "missing": self.missing,
            "new": self.new,
            "apart": [list(p) for p in self.apart],
        }


@dataclass
class PlanStep:
    """What ``round start`` does with the rounds planned ahead: take the planned round
    (``tables``) or plan ``count`` rounds from this one, the plan beginning at round ``first``
    and planning ``rounds`` in all (None: a plan kept by an earlier release, of unknown
    length), and why it plans again (``change``)."""

    tables: Round | None
    count: int
    first: int
    rounds: int | None
    change: PlanChange


def planned_rounds(s: Session, league_id: int, first: int) -> list[Round]:
    """The rounds planned ahead from round ``first`` on, in order, each its tables' players."""
    rounds: dict[int, Round] = {}
    for row in s.exec(
        select(PlannedTable)
        .where(PlannedTable.league_id == league_id, PlannedTable.round_number >= first)
        .order_by(PlannedTable.round_number, PlannedTable.table_number)
    ).all():
        rounds.setdefault(row.round_number, []).append(tuple(json.loads(row.players)))
    return [rounds[n] for n in sorted(rounds)]


def plan_span(s: Session, league_id: int, number: int) -> tuple[int | None, int | None]:
    """The first round and the length of the plan that holds round ``number`` (None, None for
    a plan kept by an earlier release, or no plan)."""
    row = s.exec(
        select(PlannedTable).where(
            PlannedTable.league_id == league_id, PlannedTable.round_number == number
        )
    ).first()
    return (row.plan_first, row.plan_rounds) if row is not None else (None, None)


def next_step(
    ahead: Sequence[Round],
    span: tuple[int | None, int | None],
    names: Sequence[str],
    rounds: int | None,
    apart: Sequence[tuple[str, str]],
    number: int,
) -> PlanStep:
    """Take round ``number`` as planned (``ahead[0]``), or plan it and the rounds after again:
    ``rounds`` is the plan's length counted from its first round (the same R at every round
    keeps the plan); a length the plan has already passed starts a new plan here."""
    first, length = span
    if not ahead:
        return PlanStep(None, rounds or 1, number, rounds, PlanChange())
    planned = {name for table in ahead[0] for name in table}
    change = PlanChange(
        missing=sorted(planned - set(names)),
        new=sorted(set(names) - planned),
        apart=sorted(
            {(min(a, b), max(a, b)) for a, b in apart if any({a, b} <= set(t) for t in ahead[0])}
        ),
    )
    if rounds is not None and length is not None and rounds != length:
        change.rounds = (length, rounds)
    if not change:
        return PlanStep(ahead[0], 1, first if first is not None else number, length, change)
    if first is None or length is None:  # a plan of unknown length: its rounds ahead again
        return PlanStep(None, max(len(ahead), rounds or 1), number, None, change)
    length = rounds if rounds is not None else length
    if first + length - number < 1:  # shorter than the rounds already played: a new plan
        return PlanStep(None, length, number, length, change)
    return PlanStep(None, first + length - number, first, length, change)


def keep_planned(
    s: Session, league_id: int, number: int, later: Sequence[Round], first: int, rounds: int | None
) -> None:
    """Keep ``later``, the rounds planned after round ``number``, in place of any planned
    before (the plan began at round ``first`` and plans ``rounds``)."""
    drop_planned(s, league_id, number)
    for offset, tables in enumerate(later, start=1):
        for index, table in enumerate(tables, start=1):
            s.add(
                PlannedTable(
                    league_id=league_id,
                    round_number=number + offset,
                    table_number=index,
                    players=json.dumps(list(table)),
                    plan_first=first,
                    plan_rounds=rounds,
                )
            )
    s.flush()


def drop_planned(s: Session, league_id: int, number: int) -> int:
    """Forget the rounds planned from round ``number`` on; how many there were."""
    rows = s.exec(
        select(PlannedTable).where(
            PlannedTable.league_id == league_id, PlannedTable.round_number >= number
        )
    ).all()
    for row in rows:
        s.delete(row)
    s.flush()
    return len({row.round_number for row in rows})
