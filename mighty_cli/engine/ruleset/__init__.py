"""Club rulesets: loading TOML files, ``extends``, validation, comparing.

The options themselves, with their documentation and sources, are the schema in
``ruleset/schema.py`` (re-exported here: ``from .ruleset import Ruleset`` keeps working).

A ruleset file sets only what differs from the ruleset it ``extends`` (``standard`` when it
names none). Loading checks every key, type and value and the consistency between options; any
problem is a :class:`RulesetError` naming the file, the key and what was expected.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from .. import safe_toml
from ..cards import ELEVENS, format_card, format_cards, parse_card, parse_cards, parse_suit
from ..errors import InvalidNotation, RulesetError
from ..inputs import refuse_irregular
from ..limits import RULESET_MAX_BYTES
from .bounds import check_limits
from .formulas import compile_expression
from .scoring_options import TIE_BREAK_KEYS
from .schema import (  # noqa: F401 (the schema, re-exported: import it from here)
    BID_COUNTS, FORMULAS, POINT_RANK_KEYS, RANK_KEYS, BackRun, Cards, DealMiss, DeclaredRun,
    Deposit, Doubling,
    Election, Exchange, Friend, JokerCall, Meta, Play, Ruleset, Scoring, Session, Table,
    Tournament, _field_type, _plain, iter_options, option, option_docs)
from ..translation import _

#: The ruleset's API: loading (bundled, by path, with ``extends``), the schema and its options.
__all__ = ["ALIASES", "BID_COUNTS", "BUNDLED_NAMES", "BackRun", "Cards", "DealMiss", "DeclaredRun",
           "Deposit", "Doubling", "Election", "Exchange", "FORMULAS", "Friend", "JokerCall",
           "LoadedRuleset", "Meta", "OutsideFolder", "POINT_RANK_KEYS", "Play", "RANK_KEYS",
           "Ruleset", "Scoring", "Session", "Table", "Tournament", "bundled_dir", "bundled_names",
           "diff_rulesets", "format_value", "iter_options", "load_ruleset",
           "load_ruleset_with_origins", "option", "option_docs", "resolve_ruleset_path",
           "ruleset_from_toml"]

BUNDLED_NAMES = ("standard", "club-requirements", "seoul-science", "sungkyunkwan", "minsa",
                 "sinchon", "gyeonggi", "gwangju", "daegu", "sejong", "msol", "dongdaejeon",
                 "baekseok", "simple", "gwanak-5", "incheon", "iu", "gyeonggi-north", "uos",
                 "standard-6", "standard-7", "daejeon-6", "gwanak-6", "dongdaejeon-6",
                 "dongdaejeon-7", "standard-4", "gwanak-4", "busan-4", "standard-3", "jeju-3", "standard-2", "ghost-4",
                 "msol-4", "variant-2", "mn4-2", "honeymoon", "double-joker", "gyeonggi-2018",
                 "siheung-6", "seoul-science-57", "chicago-6", "chicago-7", "chicago-8")

#: Other names clubs use for the bundled rulesets (find_ruleset accepts these too).
ALIASES = {
    "default": "standard", "003": "standard", "001": "club-requirements",
    "서울과고": "seoul-science", "서울과고6마": "seoul-science-57", "57장": "seoul-science-57", "seoul": "seoul-science", "sshs": "seoul-science",
    "수원": "sungkyunkwan", "성균관": "sungkyunkwan", "skku": "sungkyunkwan", "suwon": "sungkyunkwan",
    "민사": "minsa", "kmla": "minsa", "신촌": "sinchon", "yonsei": "sinchon",
    "경기": "gyeonggi", "gshs": "gyeonggi", "광주": "gwangju", "대구": "daegu", "세종": "sejong",
    "엠솔": "msol", "동대전": "dongdaejeon", "백석": "baekseok", "japanese": "simple", "002": "simple",
    "관악": "gwanak-5", "관악5마": "gwanak-5", "gwanak": "gwanak-5", "snu": "gwanak-5",
    "인천": "incheon", "인천과고": "incheon", "이우": "iu", "경기북": "gyeonggi-north",
    "서울시립대": "uos", "시립대": "uos",
    "대전": "daejeon-6", "대전6마": "daejeon-6", "관악6마": "gwanak-6", "관악4마": "gwanak-4",
    "부산4마": "busan-4", "부산": "busan-4",
    "동대전6마": "dongdaejeon-6", "동대전7마": "dongdaejeon-7",
    "6마": "standard-6", "six": "standard-6", "7마": "standard-7", "seven": "standard-7",
    "4마": "standard-4", "four": "standard-4", "3마": "standard-3", "three": "standard-3",
    "고마": "ghost-4", "고스트": "ghost-4", "ghost": "ghost-4", "변형4마": "ghost-4",
    "엠솔4마": "msol-4", "허니문": "honeymoon", "변형2마": "variant-2", "mn4": "mn4-2", "마이티네트워크2마": "mn4-2",
    "시흥": "siheung-6", "은마": "siheung-6", "시흥은마": "siheung-6", "siheung": "siheung-6",
    "제주": "jeju-3", "제주3마": "jeju-3", "jeju": "jeju-3", "2마": "standard-2", "two": "standard-2",
    "더블조커": "double-joker", "더블조커마이티": "double-joker", "경기2018": "gyeonggi-2018",
    "8마": "chicago-8", "시카고": "chicago-8", "chicago": "chicago-8", "eight": "chicago-8",
}


# --- loading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadedRuleset:
    """A ruleset with the file each option's value came from (``origins``) and its chain."""

    ruleset: Ruleset
    origins: dict[str, str]
    chain: tuple[str, ...]


def bundled_dir(kind: str) -> Path:
    """The folder of bundled ``rulesets`` or ``templates``: inside an installed wheel, or the
    repository's top level in a source checkout."""
    here = Path(__file__).resolve().parents[2]  # the mighty_cli package
    packaged = here / "_bundled" / kind
    return packaged if packaged.is_dir() else here.parent / kind


def bundled_names() -> list[str]:
    """Names of the bundled rulesets, in the order the project ships them."""
    present = {p.stem for p in bundled_dir("rulesets").glob("*.toml")}
    return [n for n in BUNDLED_NAMES if n in present] + sorted(present - set(BUNDLED_NAMES))


def resolve_ruleset_path(name_or_path: str, relative_to: Optional[Path] = None,
                         confine_to: Optional[Path] = None) -> Path:
    """The file of a bundled ruleset name (or alias), or of a path to a ruleset file.

    With ``confine_to`` (a shared file naming a ruleset: a record's ``ruleset``, a ruleset's
    ``extends``) the path must lead to a file in that folder or below it; anything else is
    refused before the file system is asked about it, so the error reveals nothing."""
    text = str(name_or_path).strip()
    key = ALIASES.get(text.lower(), ALIASES.get(text, text.lower()))
    candidate = bundled_dir("rulesets") / f"{key}.toml"
    if "/" not in text and "\\" not in text and not text.endswith(".toml") \
            and "\0" not in text and candidate.is_file():
        return candidate
    if "\0" in text:
        raise RulesetError(_("ruleset {text}: not a ruleset name or a path").format(
                               text=safe_toml.short(text)))
    path = Path(text)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    if confine_to is not None and not _inside(path, confine_to):
        raise OutsideFolder(_("ruleset {text}: a shared file may name a bundled ruleset or a "
                              ".toml file in its own folder or below it, nothing else").format(
                                text=safe_toml.short(text)))
    if path.is_file():
        return path
    refuse_irregular(path, _("ruleset file {text!r}").format(text=text), RulesetError)
    if not text.endswith(".toml") and "/" not in text:
        known = ", ".join(bundled_names())
        raise RulesetError(_("unknown ruleset {text!r}: expected one of {known}, or a path to a "
                             ".toml file").format(
                               text=text, known=known))
    raise RulesetError(_("ruleset file {text!r} not found").format(text=text))


class OutsideFolder(RulesetError):
    """A shared file names a ruleset file outside its own folder."""


def _inside(path: Path, folder: Path) -> bool:
    """Whether a path, symbolic links followed, is in ``folder`` or below it."""
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


_CACHE: dict[tuple[str, float, str], LoadedRuleset] = {}


def load_ruleset(name_or_path: str | Path, relative_to: Optional[Path] = None,
                 confine_to: Optional[Path] = None) -> Ruleset:
    """Load and validate a ruleset by bundled name, alias or file path."""
    return load_ruleset_with_origins(name_or_path, relative_to, confine_to).ruleset


def load_ruleset_with_origins(name_or_path: str | Path, relative_to: Optional[Path] = None,
                              confine_to: Optional[Path] = None) -> LoadedRuleset:
    """Load a ruleset and record which file set each option (``default`` for the schema's).

    A file's ``extends`` may name a bundled ruleset or a file in ``confine_to`` (by default the
    folder of the file named here) or below it."""
    path = resolve_ruleset_path(str(name_or_path), relative_to, confine_to)
    root = (confine_to or path.parent).resolve()
    try:
        key = (str(path.resolve()), path.stat().st_mtime, str(root))
    except OSError as exc:
        raise RulesetError(_("{name}: cannot read: {reason}").format(
                               name=path.name, reason=exc.strerror or exc)) from None
    if key not in _CACHE:
        _CACHE[key] = _load(path, (), root)
    return _CACHE[key]


def ruleset_from_toml(text: str, label: str = "<ruleset>",
                      relative_to: Optional[Path] = None,
                      confine_to: Optional[Path] = None) -> LoadedRuleset:
    """Load a ruleset from TOML text (an embedded ruleset of a league or a record); its
    ``extends`` may name a bundled ruleset or a file in ``confine_to`` (default: the folder it
    is relative to)."""
    data = safe_toml.parse(text, label, RulesetError, RULESET_MAX_BYTES)
    folder = relative_to or Path.cwd()
    return _build(data, label, folder, (), confine_to=(confine_to or folder).resolve())


def _load(path: Path, seen: tuple[str, ...], root: Path) -> LoadedRuleset:
    label = path.name
    data = safe_toml.parse(safe_toml.read_text(path, RULESET_MAX_BYTES, label, RulesetError),
                           label, RulesetError)
    data.setdefault("meta", {})
    if isinstance(data["meta"], dict):
        data["meta"].setdefault("name", path.stem)
    is_root = path.resolve() == (bundled_dir("rulesets") / "standard.toml").resolve()
    return _build(data, label, path.parent, seen + (str(path.resolve()),), is_root, root)


def _build(data: dict, label: str, folder: Path, seen: tuple[str, ...],
           is_root: bool = False, confine_to: Optional[Path] = None) -> LoadedRuleset:
    parent_name = data.pop("extends", None)
    if parent_name is not None and not isinstance(parent_name, str):
        raise RulesetError(_("{label}: extends: expected a ruleset name or path (a "
                             "string)").format(label=label))
    if parent_name is None and not is_root:
        parent_name = "standard"
    if parent_name:
        try:
            parent_path = resolve_ruleset_path(parent_name, folder, confine_to)
        except RulesetError as exc:
            raise RulesetError(_("{label}: extends = {parent_name}: {exc}").format(
                                   label=label, parent_name=safe_toml.short(parent_name), exc=exc)
                               ) from None
        if str(parent_path.resolve()) in seen:
            raise RulesetError(_("{label}: extends: {parent_name!r} extends this file again (a "
                                 "cycle)").format(
                                   label=label, parent_name=parent_name))
        parent = _load(parent_path, seen, confine_to or parent_path.parent.resolve())
        values = parent.ruleset.to_dict()
        origins = dict(parent.origins)
        chain = (label,) + parent.chain
    else:
        values = Ruleset().to_dict()
        origins = {key: "default" for key, _ in iter_options()}
        chain = (label,)
    # Meta is never inherited: a ruleset describes itself.
    values["meta"] = Meta().__dict__ | {"title": "", "source": ""}
    for key in ("meta.name", "meta.title", "meta.description", "meta.source"):
        origins[key] = "default"
    _merge(data, values, origins, Ruleset, label, "")
    if not values["meta"]["title"]:
        values["meta"]["title"] = values["meta"]["name"]
    ruleset = _construct(Ruleset, values, label, "")
    _check_consistency(ruleset, label)
    check_limits(ruleset, label)
    return LoadedRuleset(ruleset, origins, chain)


def _merge(data: dict, values: dict, origins: dict, cls: type, label: str, prefix: str) -> None:
    if not isinstance(data, dict):
        raise RulesetError(_("{label}: {table}: expected a table").format(
                               label=label, table=prefix.rstrip(".")))
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for name, value in data.items():
        key = f"{prefix}{name}"
        if name not in fields:
            known = ", ".join(fields)
            raise RulesetError(_("{label}: unknown key {key} (expected one of: {known})").format(
                                   label=label, key=safe_toml.short(key), known=known))
        sub = _field_type(fields[name])
        if sub is not None:
            if not isinstance(value, dict):
                raise RulesetError(_("{label}: {key}: expected a table [{key}]").format(
                                       label=label, key=key))
            _merge(value, values[name], origins, sub, label, key + ".")
        else:
            values[name] = value
            origins[key] = label


def _construct(cls: type, values: dict, label: str, prefix: str) -> Any:
    kwargs = {}
    for f in dataclasses.fields(cls):
        key = f"{prefix}{f.name}"
        sub = _field_type(f)
        if sub is not None:
            kwargs[f.name] = _construct(sub, values[f.name], label, key + ".")
        else:
            kwargs[f.name] = _coerce(values[f.name], f, label, key)
    return cls(**kwargs)


def _coerce(value: Any, f: dataclasses.Field, label: str, key: str) -> Any:
    meta = f.metadata
    kind = meta.get("kind", "")
    expected = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))

    def fail(what: str) -> RulesetError:
        return RulesetError(_("{label}: {key} = {value}: expected {what}").format(
            label=label, key=key, value=safe_toml.short(value), what=what))

    if kind == "card":
        if not isinstance(value, str):
            raise fail(_("a card such as \"SA\" or \"C3\""))
        try:
            return format_card(parse_card(value))
        except InvalidNotation:
            raise fail(_("a card that exists (a suit S D H C and a rank 2-10 J Q K A)")) from None
    if kind == "any_ranks":
        names = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value) \
                or {v.upper() for v in value} - set(names) or len(set(value)) != len(value):
            raise fail(_("a list of distinct ranks such as [\"2\", \"3\"] (2-10, J, Q, K, A)"))
        return [r for r in names if r in {v.upper() for v in value}]
    if kind == "cards":
        if not isinstance(value, str):
            raise fail(_("a list of cards in a string, such as \"S2 D2 H2 C2\""))
        try:  # a card named twice: both copies of two decks (table.decks, checked below)
            cards = parse_cards(value, copies=True) if value.strip() else []
        except InvalidNotation as exc:
            raise fail(_("cards ({exc})").format(exc=exc)) from None
        if len(set(cards)) != len(cards):
            raise fail(_("each card once"))
        return format_cards(sorted(cards)) if cards else ""
    if kind == "suits":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(_("a list of suits such as [\"S\", \"D\", \"H\", \"C\"]"))
        try:
            suits = [parse_suit(v) for v in value]
        except InvalidNotation:
            raise fail(_("a list of the suits S, D, H, C")) from None
        if len(set(suits)) != len(suits) or len(suits) not in (0, 4):
            raise fail(_("each of the four suits S, D, H, C exactly once (or an empty list)"))
        return suits
    if kind == "rank_weights":
        if not isinstance(value, dict) or set(value) - set(RANK_KEYS) \
                or not all(_is_number(v) for v in value.values()):
            raise fail(_("a table of weights for the ranks A, K, Q, J, 10"))
        return {r: float(value.get(r, 0.0)) for r in RANK_KEYS}
    if kind == "card_weights":
        if not isinstance(value, dict) or not all(_is_number(v) for v in value.values()):
            raise fail(_("a table of card = weight, such as { SJ = 0.5 }"))
        try:
            return {parse_card(k): float(v) for k, v in value.items()}
        except InvalidNotation as exc:
            raise fail(_("cards as keys ({exc})").format(exc=exc)) from None
    if kind == "ranks":  # 11: 서울과고's rank (table.rank_eleven; checked in _validate)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value) \
                or set(value) - set(POINT_RANK_KEYS) or len(set(value)) != len(value) \
                or not value:
            raise fail(_("a list of distinct point ranks from A, K, Q, J, 10"))
        return [r for r in POINT_RANK_KEYS if r in value]
    if kind == "place_points":  # tournament.place_points
        if not isinstance(value, list) or not 2 <= len(value) <= 8 or not all(
                isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 1000000
                for v in value) or any(a < b for a, b in zip(value, value[1:])):
            raise fail(_("a list of 2 to 8 whole numbers, first place first, none above the "
                         "one before (such as [60, 48, 36, 24, 12])"))
        return value
    if kind == "tie_break":  # tournament.tie_break
        if not isinstance(value, list) or not all(v in TIE_BREAK_KEYS for v in value) \
                or len(set(value)) != len(value):
            raise fail(_("a list of distinct keys from {keys}").format(
                keys=", ".join(TIE_BREAK_KEYS)))
        return value
    if kind == "int_or_bid":
        if value == "bid" or (isinstance(value, int) and not isinstance(value, bool)
                              and 1 <= value <= 42):  # two decks: 40 and 2 jokers
            return value
        raise fail(_("a number of point cards from 1 to 42, or \"bid\""))
    if kind == "expression":
        if not isinstance(value, str):
            raise fail(_("an expression in a string, such as \"taken - 10\""))
        if value:
            try:
                compile_expression(value)
            except ValueError as exc:
                raise RulesetError(f"{label}: {key}: {exc}") from None
        return value
    if expected == "bool":
        if not isinstance(value, bool):
            raise fail(_("true or false"))
        return value
    if expected == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise fail(_("a whole number"))
    elif expected == "float":
        if not _is_number(value):
            raise fail(_("a finite number (not nan or inf)") if isinstance(value, float)
                       else _("a number"))
        value = float(value)
    elif expected == "str":
        if not isinstance(value, str):
            raise fail(_("a string"))
    choices = meta.get("choices") or ()
    if choices and value not in choices:
        raise fail(_("one of {choices}").format(choices=", ".join(repr(c) for c in choices)))
    low, high = meta.get("low"), meta.get("high")
    if low is not None and value < low or high is not None and value > high:
        raise fail(_("a value from {low:g} to {high:g}").format(low=low, high=high))
    return value


def _is_number(value: Any) -> bool:
    """A finite number: TOML's nan and inf would pass every comparison and fail later."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _check_consistency(rules: Ruleset, label: str) -> None:
    e = rules.election
    if e.max_bid and e.min_bid > e.max_bid:
        raise RulesetError(_("{label}: election.min_bid = {min_bid} is above election.max_bid = "
                             "{max_bid}: the minimum bid cannot exceed the maximum").format(
                               label=label, min_bid=e.min_bid, max_bid=e.max_bid))
    c = rules.cards
    for key in ("mighty", "mighty_alternate"):
        if getattr(c, key) == "JK":
            raise RulesetError(_("{label}: cards.{key} = \"JK\": the joker cannot be "
                                 "Mighty").format(label=label, key=key))
    for key in ("joker_call", "joker_call_alternate"):
        card = getattr(c, key)
        if card == "JK":
            raise RulesetError(_("{label}: cards.{key} = \"JK\": the joker-call card must be a "
                                 "suited card").format(
                                   label=label, key=key))
        if card in (c.mighty, c.mighty_alternate):
            raise RulesetError(_("{label}: cards.{key} = {card!r} is also a Mighty card").format(
                                   label=label, key=key, card=card))
    calls = ("joker_call", "joker_call_alternate")
    if c.jokers == 2:  # the colour joker's call cards too, and they must differ from the black's
        calls += ("colour_joker_call", "colour_joker_call_alternate")
        for key in calls[2:]:
            card = getattr(c, key)
            if card in ("JK", "BJ") or card in (c.mighty, c.mighty_alternate) \
                    or card in (c.joker_call, c.joker_call_alternate):
                raise RulesetError(_("{label}: cards.{key} = {card!r} must be a suited card "
                                     "other than Mighty and the black joker's call cards").format(
                                       label=label, key=key, card=card))
    elif c.joker_follows_colour or c.joker_leads_colour or c.off_colour_joker_below_trump:
        raise RulesetError(_("{label}: the joker's colour rules (cards.joker_follows_colour, "
                             "joker_leads_colour, off_colour_joker_below_trump) need two jokers "
                             "(cards.jokers = 2)").format(label=label))
    t = rules.table
    removed = rules.removed_card_names
    for key in ("mighty", "mighty_alternate") + calls:
        if getattr(c, key) in removed:
            raise RulesetError(_("{label}: cards.{key} = {card!r} is one of the cards "
                                 "removed from the deck (table.removed_cards)").format(
                                   label=label, key=key, card=getattr(c, key)))
    if "11" in c.point_ranks and not t.rank_eleven:
        raise RulesetError(_("{label}: cards.point_ranks names 11, but the deck has no 11 "
                             "(table.rank_eleven = false)").format(label=label))
    if not t.rank_eleven:
        for key in ("mighty", "mighty_alternate", "joker_call", "joker_call_alternate"):
            if parse_card(getattr(c, key)) in ELEVENS:
                raise RulesetError(_("{label}: cards.{key} = {card!r} is not in the deck "
                                     "(table.rank_eleven = false)").format(
                                       label=label, key=key, card=getattr(c, key)))
    if t.decks == 1 and len(t.removed_cards.split()) != len(set(t.removed_cards.split())):
        raise RulesetError(_("{label}: table.removed_cards names a card twice, but there is one "
                             "deck (table.decks = 1)").format(label=label))
    # 53; 54 with two jokers (cards.jokers); 57 with 서울과고's 11s (table.rank_eleven); 106
    # with two decks (table.decks, 8마 Chicago); less the removed
    in_play = len(rules.deck_cards)
    # the ghost's hand (000 §3.5.2); 허니문's friend hands (000 §3.5.1)
    # and 시흥 은마's dummy (table.dummy, elimination.py)
    hands = t.players * (2 if t.partner_hands else 1) + (1 if t.ghost or t.dummy else 0)
    needed = hands * t.hand_size + t.kitty_size + t.undealt
    if needed != in_play:
        ghost = _(" (and the ghost's, table.ghost)") if t.ghost else \
            _(" (and the dummy's, table.dummy)") if t.dummy else ""
        undealt = _(" and {count} undealt (table.undealt)").format(count=t.undealt) \
            if t.undealt else ""
        raise RulesetError(_("{label}: table.players = {players} hands{ghost} of {hand_size} "
                             "and a kitty of {kitty_size}{undealt} need {needed} cards, but "
                             "{in_play} are in play (the deck less table.removed_cards)").format(
                               label=label, players=t.players, ghost=ghost,
                               hand_size=t.hand_size, kitty_size=t.kitty_size, undealt=undealt,
                               needed=needed, in_play=in_play))
    if t.deal == "draft" and (t.undealt != t.players * t.hand_size or t.ghost or t.eliminated):
        raise RulesetError(_("{label}: table.deal = \"draft\" puts one card aside for every card "
                             "kept: table.undealt must be table.players × table.hand_size = "
                             "{count}, with no ghost and no eliminations").format(
                               label=label, count=t.players * t.hand_size))
    if e.bid_counts == "tricks" and not e.max_bid:
        raise RulesetError(_("{label}: election.bid_counts = \"tricks\" needs election.max_bid "
                             "(at most the {tricks} tricks)").format(label=label,
                                                                    tricks=rules.tricks))
    if t.partner_hands and (t.ghost or t.eliminated or t.deal == "draft"):
        raise RulesetError(_("{label}: table.partner_hands = true cannot be used with a ghost, "
                             "eliminations or a drafted deal").format(label=label))
    if t.dummy and (t.eliminated != 1 or t.eliminate_by != "card" or t.ghost
                    or t.partner_hands or t.deal == "draft"):
        raise RulesetError(_("{label}: table.dummy = true needs table.eliminated = 1 by a "
                             "called card (table.eliminate_by = \"card\"), with no ghost, no "
                             "friend hands and a dealt deck (000 §7.21)").format(label=label))
    if t.ghost and t.eliminated:
        raise RulesetError(_("{label}: table.ghost = true cannot be used with table.eliminated = "
                             "{eliminated}: the ghost plays where nobody is eliminated").format(
                               label=label, eliminated=t.eliminated))
    s = rules.scoring
    if (s.friend_weight != 1 or s.lone_friend_weight not in (0, 1)) \
            and (s.run.enabled or s.back_run.enabled or s.declared_run.enabled):
        raise RulesetError(_("{label}: scoring.friend_weight / lone_friend_weight weigh the "
                             "friends' cards, so a run or back run (counted in cards) cannot be "
                             "told: set scoring.run, back_run and declared_run enabled = false")
                           .format(label=label))
    if rules.friend.called_cards == 2 and not rules.friend.card:
        raise RulesetError(_("{label}: friend.called_cards = 2 needs card calls (friend.card)")
                           .format(label=label))
    if t.eliminated and (t.players - t.eliminated < 2 or rules.elimination_discard < 0):
        raise RulesetError(_("{label}: table.eliminated = {eliminated} leaves {left} players "
                             "who cannot each be made up to ten cards from the eliminated hands "
                             "and the kitty").format(
                               label=label, eliminated=t.eliminated,
                               left=t.players - t.eliminated))
    s = rules.scoring
    if s.formula == "custom" and not (s.success and s.failure):
        raise RulesetError(_("{label}: scoring.formula = \"custom\" needs both scoring.success "
                             "and scoring.failure expressions").format(
                               label=label))
    if s.formula != "custom" and (s.success or s.failure):
        raise RulesetError(_("{label}: scoring.success/failure are used only with "
                             "scoring.formula = \"custom\" (it is {formula!r})").format(
                               label=label, formula=s.formula))
    f = rules.friend
    if not any((f.card, f.no_friend, f.first_trick, f.last_trick, f.player, t.partner_hands)):
        raise RulesetError(_("{label}: friend: no kind of friend call is allowed (set at least "
                             "one of card, no_friend, first_trick, last_trick, player)").format(
                               label=label))
    if e.bid_counts == "opposition_limit" and e.no_trump_discount:
        raise RulesetError(_("{label}: election.no_trump_discount = {no_trump_discount} cannot "
                             "be used with election.bid_counts = \"opposition_limit\" (bids "
                             "descend)").format(
                               label=label, no_trump_discount=e.no_trump_discount))
    if e.bid_counts not in ("taken", "tricks") and not e.max_bid:
        raise RulesetError(_("{label}: election.bid_counts = {bid_counts!r} needs a maximum bid "
                             "(election.max_bid)").format(
                               label=label, bid_counts=e.bid_counts))
    if e.bid_counts != "taken":
        for number in (e.min_bid, e.max_bid) if e.bid_counts != "tricks" else ():
            target = rules.contract_target(number)
            if not 0 <= target <= rules.point_card_total:
                raise RulesetError(_("{label}: a bid of {number} asks the ruling party for "
                                     "{target} of {point_card_total} point cards "
                                     "(election.bid_counts, election.opposition_base, "
                                     "election.min_bid/max_bid)").format(
                                       label=label, number=number, target=target,
                                       point_card_total=rules.point_card_total))
    if e.no_trump_discount and not e.no_trump_allowed:
        raise RulesetError(_("{label}: election.no_trump_discount = {no_trump_discount} but "
                             "no-trump is not allowed (election.no_trump_allowed = false)").format(
                               label=label, no_trump_discount=e.no_trump_discount))


# --- comparing ----------------------------------------------------------------------------------


def diff_rulesets(a: Ruleset, b: Ruleset) -> list[tuple[str, Any, Any]]:
    """The options whose values differ, as ``(key, value in a, value in b)``."""
    out = []
    for key, f in iter_options():
        if key.startswith("meta."):
            continue
        va, vb = _plain(a.get(key), f), _plain(b.get(key), f)
        if va != vb:
            out.append((key, va, vb))
    return out


def format_value(value: Any) -> str:
    """An option's value as it would be written in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, float):
        return f"{value:g}" if value != int(value) else f"{value:.1f}"
    if isinstance(value, list):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {format_value(v)}" for k, v in value.items()) + " }"
    return str(value)
