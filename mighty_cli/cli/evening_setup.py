"""Setting up ``mighty referee``'s evening from its options (a new table, a saved record
resumed, or a league's open session with its hand in progress), and the input loop."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import click

from ..engine.errors import MightyError
from ..engine.records import Record, dump_record, load_record, read_record, record_ruleset, replay
from ..engine.ruleset import load_ruleset
from ..engine.session import Proposal, playing_order, seats_range
from ..i18n import N_, _, ngettext
from ..table.table_errors import TableUsageError
from ..table.evening import Evening
from ..table.books import LeagueBook, SaveFile
from ..table.name_lookup import UnknownName, match_name
from ..table.referee_session import deal_cards, rebuild
from .resume_hints import command_line

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


@dataclass
class EveningOptions:
    ruleset_name: Optional[str] = None
    players: Optional[str] = None
    dealer: Optional[str] = None
    opener: Optional[str] = None
    seed: Optional[int] = None
    deal_file: Optional[Path] = None
    resume: Optional[str] = None
    save_file: Optional[Path] = None
    league: Optional[str] = None
    session_number: Optional[int] = None
    table: Optional[int] = None  # a table of the league's open round: its session
    db: Optional[str] = None
    interactive: Optional[bool] = None



# --- setting up -------------------------------------------------------------------------------


def _evening(*args, **kwargs) -> Evening:
    """The table's evening; options it cannot take together are a usage error (exit 2)."""
    try:
        return Evening(*args, **kwargs)
    except TableUsageError as exc:
        raise click.UsageError(str(exc)) from None


class _Said:
    """A message translated when it is filled in (the language is chosen after import)."""

    def __init__(self, message: str):
        self.message = message

    def format(self, **values) -> str:
        return _(self.message).format(**values)


_KEPT = _Said(N_("the evening is kept in {path} after every entry"))
_RESUMED = _Said(N_("— hand {number} resumed at the same card"))
_RESUMED_AT_TABLE = _Said(N_("— table {table}, hand {number} resumed at the same card"))


def _names(text: str, rules) -> list[str]:
    """The players present: the ruleset's table (table.players), and up to two more taking
    turns to sit out."""
    names = [p.strip() for p in text.split(",") if p.strip()]
    low, high = seats_range(rules)
    if not low <= len(names) <= high or len(set(n.casefold() for n in names)) != len(names):
        raise click.BadParameter(_("expected {low} to {high} distinct names: {ruleset} seats "
                                   "{low} (table.players), and one or two more take turns to "
                                   "sit out").format(low=low, high=high, ruleset=rules.name),
                                 param_hint="--players")
    return names


def _deals_from(path: Path) -> list[dict]:
    record = load_record(path)
    # the cards are read by the evening, under its ruleset (two decks name a card twice)
    deals = [dict(h["deal"]) for h in record.hands if "deal" in h]
    if not deals:
        raise click.BadParameter(_("no hand with a deal in that file"), param_hint="--deal")
    return deals


def open_evening(opts: EveningOptions, who: str = "") -> tuple[Evening, list[str]]:
    """The evening the options describe, and what to print before the first prompt."""
    interactive = sys.stdin.isatty() if opts.interactive is None else opts.interactive
    deals = _deals_from(opts.deal_file) if opts.deal_file else []
    save = SaveFile(opts.save_file) if opts.save_file else None
    resume_path = Path(opts.resume) if opts.resume else None
    if save is not None and resume_path is not None and save.path == resume_path:
        save.owned = True
    if save is not None:
        save.claim()  # before anything is played
    if opts.league:
        if save is None and resume_path is not None:
            save = SaveFile(resume_path, owned=True)  # the record resumed is kept going
        return _open_league(opts, who, deals, save, resume_path, interactive)
    if opts.resume is not None and resume_path is None:
        raise click.UsageError(_("--resume without a FILE needs --league (the league's hand in "
                                 "progress)"))
    if resume_path is not None:
        return _open_file(opts, resume_path, deals, save, interactive)
    rules = load_ruleset(opts.ruleset_name or "standard")
    if opts.players is None and deals:
        first = load_record(opts.deal_file)  # type: ignore[arg-type]
        opts.players = ",".join(next(h for h in first.hands if "deal" in h).get(
            "players", first.players))
    if opts.players is None:
        raise click.UsageError(_("name the players: --players A,B,C,D,E (six or seven take "
                                 "turns to sit out)"))
    present = _names(opts.players, rules)
    evening = _evening(rules, opts.ruleset_name or "standard", present,
                      first_dealer=_one_of(opts.dealer, present, "--dealer"),
                      seed=opts.seed, deals=deals, save=save, interactive=interactive)
    lines = [_("{title} ({ruleset}); present {players}").format(
        title=rules.meta.title, ruleset=rules.name, players=", ".join(present))]
    lines += _first_hand(evening, opts)
    if save is not None:  # the evening's record exists from the start: --resume finds it
        evening.write_save()
        lines.append(_KEPT.format(path=save.path))
    return evening, lines


def _one_of(name: Optional[str], names: list[str], hint: str) -> Optional[str]:
    if name is None:
        return None
    try:
        return match_name(name, names)
    except UnknownName as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def _first_hand(evening: Evening, opts: EveningOptions) -> list[str]:
    proposal = evening.next_proposal()
    dealer = _one_of(opts.dealer, evening.present, "--dealer")
    opener = _one_of(opts.opener, evening.present, "--opener")
    try:
        return evening.start_hand(proposal, dealer=dealer, opener=opener)
    except MightyError as exc:
        raise click.BadParameter(str(exc), param_hint="--opener") from None


def _open_file(opts: EveningOptions, path: Path, deals, save, interactive):
    """Resume an evening record: its finished hands, and its last hand where it stopped."""
    record = load_record(path)
    rules = record_ruleset(record)
    if opts.ruleset_name and load_ruleset(opts.ruleset_name).name != rules.name:
        raise click.UsageError(_("--ruleset {given}: {path} is refereed under {ruleset}")
                               .format(given=opts.ruleset_name, path=path, ruleset=rules.name))
    result = replay(record, rules)
    save = save or SaveFile(path, owned=True)
    finished = [dict(h) for h, o in zip(record.hands, result.hands) if o.status != "in_progress"]
    for hand, outcome in zip(finished, result.hands):
        hand.setdefault("players", list(outcome.players))
        hand.setdefault("dealer", outcome.dealer)
    evening = _evening(rules, record.ruleset, list(record.players), seed=opts.seed, deals=deals,
                      save=save, interactive=interactive, finished=finished,
                      ruleset_toml=record.extra.get("ruleset_toml"))
    lines = [ngettext("{title} ({ruleset}); present {players}; resumed {path} ({count} "
                      "finished hand)", "{title} ({ruleset}); present {players}; resumed "
                      "{path} ({count} finished hands)", len(finished)).format(
        title=rules.meta.title, ruleset=rules.name, players=", ".join(record.players),
        path=path, count=len(finished))]
    last = result.hands[-1] if result.hands else None
    if last is not None and last.status == "in_progress":
        raw = record.hands[-1]
        deal = deal_cards(raw["deal"], rules) if "deal" in raw else None
        dealer = raw.get("dealer", last.dealer)
        evening.hand = rebuild(rules, record.ruleset, list(last.players), dealer, deal,
                               last.state, on_change=evening._keep, opener=raw.get("opener"))
        out = [p for p in record.players if p not in last.players]
        evening.proposal = Proposal(dealer, evening.hand.opener, tuple(last.players), tuple(out))
        lines.append(_RESUMED.format(number=len(finished) + 1))
        lines += evening.hand.status()[1:]
        return evening, lines
    lines += _first_hand(evening, opts)
    return evening, lines


def _open_league(opts: EveningOptions, who: str, deals, save, resume_path, interactive):
    from ..store.ledger.lookups import league_rules
    from ..store.ledger.sessions import start_session
    from ..table.new_names import refuse_new_names

    book = LeagueBook(opts.db, opts.league, who)  # type: ignore[arg-type]
    with book.tx() as s:
        from ..store.ledger.lookups import get_league
        from ..store.ledger.sessions import find_session

        league = get_league(s, opts.league)  # type: ignore[arg-type]
        rules = league_rules(league)
        if opts.ruleset_name and load_ruleset(opts.ruleset_name).name != rules.name:
            raise click.UsageError(_("--ruleset {given}: league {league} plays {ruleset} (its "
                                     "rules are stored with the league; leave --ruleset out)")
                                   .format(given=opts.ruleset_name, league=league.name,
                                           ruleset=rules.name))
        from_file = load_record(resume_path) if resume_path else None
        chosen = opts.session_number  # --session N: the hints name it again
        if opts.table is not None:
            from ..store.rounds.round_tables import table_session

            opts.session_number = table_session(s, league.name, opts.table)
        try:
            session = find_session(s, league, opts.session_number, open_only=True)
        except MightyError:
            names = _names(opts.players, rules) if opts.players else \
                list(from_file.players) if from_file else None
            if opts.session_number is None:
                _refuse_unnamed_table(s, league, opts)
            if names is None or opts.session_number is not None:
                raise
            refuse_new_names(s, names)
            session, _proposal = start_session(s, league.name, names, who=who,
                                       first_dealer=_one_of(opts.dealer, names, "--dealer"))
        book.session = session.number
        seed_lines = _session_seed(s, session, opts)
        ruleset_name, toml_text = league.ruleset_name, league.ruleset_toml
    book.resume = command_line(["referee"], league.name, table=opts.table,
                               session=chosen, db=opts.db)
    taken = _take(book, opts, chosen)  # this window's now: another's next entry is refused
    state = book.evening()
    if state.duplicate and opts.deal_file is not None:
        raise click.UsageError(_("--deal: table {table} of a duplicate round deals the round's "
                                 "cards (from its seed); leave --deal out").format(
                                     table=state.table))
    if opts.players is not None:
        given = _names(opts.players, rules)
        if [n.casefold() for n in given] != [n.casefold() for n in state.seating]:
            raise click.UsageError(_("--players: session {session} of league {league} seats "
                                     "{players}; the session's seating is used (--players only "
                                     "starts a session)").format(
                                         session=state.session, league=state.league,
                                         players=", ".join(state.seating)))
    present = playing_order(state.seating, rules)
    finished = book.session_hands()
    evening = _evening(rules, ruleset_name, present, seed=opts.seed, deals=deals, save=save,
                      book=book, interactive=interactive, finished=finished,
                      hands_before=state.hands - len(finished), ruleset_toml=toml_text,
                      number_offset=state.next_number - state.hands - 1, table=state.table,
                      duplicate=state.duplicate)
    lines = [_("{title} ({ruleset}); league {league}, session {session}; present {players}")
             .format(title=rules.meta.title, ruleset=rules.name, league=state.league,
                     session=state.session, players=", ".join(state.seating))]
    lines += seed_lines
    if state.hands:
        lines += evening.totals_lines()
    live_text = taken
    if live_text is None and from_file is not None and from_file.hands:
        last_raw = from_file.hands[-1]
        result = replay(from_file, rules)
        if result.hands[-1].status == "in_progress":
            live_text = dump_record(Record(ruleset=ruleset_name,
                                           players=list(from_file.players),
                                           hands=[last_raw]))
        elif not state.hands:  # a finished hand refereed elsewhere: store it now
            live_text = dump_record(Record(ruleset=ruleset_name,
                                           players=list(from_file.players),
                                           hands=[last_raw]))
    resumed = _resume_live(evening, rules, ruleset_name, live_text) if live_text else []
    if resumed:
        lines += resumed
        if evening.hand is not None and evening.hand.over:
            lines += evening._finish()
    else:
        lines += _first_hand(evening, opts)
    if save is not None:
        evening.write_save()
        lines.append(_KEPT.format(path=save.path))
    return evening, lines


def _take(book: LeagueBook, opts: EveningOptions, chosen: Optional[int]) -> Optional[str]:
    """Take up the table's hand in progress for this window (its record, if any); a hand a
    score-keeper left half typed is his to finish (one line, exit 1)."""
    from ..store.ledger.table_entry import HalfEntered

    try:
        return book.take()
    except HalfEntered as exc:
        command = command_line(["record", "--evening"], book.league, table=opts.table,
                               session=chosen, db=opts.db)
        raise click.ClickException(_("{reason}: '{command}' takes it up again (to finish it, "
                                     "or to drop it with quit)").format(
                                         reason=exc, command=command)) from None


def _refuse_unnamed_table(s, league, opts: EveningOptions) -> None:
    """Several tables of a round are open and none was named: say which with ``--table``."""
    from ..store.rounds.round_tables import latest_round_state

    state = latest_round_state(s, league)
    if state is None or state.ended or sum(t.playing for t in state.tables) < 2:
        return
    raise click.ClickException(_("league {league} plays round {round} at tables 1 to {count}: "
                                 "say which with --table, e.g. '{command}'").format(
        league=league.name, round=state.number, count=len(state.tables),
        command=command_line(["referee"], league.name, table=1, db=opts.db)))


def _session_seed(s, session, opts: EveningOptions) -> list[str]:
    """The league session's deal seed, kept with the session the first time its referee is
    given one (``--seed``), so an evening resumed without it (after a crash, or the next
    night) deals the same cards; a different ``--seed`` is refused, a deal file wins."""
    if session.deal_seed is None:
        if opts.seed is not None:
            session.deal_seed = str(opts.seed)
            s.add(session)
        return []
    stored = int(session.deal_seed)
    if opts.seed is None:
        if opts.deal_file is not None:
            return []
        opts.seed = stored
        return [_("dealing from seed {seed}, as session {session}'s referee did").format(
            seed=stored, session=session.number)]
    if opts.seed != stored:
        raise click.UsageError(_("--seed {given}: session {session} deals from seed {seed} "
                                 "(kept when its referee began); leave --seed out").format(
                                     given=opts.seed, session=session.number, seed=stored))
    return []


def _resume_live(evening: Evening, rules, ruleset_name: str, text: str) -> list[str]:
    record = read_record(text, source=_("the hand in progress"))
    result = replay(record, rules)
    outcome, raw = result.hands[-1], record.hands[-1]
    if outcome.state is None:
        return []
    deal = deal_cards(raw["deal"], rules) if "deal" in raw else None
    five = list(outcome.players)
    dealer = raw.get("dealer", outcome.dealer)
    evening.hand = rebuild(rules, ruleset_name, five, dealer, deal, outcome.state,
                           on_change=evening._keep, opener=raw.get("opener"))
    out = [p for p in evening.present if p not in five]
    evening.proposal = Proposal(dealer, evening.hand.opener, tuple(five), tuple(out))
    number = evening.hands_before + len(evening.finished) + 1
    if evening.table is not None:
        return [_RESUMED_AT_TABLE.format(table=evening.table, number=number),
                *evening.hand.status()[1:]]
    return [_RESUMED.format(number=number + evening.number_offset), *evening.hand.status()[1:]]


# --- the loop ---------------------------------------------------------------------------------


def run_loop(evening: Evening, read: Callable[[str], str], echo: Callable[[str], None]) -> None:
    """Feed lines to the evening until it is done or input ends."""
    echo(_("type 'help' for the notation; 'table' draws the table; 'undo' takes back an "
           "entry"))
    while not evening.done:
        for out in evening.glance():
            echo(out)
        try:
            line = read(evening.prompt())
        except (EOFError, click.Abort):
            for out in evening.end_of_input():
                echo(out)
            break
        except KeyboardInterrupt:
            echo("")
            echo(_("(Ctrl-C) type 'quit' to end the evening"))
            continue
        for out in evening.handle(line):
            echo(out)


def run_evening(opts: EveningOptions) -> None:
    """``mighty referee``: set up, then the loop."""
    from .database import who_default
    from .line_input import LineReader

    evening, lines = open_evening(opts, who=who_default(None) if opts.league else "")
    for line in lines:
        click.echo(line)
    reader = LineReader(complete=evening.completions, interactive=evening.interactive)
    try:
        run_loop(evening, reader.read, click.echo)
    finally:
        reader.close()
        if evening.book is not None:
            evening.book.close()
    if evening.taken_away:  # refused: the hand was no longer this window's (said on one line)
        raise click.exceptions.Exit(1)
