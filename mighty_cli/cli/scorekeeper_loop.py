"""``mighty record`` asking its questions: one hand, or the whole session (``--evening``).

One database engine for the whole run; each hand is stored in its own transaction, and no
transaction is open while a question waits for its answer (a SQLite writer would hold the
file's lock meanwhile).

Nothing typed is lost: Ctrl-C in the middle of a hand keeps its answers so far in the league as
the table's hand in progress, and the next ``record`` at the table (without the outcome on its
command line) takes it up where it was left. Each hand is stored as the table's hand its
questions were shown for (:func:`~mighty_cli.store.hands.enter_hand`): a keeper behind the
table is told which hand another entered meanwhile, and an outcome equal to the table's
previous hand is asked about at a terminal (refused elsewhere, unless ``--again``).
"""

from __future__ import annotations

from typing import Callable, Optional

import click

from ..engine.errors import MightyError
from ..i18n import N_, _
from .line_input import LineReader
from ..table import words
from ..table.answers import Answers
from ..table.books import LeagueBook
from ..table.keeper_questions import (GoBack, HandInterrupted, answered_outcome, ask_hand,
                                      opening_answer,
                                      begin_hand, hand_answers, keep_half, proposal_lines,
                                      resumed_answers, totals_lines)
from ..table.name_lookup import UnknownName
from ..table.score_entry import (AlreadyStored, EnteredElsewhere, Outcome, SameAsPrevious,
                                 store_outcome)
from ..table.table_errors import HandTakenAway

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
    from .hand_lines import print_recorded
    from .resume_hints import command_line

    hint = hint or {}
    book = LeagueBook(db_url, league_name, who)
    book.session = session_number
    reader = LineReader(complete=None)
    try:
        first = True
        while True:
            resume = first and not any(value is not None for value in given.values())
            hand, half = begin_hand(book, take_half=resume or not first)
            answers, hand_dealer = hand_answers(hand, players if first else None,
                                                dealer if first else None, half)
            reader.complete = lambda: [*hand.seating, *_WORDS]
            if not as_json:
                if evening and first:
                    click.echo(_("League {league}, session {session} ({ruleset}): {help}")
                               .format(league=hand.league, session=hand.session,
                                       ruleset=hand.rules.name, help=_(EVENING_HELP)))
                for line in proposal_lines(hand):
                    click.echo(line)
            hand_given = dict(given) if first else {}
            if half is not None:
                hand_given = resumed_answers(half[1])
                if not as_json:
                    from ..store.table_entry import answers_words

                    click.echo(_("— taken up where it was left: {answers}").format(
                        answers=answers_words(half[1])))
            elif evening:
                opening = _evening_opening(reader, answers, hand)
                if opening is None:
                    break
                hand_given.update(opening)
            try:
                ask_call = hand.asks_friend_call and not (friend_call and first)
                answered = _ask_hand_until_answered(answers, _asker(reader), hand_given,
                                                    None if as_json else click.echo, evening,
                                                    ask_call)
            except GoBack:  # the hand's first question taken back: the evening's opening again
                continue
            except HandInterrupted as exc:
                click.echo("")
                click.echo(_keep_half(book, hand, answers.five,
                                      hand_dealer or hand.dealer, exc.answers,
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
            outcome = answered_outcome(
                answered, hand_given, friend_call=friend_call if first else None,
                dealer=hand_dealer,
                players=tuple(answers.five) if (players and first) or half else None,
                note=note if first else None)
            done = _store(book, reader, outcome, session_number, hand.hand, again, evening)
            first = False
            if done is None:  # refused, or stored already: the next hand (or the end)
                if not evening:
                    break
                continue
            print_recorded(done.recorded, as_json, hand.table,
                           command_line(["referee"], league_name, **hint))
            if not evening or done.recorded.session_ended:
                break
            if not as_json:
                after = book.next_hand()
                for line in totals_lines(after.totals, after.hands):
                    click.echo(line)
    finally:
        reader.close()
        book.close()


def _keep_half(book: LeagueBook, hand, five: list[str], dealer: str, answers: dict,
               command: str) -> str:
    """Keep the answers given so far as the table's hand in progress (Ctrl-C): what to say."""
    from ..store.table_entry import answers_words

    try:
        kept = keep_half(book, hand, five, dealer, answers)
    except HandTakenAway as exc:
        return "✗ " + _("{reason}; the hand half entered here is not kept").format(reason=exc)
    if kept is None:
        return _("(Ctrl-C) nothing was entered for this hand")
    return _("(Ctrl-C) the hand half entered ({answers}) is kept in league {league}: "
             "'{command}' takes it up where it was left").format(
                 answers=answers_words(kept), league=book.league, command=command)


def _store(book: LeagueBook, reader: LineReader, outcome: Outcome, session: Optional[int],
           expect: int, again: bool, evening: bool):
    """Store the hand as the table's hand ``expect``; the hand stored, or None when it was
    refused (said on one line; without ``evening`` the command fails) or is stored already
    (the same entry: said, and the command succeeds)."""
    while True:
        try:
            with book.tx() as s:
                return store_outcome(s, book.league, outcome, session=session,
                                     expect_hand=expect, again=again, who=book.who)
        except SameAsPrevious as exc:
            if reader.interactive and ask_again(exc, reader):
                again = True
                continue
            refusal = again_refused(exc)
        except AlreadyStored as exc:
            click.echo(str(exc))
            return None
        except EnteredElsewhere as exc:
            if reader.interactive:
                click.echo("✗ " + str(exc))
                if ask_yes(_("Store this one as the table's next hand, all the same?"), reader):
                    expect = exc.next_hand
                    continue
            refusal = _("{reason}; this hand is not stored").format(reason=exc)
        if not evening:
            raise click.ClickException(refusal)
        click.echo("✗ " + refusal)
        return None


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
    return words.means(answer, "yes")


def ask_again(exc, reader: Optional[LineReader] = None) -> bool:
    """An outcome equal to the table's previous hand, at a terminal: said, then asked."""
    click.echo("✗ " + str(exc))
    return ask_yes(_("Record it all the same (the table played it twice alike)?"), reader)


def again_refused(exc) -> str:
    """The one line refusing an outcome equal to the table's previous hand."""
    return _("{reason} If the table played it twice alike, add --again.").format(reason=exc)


def _ask_hand_until_answered(answers: Answers, ask: Callable, given: dict, say, evening: bool,
                             ask_call: bool = False):
    """:func:`ask_hand`; an ``undo`` at its first question goes back to the evening's opening
    question (:class:`GoBack` to the caller), or, with nothing before it, is refused."""
    while True:
        try:
            return ask_hand(answers, ask, given, say=say, ask_call=ask_call)
        except GoBack:
            if evening:
                raise
            click.echo("✗ " + _("nothing to take back: this is the hand's first question"))


def _asker(reader: LineReader) -> Callable:
    guard = QuitGuard(reader.interactive)

    def ask(prompt: str, check: Callable, default: Optional[str]):
        from .line_input import ask as ask_line

        return ask_line(reader, prompt, _one_line(check, guard), default=default)
    return ask


class QuitGuard:
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


def _one_line(check: Callable, guard: QuitGuard) -> Callable:
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


def _evening_opening(reader: LineReader, answers: Answers, hand) -> Optional[dict]:
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
        try:
            said, answer = opening_answer(answers, text)
        except UnknownName as exc:
            click.echo(f"✗ {exc}")
            continue
        if said == "quit":
            return None
        if said == "standings":
            for line in totals_lines(hand.totals, hand.hands) or [_("no hands yet")]:
                click.echo(line)
        elif said == "help":
            click.echo(_(EVENING_HELP))
        else:
            return answer
