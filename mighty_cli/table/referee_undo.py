"""Taking entries back at the referee (mixed into :class:`~.referee_session.RefereeSession`):
``undo`` (the last entry), ``undo N``, ``undo trick`` (to the start of this trick, or the last
one) and ``undo to N`` / ``undo trick N`` (to the start of trick N). An entry the tool made by
itself (the ghost's cards, the unseen discard of open cards) goes back with the entry before it;
a revoke caught later says how far to go back.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from ..engine.translation import _, ngettext
from . import view

if TYPE_CHECKING:
    from ..engine.hand import HandState
    from ..engine.hand.actions import Action
    from ..engine.ruleset import Ruleset


class RefereeUndo:
    """Undo at the referee (``self`` is the hand being refereed: its ``engine``, ``state``,
    ``states``, ``rules`` and helpers)."""

    if TYPE_CHECKING:  # what the hand (RefereeSession) gives its mix-ins
        engine: ModuleType
        rules: Ruleset
        states: list[HandState]

        @property
        def state(self) -> HandState: ...

        def _changed(self) -> list[str]: ...

        def _ghost_to_play(self, state: HandState) -> bool: ...

    def _undo(self, rest: str) -> list[str]:
        """``undo``, ``undo N``, ``undo trick`` (to the start of this trick, or the last one
        when none is started), ``undo to N`` / ``undo trick N`` (to the start of trick N)."""
        words = rest.lower().split()
        if len(self.states) == 1:
            return [_("nothing to undo")]
        if not words:
            return self._undo_entries(1)
        if len(words) == 1 and words[0].isdigit():
            count = int(words[0])
            if count < 1:
                return ["✗ " + _("undo N: N is at least 1")]
            return self._undo_entries(count)
        if words[0] in ("trick", "to") and len(words) <= 2:
            target = None
            if len(words) == 2:
                if not words[1].isdigit():
                    return [
                        "✗ "
                        + _("undo {what}: expected a trick number, e.g. undo to 3").format(
                            what=rest
                        )
                    ]
                target = int(words[1])
            return self._undo_to_trick(target)
        return [
            "✗ "
            + _("undo {what!r}: expected undo, undo N, undo trick or undo to TRICK").format(
                what=rest
            )
        ]

    def _pop_entry(self) -> tuple[HandState, Action]:
        """Take back one entry. In open cards the unseen discard (and, in 6마/7마, the unseen
        redistribution) came with the entry before them, and the ghost's cards with the entry
        before them, so they go with it."""
        while len(self.states) > 2 and self._ghost_to_play(self.states[-2]):
            self.states.pop()  # the ghost's cards went with the entry before them
        while self._automatic_discard(self.state) and len(self.states) > 2:
            self.states.pop()
        before, action = self.states[-2], self.state.history[-1]
        self.states.pop()
        return before, action

    def _undo_entries(self, count: int) -> list[str]:
        taken = []
        while count > 0 and len(self.states) > 1:
            before, action = self._pop_entry()
            taken.append(view.action_words(before, action))
            count -= 1
        return self._undone(taken)

    def _undo_to_trick(self, number: int | None) -> list[str]:
        s = self.state
        if number is None:
            if s.phase != "play" and s.phase != "done":
                return ["✗ " + _("undo trick: no trick has started yet")]
            number = (
                s.trick_number
                if s.phase == "play" and s.current_trick
                else len(s.tricks)
                if s.phase == "done"
                else s.trick_number - 1
            )
            if number < 1:
                return ["✗ " + _("undo trick: no trick has started yet")]
        index = view.trick_start_index(self.states, number)
        if index is None or index >= len(self.states) - 1:
            return [
                "✗ " + _("undo to {number}: trick {number} has not started").format(number=number)
            ]
        taken = []
        while len(self.states) - 1 > index:
            before, action = self._pop_entry()
            taken.append(view.action_words(before, action))
        return self._undone(taken)

    def _undone(self, taken: list[str]) -> list[str]:
        if not taken:
            return [_("nothing to undo")]
        shown = ", ".join(taken[:6])
        if len(taken) > 6:
            shown = ngettext(
                "{entries} and {count} more", "{entries} and {count} more", len(taken) - 6
            ).format(entries=shown, count=len(taken) - 6)
        lines = ["↶ " + _("took back {entries}").format(entries=shown)]
        lines.extend(self._changed())
        return lines

    def _automatic_discard(self, state: HandState) -> bool:
        """Whether a state's last action is the unseen discard or redistribution open cards
        apply by themselves."""
        return (
            state.hands is None
            and bool(state.history)
            and isinstance(state.history[-1], (self.engine.Discard, self.engine.Redistribute))
            and not state.history[-1].cards
        )

    def _revoke_hint(self, number: int | None) -> list[str]:
        """When a revoke is caught (the error's ``proving_trick``): which trick proves the void,
        and the way out."""
        if number is None:
            return []
        return [
            "  "
            + _(
                "trick {number} proves the void. If the earlier card was the mistake, "
                "'undo to {number}' goes back to the start of trick {number} to play it "
                "again; otherwise enter the card that may be played ({ruleset} names no "
                "revoke penalty, nor do the sources)"
            ).format(number=number, ruleset=self.rules.name)
        ]
