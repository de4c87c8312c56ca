"""A hand's outcome as a score-keeper enters it at a league's table, free of click: checked field
by field as it is filled, checked whole, and stored as the table's hand the writer believes is
next. ``mighty record`` (the whole outcome on its command line, or asked question by question),
``record --evening`` and the web entry (``POST /api/tables/T/hands``) enter hands this way.

The API (these names and exceptions stay stable for every front end):

* :func:`~.next_hand.read_next_hand` ``(s, league, session)`` → :class:`~.next_hand.NextHand`:
  what the form shows (the players, the dealer, :attr:`~.next_hand.NextHand.fields`, the
  table's hand :attr:`~.next_hand.NextHand.hand` to send back as ``expect_hand``).
* :func:`check_field` ``(hand, name, text, so_far)`` → the field's value as checked (a name as
  the league knows it, the contract in notation, a count, the friends, the eliminated and the
  players as lists), or :class:`EntryRefused` (its :attr:`~EntryRefused.field` is ``name``, or
  a field it reads, checked first).
* :func:`check_outcome` ``(hand, fields)`` → :class:`Outcome`, the whole entry checked as
  ``record`` checks its command line, or the first :class:`EntryRefused`.
* :func:`store_outcome` ``(s, league, outcome, session=, expect_hand=, again=, who=)`` →
  :class:`Stored` (the table's and the league's numbers of the hand, each player's points), in
  the caller's transaction ``s``.
* :func:`sent_again` ``(s, league, session, expect, fields, players)``: whether an entry of a
  hand the table has stored is that hand sent again, weighed with the stored hand's players.

``fields`` maps ``record``'s option names (:data:`FIELDS`: ``declarer``, ``contract``,
``friend``, ``taken``, ``opposition``, ``deal_miss``, ``eliminated``, ``friend_call``,
``dealer``, ``players``, ``note``; ``deal-miss`` is read as ``deal_miss``) to the text the
keeper typed; ``friend`` is one name, ``none`` in any of the table's words (``nf``, ``노프렌드``:
:mod:`.words`), or a list of two where two cards are called.

Every refusal is one line, the one ``record`` gives: :class:`EntryRefused` (``field``, the
field refused or None; ``kind``: ``rule``, ``usage`` or ``value``, how a command line exits).
What a check cannot know without the store (the contract and the count against what the table
stored, the number of players, an open session, a duplicate deal's friend) is refused when the
outcome is stored, in the store's words. Storing holds the writers of one table to its rules
(DEVELOPERS.md, "A table's writers"), each a subclass of :class:`EntryRefused`:

* :class:`EnteredElsewhere`: the table is past ``expect_hand``, another writer entered that hand
  with another outcome (:attr:`~TablePast.declarer`, :attr:`~TablePast.who`,
  :attr:`~TablePast.when`; :attr:`~TablePast.next_hand` where it could go instead);
* :class:`AlreadyStored`: this very entry is that hand already (sent twice): nothing is stored
  again, and a front end answers as stored (:attr:`~TablePast.table_hand`,
  :attr:`~TablePast.league_hand`);
* :class:`SameAsPrevious`: the outcome equals the table's previous hand, refused unless the
  writer says it was played twice alike (``again``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..engine.errors import MightyError
from ..engine.translation import N_, _, ngettext
from .answers import PRESENT, Answers
from .name_lookup import match_name, split_names
from .next_hand import NextHand, Variants, read_next_hand
from .table_errors import TableError
from .taken import parse_taken, ruling_party_count
from .words import contract_text, friend_value

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..engine.ruleset import Ruleset

#: The fields of a hand's entry: ``record``'s options, in the order a keeper fills them.
FIELDS = (
    "players",
    "deal_miss",
    "declarer",
    "contract",
    "eliminated",
    "friend",
    "taken",
    "opposition",
    "friend_call",
    "dealer",
    "note",
)
#: The fields each field's check reads, of those filled before it.
NEEDS = {
    "declarer": ("players",),
    "deal_miss": ("players",),
    "eliminated": ("players", "declarer"),
    "friend": ("players", "declarer", "eliminated"),
    "taken": ("players", "declarer", "eliminated", "friend"),
}
#: A missing field as a refusal names it (the store's words).
MISSING_WORDS = {
    "declarer": N_("the declarer (주공)"),
    "contract": N_("the contract"),
    "friend": N_("the friend (프렌드)"),
    "taken": N_("the points taken"),
}


class EntryRefused(TableError):
    """A keeper's entry refused, in one line. ``field``: the field refused (a key of
    :data:`FIELDS`), None for the entry as a whole. ``kind``, how a command line shows it:
    ``rule`` (the game's or the table's rules: exit 1), ``usage`` (fields that do not go
    together: a usage error), ``value`` (one field's value unreadable: a bad parameter)."""

    def __init__(self, message: str, field: str | None = None, kind: str = "rule"):
        super().__init__(message)
        self.field, self.kind = field, kind


class TablePast(EntryRefused):
    """The table is past the hand entered (its ``expect_hand``): ``table_hand``, that hand's
    number at the table; ``league_hand``, its number in the league; ``declarer`` (the deal
    miss's player; None when everyone passed), ``who`` entered it (empty when unknown) and
    ``when`` (a UTC datetime); ``next_hand``, the table's next hand."""

    def __init__(
        self,
        message: str,
        *,
        table_hand: int,
        league_hand: int,
        declarer: str | None,
        who: str,
        when: datetime,
        next_hand: int,
    ):
        super().__init__(message)
        self.table_hand, self.league_hand = table_hand, league_hand
        self.declarer, self.who, self.when = declarer, who, when
        self.next_hand = next_hand


class EnteredElsewhere(TablePast):
    """Another writer entered the table's hand first, with another outcome (the message says
    who and when): this entry is not stored. It could go to :attr:`next_hand` instead."""


class AlreadyStored(TablePast):
    """This very entry is the table's hand already (sent twice): stored once, nothing to do; a
    front end answers as though it had just stored it (:attr:`table_hand`,
    :attr:`league_hand`)."""


class SameAsPrevious(EntryRefused):
    """The outcome equals the table's previous hand: entered twice? ``again`` stores it when the
    table played it twice alike."""


# --- the fields ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """A hand's outcome, checked: names as the league knows them, the contract in notation, the
    ruling party's count weighed (a split given), ``friend`` a player, ``none`` or 허니문's
    friend hand."""

    declarer: str | None = None
    contract: str | None = None
    friend: str | None = None
    friend2: str | None = None
    friend_call: str | None = None
    taken: int | None = None
    opposition: int | None = None
    deal_miss: str | None = None
    eliminated: tuple[str, ...] = ()
    dealer: str | None = None
    #: who played the hand, when not the proposal's players
    players: tuple[str, ...] | None = None
    note: str | None = None

    def values(self) -> dict:
        """The outcome as the store takes it (:func:`~mighty_cli.store.ledger.hands.enter_hand`)."""
        return {
            "declarer": self.declarer,
            "contract": self.contract,
            "friend": self.friend,
            "friend_call": self.friend_call,
            "taken": self.taken,
            "opposition": self.opposition,
            "deal_miss": self.deal_miss,
            "dealer": self.dealer,
            "players": list(self.players) if self.players is not None else None,
            "note": self.note,
            "eliminated": list(self.eliminated) or None,
            "friend2": self.friend2,
        }


def given_fields(fields: Mapping[str, object]) -> dict[str, Any]:
    """The fields a keeper gave, by name (``deal-miss`` is ``deal_miss``), without those left
    empty: text, and the friends (one or two) as a list. A name that is no field is refused."""
    given: dict[str, Any] = {}
    for key, value in fields.items():
        name = str(key).replace("-", "_")
        if name not in FIELDS:
            raise EntryRefused(
                _("{field!r} is not a field of a hand's entry ({fields})").format(
                    field=str(key), fields=", ".join(FIELDS)
                ),
                name,
                "usage",
            )
        if value is None or value == "" or value == [] or value == ():
            continue
        if name == "friend":
            value = [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
            value = [v for v in value if v]
            if not value:
                continue
        elif name in ("players", "eliminated") and isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        else:
            value = str(value)
        given[name] = value
    return given


def check_apart(fields: Mapping[str, object]) -> None:
    """Refuse fields that do not go together (a usage refusal): the ruling party's and the
    opposition's count, a deal miss and who was eliminated."""
    given = {key: value for key, value in fields.items() if value is not None}
    if "taken" in given and "opposition" in given:
        raise EntryRefused(_("give --taken or --opposition, not both"), "opposition", "usage")
    if "deal_miss" in given and "eliminated" in given:
        raise EntryRefused(
            _(
                "give --deal-miss or --eliminated, not both: a deal miss (딜 "
                "미스) eliminates nobody"
            ),
            "eliminated",
            "usage",
        )


@contextmanager
def _refused(field: str) -> Iterator[None]:
    """A project error raised inside becomes the refusal of ``field``."""
    try:
        yield
    except EntryRefused:
        raise
    except MightyError as exc:
        raise EntryRefused(str(exc), field) from None


def _player(answers: Answers, field: str, text: str) -> str:
    """A player of the hand, as ``field`` names him."""
    with _refused(field):
        return answers.check_player(text)


def _players(hand: NextHand, text: str | None) -> list[str]:
    """Who played the hand: the names given, matched among those at the table, or the
    proposal's players."""
    if not text:
        return list(hand.players)
    with _refused("players"):
        return [match_name(name, hand.seating, _(PRESENT)) for name in split_names(text) or []]


def _answers(hand: NextHand, given: Mapping[str, Any], needed: Iterable[str]) -> Answers:
    """The answers a field's check reads, the ``needed`` fields of ``given`` checked first
    (each refused by its own name)."""
    answers = Answers(hand.rules, _players(hand, given.get("players")), list(hand.seating))
    for name in needed:
        if name != "players" and name in given:
            _check(answers, name, given[name])
    return answers


def _check(answers: Answers, name: str, value: Any) -> Any:
    """A field's value checked (its kind is the field's: a name, a count, a list of names)."""
    checked: object
    with _refused(name):
        if name in ("declarer", "deal_miss"):
            checked = (
                answers.check_declarer(value) if name == "declarer" else answers.check_player(value)
            )
        elif name == "contract":
            checked = answers.check_contract(value)
        elif name == "eliminated":
            checked = answers.check_eliminated(value)
        elif name == "friend":
            names = list(value) if isinstance(value, list) else [value]
            if len(names) == 1:
                answers.check_friend(names[0])
            else:
                answers.check_friends(names)
            checked = [f for f in answers.friends if f != "none"]
        elif name == "taken":
            checked = answers.check_taken(value)
        elif name == "opposition":
            checked = _opposition(answers, value)
        elif name == "dealer":
            checked = answers.check_present(value)
        elif name == "players":
            checked = list(answers.five)
        else:  # friend_call, note: the store reads them
            checked = value.strip()
    return checked


def _opposition(answers: Answers, text: str) -> int:
    """The opposition's point cards, from 0 to those in play."""
    total = answers.rules.count_total
    value = _count(text)
    if value is None or not 0 <= value <= total:
        raise MightyError(
            _("{text!r}: a number of point cards from 0 to {total}").format(
                text=text.strip(), total=total
            )
        )
    return value


def _count(text: str) -> int | None:
    """A whole number as typed (a trailing 장 allowed), or None."""
    try:
        return int(text.strip().removesuffix("장").strip())
    except ValueError:
        return None


def check_field(
    hand: NextHand, name: str, text: Any, so_far: Mapping[str, object] | None = None
) -> object:
    """One field as it is filled, given the fields filled so far (those it reads are checked
    first, each refused by its own name): its value as checked (a name as the league knows
    it, the contract in notation, the count weighed, the friends, the eliminated and the
    players as lists), or :class:`EntryRefused` with the line ``record`` says at its
    question."""
    key = str(name).replace("-", "_")
    if key not in FIELDS:
        given_fields({name: text})  # the refusal of a name that is no field
    given = given_fields(so_far or {})
    if key == "players":
        return _players(hand, ",".join(text) if isinstance(text, (list, tuple)) else str(text))
    value = (
        [str(v) for v in text]
        if key == "friend" and isinstance(text, (list, tuple))
        else ", ".join(map(str, text))
        if isinstance(text, (list, tuple))
        else str(text)
    )
    answers = _answers(hand, given, NEEDS.get(key, ("players",)))
    return _check(answers, key, value)


# --- the whole outcome --------------------------------------------------------------------------


def check_outcome(hand: NextHand, fields: Mapping[str, object]) -> Outcome:
    """A whole outcome (``record``'s option names to what the keeper typed; ``friend`` one
    name, or a list of two) checked as ``record`` checks its command line: the checked
    :class:`Outcome`, or the first :class:`EntryRefused`. Where the ruleset decides the
    friend by itself it may be left out (허니문's own friend hand; none where the declarer
    always plays alone)."""
    given = given_fields(fields)
    check_apart(given)
    rules = hand.rules
    five = _players(hand, given.get("players"))
    answers = Answers(rules, five, list(hand.seating))
    declarer, deal_miss = given.get("declarer"), given.get("deal_miss")
    if declarer:
        declarer = _player(answers, "declarer", declarer)
    if deal_miss:
        deal_miss = _player(answers, "deal_miss", deal_miss)
    friends = given.get("friend", [])
    if len(friends) > 2 or (len(friends) == 2 and rules.friend.called_cards != 2):
        raise EntryRefused(
            _(
                "--friend: give one friend, or two where the ruleset calls two "
                "cards (friend.called_cards = 2)"
            ),
            "friend",
            "usage",
        )
    friend, friend2 = (friends + [None, None])[:2]
    if friend and rules.table.partner_hands and not deal_miss:  # 허니문
        answers.declarer = declarer
        with _refused("friend"):
            friend = answers.own_friend_hand(friend)
    elif friend and friend_value(friend) != "none":
        friend = _player(answers, "friend", friend)
    if friend2:  # 동대전 7마: the second called card's holder
        if friend_value(friend) == "none":
            raise EntryRefused(
                _("--friend none: a second --friend needs a first"), "friend", "usage"
            )
        friend2 = _player(answers, "friend", friend2)
    if friend is None and not deal_miss:
        friend = _decided_friend(answers, declarer)
    taken = _taken(rules, given.get("taken"), friend, friend2)
    answers.declarer = declarer
    with _refused("eliminated"):
        out = answers.eliminated_given(given.get("eliminated"))
    if (
        rules.table.eliminated and not out and not deal_miss and not rules.table.dummy
    ):  # 시흥 은마: it changes no score
        raise EntryRefused(
            ngettext(
                "--eliminated: {ruleset} eliminates {count} player (table.eliminated): name him",
                "--eliminated: {ruleset} eliminates {count} players (table.eliminated): name them",
                rules.table.eliminated,
            ).format(ruleset=rules.name, count=rules.table.eliminated),
            "eliminated",
            "usage",
        )
    with _refused("contract"):
        contract = contract_text(given.get("contract"))
    dealer = _check(answers, "dealer", given["dealer"]) if given.get("dealer") else None
    opposition = given.get("opposition")
    if opposition is not None:  # a count out of range: the store says so
        with _refused("opposition"):
            opposition = (
                _count(opposition)
                if _count(opposition) is not None
                else _opposition(answers, opposition)
            )
    outcome = Outcome(
        declarer=declarer,
        contract=contract,
        friend=friend_value(friend),
        friend2=friend2,
        friend_call=given.get("friend_call"),
        taken=taken,
        opposition=opposition,
        deal_miss=deal_miss,
        eliminated=tuple(out),
        dealer=dealer,
        players=tuple(five) if given.get("players") else None,
        note=given.get("note"),
    )
    _refuse_missing(outcome)
    return outcome


def _decided_friend(answers: Answers, declarer: str | None) -> str | None:
    """The friend the ruleset decides: 허니문's own friend hand, or none where the declarer
    always plays alone (3마, 2마); else None (the keeper names him)."""
    variants = Variants.of(answers.rules)
    if variants.own_friend_hand and declarer:
        answers.declarer = declarer
        return answers.own_friend_hand("friend")
    if not variants.friends:
        return "none"
    return None


def _taken(rules: Ruleset, text: str | None, friend: str | None, friend2: str | None) -> int | None:
    """The ruling party's count: as given, or a split weighed by the ruleset with the
    friends the hand had (a value refusal of ``taken``)."""
    if text is None:
        return None
    try:
        taken = parse_taken(text)
        count = 0 if friend is None or friend_value(friend) == "none" else 1 + bool(friend2)
        return ruling_party_count(rules, taken, count)
    except MightyError as exc:
        raise EntryRefused(str(exc), "taken", "value") from None


def _refuse_missing(outcome: Outcome) -> None:
    if outcome.deal_miss is not None:
        return
    for name in ("declarer", "contract", "friend"):
        if getattr(outcome, name) is None:
            raise EntryRefused(
                _(
                    "missing {missing}: give the declarer, contract, friend and "
                    "the points taken, or --deal-miss PLAYER"
                ).format(missing=_(MISSING_WORDS[name])),
                name,
            )
    if outcome.taken is None and outcome.opposition is None:
        raise EntryRefused(
            _(
                "missing {missing}: give the declarer, contract, friend and "
                "the points taken, or --deal-miss PLAYER"
            ).format(missing=_(MISSING_WORDS["taken"])),
            "taken",
        )


# --- storing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    """A hand stored: ``recorded``, the store's answer (the hand as stored, the next hand's
    proposal, the deposit pot, why the session ended)."""

    recorded: Any

    @property
    def table_hand(self) -> int:
        """The hand's number at its table (counted under the league's lock)."""
        return self.recorded.session_hand

    @property
    def league_hand(self) -> int:
        return self.recorded.hand.number

    @property
    def points(self) -> dict[str, int]:
        """Each player's points from the hand."""
        return dict(self.recorded.hand.deltas)

    def to_json(self) -> dict:
        return {
            "table_hand": self.table_hand,
            "league_hand": self.league_hand,
            "points": self.points,
            "session_ended": self.recorded.session_ended,
        }


def store_outcome(
    s: Session,
    league: str,
    outcome: Outcome,
    *,
    session: int | None = None,
    expect_hand: int | None = None,
    again: bool = False,
    who: str = "",
) -> Stored:
    """Store a checked outcome at the league's table (session ``session``, or the open one) in
    the caller's transaction ``s``, as the table's hand ``expect_hand`` (the writer's belief;
    None: whichever is next). Refused in one line (:class:`EntryRefused`): the table past that
    hand (:class:`EnteredElsewhere`, or :class:`AlreadyStored` when it is this entry), an
    outcome equal to the table's previous hand without ``again`` (:class:`SameAsPrevious`), or
    what the store refuses."""
    from ..store.ledger.hands import enter_hand  # start-up: the store, where a hand is stored
    from ..store.ledger.table_entry import (  # start-up: the store
        HandAlreadyEntered,
        SameOutcome,
    )

    try:
        recorded = enter_hand(
            s,
            league,
            again=again,
            expect_hand=expect_hand,
            session_number=session,
            who=who,
            **outcome.values(),
        )
    except HandAlreadyEntered as exc:
        entered = exc.entered
        assert entered is not None  # (the store says who entered the hand it is past)
        past: dict[str, Any] = dict(
            table_hand=exc.next - 1 if expect_hand is None else expect_hand,
            league_hand=exc.hand.number,
            declarer=entered.declarer,
            who=entered.who,
            when=entered.at,
            next_hand=exc.next,
        )
        if exc.same:
            raise AlreadyStored(str(exc), **past) from None
        raise EnteredElsewhere(str(exc), **past) from None
    except SameOutcome as exc:
        raise SameAsPrevious(str(exc)) from None
    except EntryRefused:
        raise
    except MightyError as exc:
        raise EntryRefused(str(exc)) from None
    return Stored(recorded)


def sent_again(
    s: Session,
    league: str,
    session: int,
    expect: int,
    fields: Mapping[str, object],
    players: Iterable[str],
    who: str = "",
) -> bool:
    """Whether an entry of the table's hand ``expect``, which the table has already stored, is
    that hand sent again (a phone that lost its answer): weighed with the stored hand's own
    ``players`` (its declarer or friend may sit out the table's next hand at a table of six or
    seven), as the store weighs an entry sent twice (:class:`AlreadyStored`). False: another
    outcome, one the table can no longer weigh (seated again since), or a hand not yet stored."""
    hand = read_next_hand(s, league, session)
    if expect > hand.hands or "players" in fields:
        return False
    try:
        outcome = check_outcome(hand, {**fields, "players": list(players)})
        store_outcome(s, league, outcome, session=session, expect_hand=expect, again=True, who=who)
    except AlreadyStored:
        return True
    except (EntryRefused, MightyError):
        return False
    return False  # not reached: the store refuses a hand the table is past
