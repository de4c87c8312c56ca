"""The live table, one call or card at a time (``mighty referee``'s hand).

The referee types what the table does in the notation of the hand record (``13h``, ``pass``,
``c2 d3 h4``, ``sa``, ``jk/h``, ``c3!``); the tool checks it against the ruleset at once, says why
an entry is illegal and asks again, decides each trick, and scores the hand. Nothing typed ends
the evening: a typo is one ``✗`` line and the same question again. Korean entries (``패스``,
``스페이드 14``, ``마이티 프렌드``, ``다이아 10``, ``클로버 3 조콜``) are turned into the notation
first (:func:`~.words.normalize_entry`: the table's vocabulary, one for every entry), whatever
language the tool speaks; what it prints is translated (``mighty_cli/i18n.py``).

* :class:`RefereeSession` is one hand: a stack of engine states (one per entry) for undo. It
  takes one line and returns what to print, so it is tested without a terminal.
* :mod:`.evening` runs hand after hand (succession, the league, the save file, quitting).
* :mod:`.variants` holds what only some tables need (6마/7마 elimination, the ghost's
  cards, 허니문's friend hands), mixed into the hand.
* :mod:`.referee_undo` takes entries back (``undo``, ``undo N``, ``undo to TRICK``), mixed into
  the hand the same way.
* :mod:`.view` draws the table; ``mighty_cli.cli.line_input`` reads lines (readline when
  present) and ``mighty_cli.cli.referee`` is the click command.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import hand as engine
from ..engine.cards import format_card, parse_bid, parse_cards
from ..engine.errors import InvalidNotation, MightyError
from ..engine.hand.contract import joker_call_card, mighty_card
from ..engine.outputs import OutputError, write_file
from ..engine.records import Record, dump_record, state_to_hand
from ..engine.ruleset import Ruleset
from ..engine.scoring import describe
from ..engine.translation import N_, _, ngettext
from ..render.text import table
from . import view, words
from .name_lookup import find_name, match_name
from .referee_undo import RefereeUndo
from .table_errors import HandTakenAway
from .variants import TableVariants
from .words import normalize_entry

if TYPE_CHECKING:
    from ..engine.hand import FriendCall, HandState

HELP = N_("""\
  election:  13h  14nt  pass (p)  Bo 13h (naming the bidder)   deal miss: miss NAME
  6마, 7마:  elimination: a card, c5 (open cards: c5 NAME, or c5 kitty), or a NAME when the
             player is named; then the pile: deal (the tool deals it), or NAME CARDS; NAME CARDS
  exchange:  the discards, e.g. c2 d3 h4
  friend:    a new contract first if the declarer changes it (16s, or contract 16s), then a
             call: sa, joker, mighty, none (nf), first-trick, last-trick, player:NAME
  play:      sa  d10  jk  jk/h (joker led asking for hearts)  c3! (joker call declared)
  any time:  table (t, show)  legal (l)  hand [NAME]  undo [N]  undo trick  undo to TRICK
             save [FILE]  help (h)  quit (q)
  between hands (before the first call): dealer NAME  opener NAME  out NAME[,NAME]
             standings (st)
  Korean:    패스, 스페이드 14, 14 노기, 마이티 (프렌드), 조커 (프렌드), 노프렌드, 초구, 막구,
             너 프렌드 NAME, 스페이드 A, 다이아 10, 조커 하트 (joker asking for hearts),
             클로버 3 조콜 (joker call), 보기 (table), 무르기 (undo)""")

#: a Korean suit and 11 (``하트 11``): 서울과고's card 11, or a bid of 11
_ELEVEN = re.compile(r"^\D.*\s11$")
_BID = re.compile(r"^\s*\d+\s*(s|d|h|c|nt|♠|♦|◆|♥|♣|n)\s*$", re.IGNORECASE)


class RefereeSession(TableVariants, RefereeUndo):
    """A hand being refereed: a stack of engine states, one per action, for undo.

    ``on_change`` is called after every change (an entry or an undo) to keep the hand safe
    (the league's hand in progress, the evening's save file) and returns a line to show, or
    None. Without it, ``save_path`` keeps the one-hand record there."""

    def __init__(
        self,
        rules: Ruleset,
        ruleset_name: str,
        players: list[str],
        dealer: str,
        deal: dict[str, list[int]] | None,
        opener: str | None = None,
        save_path: Path | None = None,
        states: list | None = None,
        on_change: Callable[[RefereeSession], str | None] | None = None,
    ):

        self.engine = engine
        self.rules, self.ruleset_name, self.players = rules, ruleset_name, list(players)
        self.deal, self.save_path, self.on_change = deal, save_path, on_change
        self.dealer = dealer
        self.states = states or [engine.new_hand(rules, self.players, dealer, deal, opener=opener)]
        self.finished = False

    @property
    def state(self) -> HandState:
        return self.states[-1]

    @property
    def opener(self) -> str | None:
        return self.states[0].to_move

    @property
    def started(self) -> bool:
        """Whether anything was entered for this hand."""
        return len(self.states) > 1

    @property
    def over(self) -> bool:
        return self.state.phase in ("done", "deal_miss", "redeal")

    # --- prompts and display -------------------------------------------------------------------

    def prompt(self) -> str:
        """What the referee is asked for next."""
        if self.over:
            return _("[hand over] undo, save or quit")
        return view.prompt_text(self.state)

    def status(self) -> list[str]:
        """The table drawn in full (the ``table`` command)."""
        lines = [f"{self.rules.meta.title} ({self.rules.name})"]
        lines.extend(view.table_lines(self.state))
        if self.state.phase == "done":
            lines.extend(self._result_lines())
        return lines

    def _result_lines(self) -> list[str]:
        result = self.engine.hand_result(self.state)
        lines = [describe(result.score, self.rules)]
        lines.append(
            table(
                list(self.players),
                [[f"{result.deltas.get(p, 0):+d}" for p in self.players]],
                align=">" * len(self.players),
            )
        )
        if self.rules.table.partner_hands:
            lines.append(self._two_hands_line(result))
        return lines

    # --- input ---------------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Apply one line of input; return the lines to print. Illegal input changes nothing,
        and no input raises: a typo is one ``✗`` line."""
        text = line.strip()
        if not text:
            return []
        try:
            return self._handle(text)
        except HandTakenAway:
            raise  # the hand is no longer this window's: its front end says so and stops
        except (MightyError, ValueError, OSError) as exc:
            message = str(exc)
            return [f"✗ {message}"] + self._revoke_hint(getattr(exc, "proving_trick", None))
        except Exception as exc:  # a bug must not end the evening either: say so and go on
            return [
                "✗ "
                + _("that entry could not be handled ({kind}: {error}); nothing changed").format(
                    kind=type(exc).__name__, error=exc
                )
            ]

    def _handle(self, typed: str) -> list[str]:
        text = normalize_entry(typed, expect=self._expect(typed))
        try:
            return self._handle_entry(text)
        except MightyError as exc:
            if text != typed:  # the refusal quotes what was typed, not its English rewrite
                exc.args = (
                    str(exc).replace(repr(text.strip()), repr(typed.strip())),
                    *exc.args[1:],
                )
            raise

    def _handle_entry(self, text: str) -> list[str]:
        word, _sep, rest = text.partition(" ")
        command = words.meaning(word, words.REFEREE, short=True) or word.lower()
        rest = rest.strip()
        if command == "help":
            return _(HELP).splitlines()
        if command == "quit":
            self.finished = True
            return [self.save()] if self.save_path and not self.on_change else []
        if command == "undo":
            return self._undo(rest)
        if command == "table":
            return self.status()
        if command == "legal":
            return self._legal()
        if command == "hand":
            return self._show_hand(rest)
        if command == "save":
            return [self.save(Path(rest) if rest else None)]
        return self._act(command, rest, text)

    def _expect(self, text: str = "") -> str:
        """What an entry is read as when Korean words could be either (``다이아 10``: the bid
        10D in the election and at the friend call, the card D10 otherwise). At the friend call
        of a 57-card ruleset (table.rank_eleven) ``하트 11`` is the card H11: a contract of 11
        is below its lowest bid, so it can only be the card called."""
        phase = self.state.phase
        if (
            phase == "friend"
            and self.rules.table.rank_eleven
            and self.rules.election.min_bid > 11
            and _ELEVEN.match(text.strip())
        ):
            return "card"
        return "bid" if phase in ("election", "friend") else "card"

    def _act(self, command: str, rest: str, text: str) -> list[str]:
        s, engine = self.state, self.engine
        if command == "miss":
            if not rest:
                return ["✗ " + _("say who declares the deal miss: miss NAME")]
            action = engine.DeclareDealMiss(self._player(rest))
        elif s.phase == "election":
            player, what = s.to_move, text
            first, _sep, tail = text.partition(" ")
            if tail.strip() and (find_name(first, self.players) or not _BID.match(text)):
                player, what = self._player(first), tail.strip()  # "Bo 13h" names the bidder
            what = normalize_entry(what, expect="bid")
            action = engine.BidCall(
                player, None if words.means(what, "pass", short=True) else parse_bid(what)
            )
        elif s.phase == "elimination":
            action = self._elimination(text)
        elif s.phase == "redistribution":
            action = self._redistribution(command, text)
        elif s.phase == "exchange":
            # two decks (8마 Chicago): a card named twice is both copies
            action = engine.Discard(tuple(parse_cards(text, copies=self.rules.table.decks == 2)))
        elif (
            s.phase == "friend"
            and self.rules.table.partner_hands
            and command != "contract"
            and not _BID.match(text)
        ):
            action = self._own_friend_call(text)
            if action is None:  # a card: the tool makes the only call, then plays it
                return self._auto_friend_call() + self._act(command, rest, text)
        elif s.phase == "friend":
            if command == "contract":
                action = engine.ChangeContract(parse_bid(rest))
            elif _BID.match(text):  # a new contract typed on its own: 16s
                action = engine.ChangeContract(parse_bid(text))
            else:
                action = engine.CallFriend(self._friend_call(text))
        elif s.phase == "play":
            card, joker_suit, joker_call = engine.parse_play(_named_card(text, s))
            action = engine.Play(s.to_move, card, joker_suit, joker_call)
        else:
            return [_("the hand is over: undo, save, or quit")]
        before = s
        after = engine.apply(before, action)
        self.states.append(after)
        out = ["✓ " + self._describe(before, after)]
        if after.phase == "redistribution":
            out.extend(self._pile_lines(after))
        if after.phase == "redistribution" and after.hands is None:
            # open cards: the eliminated hands and the kitty are dealt out unseen
            after = engine.apply(after, engine.Redistribute(()))
            self.states.append(after)
            out.append(_("the eliminated hands and the kitty are dealt out (unseen: open cards)"))
        if after.phase == "exchange" and after.hands is None:
            # open cards: nobody sees the discards; their points are what the tricks leave
            self.states.append(engine.apply(after, engine.Discard(())))
            out.append(
                _("{declarer} takes the kitty and discards (unseen: open cards)").format(
                    declarer=after.declarer
                )
            )
        if (
            after.phase == "play"
            and before.phase == "play"
            and after.trick_number != before.trick_number
        ):
            out.append(view.points_line(after))
        out.extend(self._ghost_plays())
        if after.phase == "done":
            out.extend(self._result_lines())
        if after.phase in ("deal_miss", "redeal"):
            out.append(
                _("deal miss: the cards are redealt")
                if after.phase == "deal_miss"
                else _("everyone passed: the cards are redealt")
            )
        out.extend(self._changed())
        return out

    def _changed(self) -> list[str]:
        """Keep the hand safe after a change; a line when that failed or has news."""
        try:
            if self.on_change is not None:
                said = self.on_change(self)
                return [said] if said else []
            if self.save_path:
                self._write(self.save_path)
        except HandTakenAway:
            raise
        except Exception as exc:  # a full disk must not lose the entry on screen
            return ["✗ " + _("could not keep the hand safe: {error}").format(error=exc)]
        return []

    def _describe(self, before: HandState, after: HandState) -> str:
        action = after.history[-1]
        engine = self.engine
        if isinstance(action, engine.BidCall):
            said = _("pass") if action.bid is None else view.pretty_bid(action.bid)
            text = _("{player} {bid}").format(player=action.player, bid=said)
            if after.phase in ("exchange", "elimination") or (
                after.phase == "friend" and before.phase == "election"
            ):
                text += _("; {declarer} is declarer (주공) at {contract}").format(
                    declarer=after.declarer, contract=view.pretty_bid(after.contract)
                )
            return text
        if isinstance(action, engine.DeclareDealMiss):
            return _("{player} declares a deal miss").format(player=action.player)
        if isinstance(action, engine.Discard):
            count = len(action.cards) or view.discard_count(before)
            return ngettext(
                "{declarer} discarded {count} card", "{declarer} discarded {count} cards", count
            ).format(declarer=before.declarer, count=count)
        if isinstance(action, engine.Eliminate):
            return view.elimination_words(before, after)
        if isinstance(action, engine.Redistribute):
            return view.redistribution_words(before, after)
        if isinstance(action, engine.ChangeContract):
            return _("contract is now {contract}").format(contract=view.pretty_bid(action.contract))
        if isinstance(action, engine.CallFriend):
            if self.rules.table.partner_hands:
                return _(
                    "friend call: {call}, his own friend hand (프렌드 패), the only call "
                    "under {ruleset}"
                ).format(call=view.friend_call_words(action.call), ruleset=self.rules.name)
            return _("friend call: {call}").format(call=view.friend_call_words(action.call))
        if isinstance(action, engine.Play):
            said = _("{player} {card}").format(
                player=action.player, card=view.pretty_play(action, before)
            )
            if len(after.tricks) > len(before.tricks):
                trick = after.tricks[-1]
                said += ngettext(
                    "; trick {number} to {winner} ({points} point card)",
                    "; trick {number} to {winner} ({points} point cards)",
                    trick.points,
                ).format(number=len(after.tricks), winner=trick.winner, points=trick.points)
            if after.friend_revealed and not before.friend_revealed:
                said += _("; the friend is {friend}").format(
                    friend=after.friend or _("nobody (declarer alone)")
                )
            return said
        return view.action_words(before, action)

    # --- looking ------------------------------------------------------------------------------

    def _legal(self) -> list[str]:
        s = self.state
        if s.phase == "election":
            bids = [
                view.format_bid(a.bid)
                for a in self.engine.legal_actions(s)
                if isinstance(a, self.engine.BidCall) and a.bid is not None
            ]
            head = ", ".join(bids[:12]) + (" ..." if len(bids) > 12 else "")
            return [
                _("legal for {player}: {calls}").format(
                    player=s.to_move, calls="pass" + (f", {head}" if bids else "")
                )
            ]
        if s.phase == "elimination":
            if self.rules.table.eliminate_by == "player":
                return [
                    _("legal: {players}").format(
                        players=", ".join(a.player for a in self.engine.legal_actions(s))
                    )
                ]
            if self.rules.table.dummy:  # 시흥 은마 (elimination.py)
                return [
                    _(
                        "legal: any card in play but {declarer}'s own; one nobody holds (in "
                        "the kitty or the dummy's hand) eliminates the dummy"
                    ).format(declarer=s.declarer)
                ]
            return [
                _(
                    "legal: any card in play but {declarer}'s own; one in the kitty (or an "
                    "eliminated player's) is called again"
                ).format(declarer=s.declarer)
            ]
        if s.phase != "play":
            return [_("legal: listed during the election and the play")]
        plays = self.engine.legal_plays(s)
        if not plays and s.hands is None:
            return [_("open cards: any card not yet seen, subject to the rules")]
        return [
            _("legal: {plays}").format(plays=" ".join(self.engine.format_play(p) for p in plays))
        ]

    def _show_hand(self, name: str) -> list[str]:
        s = self.state
        if not name and not s.to_move:
            return ["✗ " + _("say whose hand: hand NAME")]
        seats = s.players if self.rules.table.partner_hands else self.players  # 프렌드 패
        player = match_name(name, seats) if name else s.to_move
        if s.hands is None:
            return [_("open cards: {player}'s cards are not known").format(player=player)]
        return [f"{player}: {view.pretty_cards(s.hands[player])}"]

    def _player(self, name: str) -> str:
        return match_name(name, self.players)

    def _friend_call(self, text: str) -> FriendCall:
        """A friend call in the table's words (``mighty``, ``마이티 프렌드``, ``노프렌드``,
        ``nf``, ``너 프렌드 Bo``) or the notation (``SA``, ``SA+DK``, ``player:Bo``,
        ``SA lead:H``); an entry that is none is refused naming the calls in the language the
        tool speaks (those the ruleset allows)."""
        call = words.meaning(text, words.FRIEND_CALLS, short=True) or text
        name = words.player_called(call)
        if name is not None:
            call = "player:" + self._player(name) if name else call
        try:
            return engine.parse_friend_call(call, self.state)
        except InvalidNotation:
            low = call.lower()
            if "+" in low or "lead:" in low or low.startswith("player:"):
                raise  # the notation's own refusal: it was meant as the notation
            raise InvalidNotation(words.not_a_friend_call(call, self.rules)) from None

    # --- saving -------------------------------------------------------------------------------

    def save(self, path: Path | None = None) -> str:
        """Write the hand so far as a hand record; say where."""
        path = path or self.save_path
        if path is None:
            return _("say where: save FILE (or start with --save FILE)")
        self._write(path)
        return _("saved to {path}").format(path=path)

    def _write(self, path: Path) -> None:
        write_record_file(path, dump_record(self.to_record()))

    def hand_dict(self) -> dict:
        """This hand as a hand-record table, with who played, dealt and opened."""
        hand = state_to_hand(self.state, self.deal)
        hand["dealer"] = self.dealer
        hand["opener"] = self.opener
        return {"players": list(self.players)} | hand

    def to_record(self) -> Record:
        """The hand so far as a one-hand record."""
        hand = state_to_hand(self.state, self.deal)
        return Record(ruleset=self.ruleset_name, players=list(self.players), hands=[hand])


def write_record_file(path: Path, text: str) -> None:
    """Write a record atomically (a killed process leaves the old file or the new one)."""

    try:
        write_file(path, text)
    except OutputError as exc:  # a folder, a missing folder, a read-only place: one line
        raise OSError(str(exc)) from None


def _named_card(text: str, state: HandState) -> str:
    """A play that names its card by what it is under this hand's trump: the Mighty
    (``mighty``, ``마이티``; ``mighty/H`` led naming a suit), or the joker-call card led with
    the call (``joker-call``, ``조콜``: ``C3!``, or ``S3!`` when clubs are trump)."""
    word, slash, suit = text.strip().partition("/")
    trump = state.contract.trump if state.contract is not None else None
    if words.means(word, "mighty"):
        return format_card(mighty_card(state.rules, trump)) + slash + suit
    if words.means(text, "joker-call"):
        return format_card(joker_call_card(state.rules, trump)) + "!"
    return text


def deal_cards(texts: dict, rules: Ruleset) -> dict[str, list[int]]:
    """A deal written as card texts (a record's ``deal``, a deal file's hand) read under the
    ruleset: with two decks (table.decks = 2, 8마 Chicago) a card named twice is both copies."""
    copies = rules.table.decks == 2
    return {who: parse_cards(text, copies=copies) for who, text in texts.items()}


def rebuild(
    rules: Ruleset,
    ruleset_name: str,
    players: list[str],
    dealer: str,
    deal: dict | None,
    final: HandState,
    save_path: Path | None = None,
    on_change: Callable[[RefereeSession], str | None] | None = None,
    opener: str | None = None,
) -> RefereeSession:
    """A session whose undo stack replays ``final``'s history from the start."""

    if final.election:
        opener = final.election[0][0]
    elif final.phase == "election":
        opener = final.to_move
    states = [engine.new_hand(rules, players, dealer, deal, opener=opener)]
    for action in final.history:
        states.append(engine.apply(states[-1], action))
    return RefereeSession(
        rules,
        ruleset_name,
        players,
        dealer,
        deal,
        save_path=save_path,
        states=states,
        on_change=on_change,
    )


__all__ = [
    "RefereeSession",
    "rebuild",
    "write_record_file",
    "deal_cards",
    "HELP",
    "InvalidNotation",
]
