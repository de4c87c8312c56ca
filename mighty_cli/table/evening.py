"""The club evening: hand after hand at one table, in one process.

:class:`Evening` holds the table (who is present, in playing order), the hands finished so far
(the evening's hand record), the proposal for the next hand (dealer, opener, who sits out:
docs/rules.md §9, overridable before the first call) and the hand being refereed
(:class:`~.referee.RefereeSession`). Like the hand, it takes one line and returns what to print.

Where the evening is kept:

* with a league (:class:`LeagueBook`): every entry rewrites the session's hand in progress in
  the database, and each finished hand (or deal miss, or all-pass redeal) is stored in its own
  transaction before the next begins; the session's end rules end the evening. The hand is
  this window's: when it was stored, replaced or taken up elsewhere meanwhile, the next entry
  is refused in one line saying how to go on, and the evening ends (:meth:`Evening._taken_away`);
* with ``--save FILE``: the evening's record, rewritten atomically after every entry. The tool
  never overwrites a file this run did not write (``--resume FILE`` continues one).

Quitting with work kept nowhere asks first; with piped input it keeps the work in a new file
(:mod:`.evening_end`, mixed into :class:`Evening`).
What the evening says besides the hand's lines (the proposal, the totals, the words offered) is
:mod:`.evening_text`'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.cards.deck import UNDEALT, hand_seed
from ..engine.errors import MightyError
from ..engine.hand.draft import seeded_deal
from ..engine.hand.seats import DUMMY, GHOST, arranged_deal
from ..engine.records import Record, ReplayResult, dump_record, replay
from ..engine.ruleset import Ruleset
from ..engine.session import (
    PreviousHand,
    Proposal,
    check_sitting_out,
    find_session_end,
    opener_for,
    propose,
)
from ..engine.translation import _
from . import view, words
from .books import LeagueBook, SaveFile
from .evening_end import EveningEnd
from .evening_text import completions, proposal_line, session_ended_line, session_totals_lines
from .name_lookup import match_name
from .referee_session import RefereeSession, deal_cards, rebuild
from .table_errors import HandTakenAway, TableUsageError

if TYPE_CHECKING:
    from ..engine.hand import HandState


class Evening(EveningEnd):
    """Hands in sequence at one table; ``handle`` takes a line and returns what to print."""

    def __init__(
        self,
        rules: Ruleset,
        ruleset_name: str,
        present: list[str],
        *,
        first_dealer: str | None = None,
        seed: int | None = None,
        deals: list[dict] | None = None,
        save: SaveFile | None = None,
        book: LeagueBook | None = None,
        interactive: bool = False,
        finished: list[dict] | None = None,
        hands_before: int = 0,
        ruleset_toml: str | None = None,
        number_offset: int = 0,
        table: int | None = None,
        duplicate: bool = False,
    ):
        if seed is not None and rules.table.deal == "draft":
            raise TableUsageError(
                _(
                    "{ruleset}: the players draft their hands at the table (table.deal = draft), so "
                    "--seed cannot know them; referee with open cards, or give the drafted hands "
                    "with --deal FILE"
                ).format(ruleset=rules.name)
            )
        self.rules, self.ruleset_name = rules, ruleset_name
        self.present = list(present)  # in playing order
        self.first_dealer = first_dealer
        self.seed = seed
        # a deal file's texts are read under this ruleset (two decks: a card named twice)
        self.deals = [
            deal_cards(deal, rules)
            if any(isinstance(cards, str) for cards in deal.values())
            else deal
            for deal in deals or []
        ]
        self.save, self.book = save, book
        self.interactive = interactive
        self.finished: list[dict] = list(finished or [])
        self.hands_before = hands_before  # hands of the session before this evening's record
        # a league numbers hands across its sessions: the session's hand k is shown as the
        # league's hand k + number_offset (the number record, hand show and amend use); the
        # deal stays the session's k ('mighty deal --seed N' hand k)
        self.number_offset = number_offset
        # a table of a round (several tables store hands at once): its hands are shown by the
        # table's own count, the league's number said once the hand is stored
        self.table = table
        # a duplicate round's table: every table deals each deal from the same seat
        self.duplicate = duplicate
        self.ruleset_toml = ruleset_toml
        self.hand: RefereeSession | None = None
        self.proposal: Proposal | None = None
        self.ended: str | None = None
        self.done = False
        #: the evening ended because its hand was no longer this window's (HandTakenAway)
        self.taken_away = False
        self.pending_quit = False
        self.pending_store = False
        self.unsaved_since = 0

    # --- the record --------------------------------------------------------------------------

    def record(self, with_live: bool = True) -> Record:
        hands = list(self.finished)
        if (
            with_live
            and self.hand is not None
            and not self.hand.over
            and (self.hand.started or self.hand.deal is not None)
        ):
            hands.append(self.hand.hand_dict())
        extra = {"ruleset_toml": self.ruleset_toml} if self.ruleset_toml else {}
        return Record(
            ruleset=self.ruleset_name, players=list(self.present), hands=hands, extra=extra
        )

    def replayed(self) -> ReplayResult:
        return replay(self.record(with_live=False), self.rules)

    @property
    def table_size(self) -> int:
        """How many play each hand (table.players); the rest present sit out in turn."""
        return self.rules.table.players

    @property
    def kept(self) -> bool:
        """Whether every entry is kept somewhere (a league or a save file)."""
        return self.book is not None or self.save is not None

    @property
    def has_work(self) -> bool:
        return bool(self.finished) or (self.hand is not None and self.hand.started)

    # --- succession --------------------------------------------------------------------------

    def _previous(self) -> PreviousHand | None:
        if not self.finished:
            return None
        last = self.replayed().hands[-1]
        return PreviousHand(
            last.status,
            tuple(last.players),
            last.dealer,
            last.declarer,
            last.friend,
            last.score.success if last.score else None,
            last.deal_miss_player,
        )

    def next_proposal(self) -> Proposal:
        if self.book is not None:
            return self.book.next_hand().proposal
        return propose(
            self.rules, self.present, self._previous(), self.first_dealer, in_playing_order=True
        )

    def start_hand(
        self,
        proposal: Proposal | None = None,
        *,
        dealer: str | None = None,
        opener: str | None = None,
        out: list[str] | None = None,
    ) -> list[str]:
        """Begin the next hand as proposed, with the referee's changes."""
        proposal = proposal or self.proposal or self.next_proposal()
        dealer = dealer or proposal.dealer
        sitting = list(out) if out is not None else list(proposal.sitting_out)
        if out is None and dealer != proposal.dealer and proposal.dealer in sitting:
            sitting[sitting.index(proposal.dealer)] = dealer  # the dealer sits out (§9)
        five = [p for p in self.present if p not in sitting]  # table.players of them
        if len(five) != self.table_size:
            raise MightyError(
                _("{count} must sit out, not {given}").format(
                    count=len(self.present) - self.table_size, given=len(sitting)
                )
            )
        if opener is None:
            opener = (
                proposal.opener
                if proposal.opener in five
                and dealer == proposal.dealer
                and sitting == list(proposal.sitting_out)
                else opener_for(self.rules, self.present, five, dealer, self._previous())
            )
        if opener not in five:
            raise MightyError(
                _("{player} sits this hand out and cannot open").format(player=opener)
            )
        self.proposal = Proposal(dealer, opener, tuple(five), tuple(sitting))
        number = self.hands_before + len(self.finished) + 1
        deal = self._deal_for(number, five)
        self.hand = RefereeSession(
            self.rules, self.ruleset_name, five, dealer, deal, opener=opener, on_change=self.keep
        )
        lines = [proposal_line(self, number)]
        lines.extend(self.hand.status()[1:])
        return lines

    def _deal_for(self, number: int, five: list[str]) -> dict | None:
        if self.seed is not None:
            # ghost 4마: the ghost's pile is dealt too, in its order (as 'mighty deal' deals it)
            return arranged_deal(seeded_deal(self.rules, hand_seed(self.seed, number), five))
        if number <= len(self.deals):
            deal = self.deals[number - 1]
            # not players': the kitty, the ghost's pile, 시흥 은마's dummy, the cards aside
            kept = ("kitty", GHOST, DUMMY, UNDEALT)
            names = [k for k in deal if k not in kept]
            if set(names) == set(five):
                return dict(deal)
            return {
                **{five[i]: deal[name] for i, name in enumerate(names)},
                **{k: deal[k] for k in kept if k in deal},
            }
        return None

    # --- keeping the work ---------------------------------------------------------------------

    def keep(self, hand: RefereeSession) -> str | None:
        """Keep the work after an entry: the league's hand in progress, the save file."""
        if self.book is not None and not hand.over:
            if hand.started:
                one = Record(
                    ruleset=self.ruleset_name, players=list(self.present), hands=[hand.hand_dict()]
                )
                self.book.save_live(dump_record(one))
            else:  # every entry taken back: nothing is in progress
                self.book.drop_live()
        if self.save is not None:
            self.save.write(dump_record(self.record()))
        return None

    def resume_hand(
        self,
        five: list[str],
        dealer: str,
        deal: dict | None,
        state: HandState,
        opener: str | None = None,
    ) -> list[str]:
        """Take up a hand where it stopped (a saved record's, or the league's hand in
        progress): ``state``, its replayed state; what to show of it."""
        self.hand = rebuild(
            self.rules,
            self.ruleset_name,
            five,
            dealer,
            deal,
            state,
            on_change=self.keep,
            opener=opener,
        )
        out = [p for p in self.present if p not in five]
        opener = self.hand.opener
        assert opener is not None  # (a hand's first state has its opener to move)
        self.proposal = Proposal(dealer, opener, tuple(five), tuple(out))
        return self.hand.status()[1:]

    def write_save(self, path: Path | None = None) -> str:
        if path is not None:
            target = (
                self.save if self.save is not None and self.save.path == path else SaveFile(path)
            )
            target.write(dump_record(self.record()))
            if self.save is None:
                self.save = target
            return _("saved to {path}").format(path=target.path)
        if self.save is None:
            return _("say where: save FILE (it is then kept there after every entry)")
        self.save.write(dump_record(self.record()))
        return _("saved to {path}").format(path=self.save.path)

    # --- input -----------------------------------------------------------------------------

    def prompt(self) -> str:
        if self.pending_quit:
            return _(
                "unsaved work: Enter saves it to a new file, or type a file name, "
                "'discard' or 'back'"
            )
        if self.pending_store:
            return _("[hand over, not stored] 'store' tries again; 'save FILE' keeps it in a file")
        if not self.hand:
            return _("[no hand]")
        try:
            return self.hand.prompt()
        except Exception:  # drawing the prompt must never end the evening
            return f"[{self.hand.state.phase}] {self.hand.state.to_move or ''}".rstrip()

    def glance(self) -> list[str]:
        """The line shown before each card (the trick, points, friend, cards left)."""
        if self.pending_quit or self.pending_store or self.hand is None:
            return []
        try:
            line = view.glance_line(self.hand.state)
        except Exception:  # drawing must never end the evening
            return []
        return [line] if line else []

    def handle(self, line: str) -> list[str]:
        """One line of input; never raises."""
        try:
            return self._handle(line.strip())
        except HandTakenAway as exc:
            return self._taken_away(exc)
        except (MightyError, OSError) as exc:
            message = str(exc)
            return [f"✗ {message}"]
        except Exception as exc:  # a bug must not end the evening: say so and go on
            return [
                "✗ "
                + _("that entry could not be handled ({kind}: {error}); nothing changed").format(
                    kind=type(exc).__name__, error=exc
                )
            ]

    def _handle(self, text: str) -> list[str]:
        if self.pending_quit:
            return self._answer_quit(text)
        if not text:
            return []
        word, _sep, rest = text.partition(" ")
        command = words.meaning(word, words.EVENING, short=True) or word.lower()
        rest = rest.strip()
        if command == "quit":
            return self.quit()
        if command == "save":
            return [self.write_save(Path(rest) if rest else None)]
        if command == "standings":
            return self.totals_lines()
        if command == "store" and self.pending_store:
            return self.finish()
        if self.pending_store:
            return [
                "✗ "
                + _(
                    "the finished hand is not stored yet: 'store' tries again, "
                    "'save FILE' keeps the evening in a file, 'quit' ends"
                )
            ]
        if self.hand is None:  # the next hand could not be set up: try again
            self.proposal = None
            return self.start_hand()
        if command == "table" and not rest:
            sitting = self.proposal.sitting_out if self.proposal else ()
            extra = (
                [_("sitting out {players}").format(players=", ".join(sitting))] if sitting else []
            )
            return self.hand.handle("table") + extra
        if command in ("dealer", "opener", "out") and rest:
            return self._override(command, rest)
        out = self.hand.handle(text)
        if self.hand is not None and self.hand.over and not self.hand.finished:
            finished = self.finish()
            if self.taken_away:  # the hand was not this window's to end: the refusal alone
                return finished
            out.extend(finished)
        if self.hand is not None and self.hand.finished:  # the hand's own 'quit'
            self.hand.finished = False
            out.extend(self.quit())
        return out

    def _override(self, command: str, rest: str) -> list[str]:
        if self.duplicate:
            return [
                "✗ "
                + _(
                    "{command}: a duplicate round deals each deal from the same seat "
                    "at every table; the dealer, the opener and who sits out are "
                    "the deal's"
                ).format(command=command)
            ]
        if self.hand is not None and self.hand.started:
            return [
                "✗ "
                + _(
                    "{command}: the hand has begun; change it before the first call "
                    "(undo back to the start first)"
                ).format(command=command)
            ]
        p = self.proposal
        assert p is not None  # (the hand not yet begun was proposed: start_hand)
        dealer, opener, out = p.dealer, None, None
        if command == "dealer":
            dealer = match_name(rest, self.present)
        elif command == "opener":
            opener = match_name(rest, list(p.players))
        else:
            names = [match_name(n, self.present) for n in rest.replace(",", " ").split()]
            if len(names) != len(self.present) - self.table_size:
                raise MightyError(
                    _("out: {count} sit out at this table, named {given}").format(
                        count=len(self.present) - self.table_size, given=len(names)
                    )
                )
            check_sitting_out(self.rules, self.present, self._previous(), names)
            out = names
        base = Proposal(p.dealer, p.opener, p.players, p.sitting_out)
        if command != "dealer":
            dealer = p.dealer
        return self.start_hand(
            base,
            dealer=dealer,
            opener=opener,
            out=out if out is not None else (list(p.sitting_out) if command == "opener" else None),
        )

    def _taken_away(self, exc: HandTakenAway) -> list[str]:
        """The hand is no longer this window's (stored, replaced or taken up elsewhere): one
        line saying what happened and how to go on; the evening ends, nothing more kept."""
        self.done = self.taken_away = True
        self.hand = None
        if exc.what == "ended":  # the table itself is over: nothing to go on with here
            return [f"✗ {exc}"]
        return [
            "✗ "
            + _("{reason}; '{command}' goes on from what the league holds").format(
                reason=str(exc), command=self.resume_command()
            )
        ]

    def resume_command(self) -> str:
        """The command line that opens this table again."""
        if self.book is not None and self.book.resume:
            return self.book.resume
        return f"mighty referee --league {self.book.league}" if self.book else "mighty referee"

    def finish(self) -> list[str]:
        """Store the finished hand, show the totals and begin the next hand."""
        hand = self.hand
        assert hand is not None  # (a hand just over is finished)
        data = hand.hand_dict()
        lines: list[str] = []
        if self.book is not None:
            try:
                stored = self.book.store(data, self.hands_before + len(self.finished) + 1)
            except HandTakenAway as exc:
                return self._taken_away(exc)
            except MightyError as exc:
                self.pending_store = True
                message = str(exc)
                return [
                    "✗ "
                    + _("the hand could not be stored in league {league}: {message}").format(
                        league=self.book.league, message=message
                    ),
                    "  " + _("'store' tries again; 'save FILE' keeps it in a file"),
                ]
            self.pending_store = False
            if self.table is not None:
                local = stored.session_hand
                lines.append(
                    _(
                        "saved to league {league} as table {table}'s hand {local} "
                        "(league hand {number}, session {session})"
                    ).format(
                        league=self.book.league,
                        table=self.table,
                        local=local,
                        number=stored.hand.number,
                        session=stored.hand.session,
                    )
                )
            else:
                lines.append(
                    _("saved to league {league} as hand {number} (session {session})").format(
                        league=self.book.league,
                        number=stored.hand.number,
                        session=stored.hand.session,
                    )
                )
            if stored.session_ended:
                self.ended = stored.session_ended
        # The hand is stored: from here on nothing may offer to store it again.
        self.finished.append(data)
        self.hand = None
        lines.extend(self._after_hand())
        return lines

    def _after_hand(self) -> list[str]:
        lines: list[str] = []
        try:
            if self.save is not None:
                self.save.write(dump_record(self.record(with_live=False)))
            if self.book is None and self.ended is None:
                self.ended = self._ended_by_rules()
            lines.extend(self.totals_lines())
        except (MightyError, OSError) as exc:
            message = str(exc)
            lines.append(f"✗ {message}")
        if self.ended:
            lines.append(
                # a league's evening plays its session, opened before the first hand
                session_ended_line(self.book.session, self.ended)  # type: ignore[arg-type]
                if self.book
                else _("The session is over by the ruleset ({reason}).").format(reason=self.ended)
            )
            self.done = True
            return lines
        self.proposal = None
        lines.extend(self.start_hand())
        return lines

    def _ended_by_rules(self) -> str | None:
        outcomes = self.replayed().hands
        end = find_session_end(self.rules, [(o.status, o.deltas) for o in outcomes])
        return end.reason if end else None

    def totals_lines(self) -> list[str]:
        """The session's running totals, highest first
        (:func:`.evening_text.session_totals_lines`)."""
        return session_totals_lines(self)

    def completions(self) -> list[str]:
        """The words a line may be completed to now (:func:`.evening_text.completions`)."""
        return completions(self)
