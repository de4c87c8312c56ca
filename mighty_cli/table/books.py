"""Where a table's evening is kept: the save file (never one this run did not write) and the
league (one database engine for the evening, one transaction per write), for the referee and
the score-keeper alike."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.translation import _
from .next_hand import NextHand, read_next_hand
from .referee_session import write_record_file
from .table_errors import HandTakenAway, TableError

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlmodel import Session

    from ..store.ledger.hands import Recorded
    from ..store.ledger.table_entry import LiveClaim

# Deferred imports: the store (SQLModel, SQLAlchemy) loads inside the league's methods, only when
# an evening keeps a league, so the command line's start-up never pays for it.


class SaveFile:
    """The evening's record file. Written only when this run created it or was told to
    continue it (``--resume FILE``)."""

    def __init__(self, path: Path, owned: bool = False):
        self.path = Path(path)
        self.owned = owned

    def claim(self) -> None:
        """Refuse a file this run did not write (one line, nothing written)."""
        if self.owned:
            return
        if self.path.is_dir():
            raise TableError(_("{path} is a folder: name a file").format(path=self.path))
        if self.path.exists():
            raise TableError(
                _(
                    "{path} exists and this run did not write it: choose "
                    "another name, or continue it with --resume {path}"
                ).format(path=self.path)
            )
        self.owned = True

    def write(self, text: str) -> None:
        self.claim()
        write_record_file(self.path, text)


@contextmanager
def db_transaction(engine: Engine) -> Iterator[Session]:
    """One transaction on an evening's engine; database failures become one-line errors."""
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from ..store.db import transaction

    try:
        with transaction(engine) as s:
            yield s
    except DBAPIError as exc:
        first = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        raise TableError(_("database error: {error}").format(error=first)) from None
    except SQLAlchemyError as exc:
        raise TableError(_("database error: {error}").format(error=exc)) from None


class LeagueBook:
    """A league's open session, through one database engine for the whole evening: the
    referee's (``mighty referee --league``) and the score-keeper's (``record --evening``).

    The hand in progress is this window's by a token (:attr:`claim`, taken up by :meth:`take`
    when the evening opens): every write checks it under the league's lock, so a window whose
    hand was replaced (a ``record`` at the table), finished or taken up in another window is
    refused (:class:`~.table_errors.HandTakenAway`) instead of storing a hand again.
    :attr:`resume` is the command line that opens this table again (the front end's)."""

    def __init__(
        self,
        db_url: str | None,
        league: str,
        who: str,
        engine: Engine | None = None,
        token: str | None = None,
    ):
        from ..store.db import make_engine
        from ..store.ledger.table_entry import new_token

        # a server's own engine (``engine``) is the server's to close; a token kept by the
        # front end (a tablet's) makes the window the same one across its requests
        self.own_engine = engine is None
        self.engine = engine if engine is not None else make_engine(db_url, missing_ok=False)
        self.league, self.who = league, who
        self.session: int | None = None
        self.token = token or new_token()
        self.claim: LiveClaim | None = None  # the store's, from take()
        self.resume = ""

    def tx(self) -> AbstractContextManager[Session]:
        return db_transaction(self.engine)

    @contextmanager
    def held(self) -> Iterator[Session]:
        """A transaction in which the store's refusal of this window's hand becomes
        :class:`HandTakenAway`."""
        from ..store.ledger.table_entry import HandGone

        try:
            with self.tx() as s:
                yield s
        except HandGone as exc:
            raise HandTakenAway(str(exc), exc.what) from None

    def next_hand(self) -> NextHand:
        """The table before its next hand (:mod:`.next_hand`)."""
        with self.tx() as s:
            return read_next_hand(s, self.league, self.session)

    def take(self) -> str | None:
        """Take up the session's hand in progress for this window; its record, if any."""
        from ..store.ledger.table_entry import take_live_hand

        with self.tx() as s:
            self.claim, text = take_live_hand(s, self.league, self.session, self.token)
        return text

    def save_live(self, toml_text: str) -> None:
        from ..store.ledger.table_entry import keep_live_hand

        claim = self._claim()
        with self.held() as s:
            keep_live_hand(s, self.league, self.session, toml_text, claim)
        claim.held = True

    def drop_live(self) -> None:
        """Every entry taken back: the session has no hand in progress (if this window
        kept one)."""
        from ..store.ledger.table_entry import drop_live_hand

        claim = self._claim()
        if claim.held:
            with self.held() as s:
                drop_live_hand(s, self.league, self.session, claim)
            claim.held = False

    def check(self) -> None:
        """Refuse (:class:`HandTakenAway`) when the hand in progress is no longer this
        window's."""
        from ..store.ledger.lookups import get_league
        from ..store.ledger.sessions import find_session
        from ..store.ledger.table_entry import check_claim

        claim = self._claim()
        with self.held() as s:
            league = get_league(s, self.league)
            check_claim(s, league, find_session(s, league, self.session, open_only=False), claim)

    def _claim(self) -> LiveClaim:
        """The window's claim (an evening that did not :meth:`take` first holds no hand yet,
        at the session's count now). Never inside another transaction of this book."""
        if self.claim is None:
            from ..store.ledger.lookups import get_league
            from ..store.ledger.sessions import find_session
            from ..store.ledger.table_entry import LiveClaim, session_hands

            with self.tx() as s:
                league = get_league(s, self.league)
                session = find_session(s, league, self.session, open_only=False)
                assert session.id is not None  # (a stored session)
                self.claim = LiveClaim(self.token, session_hands(s, session.id))
        return self.claim

    def store(self, hand: dict, number: int | None = None) -> Recorded:
        """Store the finished hand (the table's hand ``number``, when the front end says)."""
        from ..store.ledger.hands import record_hand

        claim = self._claim()
        with self.held() as s:
            stored = record_hand(
                s,
                self.league,
                session_number=self.session,
                players=hand["players"],
                dealer=hand["dealer"],
                refereed=hand,
                who=self.who,
                claim=claim,
                expect_hand=number,
            )
        claim.hands, claim.held = stored.session_hand, False
        return stored

    def session_hands(self) -> list[dict]:
        """The session's stored hands as hand-record tables (the evening record so far)."""
        from ..store.ledger.hand_reads import list_hands

        with self.tx() as s:
            views = list_hands(s, self.league, session_number=self.session, include_voided=False)
        return [
            {k: v for k, v in view.hand_dict().items() if k not in ("session", "date")}
            for view in views
        ]

    def close(self) -> None:
        if self.own_engine:
            self.engine.dispose()
