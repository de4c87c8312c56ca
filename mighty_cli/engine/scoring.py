"""Scoring a hand: a pure function from its outcome and the ruleset to every seat's score.

docs/rules.md §8. A contract is made when the ruling party takes the point cards its number asks for
(``Ruleset.contract_target``: the number itself, or where the bid counts the opposition's cards,
관악 and 이우, what that leaves). The base score S comes from the ruleset's formula (plus
``scoring.trump_adjustment`` for a made trump contract); doublings (run, back run,
no-trump, no friend, declared run) multiply it, cumulatively or not; the club's scale and cap
apply last, and the result is rounded to whole points per opponent. Shares: each opponent pays
S on success and receives S on failure (times ``opponent_share``), the friend gets ``friend_share``
× S, and the declarer takes the balance, so every hand sums to zero.

The bid-bonus formula and a no-trump bid below the minimum (docs/rules.md §8 note): with the default
``scoring.no_trump_minimum = "no_trump_minimum"`` a no-trump contract counts its bonus from the
no-trump minimum (``min_bid − no_trump_discount``), so a made contract never loses points and
each step of a no-trump bid is worth what a step of a suit bid is. ``"minimum"`` is the literal
formula (a made 13NT with minimum 14 scores a negative bonus); ``"clamp"`` counts from the suit
minimum but never below the bid, so the bonus is never negative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .cards import Bid, format_bid, trump_name
from .errors import ScoringError
from .ruleset import FORMULAS, Doubling, Ruleset
from .ruleset.bounds import effective_minimum
from .ruleset.formulas import Compiled, compile_expression
from .translation import N_, _, ngettext

DOUBLING_NAMES = ("run", "back_run", "no_trump", "no_friend")
#: How a doubling is named in text (its code name is what JSON and records say).
DOUBLING_LABELS = {
    "run": N_("run"),
    "back_run": N_("back run"),
    "no_trump": N_("no trump"),
    "no_friend": N_("no friend"),
    "declared_run": N_("declared run"),
}


@dataclass(frozen=True)
class Score:
    """The scored result of one hand."""

    contract: Bid
    taken: int
    success: bool
    base: Fraction
    multiplier: int
    doublings: tuple[str, ...]
    unit: int  # what one opponent pays on success, or gets on failure
    declarer: int
    friend: int | None  # None when the declarer played alone
    opponent: int  # what each opponent receives (negative on success)

    @property
    def base_value(self) -> int | float:
        """The base as a plain number: an int when whole."""
        return int(self.base) if self.base.denominator == 1 else float(self.base)

    def to_json(self) -> dict:
        """The acceptance interface's JSON object (docs/record-format.md)."""
        return {
            "success": self.success,
            "contract": format_bid(self.contract),
            "taken": self.taken,
            "base": self.base_value,
            "multiplier": self.multiplier,
            "doublings": list(self.doublings),
            "declarer": self.declarer,
            "friend": self.friend,
            "opponent": self.opponent,
        }


_COMPILED: dict[str, tuple[Compiled, Compiled]] = {}


def _formula(rules: Ruleset) -> tuple[Compiled, Compiled]:
    s = rules.scoring
    success, failure = (s.success, s.failure) if s.formula == "custom" else FORMULAS[s.formula]
    key = success + "\0" + failure
    if key not in _COMPILED:
        _COMPILED[key] = (compile_expression(success), compile_expression(failure))
    return _COMPILED[key]


def check_contract(contract: Bid, rules: Ruleset) -> None:
    """Raise ScoringError if the ruleset cannot produce a result for this contract."""
    e = rules.election
    if contract.no_trump and not e.no_trump_allowed:
        raise ScoringError(
            _(
                "contract {contract}: no-trump is not allowed in {ruleset} "
                "(election.no_trump_allowed = false)"
            ).format(contract=format_bid(contract), ruleset=rules.name)
        )
    lowest = rules.no_trump_minimum if contract.no_trump else e.min_bid
    if contract.number < lowest:
        if contract.no_trump and e.no_trump_discount:
            message = _("contract {contract} is below the no-trump minimum of {ruleset} ({lowest})")
        else:
            message = _("contract {contract} is below the minimum bid of {ruleset} ({lowest})")
        raise ScoringError(
            message.format(contract=format_bid(contract), ruleset=rules.name, lowest=lowest)
        )
    if e.max_bid and contract.number > e.max_bid:
        raise ScoringError(
            _("contract {contract} is above the maximum bid of {ruleset} ({most})").format(
                contract=format_bid(contract), ruleset=rules.name, most=e.max_bid
            )
        )


_SCORES: dict[int, tuple[Ruleset, dict[tuple, Score]]] = {}


def ruling_party_taken(rules: Ruleset, own: int, friend_points: Sequence[int]) -> int:
    """What the ruling party took: the declarer's point cards (and discards) ``own`` and each
    friend's, weighted (동대전 6마, 7마, 000 §7.5.2-3): a friend's cards count
    ``scoring.friend_weight`` each, a lone friend's of a two-card call
    ``scoring.lone_friend_weight``; the friends' weighted total is rounded half up (footnote 75:
    사실상 올림)."""
    s = rules.scoring
    weight = s.friend_weight
    if len(friend_points) == 1 and rules.friend.called_cards == 2 and s.lone_friend_weight:
        weight = s.lone_friend_weight
    if weight == 1:
        return own + sum(friend_points)
    return own + _round(Fraction(str(weight)) * sum(friend_points), "half_up")


def friends_weighed(rules: Ruleset) -> bool:
    """Whether a friend's point cards count other than one each (동대전 6마, 7마:
    scoring.friend_weight, lone_friend_weight): the opposition's count then cannot say the
    ruling party's, which depends on who of it took them."""
    s = rules.scoring
    return s.friend_weight != 1 or bool(s.lone_friend_weight and s.lone_friend_weight != 1)


def taken_limit(rules: Ruleset) -> int:
    """The most the ruling party can be counted as taking: every point card, weighted at the
    largest friend weight (scoring.friend_weight, lone_friend_weight); the tricks where the bid
    counts tricks (변형 2마)."""
    s = rules.scoring
    total = rules.count_total
    weight = max(s.friend_weight, s.lone_friend_weight)
    return total if weight == 1 else _round(Fraction(str(weight)) * total, "half_up")


def score_hand(
    rules: Ruleset,
    contract: Bid,
    taken: int,
    has_friend: bool = True,
    no_friend_doubling: bool | None = None,
    friends: int = 1,
) -> Score:
    """Score a hand from its contract, the point cards the ruling party took (discards
    included) and whether the declarer had a friend. ``no_friend_doubling`` says whether a
    declarer alone gets the no-friend doubling (default: whenever he is alone; False for a
    first-trick call he won himself under ``scoring.no_friend_by_trick_call = false``).
    ``friends``: how many friends share the friend's part (two under friend.called_cards = 2);
    the declarer takes the balance."""
    alone_doubled = (
        not has_friend
        if no_friend_doubling is None
        else (not has_friend and bool(no_friend_doubling))
    )
    # A score is a pure function of a few small values, and random playouts score the same
    # (contract, taken, friend) again and again: remember each one per ruleset. Only exactly
    # typed inputs use the memo (True == 1 must still be rejected as a count of cards); the
    # Score is frozen, so sharing it is safe. Errors are never remembered: they raise each time.
    if (
        type(contract) is Bid
        and type(taken) is int
        and type(has_friend) is bool
        and type(contract.number) is int
        and (contract.trump is None or type(contract.trump) is int)
    ):
        entry = _SCORES.get(id(rules))
        if entry is None or entry[0] is not rules:
            if len(_SCORES) > 64:
                _SCORES.clear()
            entry = _SCORES[id(rules)] = (rules, {})  # holding rules keeps its id unique
        memo = entry[1]
        key = (contract, taken, has_friend, alone_doubled, friends)
        score = memo.get(key)
        if score is None:
            score = _score_hand(rules, contract, taken, has_friend, alone_doubled, friends)
            if len(memo) > 20000:
                memo.clear()
            memo[key] = score
        return score
    return _score_hand(rules, contract, taken, has_friend, alone_doubled, friends)


def _score_hand(
    rules: Ruleset,
    contract: Bid,
    taken: int,
    has_friend: bool,
    alone_doubled: bool,
    friends: int = 1,
) -> Score:
    """score_hand without the memo."""
    check_contract(contract, rules)
    total = rules.count_total  # point cards, or tricks (election.bid_counts = "tricks")
    limit = taken_limit(rules)  # above the total where a friend's cards count more
    if not isinstance(taken, int) or isinstance(taken, bool) or not 0 <= taken <= limit:
        message = (
            _("taken = {taken}: the ruling party takes from 0 to {total} tricks under {ruleset}")
            if rules.election.bid_counts == "tricks"
            else _(
                "taken = {taken}: the ruling party takes from 0 to {total} point cards "
                "under {ruleset}"
            )
        )
        raise ScoringError(message.format(taken=repr(taken), total=limit, ruleset=rules.name))
    if friends not in (1, 2) or (friends == 2 and rules.friend.called_cards != 2):
        raise ScoringError(
            ngettext(
                "{friends} friends: {ruleset} calls {count} card (friend.called_cards)",
                "{friends} friends: {ruleset} calls {count} cards (friend.called_cards)",
                rules.friend.called_cards,
            ).format(friends=friends, ruleset=rules.name, count=rules.friend.called_cards)
        )
    s = rules.scoring
    bid = contract.number
    opposition = total - taken
    # what the bid's number asks of the ruling party (election.bid_counts: 관악 and 이우 count
    # the opposition's cards)
    success = taken >= rules.contract_target(bid)
    env = {
        "bid": bid,
        "taken": taken,
        "opposition": opposition,
        "minimum": effective_minimum(contract, rules),
        "max_bid": rules.election.max_bid or total,
        "total": total,
    }
    success_formula, failure_formula = _formula(rules)
    try:
        base = (success_formula if success else failure_formula)(env)
    except ZeroDivisionError as exc:
        raise ScoringError(_("{ruleset}: {error}").format(ruleset=rules.name, error=exc)) from None
    if success and not contract.no_trump and s.trump_adjustment:
        base += s.trump_adjustment  # 관악 5마: a made trump contract scores one less

    applied: list[tuple[str, int]] = []

    def consider(name: str, doubling: Doubling, condition: bool) -> None:
        if (
            doubling.enabled
            and condition
            and (doubling.applies == "always" or (doubling.applies == "success") == success)
        ):
            applied.append((name, doubling.factor))

    run = taken == total
    declared = s.declared_run
    if declared.enabled and run and bid >= declared.min_bid and success:
        applied.append(("declared_run", declared.factor))
    else:
        consider("run", s.run, run)
    threshold = bid if s.back_run.threshold == "bid" else s.back_run.threshold
    consider("back_run", s.back_run, opposition >= threshold)
    consider("no_trump", s.no_trump, contract.no_trump)
    consider("no_friend", s.no_friend, alone_doubled)

    if s.cumulative:
        multiplier = 1
        for _name, factor in applied:
            multiplier *= factor
    else:
        multiplier = max((factor for _, factor in applied), default=1)

    unit = _round(base * multiplier * Fraction(str(s.scale)), s.rounding)
    if s.cap:
        unit = max(-s.cap, min(s.cap, unit))
    opponent = -unit * s.opponent_share if success else unit * s.opponent_share
    # the declarer takes the balance of the opponents: the players of the tricks (table.players,
    # less the eliminated in 6마/7마) but him and his friend
    players = rules.playing
    if has_friend:
        friend = unit * s.friend_share if success else -unit * s.friend_share
        declarer = -((players - 1 - friends) * opponent + friends * friend)
    else:
        friend = None
        declarer = -(players - 1) * opponent
    return Score(
        contract,
        taken,
        success,
        base,
        multiplier,
        tuple(n for n, _f in applied),
        unit,
        declarer,
        friend,
        opponent,
    )


def _round(value: Fraction, how: str) -> int:
    """Round to a whole number, symmetrically about zero."""
    sign = -1 if value < 0 else 1
    magnitude = abs(value)
    if how == "down":
        whole = int(magnitude)
    elif how == "up":
        whole = -int(-magnitude // 1)
    else:
        whole = int(magnitude + Fraction(1, 2))
    return sign * whole


def seat_deltas(
    score: Score,
    players: Sequence[str],
    declarer: str,
    friend: str | None,
    friend2: str | None = None,
) -> dict[str, int]:
    """Each player's change for a scored hand (friend None when the declarer played alone;
    ``friend2`` the second friend of a two-card call, 동대전 7마)."""
    if declarer not in players:
        raise ScoringError(
            _("declarer {player} is not one of the players").format(player=repr(declarer))
        )
    if friend is not None and friend not in players:
        raise ScoringError(
            _("friend {player} is not one of the players").format(player=repr(friend))
        )
    if friend == declarer:
        raise ScoringError(
            _("{declarer} cannot be his own friend (call 'none' to play alone)").format(
                declarer=declarer
            )
        )
    if (friend is None) != (score.friend is None):
        raise ScoringError(_("the score was computed for a different friend situation"))
    deltas = {}
    for player in players:
        if player == declarer:
            deltas[player] = score.declarer
        elif player == friend or (friend2 is not None and player == friend2):
            deltas[player] = score.friend  # type: ignore[assignment]  # set: the check above
        else:
            deltas[player] = score.opponent
    return deltas


_DELTAS: dict[tuple, tuple[Score, dict[str, int]]] = {}


def shared_seat_deltas(
    score: Score, players: tuple, declarer: str, friend: str | None
) -> dict[str, int]:
    """:func:`seat_deltas` (one friend at most) as a new dict, remembered per score and
    seating: a replay scores the same few hundred (score, declarer, friend) again and again.
    Only what seat_deltas returned is remembered; its refusals raise each time."""
    key = (id(score), players, declarer, friend)
    entry = _DELTAS.get(key)
    if entry is None or entry[0] is not score:
        if len(_DELTAS) > 20000:
            _DELTAS.clear()
        entry = _DELTAS[key] = (score, seat_deltas(score, players, declarer, friend))
    return dict(entry[1])


def doubling_label(name: str) -> str:
    """A doubling in words, in the current language: ``back run``, ``백런``."""
    return _(DOUBLING_LABELS[name]) if name in DOUBLING_LABELS else name.replace("_", " ")


def describe(score: Score, rules: Ruleset) -> str:
    """A short human-readable account of a score, for terminal output."""
    values = {
        "contract": format_bid(score.contract),
        "trump": trump_name(score.contract.trump),
        "taken": score.taken,
        "total": rules.count_total,
    }
    weighed = (
        score.friend is not None
        and max(rules.scoring.friend_weight, rules.scoring.lone_friend_weight) != 1
    )
    if weighed:  # 동대전: a friend's point cards are weighed, so the count may pass the total
        lines = [
            (
                _(
                    "{contract} ({trump}) made: the ruling party counts {taken}, its friends' "
                    "point cards weighed ({total} in play)"
                )
                if score.success
                else _(
                    "{contract} ({trump}) failed: the ruling party counts {taken}, its friends' "
                    "point cards weighed ({total} in play)"
                )
            ).format(**values)
        ]
    elif score.success:
        lines = [
            _("{contract} ({trump}) made: ruling party took {taken} of {total}").format(**values)
        ]
    else:
        lines = [
            _("{contract} ({trump}) failed: ruling party took {taken} of {total}").format(**values)
        ]
    doubled = ", ".join(doubling_label(n) for n in score.doublings) or _("no doublings")
    lines.append(
        _("base {base} × {multiplier} ({doublings}) → {unit} per opponent").format(
            base=score.base_value, multiplier=score.multiplier, doublings=doubled, unit=score.unit
        )
    )
    if score.friend is None:
        lines.append(
            _("declarer {declarer:+d}, alone, each opponent {opponent:+d}").format(
                declarer=score.declarer, opponent=score.opponent
            )
        )
    else:
        lines.append(
            _("declarer {declarer:+d}, friend {friend:+d}, each opponent {opponent:+d}").format(
                declarer=score.declarer, friend=score.friend, opponent=score.opponent
            )
        )
    return "\n".join(lines)


def pot_shares(
    pot: int, rules: Ruleset, declarer: str, friend: str | None, friend2: str | None = None
) -> Mapping[str, int]:
    """How a deposit pot won by a made contract is shared (001 §2): as the score, the declarer
    two shares and each friend scoring.friend_share (two friends of a two-card call, 동대전
    7마: each his own)."""
    if pot <= 0:
        return {}
    # winning_team shares a made contract's pot as ruling_party does
    if (
        rules.deposit.won_by == "declarer"
        or friend is None
        or friend == "ghost"
        or friend.endswith("'s friend")
        and rules.table.partner_hands
    ):
        # a ghost friend (hand/seats.py) is nobody; 허니문's friend hand is the declarer's own
        return {declarer: pot}
    share = rules.scoring.friend_share
    if friend2 is not None and friend2 not in (declarer, friend):
        each = pot * share // (2 * share + 2)
        return {declarer: pot - 2 * each, friend: each, friend2: each}
    friend_part = pot * share // (share + 2)
    return {declarer: pot - friend_part, friend: friend_part}
