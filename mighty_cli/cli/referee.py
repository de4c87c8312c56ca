"""``mighty referee``: the live table, one call or card at a time.

The referee types what the table does in the notation of the hand record (``13h``, ``pass``,
``c2 d3 h4``, ``sa``, ``jk/h``, ``c3!``); the tool checks it against the ruleset at once, says why
an entry is illegal and asks again, decides each trick, and scores the hand. ``undo`` takes back
the last action; ``save`` writes the hand as a hand record that ``--resume`` picks up again.

The conversation lives in :class:`RefereeSession`, which takes one line and returns what to
print, so it is tested without a terminal; the click command only feeds it lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import click

from ..engine.cards import format_bid, format_cards, parse_bid, parse_cards, sorted_cards
from ..engine.errors import MightyError
from ..engine.record import Record, dump_record, load_record, record_ruleset, replay, state_to_hand
from ..engine.ruleset import Ruleset, load_ruleset
from ..engine.scoring import describe
from ..render.text import table
from .options import ruleset_option

HELP = """\
  election:  13h  14nt  pass (p)        deal miss: miss NAME
  exchange:  three discards, e.g. c2 d3 h4
  friend:    contract 17s (optional, changes trump/raises), then a call: sa, joker, mighty,
             none, first-trick, last-trick, player:NAME
  play:      sa  d10  jk  jk/h (joker led asking for hearts)  c3! (joker call declared)
  any time:  undo (u)  show (s)  legal (l)  hand NAME  save [FILE]  help (h)  quit (q)"""

_SHORT = {"p": "pass", "u": "undo", "s": "show", "l": "legal", "h": "help", "?": "help",
          "q": "quit", "ft": "first-trick", "lt": "last-trick", "no": "none", "nf": "none"}


class RefereeSession:
    """A hand being refereed: a stack of engine states, one per action, for undo."""

    def __init__(self, rules: Ruleset, ruleset_name: str, players: list[str], dealer: str,
                 deal: Optional[dict[str, list[int]]], opener: Optional[str] = None,
                 save_path: Optional[Path] = None, states: Optional[list] = None):
        from ..engine import hand as engine

        self.engine = engine
        self.rules, self.ruleset_name, self.players = rules, ruleset_name, players
        self.deal, self.save_path = deal, save_path
        self.states = states or [engine.new_hand(rules, players, dealer, deal, opener=opener)]
        self.finished = False

    @property
    def state(self):
        return self.states[-1]

    # --- prompts and display -------------------------------------------------------------------

    def prompt(self) -> str:
        """What the referee is asked for next."""
        s = self.state
        if s.phase == "election":
            standing = _standing_bid(s)
            return f"[election{', standing ' + standing if standing else ''}] {s.to_move} bids"
        if s.phase == "exchange":
            return f"[exchange] {s.declarer} discards 3 (contract {format_bid(s.contract)})"
        if s.phase == "friend":
            return f"[friend] {s.declarer} calls a friend (contract {format_bid(s.contract)})"
        if s.phase == "play":
            return f"[trick {s.trick_number}] {s.to_move} plays"
        return "[hand over] save, undo or quit"

    def status(self) -> list[str]:
        """The table at a glance: contract, friend, points each side holds."""
        s = self.state
        lines = [f"{self.rules.meta.title} ({self.rules.name}); dealer {s.dealer}; "
                 f"players {', '.join(self.players)}"]
        if s.contract is not None:
            lines.append(f"declarer (주공) {s.declarer}, contract {format_bid(s.contract)}")
        if s.phase in ("play", "done"):
            lines.append(self._friend_line())
            lines.append(self._points_line())
        if s.phase == "done":
            lines.extend(self._result_lines())
        return lines

    def _friend_line(self) -> str:
        s = self.state
        call = self.engine.format_friend_call(s.friend_call) if s.friend_call else "?"
        if s.friend_revealed:
            who = s.friend or "none (declarer alone)"
            return f"friend (프렌드) call {call}: {who}"
        return f"friend (프렌드) call {call}: not known yet"

    def _points_line(self) -> str:
        s = self.state
        ruling = {s.declarer} | ({s.friend} if s.friend_revealed and s.friend else set())
        held = sum(v for p, v in s.points_taken.items() if p in ruling)
        others = sum(v for p, v in s.points_taken.items() if p not in ruling)
        return (f"points in tricks: ruling side (여당) {held}, others {others}"
                f"{'' if s.friend_revealed else ' (friend unknown: counted with others)'}")

    def _result_lines(self) -> list[str]:
        result = self.engine.hand_result(self.state)
        lines = [describe(result.score, self.rules)]
        lines.append(table(list(self.players),
                           [[f"{result.deltas.get(p, 0):+d}" for p in self.players]],
                           align=">" * len(self.players)))
        return lines

    # --- input ---------------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Apply one line of input; return the lines to print. Illegal input changes nothing."""
        text = line.strip()
        if not text:
            return []
        word, _, rest = text.partition(" ")
        command = _SHORT.get(word.lower(), word.lower())
        try:
            if command == "help":
                return HELP.splitlines()
            if command == "quit":
                self.finished = True
                return [self.save()] if self.save_path else []
            if command == "undo":
                return self._undo()
            if command == "show":
                return self.status()
            if command == "legal":
                return self._legal()
            if command == "hand":
                return self._show_hand(rest.strip())
            if command == "save":
                return [self.save(Path(rest.strip()) if rest.strip() else None)]
            return self._act(command, rest.strip(), text)
        except MightyError as exc:
            return [f"✗ {exc}"]

    def _act(self, command: str, rest: str, text: str) -> list[str]:
        s, engine = self.state, self.engine
        if command in ("miss", "dm", "dealmiss", "deal-miss"):
            action = engine.DeclareDealMiss(self._player(rest))
        elif s.phase == "election":
            player, what = s.to_move, text
            first, _, tail = text.partition(" ")
            if first in self.players and tail:  # "Bo 13h": naming the bidder is allowed
                player, what = first, tail
            what = _SHORT.get(what.lower(), what)
            action = engine.BidCall(player, None if what.lower() == "pass" else parse_bid(what))
        elif s.phase == "exchange":
            action = engine.Discard(tuple(parse_cards(text)))
        elif s.phase == "friend":
            if command in ("contract", "raise", "change"):
                action = engine.ChangeContract(parse_bid(rest))
            else:
                action = engine.CallFriend(engine.parse_friend_call(_SHORT.get(text.lower(), text),
                                                                    s))
        elif s.phase == "play":
            card, joker_suit, joker_call = engine.parse_play(text)
            action = engine.Play(s.to_move, card, joker_suit, joker_call)
        else:
            return ["the hand is over: save it, undo, or quit"]
        before = s
        after = engine.apply(before, action)
        self.states.append(after)
        out = ["✓ " + self._describe(before, after)]
        if after.phase == "exchange" and after.hands is None:
            # open cards: nobody sees the discards; their points are what the tricks leave
            self.states.append(engine.apply(after, engine.Discard(())))
            out.append(f"{after.declarer} takes the kitty and discards (unseen: open cards)")
        if after.phase == "play" and before.phase == "play" and after.trick_number != before.trick_number:
            out.append(self._points_line())
        if after.phase == "done":
            out.extend(self._result_lines())
        if after.phase in ("deal_miss", "redeal"):
            out.append("deal miss: the cards are redealt" if after.phase == "deal_miss"
                       else "everyone passed: the cards are redealt")
        if self.save_path:
            self.save()
        return out

    def _describe(self, before, after) -> str:
        action = after.history[-1]
        engine = self.engine
        if isinstance(action, engine.BidCall):
            said = "pass" if action.bid is None else format_bid(action.bid)
            tail = ""
            if after.phase == "exchange":
                tail = f"; {after.declarer} is declarer (주공) at {format_bid(after.contract)}"
            return f"{action.player} {said}{tail}"
        if isinstance(action, engine.DeclareDealMiss):
            return f"{action.player} declares a deal miss"
        if isinstance(action, engine.Discard):
            return f"{before.declarer} discarded {len(action.cards) or 3} cards"
        if isinstance(action, engine.ChangeContract):
            return f"contract is now {format_bid(action.contract)}"
        if isinstance(action, engine.CallFriend):
            return f"friend call: {engine.format_friend_call(action.call)}"
        if isinstance(action, engine.Play):
            said = f"{action.player} {engine.format_play(action)}"
            if len(after.tricks) > len(before.tricks):
                trick = after.tricks[-1]
                said += (f"; trick {len(after.tricks)} to {trick.winner} "
                         f"({trick.points} point card{'s' if trick.points != 1 else ''})")
            if after.friend_revealed and not before.friend_revealed:
                said += f"; the friend is {after.friend or 'nobody (declarer alone)'}"
            return said
        return str(action)

    def _undo(self) -> list[str]:
        if len(self.states) == 1:
            return ["nothing to undo"]
        action = self.state.history[-1]
        self.states.pop()
        if self._automatic_discard(self.state) and len(self.states) > 1:
            action = self.state.history[-1]
            self.states.pop()
        if self.save_path:
            self.save()
        return [f"↶ took back {self._action_text(action)}"]

    def _automatic_discard(self, state) -> bool:
        """Whether a state's last action is the unseen discard open cards apply by themselves."""
        return (state.hands is None and bool(state.history)
                and isinstance(state.history[-1], self.engine.Discard)
                and not state.history[-1].cards)

    def _action_text(self, action) -> str:
        engine = self.engine
        if isinstance(action, engine.Play):
            return f"{action.player} {engine.format_play(action)}"
        if isinstance(action, engine.BidCall):
            return f"{action.player} {'pass' if action.bid is None else format_bid(action.bid)}"
        return type(action).__name__

    def _legal(self) -> list[str]:
        s = self.state
        if s.phase != "play":
            return ["legal: only listed during play"]
        plays = self.engine.legal_plays(s)
        if not plays and s.hands is None:
            return ["open cards: any card not yet seen, subject to the rules"]
        return ["legal: " + " ".join(self.engine.format_play(p) for p in plays)]

    def _show_hand(self, name: str) -> list[str]:
        s = self.state
        player = self._player(name or (s.to_move or ""))
        if s.hands is None:
            return [f"open cards: {player}'s cards are not known"]
        return [f"{player}: {format_cards(sorted_cards(s.hands[player]))}"]

    def _player(self, name: str) -> str:
        for player in self.players:
            if player.lower() == name.lower():
                return player
        raise click.BadParameter(f"{name!r} is not a player ({', '.join(self.players)})")

    def save(self, path: Optional[Path] = None) -> str:
        """Write the hand so far as a hand record; say where."""
        path = path or self.save_path
        if path is None:
            return "say where: save FILE (or start with --save FILE)"
        record = self.to_record()
        path.write_text(dump_record(record), encoding="utf-8")
        return f"saved to {path}"

    def to_record(self) -> Record:
        """The hand so far as a one-hand record."""
        return Record(ruleset=self.ruleset_name, players=list(self.players),
                      hands=[state_to_hand(self.state, self.deal)])


def _standing_bid(state) -> str:
    bids = [(p, b) for p, b in state.election if b is not None]
    return f"{format_bid(bids[-1][1])} by {bids[-1][0]}" if bids else ""


def resume_session(path: Path, save_path: Optional[Path]) -> RefereeSession:
    """Rebuild a session from a saved record: its last hand, every action replayed for undo."""
    from ..engine import hand as engine

    record = load_record(path)
    rules = record_ruleset(record)
    result = replay(record, rules)
    if not result.hands or result.hands[-1].state is None:
        raise click.UsageError(f"{path}: the last hand is not a refereed hand to resume")
    last = result.hands[-1]
    final = last.state
    raw = record.hands[-1]
    deal = {who: parse_cards(text) for who, text in raw["deal"].items()} if "deal" in raw else None
    states = [engine.new_hand(rules, last.players, final.dealer, deal,
                              opener=_first_bidder(final))]
    for action in final.history:
        states.append(engine.apply(states[-1], action))
    return RefereeSession(rules, record.ruleset, list(last.players), final.dealer, deal,
                          save_path=save_path, states=states)


def _first_bidder(state) -> Optional[str]:
    return state.election[0][0] if state.election else None


@click.command()
@ruleset_option(default="standard")
@click.option("--players", default=None, help="Five names in playing order, comma-separated.")
@click.option("--dealer", default=None, help="The dealer (default: the first player).")
@click.option("--opener", default=None, help="Who opens the election (default: by the ruleset).")
@click.option("--seed", type=int, default=None, help="Deal the cards with this seed.")
@click.option("--deal", "deal_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Take the deal from a hand-record file (its first hand with a deal).")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Resume the last hand of a saved record.")
@click.option("--save", "save_file", type=click.Path(dir_okay=False), default=None,
              help="Save the hand to this file after every action.")
@click.option("--league", default=None, help="Save the finished hand into this league.")
@click.option("--db", default=None, envvar="MIGHTY_DB", help="Database URL (with --league).")
def referee(ruleset_name: str, players: Optional[str], dealer: Optional[str],
            opener: Optional[str], seed: Optional[int], deal_file: Optional[str],
            resume: Optional[str], save_file: Optional[str], league: Optional[str],
            db: Optional[str]) -> None:
    """Referee a live hand: every call and card checked as it is entered.

    With no deal (no --seed or --deal) the cards are open: the tool checks what can be checked
    as they appear (no card twice, joker rules, trick winners, points) and infers voids, so a
    revoke is caught when the player later plays the suit he showed out of.

    \b
    Examples:
      mighty referee --players 민수,Bo,Cy,Di,Ed --seed 42 --save hand.toml
      mighty referee -r seoul-science --players A,B,C,D,E        (open cards)
      mighty referee --resume hand.toml
    """
    save_path = Path(save_file) if save_file else None
    if league:
        _check_league(league, db)  # before the hand is played, not after
    if resume:
        session = resume_session(Path(resume), save_path or Path(resume))
    else:
        session = _new_session(ruleset_name, players, dealer, opener, seed, deal_file, save_path)
    _run(session, click.echo, lambda prompt: click.prompt(prompt, default="", show_default=False,
                                                          prompt_suffix=": "))
    if league:
        if session.state.phase in ("done", "deal_miss"):
            _save_to_league(session, league, db)
        else:
            click.echo(f"not saved to league {league}: the hand is not finished"
                       f"{f' (it is in {save_path})' if save_path else ''}")


def _new_session(ruleset_name, players, dealer, opener, seed, deal_file, save_path):
    from ..engine.hand import deal_cards

    rules = load_ruleset(ruleset_name)
    deal = None
    if deal_file:
        record = load_record(deal_file)
        with_deal = [h for h in record.hands if "deal" in h]
        if not with_deal:
            raise click.BadParameter("no hand with a deal in that file", param_hint="--deal")
        names = list(with_deal[0].get("players", record.players))
        deal = {who: parse_cards(text) for who, text in with_deal[0]["deal"].items()}
        if players is None:
            players = ",".join(names)
    if players is None:
        raise click.UsageError("name the five players: --players A,B,C,D,E")
    names = [p.strip() for p in players.split(",") if p.strip()]
    if len(names) != 5 or len(set(names)) != 5:
        raise click.BadParameter("expected five distinct names", param_hint="--players")
    if seed is not None:
        from .hands import hand_seed
        deal = deal_cards(hand_seed(seed, 1), names)
    for name, hint in ((dealer, "--dealer"), (opener, "--opener")):
        if name is not None and name not in names:
            raise click.BadParameter(f"{name!r} is not one of the players", param_hint=hint)
    dealer = dealer or names[0]
    return RefereeSession(rules, ruleset_name, names, dealer, deal, opener=opener,
                          save_path=save_path)


def _run(session: RefereeSession, echo: Callable[[str], None],
         ask: Callable[[str], str]) -> None:
    for line in session.status():
        echo(line)
    echo("type 'help' for the notation; 'undo' takes back the last action")
    while not session.finished:
        try:
            line = ask(session.prompt())
        except (EOFError, click.Abort):
            if session.save_path:
                echo(session.save())
            break
        for out in session.handle(line):
            echo(out)


def _check_league(league: str, db: Optional[str]) -> None:
    from ..store import services
    from .league import database

    with database(db) as s:
        services.get_league(s, league)


def _save_to_league(session: RefereeSession, league: str, db: Optional[str]) -> None:
    from ..store import services
    from .league import database, who_default

    with database(db) as s:
        imported = services.save_refereed_hand(s, league, dump_record(session.to_record()),
                                               who=who_default(None))
    click.echo(f"saved to league {league} as hand {imported.last} "
               f"(session {', '.join(map(str, imported.sessions))})")
    from .league_hands import session_ended_line

    for number, reason in imported.ended:
        click.echo(session_ended_line(number, reason))
