"""``mighty replay`` and ``mighty deal``: hand records without a database."""

from __future__ import annotations

import click

from ..engine.cards import format_bid, format_cards, sorted_cards
from ..engine.deck import hand_seed  # noqa: F401  (evening.py imports it from here)
from ..engine.record import Record, dump_record, load_record, record_ruleset, replay as replay_record
from ..engine.ruleset import load_ruleset
from ..engine.session import find_session_end
from ..render.text import table
from .options import (echo_json, json_option, record_ruleset_option, ruleset_option,
                      write_output)


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
    record = load_record(path)
    record.user_ruleset = ruleset_name
    rules = record_ruleset(record)
    result = replay_record(record, rules)
    if as_json:
        echo_json(result.to_json())
        return
    click.echo(f"{path}: {len(result.hands)} hand(s) under {rules.meta.title} ({rules.name})")
    rows = []
    for outcome in result.hands:
        score = outcome.score
        rows.append([outcome.index, outcome.status, outcome.dealer or "", outcome.declarer or "",
                     format_bid(outcome.contract) if outcome.contract else "",
                     outcome.friend or ("-" if outcome.status == "scored" else ""),
                     "" if outcome.taken is None else outcome.taken,
                     "" if score is None else f"×{score.multiplier}",
                     ", ".join(score.doublings) if score else
                     (f"deal miss by {outcome.deal_miss_player}" if outcome.deal_miss_player
                      else "")]
                    + [f"{outcome.deltas.get(p, 0):+d}" for p in record.players])
    click.echo(table(["#", "status", "dealer", "declarer", "contract", "friend", "taken", "mult",
                      "doublings"] + list(record.players), rows,
                     align="><<<<<>><" + ">" * len(record.players)))
    click.echo(table(["totals"] + list(record.players),
                     [[""] + [f"{result.totals[p]:+d}" for p in record.players]],
                     align="<" + ">" * len(record.players)))
    if result.pot:
        click.echo(f"deposit pot (공탁금) carried over: {result.pot}")
    for note in late_hands(record, result, rules):
        click.echo(f"note: {note}")


def late_hands(record: Record, result, rules) -> list[str]:
    """Hands a record plays after its session's end (session.hands_per_session,
    session.starting_points): reported, not refused, since a record is what was played."""
    groups: list[list] = []
    session = object()
    for hand, outcome in zip(record.hands, result.hands):
        if not groups or hand.get("session") != session:
            session = hand.get("session")
            groups.append([])
        if outcome.status != "in_progress":
            groups[-1].append(outcome)
    notes = []
    for outcomes in groups:
        end = find_session_end(rules, [(o.status, o.deltas) for o in outcomes])
        if end is not None and end.position < len(outcomes) - 1:
            later = [o.index for o in outcomes[end.position + 1:]]
            span = f"hand {later[0]}" if len(later) == 1 else f"hands {later[0]}-{later[-1]}"
            notes.append(f"the session ended after hand {outcomes[end.position].index} "
                         f"({end.reason}); {span} came after its end")
    return notes


@click.command()
@click.option("--seed", type=int, required=True, help="Same seed, same deals, at every table.")
@click.option("--players", default=None,
              help="The players in playing order, separated by commas (as many as the ruleset's "
                   "table.players; default P1,P2,...).")
@click.option("--hands", "count", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="How many hands to deal.")
@ruleset_option(default="standard")
@click.option("--dealer", default=None, help="Dealer of the first hand (default: first player).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the record to a file instead of printing it.")
def deal(seed: int, players: str | None, count: int, ruleset_name: str, dealer: str | None,
         output: str | None) -> None:
    """Deal reproducible hands as a hand record, ready to referee or replay.

    \b
    Examples:
      mighty deal --seed 42 --players 민수,Bo,Cy,Di,Ed
      mighty deal --seed 7 --hands 8 -o tonight.toml
    """
    from ..engine.hand import deal_cards

    rules = load_ruleset(ruleset_name)  # fail early on an unknown ruleset
    n = rules.table.players
    if players is None:
        players = ",".join(f"P{k}" for k in range(1, n + 1))
    names = [p.strip() for p in players.split(",") if p.strip()]
    if len(names) != n or len(set(names)) != n:
        count_word = "five" if n == 5 else str(n)
        raise click.BadParameter(f"expected {count_word} distinct names (table.players of "
                                 f"{rules.name})", param_hint="--players")
    if dealer is not None and dealer not in names:
        raise click.BadParameter(f"{dealer!r} is not one of the players", param_hint="--dealer")
    hands = []
    for number in range(1, count + 1):
        cards = deal_cards(hand_seed(seed, number), names, rules.deck_cards,
                           rules.table.hand_size)
        hand = {"deal": {who: format_cards(sorted_cards(cards[who])) for who in names + ["kitty"]}}
        if number == 1:
            hand = {"dealer": dealer or names[0]} | hand
        hands.append(hand)
    text = dump_record(Record(ruleset=ruleset_name, players=names, hands=hands))
    header = f"# dealt by: mighty deal --seed {seed} --hands {count}\n"
    if output:
        write_output(output, header + text)
        click.echo(f"wrote {count} hand(s) to {output}")
    else:
        click.echo(header + text, nl=False)
