"""A league's table opened for an evening (``mighty referee --league``): the league's open
session, or a round's table, found (or a session started where none is open and the players
are named); the hand in progress there taken up for this window (:class:`~.books.LeagueBook`:
another window's next entry is refused), or the last hand of a record file carried on; the
session's deal seed kept, so an evening resumed deals the same cards.

Free of click: what it refuses is a :class:`~.table_errors.TableError` (exit 1 at a command
line) or a :class:`~.table_errors.TableUsageError` (options that do not go together)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.errors import MightyError
from ..engine.records import Record, dump_record, load_record, read_record, replay
from ..engine.ruleset import load_ruleset
from ..engine.session import playing_order
from ..engine.translation import N_, _
from .books import LeagueBook, SaveFile
from .evening import Evening
from .evening_options import KEPT, EveningOptions, first_hand, one_of, present_players
from .referee_session import deal_cards
from .table_errors import TableError, TableUsageError

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..store.models import League, LeagueSession

#: A hand in progress taken up: by the league's number, or at a round's table by its own.
RESUMED = N_("— hand {number} resumed at the same card")
RESUMED_AT_TABLE = N_("— table {table}, hand {number} resumed at the same card")


def open_league_evening(
    opts: EveningOptions,
    who: str,
    deals: list[dict],
    save: SaveFile | None,
    resume_path: Path | None,
) -> tuple[Evening, list[str]]:
    """The league's table as an evening (``opts.league``; ``opts.table`` a round's table,
    ``opts.session_number`` a session), and what to show before the first prompt. A hand in
    progress there is taken up where it stopped (a finished one is stored at once); a record
    file's (``resume_path``) last hand goes on where the league holds none."""
    from ..store.ledger.lookups import (  # start-up: the store, where opened
        get_league,
        league_rules,
    )
    from ..store.ledger.sessions import find_session, start_session  # start-up: the store

    league_name = opts.league or ""
    book = LeagueBook(opts.db, league_name, who)
    with book.tx() as s:
        league = get_league(s, league_name)
        rules = league_rules(league)
        if opts.ruleset_name and load_ruleset(opts.ruleset_name).name != rules.name:
            raise TableUsageError(
                _(
                    "--ruleset {given}: league {league} plays {ruleset} (its "
                    "rules are stored with the league; leave --ruleset out)"
                ).format(given=opts.ruleset_name, league=league.name, ruleset=rules.name)
            )
        from_file = load_record(resume_path) if resume_path else None
        chosen = opts.session_number  # --session N: the hints name it again
        if opts.table is not None:
            from ..store.rounds.round_lookups import table_session  # start-up: a round's table only

            opts.session_number = table_session(s, league.name, opts.table)
        try:
            session = find_session(s, league, opts.session_number, open_only=True)
        except MightyError:
            names = (
                present_players(opts.players, rules)
                if opts.players
                else list(from_file.players)
                if from_file
                else None
            )
            if opts.session_number is None:
                refuse_unnamed_table(s, league, opts)
            if names is None or opts.session_number is not None:
                raise
            from .new_names import refuse_new_names  # start-up: it loads the store

            refuse_new_names(s, names)
            session, _proposal = start_session(
                s, league.name, names, who=who, first_dealer=one_of(opts.dealer, names, "--dealer")
            )
        book.session = session.number
        seed_lines = session_seed(s, session, opts)
        ruleset_name, toml_text = league.ruleset_name, league.ruleset_toml
    book.resume = opts.command_line(
        ["referee"], league.name, table=opts.table, session=chosen, db=opts.db
    )
    taken = take_table(book, opts, chosen)  # this window's now: another's entry is refused
    state = book.next_hand()
    if state.duplicate and opts.deal_file is not None:
        raise TableUsageError(
            _(
                "--deal: table {table} of a duplicate round deals the round's "
                "cards (from its seed); leave --deal out"
            ).format(table=state.table)
        )
    if opts.players is not None:
        given = present_players(opts.players, rules)
        if [n.casefold() for n in given] != [n.casefold() for n in state.seating]:
            raise TableUsageError(
                _(
                    "--players: session {session} of league {league} seats "
                    "{players}; the session's seating is used (--players only "
                    "starts a session)"
                ).format(
                    session=state.session, league=state.league, players=", ".join(state.seating)
                )
            )
    present = playing_order(state.seating, rules)
    finished = book.session_hands()
    evening = Evening(
        rules,
        ruleset_name,
        present,
        seed=opts.seed,
        deals=deals,
        save=save,
        book=book,
        interactive=bool(opts.interactive),
        finished=finished,
        hands_before=state.hands - len(finished),
        ruleset_toml=toml_text,
        number_offset=state.next_number - state.hands - 1,
        table=state.table,
        duplicate=state.duplicate,
    )
    lines = [
        _("{title} ({ruleset}); league {league}, session {session}; present {players}").format(
            title=rules.meta.title,
            ruleset=rules.name,
            league=state.league,
            session=state.session,
            players=", ".join(state.seating),
        )
    ]
    lines += seed_lines
    if state.hands:
        lines += evening.totals_lines()
    live_text = taken
    if live_text is None and from_file is not None and from_file.hands:
        result = replay(from_file, rules)
        # a hand stopped mid-way goes on; a finished one refereed elsewhere is stored now
        if result.hands[-1].status == "in_progress" or not state.hands:
            live_text = dump_record(
                Record(
                    ruleset=ruleset_name,
                    players=list(from_file.players),
                    hands=[from_file.hands[-1]],
                )
            )
    resumed = resume_live(evening, live_text) if live_text else []
    if resumed:
        lines += resumed
        if evening.hand is not None and evening.hand.over:
            lines += evening.finish()
    else:
        lines += first_hand(evening, opts)
    if save is not None:
        evening.write_save()
        lines.append(_(KEPT).format(path=save.path))
    return evening, lines


def take_table(book: LeagueBook, opts: EveningOptions, chosen: int | None) -> str | None:
    """Take up the table's hand in progress for this window (its record, if any); a hand a
    score-keeper left half typed is his to finish (refused in one line)."""
    from ..store.ledger.table_entry import HalfEntered  # start-up: the store, where opened

    try:
        return book.take()
    except HalfEntered as exc:
        command = opts.command_line(
            ["record", "--evening"], book.league, table=opts.table, session=chosen, db=opts.db
        )
        raise TableError(
            _(
                "{reason}: '{command}' takes it up again (to finish it, or to drop it with quit)"
            ).format(reason=exc, command=command)
        ) from None


def refuse_unnamed_table(s: Session, league: League, opts: EveningOptions) -> None:
    """Several tables of a round are open and none was named: say which with ``--table``."""
    from ..store.rounds.round_lookups import latest_round_state  # start-up: the store, where opened

    state = latest_round_state(s, league)
    if state is None or state.ended or sum(t.playing for t in state.tables) < 2:
        return
    raise TableError(
        _(
            "league {league} plays round {round} at tables 1 to {count}: say which "
            "with --table, e.g. '{command}'"
        ).format(
            league=league.name,
            round=state.number,
            count=len(state.tables),
            command=opts.command_line(["referee"], league.name, table=1, db=opts.db),
        )
    )


def session_seed(s: Session, session: LeagueSession, opts: EveningOptions) -> list[str]:
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
        return [
            _("dealing from seed {seed}, as session {session}'s referee did").format(
                seed=stored, session=session.number
            )
        ]
    if opts.seed != stored:
        raise TableUsageError(
            _(
                "--seed {given}: session {session} deals from seed {seed} "
                "(kept when its referee began); leave --seed out"
            ).format(given=opts.seed, session=session.number, seed=stored)
        )
    return []


def resume_live(evening: Evening, text: str) -> list[str]:
    """Take up the league's hand in progress (its record, ``text``) where it stopped: what to
    show of it (nothing when it holds no hand to go on)."""
    record = read_record(text, source=_("the hand in progress"))
    result = replay(record, evening.rules)
    outcome, raw = result.hands[-1], record.hands[-1]
    if outcome.state is None:
        return []
    deal = deal_cards(raw["deal"], evening.rules) if "deal" in raw else None
    dealer = raw.get("dealer", outcome.dealer)
    assert dealer is not None  # (a hand in progress has its dealer)
    shown = evening.resume_hand(
        list(outcome.players),
        dealer,
        deal,
        outcome.state,
        opener=raw.get("opener"),
    )
    number = evening.hands_before + len(evening.finished) + 1
    if evening.table is not None:
        return [_(RESUMED_AT_TABLE).format(table=evening.table, number=number), *shown]
    return [_(RESUMED).format(number=number + evening.number_offset), *shown]


def open_table_evening(
    book: LeagueBook, session_number: int, seed: int | None = None
) -> tuple[Evening, list[str]]:
    """The evening of a league's open session (a round's table, or a session of its own) for a
    front end that opens only a league's table (the tablet referee of ``mighty serve``): its
    hand in progress taken up for ``book``'s window (another window's next entry is refused),
    or the next hand begun as proposed. ``seed`` deals the cards when the session keeps none.
    What it says before the first prompt comes with it."""
    from ..store.ledger.lookups import get_league, league_rules  # start-up: the store, where opened
    from ..store.ledger.sessions import find_session  # start-up: the store

    opts = EveningOptions(seed=seed, league=book.league, session_number=session_number)
    with book.tx() as s:
        league = get_league(s, book.league)
        rules = league_rules(league)
        session = find_session(s, league, session_number, open_only=True)
        book.session = session.number
        seed_lines = session_seed(s, session, opts)
        ruleset_name, toml_text = league.ruleset_name, league.ruleset_toml
    taken = book.take()
    state = book.next_hand()
    finished = book.session_hands()
    evening = Evening(
        rules,
        ruleset_name,
        playing_order(state.seating, rules),
        seed=opts.seed,
        book=book,
        finished=finished,
        hands_before=state.hands - len(finished),
        ruleset_toml=toml_text,
        number_offset=state.next_number - state.hands - 1,
        table=state.table,
        duplicate=state.duplicate,
    )
    lines = seed_lines + (resume_live(evening, taken) if taken else [])
    if evening.hand is not None:
        if evening.hand.over:
            lines += evening.finish()
    else:
        lines += evening.start_hand(evening.next_proposal())
    return evening, lines
