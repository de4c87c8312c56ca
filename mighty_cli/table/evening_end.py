"""The end of the club evening (mixed into :class:`~.evening.Evening`): ``quit`` and the end
of input. With a league, the hand in progress stays there for the next window (unless it was
taken away meanwhile); with a save file, the work is written there. Quitting with work kept
nowhere asks first (a file name, Enter for a new file, ``discard`` or ``back``); with piped
input, or when the input ends, the work is kept in a new file,
``mighty-evening-<time>.toml``, which ``mighty referee --resume`` goes on with.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.translation import _, ngettext
from . import words
from .table_errors import HandTakenAway

if TYPE_CHECKING:
    from .books import LeagueBook, SaveFile
    from .referee_session import RefereeSession


class EveningEnd:
    """Quitting the evening (``self`` is the :class:`~.evening.Evening`)."""

    if TYPE_CHECKING:  # what the evening gives its mix-in
        book: LeagueBook | None
        save: SaveFile | None
        hand: RefereeSession | None
        finished: list[dict]
        interactive: bool
        done: bool
        pending_quit: bool

        @property
        def has_work(self) -> bool: ...

        def write_save(self, path: Path | None = None) -> str: ...

        def resume_command(self) -> str: ...

        def _taken_away(self, exc: HandTakenAway) -> list[str]: ...

    def quit(self) -> list[str]:
        if self.book is not None:
            self.done = True
            if self.hand is not None and self.hand.started and not self.hand.over:
                try:
                    self.book.check()
                except HandTakenAway as exc:
                    return self._taken_away(exc)
                return [
                    _(
                        "the hand in progress is kept in league {league}: '{command}' "
                        "resumes it at the same card"
                    ).format(league=self.book.league, command=self.resume_command())
                ]
            return []
        if self.save is not None or not self.has_work:
            self.done = True
            return [self.write_save()] if self.save is not None and self.has_work else []
        if not self.interactive:
            return self._keep_on_quit()
        self.pending_quit = True
        count = len(self.finished)
        if self.hand and self.hand.started:
            said = ngettext(
                "{count} finished hand and the hand in progress are not saved anywhere.",
                "{count} finished hands and the hand in progress are not saved anywhere.",
                count,
            )
        else:
            said = ngettext(
                "{count} finished hand is not saved anywhere.",
                "{count} finished hands are not saved anywhere.",
                count,
            )
        return [said.format(count=count)]

    def _answer_quit(self, text: str) -> list[str]:
        answer = text.strip()
        said = words.meaning(answer, words.QUIT_ANSWERS)
        if said in ("cancel", "undo"):
            self.pending_quit = False
            return [_("back to the table")]
        if said == "discard":
            self.done = True
            return [_("discarded")]
        if not answer or said in ("keep", "save"):
            return self._keep_on_quit()
        said = self.write_save(Path(answer))
        self.done = True
        return [said]

    def _keep_on_quit(self) -> list[str]:
        """Keep unsaved work in a new file (piped input: the default answer)."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = Path(f"mighty-evening-{stamp}.toml")
        n = 1
        while path.exists():
            n += 1
            path = Path(f"mighty-evening-{stamp}-{n}.toml")
        said = self.write_save(path)
        self.done = True
        return [
            _("the unsaved work is kept: {saved}; 'mighty referee --resume {path}' goes on").format(
                saved=said, path=path
            )
        ]

    def end_of_input(self) -> list[str]:
        """Input ended (Ctrl-D, the end of a script): as quit, keeping unsaved work."""
        if self.book is None and self.save is None and self.has_work:
            return self._keep_on_quit()
        self.interactive = False
        return self.quit()
