"""What the round commands print of a round: its tables (who sits where, who deals first, how
far each has played, how a table's seating changed mid-round), a plan just made (what it could
not avoid, the substitutes, a duplicate round's deals) and duplicate rounds' matchpoints.

# Deferred imports: the store and the tournament's scoring load inside the functions that use
# them, so `mighty --help` starts quickly (tests/test_imports.py).
"""

from __future__ import annotations

import click

from ..i18n import _, ngettext
from .options import echo_json
from .round_plans import plan_lines


def tables_lines(state) -> list[str]:
    """The round's tables, a line each: a plan just made names who deals first; a round
    under way, each table's hands and whether it still plays."""
    lines = []
    for table in state.tables:
        if state.repeated_pairs is not None:  # just planned: the first dealer leads the list
            lines.append(
                _("Table {table} (session {session}): {players}; {dealer} deals first").format(
                    table=table.table,
                    session=table.session,
                    players=", ".join(table.players),
                    dealer=table.players[0],
                )
            )
            continue
        progress = ngettext("{count} hand", "{count} hands", table.hands).format(count=table.hands)
        status = (
            _("playing, a hand in progress")
            if table.playing and table.hand_in_progress
            else _("playing")
            if table.playing
            else _("ended")
        )
        lines.append(
            _("Table {table} (session {session}): {players}; {progress}, {status}").format(
                table=table.table,
                session=table.session,
                players=", ".join(table.players),
                progress=progress,
                status=status,
            )
        )
        lines += change_lines(table)
    return lines


def change_lines(table) -> list[str]:
    """How a table's seating changed mid-round (``round seat``), a line each."""
    lines = []
    for change in table.changes:
        parts = (
            [_("{names} left").format(names=", ".join(change.left))] if change.left else []
        ) + ([_("{names} joined").format(names=", ".join(change.joined))] if change.joined else [])
        lines.append(
            "  "
            + _("from its hand {hand} (session {session}): {changes}").format(
                hand=change.from_hand, session=change.session, changes="; ".join(parts)
            )
        )
    return lines


def print_plan(state, league_name: str, as_json: bool, heading: str) -> None:
    """A round just planned: its tables, its repeated pairs and their lower bound."""
    if as_json:
        data = state.to_json()
        data["tables"] = [
            {"table": t["table"], "session": t["session"], "players": t["players"]}
            for t in data["tables"]
        ]
        echo_json(data)
        return
    click.echo(heading.format(number=state.number, league=league_name, count=len(state.tables)))
    for line in tables_lines(state):
        click.echo(line)
    click.echo(
        ngettext(
            "{count} pair meets again; the fewest possible is {bound}.",
            "{count} pairs meet again; the fewest possible is {bound}.",
            state.repeated_pairs,
        ).format(count=state.repeated_pairs, bound=state.lower_bound)
    )
    if state.repeated_pairs > state.lower_bound:
        click.echo(
            _(
                "(The plan first keeps pairs from sitting together in every round and "
                "from meeting a third time, then seats the fewest pairs again.)"
            )
        )
    for a, b in state.broken_apart:
        click.echo(_("Could not keep {a} and {b} apart.").format(a=a, b=b))
    for line in plan_lines(state) + substitute_lines(state) + duplicate_lines(state):
        click.echo(line)
    if state.ahead:
        click.echo(
            ngettext(
                "Planned together with the next round: it is taken as planned "
                "when the same players come.",
                "Planned together with the next {count} rounds: each is taken as "
                "planned when the same players come.",
                state.ahead,
            ).format(count=state.ahead)
        )


def substitute_lines(state) -> list[str]:
    """Who sits in for whom, at which table, from which of its hands."""
    from ..store.rounds.substitutes import seated_substitutions  # the store: loaded by the command

    return [
        (
            _(
                "{sub} sits in for {absent} at table {table} from hand {hand}: the results "
                "count for {absent} in the tournament table."
            )
            if x.credited
            else _(
                "{sub} sits in for {absent} at table {table} from hand {hand}: the results are "
                "{sub}'s own, kept apart from {absent}'s."
            )
        ).format(sub=x.player, absent=x.absent, table=x.table, hand=x.from_hand)
        for x in seated_substitutions(
            ((table.table, table.players) for table in state.tables), state.substitutes
        )
    ]


def duplicate_lines(state) -> list[str]:
    """A duplicate round's deals: which tables play the same cards, and a table that has no
    other of its size to be compared with."""
    if state.deal_seed is None:
        return []
    lines = [
        _(
            "Duplicate: every table of one size deals the same cards from seed {seed}, "
            "deal 1 from the first seat, deal 2 from the next, and so on."
        ).format(seed=state.deal_seed)
    ]
    sizes: dict[int, list[int]] = {}
    for table in state.tables:
        sizes.setdefault(len(table.players), []).append(table.table)
    for size, tables in sorted(sizes.items()):
        if len(tables) == 1:
            lines.append(
                _(
                    "Table {table} is the one table of {size}: its deals are compared with none."
                ).format(table=tables[0], size=size)
            )
    return lines


def matchpoint_lines(rows) -> list[str]:
    """Duplicate rounds' matchpoints, best first (equal results share a place)."""
    from ..tournament.matchpoints import places

    lines = [
        _(
            "Matchpoints (each seat against the others who held the same cards: 1 for a "
            "result beaten, 1/2 for a tie):"
        )
    ]
    for place, row in zip(places(rows), rows):
        if place is None:
            lines.append(_("  {player}: nothing compared yet").format(player=row.player))
            continue
        lines.append(
            ngettext(
                "  {place}. {player}: {mp:g} of {top} ({percent:.1f}%), {deals} deal compared",
                "  {place}. {player}: {mp:g} of {top} ({percent:.1f}%), {deals} deals compared",
                row.deals,
            ).format(
                place=place,
                player=row.player,
                mp=row.matchpoints,
                top=row.top,
                percent=row.percent,
                deals=row.deals,
            )
        )
    return lines
