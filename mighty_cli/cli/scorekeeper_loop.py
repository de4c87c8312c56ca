"""``mighty record`` asking its questions: one hand, or the whole session (``--evening``).

One database engine for the whole run; each hand is stored in its own transaction, and no
transaction is open while a question waits for its answer (a SQLite writer would hold the
file's lock meanwhile).
"""

from __future__ import annotations

from typing import Callable, Optional

import click

from ..engine.errors import MightyError
from ..i18n import N_, _
from .database import split_names
from .line_input import LineReader
from ..table import words
from ..table.name_lookup import UnknownName, match_name
from .scorekeeper import PRESENT, Answers, GoBack, ask_hand, proposal_lines, totals_lines

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).

EVENING_HELP = N_("Type the declarer to record a hand; 'miss NAME' (딜미스 NAME) for a deal "
                  "miss, 'standings' (st, 순위) for the totals, 'quit' (q, 종료) to stop. Names: "
                  "any case, or a unique beginning.")
OPENING_PROMPT = N_("Declarer (주공), miss NAME, standings or quit")
#: The words offered for completion besides the players' names: the table's (table/words.py)
#: and the suits'.
_WORDS = (*words.words_for("none", "miss", "standings", "quit"), "스페이드", "다이아", "하트",
          "클로버", "노기루다")


class _Store:
    def __init__(self, db_url: Optional[str]):
        from ..store.db import make_engine

        self.engine = make_engine(db_url, missing_ok=False)

    def tx(self):
        from ..table.books import db_transaction

        return db_transaction(self.engine)


def record_interactively(league_name: str, session_number: Optional[int], given: dict,
                         friend_call: Optional[str], dealer: Optional[str],
                         players: Optional[str], note: Optional[str], as_json: bool,
                         db_url: Optional[str], who: str, evening: bool) -> None:
    from ..store.hands import record_hand
    from ..store.lookups import league_rules
    from ..store.sessions import evening as evening_state
    from .hand_lines import print_recorded
    from .hand_values import friend_value

    store = _Store(db_url)
    reader = LineReader(complete=None)
    try:
        first = True
        while True:
            with store.tx() as s:
                state = evening_state(s, league_name, session_number)
                from ..store.lookups import get_league

                rules = league_rules(get_league(s, league_name))
            five = list(state.proposal.players)
            if players and first:
                five = [match_name(p, state.seating, _(PRESENT))
                        for p in split_names(players) or []]
            answers = Answers(rules, five, state.seating)
            reader.complete = lambda: [*state.seating, *_WORDS]
            if not as_json:
                if evening and first:
                    click.echo(_("League {league}, session {session} ({ruleset}): {help}")
                               .format(league=state.league, session=state.session,
                                       ruleset=rules.name, help=_(EVENING_HELP)))
                number = state.next_number if state.table is None else state.hands + 1
                for line in proposal_lines(number, state.proposal, state.pot, state.table):
                    click.echo(line)
            hand_given = dict(given) if first else {}
            if evening:
                opening = _evening_opening(reader, answers, state)
                if opening is None:
                    break
                hand_given.update(opening)
            try:
                answered = _ask_hand_until_answered(answers, _asker(reader), hand_given,
                                                    None if as_json else click.echo, evening)
            except GoBack:  # the hand's first question taken back: the evening's opening again
                continue
            except EOFError:
                if evening:
                    if not as_json:
                        click.echo("")
                        click.echo(_("the unfinished hand is not recorded; the others are "
                                     "stored"))
                    break
                raise click.ClickException(_("input ended before the hand was complete; "
                                             "nothing recorded")) from None
            friend = answered.get("friend")
            with store.tx() as s:
                done = record_hand(
                    s, league_name, session_number=session_number,
                    declarer=answered.get("declarer"), contract=answered.get("contract"),
                    friend=friend_value(friend) if friend else None,
                    friend_call=friend_call if first else None,
                    taken=answered.get("taken", hand_given.get("taken")),
                    opposition=hand_given.get("opposition"),
                    deal_miss=answered.get("deal_miss"),
                    dealer=answers.check_present(dealer) if dealer and first else None,
                    players=five if players and first else None,
                    note=note if first else None, who=who,
                    eliminated=answered.get("eliminated"), friend2=answered.get("friend2"))
            print_recorded(done, as_json,
                           None if state.table is None else (state.table, state.hands + 1))
            first = False
            if not evening or done.session_ended:
                break
            if not as_json:
                with store.tx() as s:
                    after = evening_state(s, league_name, session_number) \
                        if not done.session_ended else None
                if after is not None:
                    for line in totals_lines(after.totals, after.hands):
                        click.echo(line)
    finally:
        reader.close()
        store.engine.dispose()


def _ask_hand_until_answered(answers: Answers, ask: Callable, given: dict, say, evening: bool):
    """:func:`ask_hand`; an ``undo`` at its first question goes back to the evening's opening
    question (:class:`GoBack` to the caller), or, with nothing before it, is refused."""
    while True:
        try:
            return ask_hand(answers, ask, given, say=say)
        except GoBack:
            if evening:
                raise
            click.echo("✗ " + _("nothing to take back: this is the hand's first question"))


def _asker(reader: LineReader) -> Callable:
    guard = _QuitGuard(reader.interactive)

    def ask(prompt: str, check: Callable, default: Optional[str]):
        from .line_input import ask as ask_line

        return ask_line(reader, prompt, _one_line(check, guard), default=default)
    return ask


class _QuitGuard:
    """A quit in the middle of a hand drops its answers: at a terminal it is said twice (a
    second ``quit`` right after the first); piped input quits at once."""

    def __init__(self, interactive: bool):
        self.interactive = interactive
        self.armed = False

    def check(self, text: str) -> None:
        if not words.means(text, "quit", short=True):
            self.armed = False
            return
        if self.armed or not self.interactive:
            raise EOFError  # the hand is dropped, nothing of it recorded
        self.armed = True
        raise ValueError(_("'{word}' again drops this unfinished hand (nothing of it is "
                           "recorded); or answer, or 'undo' to go back").format(
                               word=text.strip()))


def _one_line(check: Callable, guard: _QuitGuard) -> Callable:
    """A checker whose project errors become ValueErrors the asker shows and asks again on;
    ``undo`` takes the last answer back (:class:`GoBack`); a quit goes through ``guard``."""
    def checked(text: str):
        guard.check(text)
        if words.means(text, "undo"):
            raise GoBack
        try:
            return check(text)
        except MightyError as exc:
            raise ValueError(str(exc)) from None
    return checked


def _evening_opening(reader: LineReader, answers: Answers, state) -> Optional[dict]:
    """The first answer of a hand in evening mode: a declarer, a deal miss, or a command.
    None: the evening ends."""
    while True:
        try:
            text = reader.read(_(OPENING_PROMPT)).strip()
        except EOFError:
            return None
        if not text:
            continue
        said, rest = words.command(text, words.RECORD)
        if said == "quit":
            return None
        if said == "standings":
            for line in totals_lines(state.totals, state.hands) or [_("no hands yet")]:
                click.echo(line)
            continue
        if said == "help":
            click.echo(_(EVENING_HELP))
            continue
        try:
            if said == "miss" and rest.strip():
                return {"deal_miss": answers.check_player(rest)}
            return {"declarer": answers.check_declarer(text)}
        except UnknownName as exc:
            click.echo(f"✗ {exc}")
