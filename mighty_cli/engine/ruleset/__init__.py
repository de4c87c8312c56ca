"""Club rulesets: loading TOML files, ``extends``, validation, comparing.

The options themselves, with their documentation and sources, are the schema in
``ruleset/schema.py`` (re-exported here: ``from .ruleset import Ruleset`` keeps working).

A ruleset file sets only what differs from the ruleset it ``extends`` (``standard`` when it
names none). Loading checks every key, type and value (``ruleset/coercion.py``: a check for
each kind of option) and the consistency between options (``ruleset/consistency.py``: a check
for each rule); any problem is a :class:`RulesetError` naming the file, the key and what was
expected.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import safe_toml
from ..errors import RulesetError
from ..inputs import refuse_irregular
from ..limits import RULESET_MAX_BYTES
from ..translation import _
from .bounds import check_limits
from .coercion import coerce
from .consistency import check_consistency
from .schema import (
    BID_COUNTS,
    FORMULAS,
    POINT_RANK_KEYS,
    RANK_KEYS,
    BackRun,
    Cards,
    DealMiss,
    DeclaredRun,
    Deposit,
    Doubling,
    Election,
    Exchange,
    Friend,
    JokerCall,
    Meta,
    Play,
    Ruleset,
    Scoring,
    Session,
    Table,
    Tournament,
    iter_options,
    option,
    option_docs,
    plain_value,
    table_type,
)

#: The ruleset's API: loading (bundled, by path, with ``extends``), the schema and its options.
__all__ = [
    "ALIASES",
    "BID_COUNTS",
    "BUNDLED_NAMES",
    "BackRun",
    "Cards",
    "DealMiss",
    "DeclaredRun",
    "Deposit",
    "Doubling",
    "Election",
    "Exchange",
    "FORMULAS",
    "Friend",
    "JokerCall",
    "LoadedRuleset",
    "Meta",
    "OutsideFolder",
    "POINT_RANK_KEYS",
    "Play",
    "RANK_KEYS",
    "Ruleset",
    "Scoring",
    "Session",
    "Table",
    "Tournament",
    "bundled_dir",
    "bundled_names",
    "diff_rulesets",
    "format_value",
    "iter_options",
    "load_ruleset",
    "load_ruleset_with_origins",
    "option",
    "option_docs",
    "resolve_ruleset_path",
    "ruleset_from_toml",
]

BUNDLED_NAMES = (
    "standard",
    "club-requirements",
    "seoul-science",
    "sungkyunkwan",
    "minsa",
    "sinchon",
    "gyeonggi",
    "gwangju",
    "daegu",
    "sejong",
    "msol",
    "dongdaejeon",
    "baekseok",
    "simple",
    "gwanak-5",
    "incheon",
    "iu",
    "gyeonggi-north",
    "uos",
    "standard-6",
    "standard-7",
    "daejeon-6",
    "gwanak-6",
    "dongdaejeon-6",
    "dongdaejeon-7",
    "standard-4",
    "gwanak-4",
    "busan-4",
    "standard-3",
    "jeju-3",
    "standard-2",
    "ghost-4",
    "msol-4",
    "variant-2",
    "mn4-2",
    "honeymoon",
    "double-joker",
    "gyeonggi-2018",
    "siheung-6",
    "seoul-science-57",
    "chicago-6",
    "chicago-7",
    "chicago-8",
)

#: Other names clubs use for the bundled rulesets (find_ruleset accepts these too).
ALIASES = {
    "default": "standard",
    "003": "standard",
    "001": "club-requirements",
    "서울과고": "seoul-science",
    "서울과고6마": "seoul-science-57",
    "57장": "seoul-science-57",
    "seoul": "seoul-science",
    "sshs": "seoul-science",
    "수원": "sungkyunkwan",
    "성균관": "sungkyunkwan",
    "skku": "sungkyunkwan",
    "suwon": "sungkyunkwan",
    "민사": "minsa",
    "kmla": "minsa",
    "신촌": "sinchon",
    "yonsei": "sinchon",
    "경기": "gyeonggi",
    "gshs": "gyeonggi",
    "광주": "gwangju",
    "대구": "daegu",
    "세종": "sejong",
    "엠솔": "msol",
    "동대전": "dongdaejeon",
    "백석": "baekseok",
    "japanese": "simple",
    "002": "simple",
    "관악": "gwanak-5",
    "관악5마": "gwanak-5",
    "gwanak": "gwanak-5",
    "snu": "gwanak-5",
    "인천": "incheon",
    "인천과고": "incheon",
    "이우": "iu",
    "경기북": "gyeonggi-north",
    "서울시립대": "uos",
    "시립대": "uos",
    "대전": "daejeon-6",
    "대전6마": "daejeon-6",
    "관악6마": "gwanak-6",
    "관악4마": "gwanak-4",
    "부산4마": "busan-4",
    "부산": "busan-4",
    "동대전6마": "dongdaejeon-6",
    "동대전7마": "dongdaejeon-7",
    "6마": "standard-6",
    "six": "standard-6",
    "7마": "standard-7",
    "seven": "standard-7",
    "4마": "standard-4",
    "four": "standard-4",
    "3마": "standard-3",
    "three": "standard-3",
    "고마": "ghost-4",
    "고스트": "ghost-4",
    "ghost": "ghost-4",
    "변형4마": "ghost-4",
    "엠솔4마": "msol-4",
    "허니문": "honeymoon",
    "변형2마": "variant-2",
    "mn4": "mn4-2",
    "마이티네트워크2마": "mn4-2",
    "시흥": "siheung-6",
    "은마": "siheung-6",
    "시흥은마": "siheung-6",
    "siheung": "siheung-6",
    "제주": "jeju-3",
    "제주3마": "jeju-3",
    "jeju": "jeju-3",
    "2마": "standard-2",
    "two": "standard-2",
    "더블조커": "double-joker",
    "더블조커마이티": "double-joker",
    "경기2018": "gyeonggi-2018",
    "8마": "chicago-8",
    "시카고": "chicago-8",
    "chicago": "chicago-8",
    "eight": "chicago-8",
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


def resolve_ruleset_path(
    name_or_path: str, relative_to: Path | None = None, confine_to: Path | None = None
) -> Path:
    """The file of a bundled ruleset name (or alias), or of a path to a ruleset file.

    With ``confine_to`` (a shared file naming a ruleset: a record's ``ruleset``, a ruleset's
    ``extends``) the path must lead to a file in that folder or below it; anything else is
    refused before the file system is asked about it, so the error reveals nothing."""
    text = str(name_or_path).strip()
    key = ALIASES.get(text.lower(), ALIASES.get(text, text.lower()))
    candidate = bundled_dir("rulesets") / f"{key}.toml"
    if (
        "/" not in text
        and "\\" not in text
        and not text.endswith(".toml")
        and "\0" not in text
        and candidate.is_file()
    ):
        return candidate
    if "\0" in text:
        raise RulesetError(
            _("ruleset {text}: not a ruleset name or a path").format(text=safe_toml.short(text))
        )
    path = Path(text)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    if confine_to is not None and not _inside(path, confine_to):
        raise OutsideFolder(
            _(
                "ruleset {text}: a shared file may name a bundled ruleset or a "
                ".toml file in its own folder or below it, nothing else"
            ).format(text=safe_toml.short(text))
        )
    if path.is_file():
        return path
    refuse_irregular(path, _("ruleset file {text!r}").format(text=text), RulesetError)
    if not text.endswith(".toml") and "/" not in text:
        known = ", ".join(bundled_names())
        raise RulesetError(
            _(
                "unknown ruleset {text!r}: expected one of {known}, or a path to a .toml file"
            ).format(text=text, known=known)
        )
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


def load_ruleset(
    name_or_path: str | Path, relative_to: Path | None = None, confine_to: Path | None = None
) -> Ruleset:
    """Load and validate a ruleset by bundled name, alias or file path."""
    return load_ruleset_with_origins(name_or_path, relative_to, confine_to).ruleset


def load_ruleset_with_origins(
    name_or_path: str | Path, relative_to: Path | None = None, confine_to: Path | None = None
) -> LoadedRuleset:
    """Load a ruleset and record which file set each option (``default`` for the schema's).

    A file's ``extends`` may name a bundled ruleset or a file in ``confine_to`` (by default the
    folder of the file named here) or below it."""
    path = resolve_ruleset_path(str(name_or_path), relative_to, confine_to)
    root = (confine_to or path.parent).resolve()
    try:
        key = (str(path.resolve()), path.stat().st_mtime, str(root))
    except OSError as exc:
        raise RulesetError(
            _("{name}: cannot read: {reason}").format(name=path.name, reason=exc.strerror or exc)
        ) from None
    if key not in _CACHE:
        _CACHE[key] = _load(path, (), root)
    return _CACHE[key]


def ruleset_from_toml(
    text: str,
    label: str = "<ruleset>",
    relative_to: Path | None = None,
    confine_to: Path | None = None,
) -> LoadedRuleset:
    """Load a ruleset from TOML text (an embedded ruleset of a league or a record); its
    ``extends`` may name a bundled ruleset or a file in ``confine_to`` (default: the folder it
    is relative to)."""
    data = safe_toml.parse(text, label, RulesetError, RULESET_MAX_BYTES)
    folder = relative_to or Path.cwd()
    return _build(data, label, folder, (), confine_to=(confine_to or folder).resolve())


def _load(path: Path, seen: tuple[str, ...], root: Path) -> LoadedRuleset:
    label = path.name
    data = safe_toml.parse(
        safe_toml.read_text(path, RULESET_MAX_BYTES, label, RulesetError), label, RulesetError
    )
    data.setdefault("meta", {})
    if isinstance(data["meta"], dict):
        data["meta"].setdefault("name", path.stem)
    is_root = path.resolve() == (bundled_dir("rulesets") / "standard.toml").resolve()
    return _build(data, label, path.parent, seen + (str(path.resolve()),), is_root, root)


def _build(
    data: dict,
    label: str,
    folder: Path,
    seen: tuple[str, ...],
    is_root: bool = False,
    confine_to: Path | None = None,
) -> LoadedRuleset:
    parent_name = data.pop("extends", None)
    if parent_name is not None and not isinstance(parent_name, str):
        raise RulesetError(
            _("{label}: extends: expected a ruleset name or path (a string)").format(label=label)
        )
    if parent_name is None and not is_root:
        parent_name = "standard"
    if parent_name:
        try:
            parent_path = resolve_ruleset_path(parent_name, folder, confine_to)
        except RulesetError as exc:
            raise RulesetError(
                _("{label}: extends = {parent_name}: {exc}").format(
                    label=label, parent_name=safe_toml.short(parent_name), exc=exc
                )
            ) from None
        if str(parent_path.resolve()) in seen:
            raise RulesetError(
                _("{label}: extends: {parent_name!r} extends this file again (a cycle)").format(
                    label=label, parent_name=parent_name
                )
            )
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
    check_consistency(ruleset, label)
    check_limits(ruleset, label)
    return LoadedRuleset(ruleset, origins, chain)


def _merge(data: dict, values: dict, origins: dict, cls: type, label: str, prefix: str) -> None:
    if not isinstance(data, dict):
        raise RulesetError(
            _("{label}: {table}: expected a table").format(label=label, table=prefix.rstrip("."))
        )
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for name, value in data.items():
        key = f"{prefix}{name}"
        if name not in fields:
            known = ", ".join(fields)
            raise RulesetError(
                _("{label}: unknown key {key} (expected one of: {known})").format(
                    label=label, key=safe_toml.short(key), known=known
                )
            )
        sub = table_type(fields[name])
        if sub is not None:
            if not isinstance(value, dict):
                raise RulesetError(
                    _("{label}: {key}: expected a table [{key}]").format(label=label, key=key)
                )
            _merge(value, values[name], origins, sub, label, key + ".")
        else:
            values[name] = value
            origins[key] = label


def _construct(cls: type, values: dict, label: str, prefix: str) -> Any:
    kwargs = {}
    for f in dataclasses.fields(cls):
        key = f"{prefix}{f.name}"
        sub = table_type(f)
        if sub is not None:
            kwargs[f.name] = _construct(sub, values[f.name], label, key + ".")
        else:
            kwargs[f.name] = coerce(values[f.name], f, label, key)
    return cls(**kwargs)


# --- comparing ----------------------------------------------------------------------------------


def diff_rulesets(a: Ruleset, b: Ruleset) -> list[tuple[str, Any, Any]]:
    """The options whose values differ, as ``(key, value in a, value in b)``."""
    out = []
    for key, f in iter_options():
        if key.startswith("meta."):
            continue
        va, vb = plain_value(a.get(key), f), plain_value(b.get(key), f)
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
