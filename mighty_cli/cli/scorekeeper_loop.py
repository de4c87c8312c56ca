"""``mighty record`` asking its questions: one hand, or the whole session (``--evening``).

One database engine for the whole run; each hand is stored in its own transaction, and no
transaction is open while a question waits for its answer (a SQLite writer would hold the
file's lock meanwhile).

Nothing typed is lost: Ctrl-C in the middle of a hand keeps its answers so far in the league as
the table's hand in progress, and the next ``record`` at the table (without the outcome on its
command line) takes it up where it was left. Each hand is stored as the table's hand its
questions were shown for (:func:`~mighty_cli.store.ledger.hands.enter_hand`): a keeper behind the
table is told which hand another entered meanwhile, and an outcome equal to the table's
previous hand is asked about at a terminal (refused elsewhere, unless ``--again``).
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
from .hand_values import friend_value
from .scorekeeper import PRESENT, Answers, GoBack, HandInterrupted, ask_hand, proposal_lines, \
    totals_lines

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
                         db_url: Optional[str], who: str, evening: bool, again: bool = False,
                         hint: Optional[dict] = None) -> None:
    """Ask a hand's missing answers (``evening``: hand after hand) and store each. A hand left
    half entered at the table (Ctrl-C) is taken up where it was left; Ctrl-C keeps this one
    so. Each hand is stored as the table's hand shown before its questions: a keeper behind
    the table (another stored that hand meanwhile) is told so, as is an outcome equal to the
    table's previous hand (asked at a terminal; refused otherwise unless ``again``)."""
    from ..store.ledger.lookups import get_league, league_rules
    from ..store.ledger.sessions import evening as evening_state
    from ..store.ledger.table_entry import answers_words, take_half_entered
    from .hand_lines import print_recorded
    from .resume_hints import command_line

    hint = hint or {}
    store = _Store(db_url)
    reader = LineReader(complete=None)
    try:
        first = True
        while True:
            resume = first and not any(value is not None for value in given.values())
            with store.tx() as s:
                state = evening_state(s, league_name, session_number)
                rules = league_rules(get_league(s, league_name))
                half = take_half_entered(s, league_name, state.session) \
                    if resume or not first else None
            five = list(state.proposal.players)
            if players and first:
                five = [match_name(p, state.seating, _(PRESENT))
                        for p in split_names(players) or []]
            if half is not None and len(half[0]) == len(five):
                five = half[0]
            answers = Answers(rules, five, state.seating)
            hand_dealer = answers.check_present(dealer) if dealer and first else None
            if half is not None:
                hand_dealer = answers.check_present(str(half[1].get("dealer", "")) or
                                                    state.proposal.dealer)
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
            if half is not None:
                hand_given = _resumed(half[1])
                if not as_json:
                    click.echo(_("— taken up where it was left: {answers}").format(
                        answers=answers_words(half[1])))
            elif evening:
                opening = _evening_opening(reader, answers, state)
                if opening is None:
                    break
                hand_given.update(opening)
            try:
                answered = _ask_hand_until_answered(answers, _asker(reader), hand_given,
                                                    None if as_json else click.echo, evening)
            except GoBack:  # the hand's first question taken back: the evening's opening again
                continue
            except HandInterrupted as exc:
                click.echo("")
                click.echo(_keep_half(store, league_name, state, rules, five,
                                      hand_dealer or state.proposal.dealer, exc.answers,
                                      command_line(["record", "--evening"], league_name,
                                                   **hint)))
                break
            except EOFError:
                if evening:
                    if not as_json:
                        click.echo("")
                        click.echo(_("the unfinished hand is not recorded; the others are "
                                     "stored"))
                    break
                raise click.ClickException(_("input ended before the hand was complete; "
                                             "nothing recorded")) from None
            done = _store(store, reader, league_name, dict(
                session_number=session_number,
                declarer=answered.get("declarer"), contract=answered.get("contract"),
                friend=friend_value(answered["friend"]) if answered.get("friend") else None,
                friend_call=friend_call if first else None,
                taken=answered.get("taken", hand_given.get("taken")),
                opposition=hand_given.get("opposition"), deal_miss=answered.get("deal_miss"),
                dealer=hand_dealer, players=five if (players and first) or half else None,
                note=note if first else None, who=who, eliminated=answered.get("eliminated"),
                friend2=answered.get("friend2")), state.hands + 1, again, evening)
            first = False
            if done is None:  # refused, or stored already: the next hand (or the end)
                if not evening:
                    break
                continue
            print_recorded(done, as_json, state.table, command_line(["referee"], league_name,
                                                                    **hint))
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


def _resumed(hand: dict) -> dict:
    """The answers of a hand left half entered, as the command line would give them."""
    given = {key: hand[key] for key in ("declarer", "contract", "friend", "friend2")
             if key in hand}
    if hand.get("eliminated"):
        given["eliminated"] = ",".join(map(str, hand["eliminated"]))
    return given


def _keep_half(store: _Store, league_name: str, state, rules, five: list[str], dealer: str,
               answers: dict, command: str) -> str:
    """Keep the answers given so far as the table's hand in progress (Ctrl-C): what to say."""
    from ..engine.records import Record, dump_record
    from ..store.ledger.table_entry import ANSWERS, HandGone, answers_words, keep_half_entered

    if not answers:
        return _("(Ctrl-C) nothing was entered for this hand")
    hand = {"dealer": dealer} | {key: answers[key] for key in ANSWERS if key in answers}
    record = Record(ruleset=rules.name, players=list(five), hands=[hand])
    try:
        with store.tx() as s:
            keep_half_entered(s, league_name, state.session, dump_record(record), state.hands)
    except HandGone as exc:
        return "✗ " + _("{reason}; the hand half entered here is not kept").format(reason=exc)
    return _("(Ctrl-C) the hand half entered ({answers}) is kept in league {league}: "
             "'{command}' takes it up where it was left").format(
                 answers=answers_words(hand), league=league_name, command=command)


def _store(store: _Store, reader: LineReader, league_name: str, values: dict, expect: int,
           again: bool, evening: bool):
    """Store the hand as the table's hand ``expect``; the stored hand, or None when it was
    refused (said on one line; without ``evening`` the command fails) or is stored already
    (the same entry: said, and the command succeeds)."""
    from ..store.ledger.hands import enter_hand
    from ..store.ledger.table_entry import HandAlreadyEntered, SameOutcome

    while True:
        try:
            with store.tx() as s:
                return enter_hand(s, league_name, again=again, expect_hand=expect, **values)
        except SameOutcome as exc:
            if reader.interactive and ask_again(exc, reader):
                again = True
                continue
            refusal = again_refused(exc)
        except HandAlreadyEntered as exc:
            if exc.same:
                click.echo(str(exc))
                return None
            if reader.interactive:
                click.echo("✗ " + str(exc))
                if ask_yes(_("Store this one as the table's next hand, all the same?"), reader):
                    expect = exc.next
                    continue
            refusal = _("{reason}; this hand is not stored").format(reason=exc)
        if not evening:
            raise click.ClickException(refusal)
        click.echo("✗ " + refusal)
        return None


#: Answers that say yes to a question, in English and Korean.
YES_WORDS = ("y", "yes", "예", "네", "응")


def ask_yes(question: str, reader: Optional[LineReader] = None) -> bool:
    """A yes-or-no question at a terminal (no is the default, as is Ctrl-C or Ctrl-D)."""
    own = reader is None
    reader = reader or LineReader(complete=None, interactive=True)
    try:
        answer = reader.read(_("{question} [y/N]").format(question=question))
    except (EOFError, KeyboardInterrupt):
        click.echo("")
        return False
    finally:
        if own:
            reader.close()
    return answer.strip().lower() in YES_WORDS


def ask_again(exc, reader: Optional[LineReader] = None) -> bool:
    """An outcome equal to the table's previous hand, at a terminal: said, then asked."""
    click.echo("✗ " + str(exc))
    return ask_yes(_("Record it all the same (the table played it twice alike)?"), reader)


def again_refused(exc) -> str:
    """The one line refusing an outcome equal to the table's previous hand."""
    return _("{reason} If the table played it twice alike, add --again.").format(reason=exc)


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
        except KeyboardInterrupt:  # nothing of a hand typed yet: the evening ends
            click.echo("")
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
