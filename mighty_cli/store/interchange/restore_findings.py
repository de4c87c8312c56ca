"""What a restore's check of the rows together is (:mod:`.restore_checks`,
:mod:`.restore_hand_checks`): a function of the session that finds the first row breaking its
rule, one query asking for one row (:func:`first_row`), and gives :data:`Found`: the table, the
row's key, the column and the problem, or None."""

from __future__ import annotations

from sqlmodel import Session

#: What a check finds: the table, the row's key (as a message shows it), the column, the problem.
Found = tuple[str, str, str, str] | None


def first_row(s: Session, query) -> tuple | None:
    return s.execute(query.limit(1)).first()  # a row, even of one column
