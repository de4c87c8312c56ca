"""``mighty replay`` and ``mighty deal``: hand records without a database."""

from __future__ import annotations

import click

from ..engine.cards import format_bid, format_cards
from ..engine.deck import hand_seed  # noqa: F401  (evening.py imports it from here)
from ..engine.record import Record, ReplayResult, dump_record, iter_replay, record_ruleset
from ..engine.ruleset import load_ruleset
from ..engine.scoring import doubling_label
from ..engine.session import find_session_end
from ..i18n import N_, _, ngettext
from ..render.text import table
from .options import (echo_json, json_option, record_ruleset_option, ruleset_option,
                      write_output)


#: A hand's status in the replay table (its code name is what --json says).
STATUS_LABELS = {"scored": N_("scored"), "deal_miss": N_("deal miss"), "redeal": N_("redeal"),
                 "in_progress": N_("in progress")}
REPLAY_HEADERS = (N_("status"), N_("dealer"), N_("declarer"), N_("contract"), N_("friend"),
                  N_("taken"), N_("mult"), N_("doublings"))


@click.command()
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@record_ruleset_option
@json_option
def replay(path: str, ruleset_name: str | None, as_json: bool) -> None:
    """Check every hand of a record file card by card, and score it.

    A rule violation exits 1 with one line naming the hand, the trick, the player, the card and
    the rule. Nothing is written.

    \b
    Examples:
      mighty replay examples/run.toml
      mighty replay season.toml --json
      mighty replay shared/season.toml --ruleset ../our-club.toml
    """
    from pathlib import Path

    from ..engine.record_stream import stream_record

    record = stream_record(path)  # the fast reader
    # every hand read and checked before any is replayed (so a file's errors come in the same
    # order as ever), keeping only its session for the late-hand notes below; a file is then
    # read again to replay it, so memory does not grow with the file (a pipe is read once)
    if Path(path).is_file():
        sessions = [hand.get("session") for hand in record.hands]
        record = stream_record(path)
    else:
        record.hands = list(record.hands)
        sessions = [hand.get("session") for hand in record.hands]
    record.user_ruleset = ruleset_name
    rules = record_ruleset(record)
    totals = {player: 0 for player in record.players}
    outcomes = []
    for _hand, outcome in iter_replay(record, rules, totals):
        outcome.state = None  # a hand's final engine state is not shown: not kept either
        outcomes.append(outcome)
    result = ReplayResult(outcomes, totals, outcomes[-1].pot_after if outcomes else 0)
    if as_json:
        echo_json(result.to_json())
        return
    count = len(result.hands)
    click.echo(ngettext("{path}: {count} hand under {title} ({name})",
                        "{path}: {count} hands under {title} ({name})", count)
               .format(path=path, count=count, title=rules.meta.title, name=rules.name))
    rows = []
    for outcome in result.hands:
        score = outcome.score
        status = STATUS_LABELS.get(outcome.status)
        rows.append([outcome.index, _(status) if status else outcome.status,
                     outcome.dealer or "", outcome.declarer or "",
                     format_bid(outcome.contract) if outcome.contract else "",
                     outcome.friend or ("-" if outcome.status == "scored" else ""),
                     "" if outcome.taken is None else outcome.taken,
                     "" if score is None else f"×{score.multiplier}",
                     ", ".join(doubling_label(n) for n in score.doublings) if score else
                     (_("deal miss by {player}").format(player=outcome.deal_miss_player)
                      if outcome.deal_miss_player else "")]
                    + [f"{outcome.deltas.get(p, 0):+d}" for p in record.players])
    click.echo(table(["#"] + [_(h) for h in REPLAY_HEADERS] + list(record.players), rows,
                     align="><<<<<>><" + ">" * len(record.players)))
    click.echo(table([_("totals")] + list(record.players),
                     [[""] + [f"{result.totals[p]:+d}" for p in record.players]],
                     align="<" + ">" * len(record.players)))
    if result.pot:
        click.echo(_("deposit pot (공탁금) carried over: {pot}").format(pot=result.pot))
    for note in late_hands(sessions, result, rules):
        click.echo(_("note: {note}").format(note=note))


def late_hands(sessions: list, result, rules) -> list[str]:
    """Hands a record plays after its session's end (session.hands_per_session,
    session.starting_points): reported, not refused, since a record is what was played.
    ``sessions``: each hand's ``session`` key (None where it has none)."""
    groups: list[list] = []
    session = object()
    for hand_session, outcome in zip(sessions, result.hands):
        if not groups or hand_session != session:
            session = hand_session
            groups.append([])
        if outcome.status != "in_progress":
            groups[-1].append(outcome)
    notes = []
    for outcomes in groups:
        end = find_session_end(rules, [(o.status, o.deltas) for o in outcomes])
        if end is not None and end.position < len(outcomes) - 1:
            later = [o.index for o in outcomes[end.position + 1:]]
            if len(later) == 1:
                span = _("hand {number} came after its end").format(number=later[0])
            else:
                span = _("hands {first}-{last} came after its end").format(first=later[0],
                                                                          last=later[-1])
            notes.append(_("the session ended after hand {number} ({reason}); {span}").format(
                number=outcomes[end.position].index, reason=end.reason, span=span))
    return notes


@click.command()
@click.option("--seed", type=int, required=True,
              help=N_("Same seed, same deals, at every table."))
@click.option("--players", default=None,
              help=N_("The players in playing order, separated by commas (as many as the "
                      "ruleset's table.players; default P1,P2,...)."))
@click.option("--hands", "count", type=click.IntRange(1, 1000), default=1, show_default=True,
              help=N_("How many hands to deal."))
@ruleset_option(default="standard")
@click.option("--dealer", default=None,
              help=N_("Dealer of the first hand (default: first player)."))
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help=N_("Write the record to a file instead of printing it."))
def deal(seed: int, players: str | None, count: int, ruleset_name: str, dealer: str | None,
         output: str | None) -> None:
    """Deal reproducible hands as a hand record, ready to referee or replay.

    \b
    Examples:
      mighty deal --seed 42 --players 민수,Bo,Cy,Di,Ed
      mighty deal --seed 7 --hands 8 -o tonight.toml
    """
    from ..engine.ghost import arranged_deal, seats
    from ..engine.hand import deal_cards

    rules = load_ruleset(ruleset_name)  # fail early on an unknown ruleset
    if rules.table.deal == "draft":  # 변형 2마: the players make their hands at the table
        raise click.UsageError(_("{ruleset}: the players draft their hands at the table "
                                 "(table.deal = draft), so there is no deal to print; "
                                 "'mighty simulate' plays random drafts").format(
                                     ruleset=rules.name))
    n = rules.table.players
    if players is None:
        players = ",".join(f"P{k}" for k in range(1, n + 1))
    names = [p.strip() for p in players.split(",") if p.strip()]
    if len(names) != n or len(set(names)) != n:
        raise click.BadParameter(ngettext("expected {count} distinct name (table.players of "
                                          "{ruleset})", "expected {count} distinct names "
                                          "(table.players of {ruleset})", n)
                                 .format(count=n, ruleset=rules.name), param_hint="--players")
    if dealer is not None and dealer not in names:
        raise click.BadParameter(_("{dealer!r} is not one of the players").format(dealer=dealer),
                                 param_hint="--dealer")
    hands = []
    for number in range(1, count + 1):
        seated = list(seats(rules, names))  # ghost 4마: the ghost's pile too, in its order
        cards = arranged_deal(deal_cards(hand_seed(seed, number), seated, rules.deck_cards,
                                         rules.table.hand_size))
        hand = {"deal": {who: format_cards(cards[who]) for who in seated + ["kitty"]}}
        if number == 1:
            hand = {"dealer": dealer or names[0]} | hand
        hands.append(hand)
    text = dump_record(Record(ruleset=ruleset_name, players=names, hands=hands))
    header = f"# dealt by: mighty deal --seed {seed} --hands {count}\n"
    if output:
        write_output(output, header + text)
        click.echo(ngettext("wrote {count} hand to {output}", "wrote {count} hands to {output}",
                            count).format(count=count, output=output))
    else:
        click.echo(header + text, nl=False)
