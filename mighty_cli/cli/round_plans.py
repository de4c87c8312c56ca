"""What ``round start`` says of its plan (the round's place in a plan of several, why the
rounds ahead were planned again, what the plan could not avoid), and the order it seats by
with ``--seat-by`` or ``--swiss`` (the tournament table, or the league's rating).

# Deferred imports: the store and the rating load inside the functions that read the league,
# so `mighty --help` starts quickly (tests/test_imports.py).
"""

from __future__ import annotations

from ..i18n import _, ngettext


def standing_order(s, league_name: str, by: str) -> dict[str, float]:
    """A number per player, higher better: ``standings``, minus the rank in the tournament
    table over the league's rounds (the league table before any round); ``rating``, the
    league's rating less two deviations (what ranks it)."""
    if by == "rating":
        from ..site import page_reads as site_queries
        from ..site.hand_ratings import league_ratings
        from ..store.ledger.lookups import get_league

        league = get_league(s, league_name)
        ratings = league_ratings(
            site_queries.rating_rows(s, league.id), site_queries.player_names(s, league.id)
        )
        return {player.name: player.conservative for player in ratings.players.values()}
    from ..store.ledger.queries import standings
    from ..store.rounds.round_board import tournament_standings

    rows = tournament_standings(s, league_name)
    if rows:
        return {row.name: -float(row.rank or 0) for row in rows}
    return {
        row.stats.name: -float(row.rank or 0)
        for row in standings(s, league_name).rows
        if row.rank is not None
    }


def plan_lines(state) -> list[str]:
    """The lines after a plan's repeated pairs: why the rounds ahead were planned again, the
    round's place in its plan, what the plan could not avoid, the rounds ahead dropped."""
    lines = []
    change = state.replanned
    if change:
        if change.rounds:
            lines.append(
                _("Planned again: the plan had {old} rounds, --rounds says {new}.").format(
                    old=change.rounds[0], new=change.rounds[1]
                )
            )
        if change.missing:
            lines.append(
                _("Planned again for the players present: {names} planned but not here.").format(
                    names=", ".join(change.missing)
                )
            )
        if change.new:
            lines.append(
                _("Planned again for the players present: {names} here but not planned.").format(
                    names=", ".join(change.new)
                )
            )
        for a, b in change.apart:
            lines.append(_("Planned again: {a} and {b} are to be kept apart.").format(a=a, b=b))
    if state.plan_round is not None:
        number, rounds = state.plan_round
        lines.append(
            _("Round {number} of {rounds} planned.").format(number=number, rounds=rounds)
            if rounds
            else _("Round {number} of a plan of several rounds.").format(number=number)
        )
    facts = state.facts
    if facts is not None:
        several = facts.rounds > 1 or state.plan_round is not None
        if several:
            lines.append(
                ngettext(
                    "Over the rounds planned from here: {count} repeated meeting.",
                    "Over the rounds planned from here: {count} repeated meetings.",
                    facts.repeats,
                ).format(count=facts.repeats)
                + " "
                + ngettext(
                    "A pair meets at most once.",
                    "A pair meets at most {count} times.",
                    facts.most_meetings,
                ).format(count=facts.most_meetings)
            )
        every = [(a, b, n) for a, b, n in facts.every_round if n >= 3]
        if every:
            lines.append(
                _("Could not avoid: together in every round they both played: {pairs}.").format(
                    pairs=_pairs(every)
                )
            )
        if facts.thrice:
            lines.append(
                _("Could not avoid: meeting a third time or more: {pairs}.").format(
                    pairs=_pairs(facts.thrice)
                )
            )
        if several and not every and not facts.thrice:
            lines.append(_("No pair sits together in every round, and none meets a third time."))
        if several and facts.sit_outs is not None:
            lines.append(
                _(
                    "At the larger tables (hands sat out in turn): {fewest} to {most} "
                    "rounds a player."
                ).format(fewest=facts.sit_outs[0], most=facts.sit_outs[1])
            )
    if state.dropped:
        lines.append(
            ngettext(
                "Seated by strength: the round planned ahead is dropped.",
                "Seated by strength: the {count} rounds planned ahead are dropped.",
                state.dropped,
            ).format(count=state.dropped)
        )
    return lines


def _pairs(pairs) -> str:
    return ", ".join(_("{a} and {b} ({count})").format(a=a, b=b, count=n) for a, b, n in pairs)
