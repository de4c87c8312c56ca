"""Hand records (``mighty-hand-record/1``, HAND_RECORD.md): read, write, check and score.

A record is what a referee saves, what ``examples/`` holds and what import and export move: the
ruleset, the players in playing order, and a list of hands. A hand is one of three shapes:

* a full hand (``deal``, ``election``, ``discard``, ``contract``, ``friend``, ``tricks``), replayed
  card by card through the hand engine, so every rule is checked; it may stop early (in progress);
* a recorded hand (``declarer``, ``contract``, ``friend``, ``taken`` or ``opposition``): the outcome
  only, validated and scored;
* a deal miss (``deal_miss``), with the ruleset's consequences (deposit pot, next dealer).

Replaying stops at the first violation with a :class:`RecordError` whose message names the hand
(1-based), the trick where there is one, the player, the card or call, and the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Optional, Sequence

from . import names, safe_toml
from .cards import (DECK, Bid, format_bid, format_card, format_cards, parse_bid, parse_card,
                    parse_cards, sorted_cards)
from .errors import InvalidNotation, MightyError, RecordError
from .limits import RECORD_MAX_BYTES
from .translation import _
from .ruleset import OutsideFolder, Ruleset, load_ruleset, ruleset_from_toml
from .scoring import Score, score_hand, seat_deltas
from .session import PreviousHand, opener_for, propose, settle_pot

FORMAT = "mighty-hand-record/1"
TOP_KEYS = {"format", "ruleset", "players", "hands", "ruleset_toml", "title", "league", "date",
            "session"}
FULL_KEYS = ("deal", "election", "discard", "contract", "friend", "tricks")
RECORDED_KEYS = ("declarer", "contract", "friend", "friend_call", "taken", "opposition")
HAND_KEYS = {"dealer", "opener", "players", "note", "deal_miss", "taken", "opposition",
             "declarer", "friend_call", "session", "date", "number", "elimination",
             "redistribution", *FULL_KEYS}
STATUSES = ("scored", "deal_miss", "redeal", "in_progress")

_TEXT = (str,)
_SCALAR = (str, int)
_DAY = (str, date)
#: The type each key must have, and how a message says it (the rest is checked while replaying).
TOP_TYPES = {"ruleset": (_TEXT, "a ruleset name or path"), "title": (_TEXT, "a string"),
             "league": (_TEXT, "a league name"), "date": (_DAY, "a date such as 2024-03-05"),
             "session": (_SCALAR, "a session number or name"),
             "ruleset_toml": (_TEXT, "a ruleset's TOML text in a string")}
HAND_TYPES = {"dealer": (_TEXT, "a player's name"), "opener": (_TEXT, "a player's name"),
              "declarer": (_TEXT, "a player's name"), "deal_miss": (_TEXT, "a player's name"),
              "friend": (_TEXT, "a player's name, a call such as \"SA\", or \"none\""),
              "friend_call": (_TEXT, "a card or a call such as \"mighty\""),
              "contract": (_TEXT, "a bid such as \"15D\" or \"16NT\""),
              "discard": (_TEXT, "cards in one string, such as \"C2 D3 H4\""),
              "note": (_TEXT, "a string"), "date": (_DAY, "a date such as 2024-03-05"),
              "session": (_SCALAR, "a session number or name"),
              "deal": ((dict,), "a table of player = \"10 cards\" and kitty = \"3 cards\""),
              "players": ((list,), "a list of the five players' names"),
              "election": ((list,), "a list of calls such as \"Bo 13H\" or \"Cy pass\""),
              "tricks": ((list,), "a list of strings of played cards"),
              "elimination": ((list,), "a list of calls such as \"JK Bo\" or \"D5 kitty\""),
              "redistribution": ((dict,), "a table of player = \"cards\"")}
#: Keys of a hand that name a player, spelt as the record's players are (names.normalize).
NAME_KEYS = ("dealer", "opener", "declarer", "deal_miss", "friend")


@dataclass
class Record:
    """A hand-record file: a ruleset, the players in playing order, and hands as plain dicts."""

    ruleset: str
    players: list[str]
    hands: list[dict] = field(default_factory=list)
    format: str = FORMAT
    extra: dict = field(default_factory=dict)
    base_dir: Optional[Path] = None
    #: A ruleset the user named on the command line (``--ruleset``): used instead of the one the
    #: file names, and the only way to use a file outside the record's folder.
    user_ruleset: Optional[str] = None


@dataclass
class HandOutcome:
    """What one hand of a record came to."""

    index: int
    status: str
    players: list[str]
    dealer: Optional[str] = None
    declarer: Optional[str] = None
    contract: Optional[Bid] = None
    friend: Optional[str] = None
    friend_call: Optional[str] = None
    taken: Optional[int] = None
    score: Optional[Score] = None
    deltas: dict[str, int] = field(default_factory=dict)
    deal_miss_player: Optional[str] = None
    pot_after: int = 0
    full: bool = False
    state: Any = None  # the final HandState of a full hand (None for recorded hands)
    opener: Optional[str] = None  # who opened (or would have opened) the election

    def to_json(self) -> dict:
        """The acceptance interface's per-hand object (HAND_RECORD.md)."""
        score = self.score
        return {"status": self.status, "declarer": self.declarer,
                "contract": format_bid(self.contract) if self.contract else None,
                "friend": self.friend, "taken": self.taken,
                "base": score.base_value if score else None,
                "multiplier": score.multiplier if score else None,
                "doublings": list(score.doublings) if score else [],
                "deltas": dict(self.deltas)}


@dataclass
class ReplayResult:
    """Every hand's outcome and the running totals."""

    hands: list[HandOutcome]
    totals: dict[str, int]
    pot: int = 0

    def to_json(self) -> dict:
        return {"hands": [h.to_json() for h in self.hands], "totals": dict(self.totals),
                "pot": self.pot}


# --- reading and writing ------------------------------------------------------------------------


def load_record(path: str | Path) -> Record:
    """Read a record file; any problem is a RecordError naming the file."""
    path = Path(path)
    text = safe_toml.read_text(path, RECORD_MAX_BYTES, str(path), RecordError)
    return read_record(text, source=str(path), base_dir=path.parent)


def read_record(text: str, source: str = "<record>", base_dir: Optional[Path] = None) -> Record:
    """Parse record TOML text and check its shape and types (not yet its rules: see
    :func:`replay`). Player names are spelt one way (:func:`names.normalize`) everywhere."""
    data = safe_toml.parse(text, source, RecordError, RECORD_MAX_BYTES)
    record = record_header(data, source, base_dir)
    hands = data.get("hands", [])
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise RecordError(f"{source}: hands: expected [[hands]] tables")
    for k, hand in enumerate(hands, 1):
        check_hand_shape(hand, k, record.players, source)
    # Five play each hand; a session seats up to seven, and a league's export names everyone
    # who ever played, each hand saying which five.
    if len(record.players) > 7 and not all("players" in h for h in hands):
        raise RecordError(_five_message(source, record.players))
    record.hands = hands
    return record


def record_header(data: dict, source: str, base_dir: Optional[Path]) -> Record:
    """A record's header (format, ruleset, players and the project's extra keys) checked, with
    no hands yet: shared by :func:`read_record` and the streaming reader."""
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"{source}: format = {safe_toml.short(fmt)}: expected {FORMAT!r}")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise RecordError(f"{source}: unknown key {safe_toml.short(sorted(unknown)[0])} "
                          f"(expected: {', '.join(sorted(TOP_KEYS))})")
    _check_types(data, TOP_TYPES, f"{source}: ")
    ruleset = data.get("ruleset", "standard")
    players = checked_players(data.get("players"), source)
    extra = {k: v for k, v in data.items() if k not in ("format", "ruleset", "players", "hands")}
    return Record(ruleset=ruleset, players=players, hands=[], extra=extra, base_dir=base_dir)


def checked_players(players: Any, source: str) -> list[str]:
    """A record's ``players``: names without refused characters, spelt one way, none twice,
    at least five."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RecordError(f"{source}: players: expected a list of player names")
    for name in players:
        wrong = names.refused_character(name)
        if wrong:
            raise RecordError(f"{source}: players: {names.visible(name)} {wrong}")
    players = [names.normalize(p) for p in players]
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise RecordError(f"{source}: players: {twice!r} appears twice")
    if len(players) < 2:
        raise RecordError(_five_message(source, players))
    return players


def _five_message(source: str, players: list[str]) -> str:
    # Five play each hand (the ruleset's table.players: 4마, 3마, 2마 fewer); a session seats up
    # to seven, and a league's export names everyone who ever played, each hand saying which.
    return (f"{source}: players: Mighty is played by two to seven (six or seven present, five "
            f"playing each hand; more only when every hand names its players); "
            f"got {len(players)}")


def check_hand_shape(hand: Any, index: int, players: list[str], source: str) -> None:
    """The shape and type checks of one hand (its rules are checked on replay), its names
    spelt as the record's players are; a record of more than seven names each hand's five."""
    if not isinstance(hand, dict):
        raise RecordError(f"{source}: hands: expected [[hands]] tables")
    _check_types(hand, HAND_TYPES, f"{source}: hand {index}: ")
    _normalize_names(hand)
    unknown = set(hand) - HAND_KEYS
    if unknown:
        raise RecordError(f"{source}: hand {index}: unknown key "
                          f"{safe_toml.short(sorted(unknown)[0])}")


def _check_types(data: dict, types: dict, where: str) -> None:
    for key, (allowed, what) in types.items():
        if key in data:
            value = data[key]
            if not isinstance(value, allowed) or isinstance(value, bool):
                raise RecordError(f"{where}{key} = {safe_toml.short(value)}: expected {what}")
    for key in ("players", "election", "tricks"):
        if key in types and isinstance(data.get(key), list) \
                and not all(isinstance(v, str) for v in data[key]):
            raise RecordError(f"{where}{key}: expected {types[key][1]}")
    deal = data.get("deal") if "deal" in types else None
    if isinstance(deal, dict) and not all(isinstance(v, str) for v in deal.values()):
        raise RecordError(f"{where}deal: expected {types['deal'][1]}")


def _normalize_names(hand: dict) -> None:
    """Spell the names a hand mentions as the record's players are spelt."""
    for key in NAME_KEYS:
        if isinstance(hand.get(key), str):
            hand[key] = _normalized(hand[key])
    if isinstance(hand.get("players"), list):
        hand["players"] = [_normalized(p) for p in hand["players"]]
    if isinstance(hand.get("deal"), dict):
        hand["deal"] = {_normalized(k): v for k, v in hand["deal"].items()}
    if isinstance(hand.get("election"), list):
        hand["election"] = [_normalized(c) for c in hand["election"]]


_NORMALIZED: dict[str, str] = {}


def _normalized(text: str) -> str:
    """names.normalize, cached: a record repeats the same names and calls in every hand."""
    name = _NORMALIZED.get(text)
    if name is None:
        if len(_NORMALIZED) > 4096:  # names come from files: keep the cache bounded
            _NORMALIZED.clear()
        name = _NORMALIZED[text] = names.normalize(text)
    return name


def dump_record(record: Record) -> str:
    """The record as TOML text, in the key order HAND_RECORD.md uses."""
    import tomli_w

    data: dict[str, Any] = {"format": FORMAT, "ruleset": record.ruleset,
                            "players": list(record.players)}
    data.update({k: v for k, v in record.extra.items() if v is not None})
    order = ("players", "dealer", "deal_miss", "deal", "election", "discard", "declarer",
             "contract", "friend", "friend_call", "taken", "opposition", "tricks", "note")
    data["hands"] = [{k: hand[k] for k in order if k in hand and hand[k] is not None}
                     | {k: v for k, v in hand.items() if k not in order and v is not None}
                     for hand in record.hands]
    return tomli_w.dumps(data, multiline_strings=False)


def record_ruleset(record: Record) -> Ruleset:
    """The ruleset a record names: an embedded ``ruleset_toml``, a bundled name, or a path.

    A record is a shared file: the path it names (and any ``extends`` on the way) must lead to
    a file in the record's folder or below it. A ruleset the user named on the command line
    (``record.user_ruleset``) is used instead, from anywhere."""
    if record.user_ruleset:
        return load_ruleset(record.user_ruleset)
    folder = record.base_dir or Path.cwd()
    embedded = record.extra.get("ruleset_toml")
    if isinstance(embedded, str) and embedded.strip():
        return ruleset_from_toml(embedded, label=f"{record.ruleset} (embedded)",
                                 relative_to=folder, confine_to=folder).ruleset
    try:
        return load_ruleset(record.ruleset, relative_to=folder, confine_to=folder)
    except OutsideFolder as exc:
        raise OutsideFolder(f"{exc} (give another ruleset on the command line: --ruleset FILE)"
                            ) from None


# --- replaying ----------------------------------------------------------------------------------


def replay(record: Record, rules: Optional[Ruleset] = None) -> ReplayResult:
    """Check and score every hand of a record; the first violation raises RecordError."""
    rules = rules or record_ruleset(record)
    totals = {p: 0 for p in record.players}
    outcomes = [outcome for _, outcome in iter_replay(record, rules, totals)]
    return ReplayResult(outcomes, totals, outcomes[-1].pot_after if outcomes else 0)


def iter_replay(record: Record, rules: Optional[Ruleset] = None,
                totals: Optional[dict[str, int]] = None):
    """Replay a record hand by hand, yielding each ``(hand, outcome)`` as it is scored (the
    record's ``hands`` may be an iterator: nothing is kept); ``totals``, when given, is
    updated as it goes. The first violation raises RecordError."""
    rules = rules or record_ruleset(record)
    totals = {p: 0 for p in record.players} if totals is None else totals
    pot = 0
    previous: Optional[PreviousHand] = None
    session = None
    for index, hand in enumerate(record.hands, 1):
        if hand.get("session") != session:  # a new session starts its own succession
            session, previous = hand.get("session"), None
        try:
            outcome = _replay_hand(rules, record.players, hand, index, previous, pot)
        except RecordError:
            raise
        except MightyError as exc:  # a broken rule, a bad card, an unscorable outcome
            raise RecordError(_locate(index, str(exc))) from None
        pot = outcome.pot_after
        for player, delta in outcome.deltas.items():
            totals[player] += delta
        yield hand, outcome
        if outcome.status != "in_progress":
            previous = _previous_hand(outcome)


def _previous_hand(outcome: HandOutcome) -> PreviousHand:
    """What the session rules need to know about a finished hand."""
    return PreviousHand(outcome.status, tuple(outcome.players), outcome.dealer,
                        outcome.declarer, outcome.friend,
                        outcome.score.success if outcome.score else None,
                        outcome.deal_miss_player, outcome.opener)


def _locate(index: int, message: str) -> str:
    located = _("hand {index}, {message}") if message.startswith("trick") else \
        _("hand {index}: {message}")
    return located.format(index=index, message=message)


def _hand_players(all_players: Sequence[str], hand: dict, index: int, n: int = 5) -> list[str]:
    """Who played this hand: ``n`` (table.players) of the record's players."""
    count = "five" if n == 5 else str(n)
    players = hand.get("players")
    if players is None:
        if len(all_players) != n:
            raise RecordError(f"hand {index}: the record lists {len(all_players)} players; say "
                              f"which {count} played this hand (players = [...])")
        return list(all_players)
    if (not isinstance(players, list) or len(players) != n or len(set(players)) != n
            or not set(players) <= set(all_players)):
        raise RecordError(f"hand {index}: players: expected {count} distinct names from the "
                          f"record's players")
    return list(players)


def _name(value: Any, players: Sequence[str], index: int, key: str) -> str:
    if not isinstance(value, str) or value not in players:
        raise RecordError(f"hand {index}: {key} = {value!r} is not one of the players of this "
                          f"hand ({', '.join(players)})")
    return value


def _replay_hand(rules: Ruleset, all_players: Sequence[str], hand: dict, index: int,
                 previous: Optional[PreviousHand], pot: int) -> HandOutcome:
    players = _hand_players(all_players, hand, index, rules.table.players)
    # With six or seven present the dealer may sit the hand out (RULES.md §9).
    dealer = hand.get("dealer")
    if dealer is None:
        dealer = propose(rules, all_players, previous, in_playing_order=True).dealer
    dealer = _name(dealer, all_players, index, "dealer")
    zero = {p: 0 for p in all_players}
    if "deal" in hand or "election" in hand:  # with no deal: refereed with open cards
        opener = opener_for(rules, all_players, players, dealer, previous)
        if "opener" in hand:  # the table said who opened (e.g. a referee started mid-session)
            opener = _name(hand["opener"], players, index, "opener")
        outcome = _replay_full(rules, players, hand, index, opener, pot, dealer, zero)
        outcome.opener = opener
        return outcome
    if "deal_miss" in hand:
        miss = _name(hand["deal_miss"], players, index, "deal_miss")
        if not rules.deal_miss.allowed:
            raise RecordError(f"hand {index}: {miss} declared a deal miss but {rules.name} has no "
                              f"deal miss (deal_miss.allowed = false)")
        outcome = _deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.opener = _name(hand["opener"], players, index, "opener") if "opener" in hand \
            else opener_for(rules, all_players, players, dealer, previous)
        return outcome
    if "declarer" in hand:
        extra = set(hand) & {"election", "discard", "tricks"}
        if extra:
            raise RecordError(f"hand {index}: {sorted(extra)[0]} needs the deal (deal = {{...}})")
        declarer = _name(hand["declarer"], players, index, "declarer")
        contract = _bid(hand.get("contract"), index)
        friend_text = hand.get("friend", "none")
        friend = None if friend_text == "none" else _name(friend_text, players, index, "friend")
        taken = _taken(rules, hand, index)
        call = hand.get("friend_call")
        if call is not None:
            _check_friend_call_text(call, index)
        outcome = score_outcome(rules, players, declarer, contract, friend, taken,
                                all_players=all_players, index=index, friend_call=call)
        outcome.dealer, outcome.friend_call = dealer, call
        return _settle_pot(rules, outcome, pot)
    raise RecordError(f"hand {index}: expected a deal (a full hand), a declarer (a recorded "
                      f"outcome) or deal_miss")


def _bid(text: Any, index: int) -> Bid:
    if not isinstance(text, str):
        raise RecordError(f"hand {index}: contract: expected a bid such as \"15D\" or \"16NT\"")
    try:
        return parse_bid(text)
    except InvalidNotation as exc:
        raise RecordError(f"hand {index}: contract: {exc}") from None


def _taken(rules: Ruleset, hand: dict, index: int) -> int:
    taken, opposition = hand.get("taken"), hand.get("opposition")
    total = rules.point_card_total
    if (taken is None) == (opposition is None):
        raise RecordError(f"hand {index}: give exactly one of taken and opposition")
    value = taken if taken is not None else opposition
    key = "taken" if taken is not None else "opposition"
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= total:
        raise RecordError(f"hand {index}: {key} = {value!r} is impossible: from 0 to {total} point "
                          f"cards are in play under {rules.name}")
    return value if taken is not None else total - value


def _check_friend_call_text(call: Any, index: int) -> None:
    if not isinstance(call, str):
        raise RecordError(f"hand {index}: friend_call: expected a card or a call such as "
                          f"\"mighty\", \"joker\", \"first-trick\"")
    if len(call) > 40:  # what a league stores: one card or call
        raise RecordError(f"hand {index}: friend_call = {call[:20]!r}...: expected one card or "
                          f"call (at most 40 characters)")
    if call.lower() in ("joker", "mighty", "none", "first-trick", "last-trick") \
            or call.lower().startswith("player:"):
        return
    try:
        parse_cards(call)
    except InvalidNotation as exc:
        raise RecordError(f"hand {index}: friend_call: {exc}") from None


def score_outcome(rules: Ruleset, players: Sequence[str], declarer: str, contract: Bid,
                  friend: Optional[str], taken: int, *, all_players: Optional[Sequence[str]] = None,
                  index: int = 1, friend_call: Optional[str] = None) -> HandOutcome:
    """Validate and score a recorded outcome (what a score-keeper writes down). A declarer
    alone after a first- or last-trick ``friend_call`` is doubled as
    ``scoring.no_friend_by_trick_call`` says."""
    if declarer not in players:
        raise RecordError(f"hand {index}: declarer {declarer!r} does not play this hand")
    if friend is not None:
        if friend not in players:
            raise RecordError(f"hand {index}: friend {friend!r} does not play this hand")
        if friend == declarer:
            raise RecordError(f"hand {index}: {declarer} cannot be his own friend (write friend = "
                              f"\"none\" for a declarer playing alone)")
    elif not (rules.friend.no_friend or rules.friend.fake or rules.friend.first_trick
              or rules.friend.last_trick):
        raise RecordError(f"hand {index}: {declarer} played alone but {rules.name} allows no "
                          f"friendless hand")
    trick_call = isinstance(friend_call, str) and friend_call.strip().lower().replace("_", "-") \
        in ("first-trick", "firsttrick", "초구", "last-trick", "lasttrick", "막구")
    doubled = None if friend is not None else \
        (rules.scoring.no_friend_by_trick_call or not trick_call)
    score = score_hand(rules, contract, taken, has_friend=friend is not None,
                       no_friend_doubling=doubled)
    deltas = {p: 0 for p in (all_players or players)}
    deltas.update(seat_deltas(score, players, declarer, friend))
    return HandOutcome(index=index, status="scored", players=list(players), declarer=declarer,
                       contract=contract, friend=friend, taken=taken, score=score, deltas=deltas)


def _deal_miss_outcome(rules: Ruleset, players: Sequence[str], index: int, dealer: str, miss: str,
                       pot: int, zero: dict[str, int]) -> HandOutcome:
    move = settle_pot(rules, pot, "deal_miss", dealer=dealer, deal_miss=miss)
    deltas = dict(zero)
    for player, amount in move.deltas.items():
        deltas[player] += amount
    return HandOutcome(index=index, status="deal_miss", players=list(players), dealer=dealer,
                       deltas=deltas, deal_miss_player=miss, pot_after=move.pot_after)


def _settle_pot(rules: Ruleset, outcome: HandOutcome, pot: int) -> HandOutcome:
    """A made contract wins the deposit pot (001 §2); a failed one leaves it."""
    move = settle_pot(rules, pot, outcome.status, dealer=outcome.dealer,
                      declarer=outcome.declarer, friend=outcome.friend,
                      success=outcome.score.success if outcome.score else None,
                      players=outcome.players)
    for player, amount in move.deltas.items():
        outcome.deltas[player] += amount
    outcome.pot_after = move.pot_after
    return outcome


def _replay_full(rules: Ruleset, players: list[str], hand: dict, index: int, opener: str,
                 pot: int, dealer: str, zero: dict[str, int]) -> HandOutcome:
    from . import hand as engine  # the hand engine is only needed for full hands
    from .replay_tricks import replay_tricks

    deal = _deal(hand["deal"], index) if "deal" in hand else None
    election = hand.get("election", [])
    if not isinstance(election, list) or not all(isinstance(c, str) for c in election):
        raise RecordError(f"hand {index}: election: expected a list of calls such as "
                          f"\"Bo 13H\" or \"Cy pass\"")
    calls = [_call(text, players, index) for text in election]
    # the calls before any deal miss: a full bid cancelling it (deal_miss.full_bid_cancels) may
    # come from any player, opener or not
    miss_at = next((i for i, call in enumerate(calls) if call[1] is DEAL_MISS_CALL),
                   len(calls))
    bids = calls[:miss_at]
    if bids and bids[0][0] != opener:
        first = "pass" if bids[0][1] is None else format_bid(bids[0][1])
        raise RecordError(f"hand {index}: election: {bids[0][0]} opened with {first} but "
                          f"{opener} opens this hand (election.opener = "
                          f"{rules.election.opener})")
    state = engine.new_hand(rules, players, dealer, deal, opener=opener)
    for player, bid in calls:
        if bid is DEAL_MISS_CALL:  # "<player> deal-miss": where a full bid may cancel it
            state = engine.apply(state, engine.DeclareDealMiss(player))
        else:
            state = engine.apply(state, engine.BidCall(player, bid))
    if state.phase == "deal_miss" and "deal_miss" not in hand:
        miss = state.deal_miss_player
        _no_more(hand, index, "discard", f"{miss} declared a deal miss")
        outcome = _deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.full, outcome.state = True, state
        return outcome
    if "deal_miss" in hand:
        miss = _name(hand["deal_miss"], players, index, "deal_miss")
        state = engine.apply(state, engine.DeclareDealMiss(miss))
        outcome = _deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.full, outcome.state = True, state
        return outcome
    if state.phase == "redeal":
        _no_more(hand, index, "discard", "everyone passed")
        return HandOutcome(index=index, status="redeal", players=players, dealer=dealer,
                           deltas=dict(zero), pot_after=pot, full=True, state=state)
    outcome = HandOutcome(index=index, status="in_progress", players=players, dealer=dealer,
                          deltas=dict(zero), pot_after=pot, full=True)
    if state.phase == "election":
        _no_more(hand, index, "discard", "the election is not over")
        outcome.state = state
        return outcome
    state = _replay_elimination(engine, state, hand, index)
    if state.phase in ("elimination", "redistribution"):  # 6마, 7마: not over yet
        _no_more(hand, index, "discard", "the eliminations are not over")
        outcome.state = state
        return outcome
    if "discard" in hand:
        state = engine.apply(state, engine.Discard(tuple(_cards(hand["discard"], index, "discard"))))
    elif deal is None and state.phase == "exchange":
        state = engine.apply(state, engine.Discard(()))  # open cards: the discards are unseen
    else:
        _no_more(hand, index, "contract", "nothing was discarded yet")
    if "contract" in hand and state.phase == "friend":
        contract = _bid(hand["contract"], index)
        if contract != state.contract:
            state = engine.apply(state, engine.ChangeContract(contract))
    if "friend" in hand:
        if state.phase != "friend":
            raise RecordError(f"hand {index}: friend is called after the discard")
        try:
            call = engine.parse_friend_call(hand["friend"], state)
        except InvalidNotation as exc:
            raise RecordError(f"hand {index}: friend: {exc}") from None
        state = engine.apply(state, engine.CallFriend(call))
        outcome.friend_call = hand["friend"]
    else:
        _no_more(hand, index, "tricks", "no friend was called yet")
    tricks = hand.get("tricks", [])
    if not isinstance(tricks, list) or not all(isinstance(t, str) for t in tricks):
        raise RecordError(_("hand {index}: tricks: expected a list of strings of played cards")
                          .format(index=index))
    state = replay_tricks(state, tricks, index)
    outcome.declarer, outcome.contract, outcome.state = state.declarer, state.contract, state
    outcome.friend = state.friend if state.friend_revealed else None
    if state.phase != "done":
        return outcome
    result = engine.hand_result(state)
    for key in ("taken", "opposition"):
        if key in hand:
            stated = _taken(rules, {key: hand[key]}, index)
            if stated != result.taken:
                raise RecordError(f"hand {index}: {key} = {hand[key]} is impossible: the tricks "
                                  f"give the ruling party {result.taken}")
    outcome.status, outcome.friend, outcome.taken = "scored", result.friend, result.taken
    outcome.score = result.score
    outcome.deltas.update(result.deltas)
    return _settle_pot(rules, outcome, pot)


def _replay_elimination(engine: Any, state: Any, hand: dict, index: int) -> Any:
    """6마, 7마: the declarer's elimination calls (``elimination = ["JK Bo", "D5 kitty"]``; a
    card alone where the deal is known; ``player:Cy`` under table.eliminate_by = player) and the
    cards dealt out after them (``redistribution = { Ana = "...", ... }``)."""
    calls = hand.get("elimination", [])
    if calls and state.phase != "elimination":
        raise RecordError(f"hand {index}: elimination: nobody is eliminated here "
                          f"(table.eliminated)")
    if not all(isinstance(call, str) for call in calls):
        raise RecordError(f"hand {index}: elimination: expected calls such as \"JK Bo\"")
    for call in calls:
        if state.phase != "elimination":
            raise RecordError(f"hand {index}: elimination: {call!r} comes after the last "
                              f"elimination")
        words = call.split()
        try:
            if len(words) == 1 and words[0].lower().startswith("player:"):
                action = engine.Eliminate(None, words[0][7:])
            elif len(words) in (1, 2):
                who = words[1] if len(words) == 2 else None
                action = engine.Eliminate(parse_card(words[0]),
                                          None if who in (None, "kitty") else who)
            else:
                raise InvalidNotation(f"{call!r}: expected a card and who held it")
        except InvalidNotation as exc:
            raise RecordError(f"hand {index}: elimination: {exc}") from None
        state = engine.apply(state, action)
    if state.phase == "redistribution" and ("redistribution" in hand or state.open_cards):
        given = hand.get("redistribution", {})
        try:
            cards = tuple((who, tuple(parse_cards(text))) for who, text in given.items())
        except (InvalidNotation, AttributeError, TypeError):
            raise RecordError(f"hand {index}: redistribution: expected player = \"cards\"") \
                from None
        state = engine.apply(state, engine.Redistribute(cards))
    return state


def _no_more(hand: dict, index: int, key: str, why: str) -> None:
    later = FULL_KEYS[FULL_KEYS.index(key):]
    present = [k for k in later if k in hand]
    if present:
        raise RecordError(f"hand {index}: {present[0]} is given but {why}")


def _deal(deal: Any, index: int) -> dict[str, list[int]]:
    """Parse a deal's card strings; the hand engine checks who holds what (new_hand)."""
    if not isinstance(deal, dict):
        raise RecordError(f"hand {index}: deal: expected a table of player = \"10 cards\" and "
                          f"kitty = \"3 cards\"")
    return {who: _cards(text, index, f"deal.{who}") for who, text in deal.items()}


#: The canonical names of the cards (what an export writes), for the fast path of _cards.
_CARD_CODES = {format_card(card): card for card in DECK}


def _cards(text: Any, index: int, key: str) -> list[int]:
    if not isinstance(text, str):
        raise RecordError(f"hand {index}: {key}: expected cards in one string, such as \"SA D10\"")
    # canonical names, each once: what parse_cards would give (anything else goes through it)
    cards = list(map(_CARD_CODES.get, text.split()))
    if None not in cards and len(set(cards)) == len(cards):
        return cards  # type: ignore[return-value]
    try:
        return parse_cards(text)
    except InvalidNotation as exc:
        raise RecordError(f"hand {index}: {key}: {exc}") from None


#: An election entry "<player> deal-miss": the deal miss declared at that point of the election,
#: written only where a full bid cancelled it (deal_miss.full_bid_cancels, 000 §8); otherwise a
#: deal miss is the hand's ``deal_miss`` key.
DEAL_MISS_CALL: Any = "deal-miss"


_CALLS: dict[str, tuple[str, Any]] = {}


def _call(text: str, players: Sequence[str], index: int) -> tuple[str, Any]:
    """An election entry parsed (cached: a record repeats the same few hundred calls)."""
    call = _CALLS.get(text)
    if call is not None and call[0] in players:
        return call
    call = _parse_call(text, players, index)
    if len(_CALLS) > 4096:  # calls come from files: keep the cache bounded
        _CALLS.clear()
    _CALLS[text] = call
    return call


def _parse_call(text: str, players: Sequence[str], index: int) -> tuple[str, Any]:
    parts = text.rsplit(None, 1)
    if len(parts) != 2:
        raise RecordError(f"hand {index}: election: {text!r} is not a call: expected "
                          f"\"<player> <bid>\" or \"<player> pass\"")
    player, what = parts
    _name(player, players, index, "election")
    if what.lower() == "pass":
        return player, None
    if what.lower() == DEAL_MISS_CALL:
        return player, DEAL_MISS_CALL
    try:
        return player, parse_bid(what)
    except InvalidNotation as exc:
        raise RecordError(f"hand {index}: election: {exc}") from None


def outcome_to_hand(outcome: HandOutcome) -> dict:
    """A recorded-hand dict for an outcome (used by export)."""
    if outcome.status == "deal_miss":
        return {"players": outcome.players, "dealer": outcome.dealer,
                "deal_miss": outcome.deal_miss_player}
    hand: dict[str, Any] = {"players": outcome.players, "dealer": outcome.dealer,
                            "declarer": outcome.declarer,
                            "contract": format_bid(outcome.contract) if outcome.contract else None,
                            "friend": outcome.friend or "none", "taken": outcome.taken}
    if outcome.friend_call:
        hand["friend_call"] = outcome.friend_call
    return hand


def state_to_hand(state: Any, deal: Optional[dict[str, list[int]]] = None) -> dict:
    """A full-hand dict (finished or in progress) from a hand engine state, for saving."""
    from . import hand as engine

    hand: dict[str, Any] = {"dealer": state.dealer}
    if deal is not None:
        hand["deal"] = {who: format_cards(cards) for who, cards in deal.items()}
    election: list[str] = []
    plays: list[str] = []
    for action in state.history:
        if isinstance(action, engine.BidCall):
            election.append(f"{action.player} "
                            f"{'pass' if action.bid is None else format_bid(action.bid)}")
        elif isinstance(action, engine.DeclareDealMiss):
            if state.phase == "deal_miss":
                hand["deal_miss"] = action.player
            else:  # cancelled by a full bid (deal_miss.full_bid_cancels): keep its place
                election.append(f"{action.player} {DEAL_MISS_CALL}")
        elif isinstance(action, engine.Eliminate):  # 6마, 7마: each call with its holder
            card, holder = state.eliminations[len(hand.setdefault("elimination", []))]
            hand["elimination"].append(f"player:{holder}" if card is None else
                                       f"{format_card(card)} {holder or 'kitty'}")
        elif isinstance(action, engine.Redistribute):
            if action.cards:
                hand["redistribution"] = {who: format_cards(sorted_cards(cards))
                                          for who, cards in action.cards}
        elif isinstance(action, engine.Discard):
            if action.cards:
                hand["discard"] = format_cards(action.cards)
        elif isinstance(action, engine.ChangeContract):
            hand["contract"] = format_bid(action.contract)
        elif isinstance(action, engine.CallFriend):
            hand["friend"] = engine.format_friend_call(action.call)
        elif isinstance(action, engine.Play):
            plays.append(engine.format_play(action))
    if election:
        first = next((call.rsplit(None, 1)[0] for call in election
                      if not call.endswith(f" {DEAL_MISS_CALL}")), hand["dealer"])
        if first != hand["dealer"]:
            hand["opener"] = first
        hand["election"] = election
    elif getattr(state, "to_move", None) and state.phase == "election" \
            and state.to_move != state.dealer:
        hand["opener"] = state.to_move
    if plays:
        n = len(state.players)  # one card from each player a trick (table.players)
        hand["tricks"] = [" ".join(plays[i:i + n]) for i in range(0, len(plays), n)]
    return hand
