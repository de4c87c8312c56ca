"""Where a refereed evening is kept: the save file (never one this run did not write) and the
league (one database engine for the evening, one transaction per write)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from ..engine.translation import _
from .table_errors import TableError
from .referee_session import write_record_file

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
            raise TableError(_("{path} is a folder: name a file").format(
                path=self.path))
        if self.path.exists():
            raise TableError(_("{path} exists and this run did not write it: choose "
                                         "another name, or continue it with --resume {path}")
                                       .format(path=self.path))
        self.owned = True

    def write(self, text: str) -> None:
        self.claim()
        write_record_file(self.path, text)


@contextmanager
def db_transaction(engine) -> Iterator:
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
    """A league's open session, through one database engine for the whole evening."""

    def __init__(self, db_url: Optional[str], league: str, who: str):
        from ..store.db import make_engine

        self.engine = make_engine(db_url, missing_ok=False)
        self.league, self.who = league, who
        self.session: Optional[int] = None

    def tx(self):
        return db_transaction(self.engine)

    def evening(self):
        from ..store.sessions import evening

        with self.tx() as s:
            return evening(s, self.league, self.session)

    def save_live(self, toml_text: str) -> None:
        from ..store.sessions import save_live_hand

        with self.tx() as s:
            save_live_hand(s, self.league, self.session, toml_text)  # type: ignore[arg-type]

    def store(self, hand: dict):
        from ..store.hands import record_hand

        with self.tx() as s:
            return record_hand(s, self.league, session_number=self.session,
                               players=hand["players"], dealer=hand["dealer"],
                               refereed=hand, who=self.who)

    def session_hands(self) -> list[dict]:
        """The session's stored hands as hand-record tables (the evening record so far)."""
        from ..store.hands import list_hands

        with self.tx() as s:
            views = list_hands(s, self.league, session_number=self.session,
                               include_voided=False)
        return [{k: v for k, v in view.hand_dict().items() if k not in ("session", "date")}
                for view in views]

    def close(self) -> None:
        self.engine.dispose()
