"""The tablet referee's side of the server: one :class:`Desk` per tablet refereeing a table,
holding the table's :class:`~mighty_cli.table.evening.Evening` (the terminal referee's, fed
the same lines) between its taps.

A tablet is a window in the store's sense: its token (a cookie per table) is the
:class:`~mighty_cli.store.ledger.table_entry.LiveClaim`'s, so the hand in progress it keeps after
every entry is refused to any other window that took the hand up meanwhile (a second tablet,
the terminal) and theirs to it, exactly as between two terminals. What a desk holds in memory
is only a cache of the league: before every entry the table is read again
(:func:`table_facts`), and a desk that no longer matches it (another worker of the server
wrote for the same tablet, the server started again) is opened again from the league, at
the same card. Every form names the entry it answers (:meth:`Desk.at`): a page that was
behind is told so and nothing is entered; the same form sent twice (a double tap, a page
reloaded) is answered as the first time.

Who holds a table (:class:`Desks`): the tablet that opened it last. A second tablet is told
who holds it (the name its referee gave, or "another window": the terminal, or another
server's worker) and may take it over after confirming.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from ..engine.translation import _
from ..store.ledger.leagues import league_setting
from ..store.ledger.lookups import get_league
from ..store.ledger.table_entry import session_hands
from ..store.models import LiveHand
from ..table import words
from ..table.books import LeagueBook
from ..table.evening import Evening
from ..table.league_evening import open_table_evening
from . import reads

#: Tablets remembered at most (the least recently used forgotten first).
DESKS_MAX = 500
#: Lines of what the last entry said kept for the page (its last ones).
SAID_MAX = 12


@dataclass
class TableFacts:
    """A table as the referee's page needs it, read in one transaction."""

    ref: str
    table: int | None
    session: int
    playing: bool
    code: str | None
    hands: int  # the table's hands stored, voided ones included
    owner: str | None  # the token holding its hand in progress
    held_since: datetime | None
    record: str | None  # its hand in progress (hand-record TOML)
    seed: str | None  # the session's deal seed

    @property
    def title(self) -> str:
        return (
            _("Table {table}").format(table=self.table)
            if self.table is not None
            else _("Session {number}").format(number=self.session)
        )


def league_and_table(s: Session, name: str, ref: str) -> tuple[reads.ServedLeague, TableFacts]:
    """The league as the referee's page needs it (its language and clock: not the change
    marker its page does not listen to) and the table, in one read: what every tap reads."""
    row = get_league(s, name)
    league = reads.ServedLeague(
        row.name,
        row.id,
        league_setting(s, row, "lang"),  # type: ignore
        league_setting(s, row, "timezone"),
        "",
        "",
    )
    return league, _table(s, row, ref)


def table_facts(s: Session, league: reads.ServedLeague, ref: str) -> TableFacts:
    return _table(s, get_league(s, league.name), ref)


def _table(s: Session, row, ref: str) -> TableFacts:
    session = reads.table_sessions(s, row, ref)[-1]
    live = s.get(LiveHand, session.id)
    return TableFacts(
        ref,
        session.table_number,
        session.number,
        session.ended_at is None,
        session.entry_code,
        session_hands(s, session.id),  # type: ignore
        live.owner if live is not None else None,
        live.updated_at if live is not None else None,
        live.record_toml if live is not None else None,
        session.deal_seed,
    )


class TabletBook(LeagueBook):
    """The league as a tablet keeps it: the hand in progress it last kept is remembered, to
    see whether the league still holds it as this tablet left it."""

    kept: str | None = None

    def take(self) -> str | None:
        self.kept = super().take()
        return self.kept

    def save_live(self, toml_text: str) -> None:
        super().save_live(toml_text)
        self.kept = toml_text

    def drop_live(self) -> None:
        super().drop_live()
        self.kept = None

    def store(self, hand: dict, number: int | None = None):
        stored = super().store(hand, number)
        self.kept = None
        return stored


@dataclass
class Desk:
    """A tablet refereeing a table: its token, its referee's name, the evening."""

    ref: str
    token: str
    who: str
    book: TabletBook
    evening: Evening
    said: list[str] = field(default_factory=list)  # what the last entry said
    answered: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def at(self) -> str:
        """The entry a page of this desk answers: the table's hand and the entries made in it
        (a form naming another is behind)."""
        hand = self.evening.hand
        entries = len(hand.states) - 1 if hand is not None else 0
        return f"{self.book.claim.hands + 1 if self.book.claim else 0}.{entries}"

    def matches(self, facts: TableFacts) -> bool:
        """Whether the league holds the table as this desk left it."""
        claim = self.book.claim
        return (
            claim is not None
            and facts.session == self.book.session
            and facts.hands == claim.hands
            and facts.record == self.book.kept
            and facts.owner in (None, self.token)
            and not self.evening.done
        )

    def enter(self, line: str, at: str) -> tuple[bool, list[str]]:
        """Enter one line, as typed at the terminal; (entered, what it said). A form behind
        the desk enters nothing, unless it is the very form answered before (sent twice)."""
        if at != self.at():
            before = self.answered.get((at, line))
            if before is not None:
                return True, before
            return False, [
                _(
                    "the hand moved on since this page was shown (another tablet, or "
                    "this one twice): nothing was entered; here is where it is"
                )
            ]
        word = line.strip().partition(" ")[0]
        if words.meaning(word, words.EVENING, short=True) in ("save", "quit"):
            # files are the server's, and a page has nothing to quit: the league keeps the hand
            return False, [
                "✗ "
                + _(
                    "{word}: not from a tablet; the hand in progress is kept in "
                    "the league after every entry"
                ).format(word=word)
            ]
        said = self.evening.handle(line)
        self.answered = {(at, line): said}
        self.said = said[-SAID_MAX:]
        return True, said


class Desks:
    """The server's tablets (by token) and which holds each table (by the table's address)."""

    def __init__(self) -> None:
        self._desks: OrderedDict[str, Desk] = OrderedDict()
        self._holders: dict[str, str] = {}
        self.lock = threading.Lock()

    def get(self, token: str | None) -> Desk | None:
        with self.lock:
            desk = self._desks.get(token) if token else None
            if desk is not None:
                self._desks.move_to_end(token)  # type: ignore[arg-type]
            return desk

    def put(self, desk: Desk) -> None:
        with self.lock:
            self._desks[desk.token] = desk
            self._desks.move_to_end(desk.token)
            self._holders[desk.ref] = desk.token
            while len(self._desks) > DESKS_MAX:
                _token, old = self._desks.popitem(last=False)
                if self._holders.get(old.ref) == old.token:
                    del self._holders[old.ref]

    def drop(self, desk: Desk) -> None:
        with self.lock:
            if self._desks.get(desk.token) is desk:
                del self._desks[desk.token]

    def holder(self, ref: str) -> Desk | None:
        """The tablet of this server that opened the table last (None: none)."""
        with self.lock:
            token = self._holders.get(ref)
            return self._desks.get(token) if token else None

    def named(self, token: str | None) -> str | None:
        """The referee's name of a tablet of this server (None: not one of them)."""
        with self.lock:
            desk = self._desks.get(token) if token else None
            return desk.who if desk is not None else None


def open_desk(
    engine,
    league: str,
    facts: TableFacts,
    token: str,
    who: str,
    seed: int | None = None,
    writer: str | None = None,
) -> tuple[Desk, list[str]]:
    """A tablet's desk on the table, its hand in progress taken up for it (or the next hand
    begun); what the evening said on opening. ``who`` is the referee's name as a second
    tablet is told it, ``writer`` who the change log says stored the hands (else ``who``)."""
    book = TabletBook(None, league, writer or who, engine=engine, token=token)
    evening, lines = open_table_evening(book, facts.session, seed)
    book.resume = (
        f"mighty referee --league {league} --table {facts.table}"
        if facts.table is not None
        else f"mighty referee --league {league} --session {facts.session}"
    )
    return Desk(facts.ref, token, who, book, evening, said=lines[-SAID_MAX:]), lines


__all__ = [
    "TableFacts",
    "table_facts",
    "league_and_table",
    "TabletBook",
    "Desk",
    "Desks",
    "open_desk",
]
