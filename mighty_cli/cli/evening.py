"""The club evening: hand after hand at one table, in one process.

:class:`Evening` holds the table (who is present, in playing order), the hands finished so far
(the evening's hand record), the proposal for the next hand (dealer, opener, who sits out:
RULES.md §9, overridable before the first call) and the hand being refereed
(:class:`~.referee.RefereeSession`). Like the hand, it takes one line and returns what to print.

Where the evening is kept:

* with a league (:class:`LeagueBook`): every entry rewrites the session's hand in progress in
  the database, and each finished hand (or deal miss, or all-pass redeal) is stored in its own
  transaction before the next begins; the session's end rules end the evening;
* with ``--save FILE``: the evening's record, rewritten atomically after every entry. The tool
  never overwrites a file this run did not write (``--resume FILE`` continues one).

Quitting with work kept nowhere asks first; with piped input it keeps the work in a new file.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator, Optional

import click

from ..engine.cards import parse_cards
from ..engine.errors import MightyError
from ..engine.record import Record, dump_record, load_record, read_record, record_ruleset, replay
from ..engine.ruleset import Ruleset, load_ruleset
from ..engine.session import (PreviousHand, Proposal, find_session_end, opener_for,
                              playing_order, propose)
from ..render.text import table
from .names import UnknownName, match_name
from .referee import RefereeSession, rebuild, write_record_file

EVENING_COMMANDS = ("quit", "save", "standings", "st", "dealer", "opener", "out", "store")


@dataclass
class EveningOptions:
    ruleset_name: Optional[str] = None
    players: Optional[str] = None
    dealer: Optional[str] = None
    opener: Optional[str] = None
    seed: Optional[int] = None
    deal_file: Optional[Path] = None
    resume: Optional[str] = None
    save_file: Optional[Path] = None
    league: Optional[str] = None
    session_number: Optional[int] = None
    db: Optional[str] = None
    interactive: Optional[bool] = None


# --- where the evening is kept ------------------------------------------------------------------


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
            raise click.UsageError(f"{self.path} is a folder: name a file")
        if self.path.exists():
            raise click.UsageError(f"{self.path} exists and this run did not write it: choose "
                                   f"another name, or continue it with --resume {self.path}")
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
        raise click.ClickException(f"database error: {first}") from None
    except SQLAlchemyError as exc:
        raise click.ClickException(f"database error: {exc}") from None


class LeagueBook:
    """A league's open session, through one database engine for the whole evening."""

    def __init__(self, db_url: Optional[str], league: str, who: str):
        from ..store.db import make_engine

        self.engine = make_engine(db_url)
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


# --- the evening ----------------------------------------------------------------------------


class Evening:
    """Hands in sequence at one table; ``handle`` takes a line and returns what to print."""

    def __init__(self, rules: Ruleset, ruleset_name: str, present: list[str], *,
                 first_dealer: Optional[str] = None, seed: Optional[int] = None,
                 deals: Optional[list[dict]] = None, save: Optional[SaveFile] = None,
                 book: Optional[LeagueBook] = None, interactive: bool = False,
                 finished: Optional[list[dict]] = None, hands_before: int = 0,
                 ruleset_toml: Optional[str] = None):
        self.rules, self.ruleset_name = rules, ruleset_name
        self.present = list(present)      # in playing order
        self.first_dealer = first_dealer
        self.seed, self.deals = seed, deals or []
        self.save, self.book = save, book
        self.interactive = interactive
        self.finished: list[dict] = list(finished or [])
        self.hands_before = hands_before  # hands of the session before this evening's record
        self.ruleset_toml = ruleset_toml
        self.hand: Optional[RefereeSession] = None
        self.proposal: Optional[Proposal] = None
        self.ended: Optional[str] = None
        self.done = False
        self.pending_quit = False
        self.pending_store = False
        self.unsaved_since = 0

    # --- the record --------------------------------------------------------------------------

    def record(self, with_live: bool = True) -> Record:
        hands = list(self.finished)
        if with_live and self.hand is not None and not self.hand.over \
                and (self.hand.started or self.hand.deal is not None):
            hands.append(self.hand.hand_dict())
        extra = {"ruleset_toml": self.ruleset_toml} if self.ruleset_toml else {}
        return Record(ruleset=self.ruleset_name, players=list(self.present), hands=hands,
                      extra=extra)

    def replayed(self):
        return replay(self.record(with_live=False), self.rules)

    @property
    def kept(self) -> bool:
        """Whether every entry is kept somewhere (a league or a save file)."""
        return self.book is not None or self.save is not None

    @property
    def has_work(self) -> bool:
        return bool(self.finished) or (self.hand is not None and self.hand.started)

    # --- succession --------------------------------------------------------------------------

    def _previous(self) -> Optional[PreviousHand]:
        if not self.finished:
            return None
        last = self.replayed().hands[-1]
        return PreviousHand(last.status, tuple(last.players), last.dealer, last.declarer,
                            last.friend, last.score.success if last.score else None,
                            last.deal_miss_player)

    def next_proposal(self) -> Proposal:
        if self.book is not None:
            return self.book.evening().proposal
        return propose(self.rules, self.present, self._previous(), self.first_dealer,
                       in_playing_order=True)

    def start_hand(self, proposal: Optional[Proposal] = None, *, dealer: Optional[str] = None,
                   opener: Optional[str] = None, out: Optional[list[str]] = None) -> list[str]:
        """Begin the next hand as proposed, with the referee's changes."""
        proposal = proposal or self.proposal or self.next_proposal()
        dealer = dealer or proposal.dealer
        sitting = list(out) if out is not None else list(proposal.sitting_out)
        if out is None and dealer != proposal.dealer and proposal.dealer in sitting:
            sitting[sitting.index(proposal.dealer)] = dealer  # the dealer sits out (§9)
        five = [p for p in self.present if p not in sitting]
        if len(five) != 5:
            raise MightyError(f"{len(self.present) - 5} must sit out, not {len(sitting)}")
        if opener is None:
            opener = proposal.opener if proposal.opener in five and dealer == proposal.dealer \
                and sitting == list(proposal.sitting_out) else \
                opener_for(self.rules, self.present, five, dealer, self._previous())
        if opener not in five:
            raise MightyError(f"{opener} sits this hand out and cannot open")
        self.proposal = Proposal(dealer, opener, tuple(five), tuple(sitting))
        number = self.hands_before + len(self.finished) + 1
        deal = self._deal_for(number, five)
        self.hand = RefereeSession(self.rules, self.ruleset_name, five, dealer, deal,
                                   opener=opener, on_change=self._keep)
        lines = [self._proposal_line(number)]
        lines.extend(self.hand.status()[1:])
        return lines

    def _proposal_line(self, number: int) -> str:
        p = self.proposal
        text = f"— hand {number}: dealer {p.dealer}, opener {p.opener}"
        if p.sitting_out:
            text += f", sitting out {', '.join(p.sitting_out)}"
        text += f"; playing {', '.join(p.players)}"
        return text + (" (change before the first call: dealer/opener/out NAME)"
                       if len(self.present) > 5 or number == 1 else "")

    def _deal_for(self, number: int, five: list[str]) -> Optional[dict]:
        if self.seed is not None:
            from ..engine.hand import deal_cards
            from .hands import hand_seed

            return deal_cards(hand_seed(self.seed, number), five)
        if number <= len(self.deals):
            deal = self.deals[number - 1]
            names = [k for k in deal if k != "kitty"]
            if set(names) == set(five):
                return dict(deal)
            return {**{five[i]: deal[name] for i, name in enumerate(names)},
                    "kitty": deal["kitty"]}
        return None

    # --- keeping the work ---------------------------------------------------------------------

    def _keep(self, hand: RefereeSession) -> Optional[str]:
        if self.book is not None and not hand.over:
            one = Record(ruleset=self.ruleset_name, players=list(self.present),
                         hands=[hand.hand_dict()])
            self.book.save_live(dump_record(one))
        if self.save is not None:
            self.save.write(dump_record(self.record()))
        return None

    def write_save(self, path: Optional[Path] = None) -> str:
        if path is not None:
            target = self.save if self.save is not None and self.save.path == path \
                else SaveFile(path)
            target.write(dump_record(self.record()))
            if self.save is None:
                self.save = target
            return f"saved to {target.path}"
        if self.save is None:
            return "say where: save FILE (it is then kept there after every entry)"
        self.save.write(dump_record(self.record()))
        return f"saved to {self.save.path}"

    # --- input -----------------------------------------------------------------------------

    def prompt(self) -> str:
        if self.pending_quit:
            return "unsaved work: Enter saves it to a new file, or type a file name, " \
                   "'discard' or 'back'"
        if self.pending_store:
            return "[hand over, not stored] 'store' tries again; 'save FILE' keeps it in a file"
        try:
            return self.hand.prompt() if self.hand else "[no hand]"
        except Exception:  # drawing the prompt must never end the evening
            return f"[{self.hand.state.phase}] {self.hand.state.to_move or ''}".rstrip()

    def handle(self, line: str) -> list[str]:
        """One line of input; never raises."""
        try:
            return self._handle(line.strip())
        except (MightyError, click.ClickException, OSError) as exc:
            message = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
            return [f"✗ {message}"]
        except Exception as exc:  # a bug must not end the evening: say so and go on
            return [f"✗ that entry could not be handled ({type(exc).__name__}: {exc}); "
                    f"nothing changed"]

    def _handle(self, text: str) -> list[str]:
        if self.pending_quit:
            return self._answer_quit(text)
        if not text:
            return []
        word, _, rest = text.partition(" ")
        command = {"q": "quit", "exit": "quit", "st": "standings"}.get(word.lower(), word.lower())
        rest = rest.strip()
        if command == "quit":
            return self.quit()
        if command == "save":
            return [self.write_save(Path(rest) if rest else None)]
        if command == "standings":
            return self.totals_lines()
        if command == "store" and self.pending_store:
            return self._finish()
        if self.pending_store:
            return ["✗ the finished hand is not stored yet: 'store' tries again, 'save FILE' "
                    "keeps the evening in a file, 'quit' ends"]
        if command in ("dealer", "opener", "out", "sit") and rest:
            return self._override(command, rest)
        out = self.hand.handle(text)  # type: ignore[union-attr]
        if self.hand is not None and self.hand.over and not self.hand.finished:
            out.extend(self._finish())
        if self.hand is not None and self.hand.finished:  # the hand's own 'quit'
            self.hand.finished = False
            out.extend(self.quit())
        return out

    def _override(self, command: str, rest: str) -> list[str]:
        if self.hand is not None and self.hand.started:
            return [f"✗ {command}: the hand has begun; change it before the first call "
                    f"(undo back to the start first)"]
        p = self.proposal
        dealer, opener, out = p.dealer, None, None
        if command == "dealer":
            dealer = match_name(rest, self.present)
        elif command == "opener":
            opener = match_name(rest, list(p.players))
        else:
            names = [match_name(n, self.present) for n in rest.replace(",", " ").split()]
            if len(names) != len(self.present) - 5:
                raise MightyError(f"out: {len(self.present) - 5} sit out at this table, "
                                  f"named {len(names)}")
            out = names
        base = Proposal(p.dealer, p.opener, p.players, p.sitting_out)
        if command != "dealer":
            dealer = p.dealer
        return self.start_hand(base, dealer=dealer, opener=opener,
                               out=out if out is not None else
                               (list(p.sitting_out) if command == "opener" else None))

    def _finish(self) -> list[str]:
        """Store the finished hand, show the totals and begin the next hand."""
        hand = self.hand
        data = hand.hand_dict()  # type: ignore[union-attr]
        lines: list[str] = []
        if self.book is not None:
            try:
                stored = self.book.store(data)
            except (MightyError, click.ClickException) as exc:
                self.pending_store = True
                message = exc.format_message() if isinstance(exc, click.ClickException) \
                    else str(exc)
                return [f"✗ the hand could not be stored in league {self.book.league}: "
                        f"{message}", "  'store' tries again; 'save FILE' keeps it in a file"]
            self.pending_store = False
            lines.append(f"saved to league {self.book.league} as hand {stored.hand.number} "
                         f"(session {stored.hand.session})")
            if stored.session_ended:
                self.ended = stored.session_ended
        self.finished.append(data)
        if self.save is not None:
            self.save.write(dump_record(self.record(with_live=False)))
        if self.book is None and self.ended is None:
            self.ended = self._ended_by_rules()
        lines.extend(self.totals_lines())
        if self.ended:
            from .league_hands import session_ended_line

            lines.append(session_ended_line(self.book.session, self.ended) if self.book
                         else f"The session is over by the ruleset ({self.ended}).")
            self.hand = None
            self.done = True
            return lines
        self.proposal = None
        lines.extend(self.start_hand())
        return lines

    def _ended_by_rules(self) -> Optional[str]:
        outcomes = self.replayed().hands
        end = find_session_end(self.rules, [(o.status, o.deltas) for o in outcomes])
        return end.reason if end else None

    def totals_lines(self) -> list[str]:
        """The session's running totals, highest first."""
        if self.book is not None:
            state = self.book.evening()
            totals, count = state.totals, state.hands
        else:
            totals = self.replayed().totals
            count = len(self.finished)
        if not count:
            return ["no hands finished yet"]
        rows = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
        return [f"session totals after {count} hand{'s' if count != 1 else ''}:",
                table(["player", "total"], [(n, f"{v:+d}" if v else "0") for n, v in rows],
                      align="<>")]

    # --- the end ---------------------------------------------------------------------------

    def quit(self) -> list[str]:
        if self.book is not None:
            self.done = True
            if self.hand is not None and self.hand.started and not self.hand.over:
                return [f"the hand in progress is kept in league {self.book.league}: "
                        f"'mighty referee --league {self.book.league}' resumes it at the same "
                        f"card"]
            return []
        if self.save is not None or not self.has_work:
            self.done = True
            return [self.write_save()] if self.save is not None and self.has_work else []
        if not self.interactive:
            return self._keep_on_quit()
        self.pending_quit = True
        return [f"{len(self.finished)} finished hand(s)"
                + (" and the hand in progress" if self.hand and self.hand.started else "")
                + " are not saved anywhere."]

    def _answer_quit(self, text: str) -> list[str]:
        answer = text.strip()
        if answer.lower() in ("back", "cancel", "b"):
            self.pending_quit = False
            return ["back to the table"]
        if answer.lower() in ("discard", "d", "no", "n"):
            self.done = True
            return ["discarded"]
        if answer.lower() in ("", "y", "yes", "save", "keep"):
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
        return [f"the unsaved work is kept: {said}; 'mighty referee --resume {path}' goes on"]

    def end_of_input(self) -> list[str]:
        """Input ended (Ctrl-D, the end of a script): as quit, keeping unsaved work."""
        if self.book is None and self.save is None and self.has_work:
            return self._keep_on_quit()
        self.interactive = False
        return self.quit()

    # --- completion ---------------------------------------------------------------------------

    def completions(self) -> list[str]:
        words = ["help", "table", "undo", "legal", "hand", "save", "quit", "standings"]
        words += list(self.present)
        hand = self.hand
        if hand is None:
            return words
        s = hand.state
        engine = hand.engine
        try:
            if s.phase == "election":
                words += ["pass", "miss"] + [view_bid(a.bid) for a in engine.legal_actions(s)
                                             if isinstance(a, engine.BidCall) and a.bid]
                if not hand.started:
                    words += ["dealer", "opener", "out"]
            elif s.phase == "play":
                words += [engine.format_play(p) for p in engine.legal_plays(s)]
            elif s.phase == "friend":
                words += ["joker", "mighty", "none", "first-trick", "last-trick", "contract"]
            elif s.phase == "exchange" and s.hands is not None:
                from ..engine.cards import format_card

                words += [format_card(c) for c in s.hands[s.declarer]]
        except MightyError:
            pass
        return words


def view_bid(bid) -> str:
    from ..engine.cards import format_bid

    return format_bid(bid)


# --- setting up -------------------------------------------------------------------------------


def _names(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",") if p.strip()]
    if not 5 <= len(names) <= 7 or len(set(n.casefold() for n in names)) != len(names):
        raise click.BadParameter("expected five to seven distinct names (six or seven take turns "
                                 "to sit out)", param_hint="--players")
    return names


def _deals_from(path: Path) -> list[dict]:
    record = load_record(path)
    deals = [{who: parse_cards(text) for who, text in h["deal"].items()}
             for h in record.hands if "deal" in h]
    if not deals:
        raise click.BadParameter("no hand with a deal in that file", param_hint="--deal")
    return deals


def open_evening(opts: EveningOptions, who: str = "") -> tuple[Evening, list[str]]:
    """The evening the options describe, and what to print before the first prompt."""
    interactive = sys.stdin.isatty() if opts.interactive is None else opts.interactive
    deals = _deals_from(opts.deal_file) if opts.deal_file else []
    save = SaveFile(opts.save_file) if opts.save_file else None
    resume_path = Path(opts.resume) if opts.resume else None
    if save is not None and resume_path is not None and save.path == resume_path:
        save.owned = True
    if save is not None:
        save.claim()  # before anything is played
    if opts.league:
        if save is None and resume_path is not None:
            save = SaveFile(resume_path, owned=True)  # the record resumed is kept going
        return _open_league(opts, who, deals, save, resume_path, interactive)
    if opts.resume is not None and resume_path is None:
        raise click.UsageError("--resume without a FILE needs --league (the league's hand in "
                               "progress)")
    if resume_path is not None:
        return _open_file(opts, resume_path, deals, save, interactive)
    rules = load_ruleset(opts.ruleset_name or "standard")
    if opts.players is None and deals:
        first = load_record(opts.deal_file)  # type: ignore[arg-type]
        opts.players = ",".join(next(h for h in first.hands if "deal" in h).get(
            "players", first.players))
    if opts.players is None:
        raise click.UsageError("name the players: --players A,B,C,D,E (six or seven take turns "
                               "to sit out)")
    present = _names(opts.players)
    evening = Evening(rules, opts.ruleset_name or "standard", present,
                      first_dealer=_one_of(opts.dealer, present, "--dealer"),
                      seed=opts.seed, deals=deals, save=save, interactive=interactive)
    lines = [f"{rules.meta.title} ({rules.name}); present {', '.join(present)}"]
    lines += _first_hand(evening, opts)
    if save is not None:  # the evening's record exists from the start: --resume finds it
        evening.write_save()
        lines.append(f"the evening is kept in {save.path} after every entry")
    return evening, lines


def _one_of(name: Optional[str], names: list[str], hint: str) -> Optional[str]:
    if name is None:
        return None
    try:
        return match_name(name, names)
    except UnknownName as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def _first_hand(evening: Evening, opts: EveningOptions) -> list[str]:
    proposal = evening.next_proposal()
    dealer = _one_of(opts.dealer, evening.present, "--dealer")
    opener = _one_of(opts.opener, evening.present, "--opener")
    try:
        return evening.start_hand(proposal, dealer=dealer, opener=opener)
    except MightyError as exc:
        raise click.BadParameter(str(exc), param_hint="--opener") from None


def _open_file(opts: EveningOptions, path: Path, deals, save, interactive):
    """Resume an evening record: its finished hands, and its last hand where it stopped."""
    record = load_record(path)
    rules = record_ruleset(record)
    if opts.ruleset_name and load_ruleset(opts.ruleset_name).name != rules.name:
        raise click.UsageError(f"--ruleset {opts.ruleset_name}: {path} is refereed under "
                               f"{rules.name}")
    result = replay(record, rules)
    save = save or SaveFile(path, owned=True)
    finished = [dict(h) for h, o in zip(record.hands, result.hands) if o.status != "in_progress"]
    for hand, outcome in zip(finished, result.hands):
        hand.setdefault("players", list(outcome.players))
        hand.setdefault("dealer", outcome.dealer)
    evening = Evening(rules, record.ruleset, list(record.players), seed=opts.seed, deals=deals,
                      save=save, interactive=interactive, finished=finished,
                      ruleset_toml=record.extra.get("ruleset_toml"))
    lines = [f"{rules.meta.title} ({rules.name}); present {', '.join(record.players)}; "
             f"resumed {path} ({len(finished)} finished hand(s))"]
    last = result.hands[-1] if result.hands else None
    if last is not None and last.status == "in_progress":
        raw = record.hands[-1]
        deal = {w: parse_cards(t) for w, t in raw["deal"].items()} if "deal" in raw else None
        dealer = raw.get("dealer", last.dealer)
        evening.hand = rebuild(rules, record.ruleset, list(last.players), dealer, deal,
                               last.state, on_change=evening._keep, opener=raw.get("opener"))
        out = [p for p in record.players if p not in last.players]
        evening.proposal = Proposal(dealer, evening.hand.opener, tuple(last.players), tuple(out))
        lines.append(f"— hand {len(finished) + 1} resumed at the same card")
        lines += evening.hand.status()[1:]
        return evening, lines
    lines += _first_hand(evening, opts)
    return evening, lines


def _open_league(opts: EveningOptions, who: str, deals, save, resume_path, interactive):
    from ..store.lookups import league_rules
    from ..store.sessions import start_session

    book = LeagueBook(opts.db, opts.league, who)  # type: ignore[arg-type]
    with book.tx() as s:
        from ..store.lookups import get_league
        from ..store.sessions import _session

        league = get_league(s, opts.league)  # type: ignore[arg-type]
        rules = league_rules(league)
        if opts.ruleset_name and load_ruleset(opts.ruleset_name).name != rules.name:
            raise click.UsageError(f"--ruleset {opts.ruleset_name}: league {league.name} plays "
                                   f"{rules.name} (its rules are stored with the league; leave "
                                   f"--ruleset out)")
        from_file = load_record(resume_path) if resume_path else None
        try:
            session = _session(s, league, opts.session_number, open_only=True)
        except MightyError:
            names = _names(opts.players) if opts.players else \
                list(from_file.players) if from_file else None
            if names is None or opts.session_number is not None:
                raise
            session, _ = start_session(s, league.name, names, who=who,
                                       first_dealer=_one_of(opts.dealer, names, "--dealer"))
        book.session = session.number
        ruleset_name, toml_text = league.ruleset_name, league.ruleset_toml
    state = book.evening()
    if opts.players is not None:
        given = _names(opts.players)
        if [n.casefold() for n in given] != [n.casefold() for n in state.seating]:
            raise click.UsageError(f"--players: session {state.session} of league "
                                   f"{state.league} seats {', '.join(state.seating)}; the "
                                   f"session's seating is used (--players only starts a "
                                   f"session)")
    present = playing_order(state.seating, rules)
    finished = book.session_hands()
    evening = Evening(rules, ruleset_name, present, seed=opts.seed, deals=deals, save=save,
                      book=book, interactive=interactive, finished=finished,
                      hands_before=state.hands - len(finished), ruleset_toml=toml_text)
    lines = [f"{rules.meta.title} ({rules.name}); league {state.league}, session "
             f"{state.session}; present {', '.join(state.seating)}"]
    if state.hands:
        lines += evening.totals_lines()
    live_text = state.live
    if live_text is None and from_file is not None and from_file.hands:
        last_raw = from_file.hands[-1]
        result = replay(from_file, rules)
        if result.hands[-1].status == "in_progress":
            live_text = dump_record(Record(ruleset=ruleset_name,
                                           players=list(from_file.players),
                                           hands=[last_raw]))
        elif not state.hands:  # a finished hand refereed elsewhere: store it now
            live_text = dump_record(Record(ruleset=ruleset_name,
                                           players=list(from_file.players),
                                           hands=[last_raw]))
    resumed = _resume_live(evening, rules, ruleset_name, live_text) if live_text else []
    if resumed:
        lines += resumed
        if evening.hand is not None and evening.hand.over:
            lines += evening._finish()
    else:
        lines += _first_hand(evening, opts)
    if save is not None:
        evening.write_save()
        lines.append(f"the evening is kept in {save.path} after every entry")
    return evening, lines


def _resume_live(evening: Evening, rules, ruleset_name: str, text: str) -> list[str]:
    record = read_record(text, source="the hand in progress")
    result = replay(record, rules)
    outcome, raw = result.hands[-1], record.hands[-1]
    if outcome.state is None:
        return []
    deal = {w: parse_cards(t) for w, t in raw["deal"].items()} if "deal" in raw else None
    five = list(outcome.players)
    dealer = raw.get("dealer", outcome.dealer)
    evening.hand = rebuild(rules, ruleset_name, five, dealer, deal, outcome.state,
                           on_change=evening._keep, opener=raw.get("opener"))
    out = [p for p in evening.present if p not in five]
    evening.proposal = Proposal(dealer, evening.hand.opener, tuple(five), tuple(out))
    number = evening.hands_before + len(evening.finished) + 1
    return [f"— hand {number} resumed at the same card", *evening.hand.status()[1:]]


# --- the loop ---------------------------------------------------------------------------------


def run_loop(evening: Evening, read: Callable[[str], str], echo: Callable[[str], None]) -> None:
    """Feed lines to the evening until it is done or input ends."""
    echo("type 'help' for the notation; 'table' draws the table; 'undo' takes back an entry")
    while not evening.done:
        try:
            line = read(evening.prompt())
        except (EOFError, click.Abort):
            for out in evening.end_of_input():
                echo(out)
            break
        except KeyboardInterrupt:
            echo("")
            echo("(Ctrl-C) type 'quit' to end the evening")
            continue
        for out in evening.handle(line):
            echo(out)


def run_evening(opts: EveningOptions) -> None:
    """``mighty referee``: set up, then the loop."""
    from .league import who_default
    from .line_input import LineReader

    evening, lines = open_evening(opts, who=who_default(None) if opts.league else "")
    for line in lines:
        click.echo(line)
    reader = LineReader(complete=evening.completions, interactive=evening.interactive)
    try:
        run_loop(evening, reader.read, click.echo)
    finally:
        reader.close()
        if evening.book is not None:
            evening.book.close()
