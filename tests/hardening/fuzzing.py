"""A seeded fuzzer for the ``mighty`` command line: mutated rulesets, hand records and argument
lists, as an attacker and a clumsy user would write them (issue 9).

Every case is a pure function of its number, so a failure is reproduced by its number alone:
``python tools/fuzz.py --from N --cases 1``. Each case runs in-process through click's
CliRunner (fast) and the fuzz checks the CLI's promise: exit 0, 1 or 2 only; a failure is one
``Error:`` line, never a traceback or an internal error; a failed command leaves the database as
it was; every run finishes within a time limit. ``tests/hardening/test_fuzz.py`` runs its
first cases in CI (``MIGHTY_TEST_LONG=1``: forty seconds of them), ``tools/fuzz.py`` as many
as you like.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed"]
WRITES = {"record", "import", "session", "player", "league", "hand"}

# Values a clumsy user or an attacker puts where another value belongs.
NASTY_NUMBERS = [
    "0",
    "-1",
    "1",
    "7",
    "13",
    "20",
    "21",
    "99",
    "2147483647",
    "2147483648",
    "9223372036854775808",
    "99999999999999999999",
    "1e3",
    "0x10",
    "",
    "abc",
    "-99999999999999999999",
    "１２",
    "3.5",
]
NASTY_TOML_VALUES = [
    "nan",
    "inf",
    "-inf",
    "+inf",
    "0",
    "-1",
    "1e308",
    "1.7976931348623157e308",
    "true",
    "99999999999999999999",
    "9223372036854775807",
    "-9223372036854775808",
    '""',
    '"x"',
    "{a = 1}",
    "[1, 2]",
    "[[1]]",
    '["SA", 3]',
    "2024-03-05",
    "1979-05-27T07:32:00Z",
    "3.5",
    '"' + "x" * 5000 + '"',
    '"\\u202eBo"',
    '"\\u200bAna"',
    '"\\u001b]0;title\\u0007"',
    '"../../etc/shadow"',
    '"/etc/shadow"',
    '"/dev/zero"',
    '"standard"',
    '"none"',
    '"joker"',
    '"15D"',
    '"99999999999999999999D"',
    '"SA SK"',
    '"Ana "',
    '" Ana"',
    '"Ana"',
    '"Bo"',
]
FORMULA_ATOMS = [
    "bid",
    "taken",
    "opposition",
    "minimum",
    "max_bid",
    "total",
    "0",
    "1",
    "2",
    "10",
    "0.5",
    "1152921504606846976",
    "99999999",
    "x",
    "bid(",
    ")",
]
FORMULA_OPS = ["+", "-", "*", "/"]
TEMPLATES = [
    '{{ cycler.__init__.__globals__.os.popen("id").read() }}',
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ page.__class__.__init__ }}",
    "{% for x in %}",
    "{{ page.nosuch }}",
    "{{ 1 / 0 }}",
    "{{ page.league }}",
    '{% include "../../../etc/passwd" %}',
    '{% extends "standings.html" %}',
    "{{ x",
    "{{ range(10**9) | list | length }}",
    "{{ 'a' * 10 }}",
    "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
    "{{ page.standings.rows[0].stats.name | upper }}",
    "{{ '%d' % 'x' }}",
    "{{ lipsum(1) }}",
    "\udcff",
]


@dataclass
class Case:
    """One fuzz case: the arguments, the files it needs, and what it may write."""

    number: int
    args: list[str]
    files: dict[str, str | bytes] = field(default_factory=dict)
    uses_db: bool = False
    #: a file the command must not leave behind when it fails (a restore's new database)
    absent_on_failure: str | None = None


@dataclass
class Outcome:
    case: Case
    exit_code: int
    seconds: float
    problem: str | None = None


# --- generators -----------------------------------------------------------------------------------


def formula(rng: random.Random) -> str:
    """A formula from plausible to hostile: deep, long, huge or malformed."""
    shape = rng.randrange(8)
    if shape == 0:
        depth = rng.choice([5, 31, 33, 200, 1000])
        return "(" * depth + rng.choice(FORMULA_ATOMS[:6]) + ")" * depth
    if shape == 1:
        return rng.choice(FORMULA_OPS[:2]).join(
            [rng.choice(FORMULA_ATOMS[:6])] * rng.choice([10, 199, 201, 2000])
        )
    if shape == 2:
        return "*".join(
            [rng.choice(["99999999", "9999999999", "12345"])] * rng.choice([2, 3, 40, 400])
        )
    if shape == 3:
        return (
            f"{rng.choice(FORMULA_ATOMS)} / ({rng.choice(FORMULA_ATOMS[:6])} - {rng.randrange(25)})"
        )
    if shape == 4:
        return rng.choice(
            [
                "max(bid)",
                "min()",
                "abs(1, 2)",
                "floor(taken / 3)",
                "ceil(",
                "- - - - taken",
                "2 ** 3",
                "taken;",
                "",
                " ",
                "1e5",
            ]
        )
    tokens = [rng.choice(FORMULA_ATOMS[:10])]
    for _ in range(rng.randrange(1, 12)):
        tokens += [rng.choice(FORMULA_OPS), rng.choice(FORMULA_ATOMS[:10])]
    return " ".join(tokens)


def ruleset_text(rng: random.Random) -> str:
    """A club ruleset: a bundled file or a small club file, then mutated."""
    if rng.random() < 0.4:
        bundled = sorted((ROOT / "rulesets").glob("*.toml"))
        return mutate_toml(rng, rng.choice(bundled).read_text(encoding="utf-8"))
    lines = [f'extends = "{rng.choice(["standard", "sinchon", "daegu", "gwangju", "simple"])}"']
    table = rng.choice(["scoring", "election", "deal_miss", "deposit", "session", "cards"])
    lines.append(f"[{table}]")
    options = {
        "scoring": [
            ("formula", '"custom"'),
            ("success", None),
            ("failure", None),
            ("scale", None),
            ("cap", None),
            ("friend_share", None),
            ("opponent_share", None),
            ("cumulative", None),
        ],
        "election": [("min_bid", None), ("max_bid", None), ("no_trump_discount", None)],
        "deal_miss": [
            ("threshold", None),
            ("joker_weight", None),
            ("rank_weights", None),
            ("card_weights", None),
        ],
        "deposit": [("per_deal_miss", None), ("won_by", None)],
        "session": [("hands_per_session", None), ("starting_points", None)],
        "cards": [("mighty", None), ("joker_call", None)],
    }[table]
    for key, value in rng.sample(options, rng.randrange(1, len(options) + 1)):
        if value is None:
            if key in ("success", "failure"):
                value = '"' + formula(rng).replace('"', "") + '"'
            else:
                value = rng.choice(NASTY_TOML_VALUES + ["1", "2", "0.5", "100", "13", "20"])
        lines.append(f"{key} = {value}")
    return mutate_toml(rng, "\n".join(lines) + "\n", light=True)


def record_text(rng: random.Random) -> str:
    """A hand record: an example or a recorded season, then mutated."""
    examples = sorted((ROOT / "examples").glob("*.toml"))
    if rng.random() < 0.5:
        return mutate_toml(rng, rng.choice(examples).read_text(encoding="utf-8"))
    hands = []
    for _ in range(rng.randrange(1, 6)):
        declarer, friend = rng.sample(PLAYERS, 2)
        fields = {
            "declarer": f'"{declarer}"',
            "contract": f'"{rng.randrange(13, 21)}{rng.choice(["S", "D", "H", "C", "NT"])}"',
            "friend": f'"{friend}"',
            "taken": str(rng.randrange(0, 21)),
        }
        for key in rng.sample(
            list(fields)
            + ["note", "players", "dealer", "session", "date", "opposition", "friend_call", "deal"],
            rng.randrange(0, 3),
        ):
            fields[key] = rng.choice(NASTY_TOML_VALUES)
        hands.append("[[hands]]\n" + "".join(f"{k} = {v}\n" for k, v in fields.items()))
    ruleset = rng.choice(
        [
            '"standard"',
            '"seoul-science"',
            '"club.toml"',
            '"/etc/shadow"',
            '"../club.toml"',
            '"/dev/zero"',
            '"sub/club.toml"',
            "3",
        ]
    )
    players = rng.choice(
        [
            '["Ana", "Bo", "Cy", "Di", "Ed"]',
            '["Ana", "Bo", "Cy", "Di", "Ed ", "Ana "]',
            '["Ana", "Bo", "Cy", "Di"]',
            '[{x = 1}, "Bo", "Cy", "Di", "Ed"]',
            '["A\\u202eB", "Bo", "Cy", "Di", "Ed"]',
        ]
    )
    text = (
        f'format = "mighty-hand-record/1"\nruleset = {ruleset}\nplayers = {players}\n'
        + "\n".join(hands)
    )
    return mutate_toml(rng, text, light=True)


def mutate_toml(rng: random.Random, text: str, light: bool = False) -> str:
    """Change a TOML text a few times: values swapped for nasty ones, lines lost or doubled,
    deep nesting, truncation."""
    lines = text.splitlines()
    for _ in range(rng.randrange(0 if light else 1, 4)):
        if not lines:
            break
        index = rng.randrange(len(lines))
        kind = rng.randrange(9)
        line = lines[index]
        if kind <= 2 and "=" in line:
            key = line.split("=", 1)[0]
            lines[index] = f"{key}= {rng.choice(NASTY_TOML_VALUES)}"
        elif kind == 3:
            del lines[index]
        elif kind == 4:
            lines.insert(index, line)
        elif kind == 5:
            depth = rng.choice([3, 13, 40, 400, 5000])
            lines.insert(index, f"deep{index} = " + "[" * depth + "]" * depth)
        elif kind == 6:
            lines.insert(index, f"unknown_key_{index} = 1")
        elif kind == 7:
            cut = rng.randrange(len(line) + 1)
            lines[index] = line[:cut]
        else:
            position = rng.randrange(len(line) + 1)
            lines[index] = (
                line[:position]
                + rng.choice(["\\", '"', "[", "]", "=", "#", "\t", "한"])
                + line[position:]
            )
    return "\n".join(lines) + "\n"


# --- exports and backups -------------------------------------------------------------------------

NASTY_JSON_VALUES = [
    "9223372036854775808",
    "-9223372036854775809",
    "2147483648",
    "-1",
    "0",
    "1e309",
    "-0.0",
    "3.5",
    "null",
    "true",
    "[]",
    "{}",
    '"x"',
    '""',
    '"\\u0000"',
    '"\\ud800"',
    '"' + "x" * 5000 + '"',
    "[" * 200 + "]" * 200,
    '"2024-02-30"',
    '"15D"',
    '"Zed"',
    '"\\u202eBo"',
    "NaN",
    "Infinity",
]


def _base_files() -> dict[str, str]:
    """A league's JSON and CSV exports and a database's backup, made once per process from the
    example season (in memory): what the mutations start from."""
    global _BASE
    if _BASE is None:
        import io
        import tempfile

        from click.testing import CliRunner

        from mighty_cli.cli import cli

        with tempfile.TemporaryDirectory() as folder:
            db = f"sqlite:///{folder}/base.db"
            runner = CliRunner()
            for args in (
                ["import", str(ROOT / "examples" / "season.toml"), "-l", "demo"],
                ["import", str(ROOT / "examples" / "run.toml"), "-l", "run"],
            ):
                assert runner.invoke(cli, args + ["--db", db]).exit_code == 0
            base = {}
            for name, args in (
                ("json", ["export", "-l", "demo", "--format", "json"]),
                ("csv", ["export", "-l", "demo", "--format", "csv"]),
                ("run.json", ["export", "-l", "run", "--format", "json"]),
                ("backup", ["backup", "-o", f"{folder}/b.jsonl"]),
            ):
                result = runner.invoke(cli, args + ["--db", db])
                assert result.exit_code == 0, result.output
                base[name] = (
                    result.output
                    if name != "backup"
                    else Path(f"{folder}/b.jsonl").read_text(encoding="utf-8")
                )
            del io
        _BASE = base
    return _BASE


_BASE: dict | None = None


def mutate_lines(rng: random.Random, text: str, value_pattern: str) -> str | bytes:
    """A line-oriented text (JSON lines, CSV) changed a few times: a value swapped for a nasty
    one, a line lost, doubled or cut, a column added; or the bytes broken (invalid UTF-8 at some
    offset, a byte-order mark, CRLF)."""
    import re

    lines = text.splitlines()
    for _ in range(rng.randrange(1, 4)):
        if not lines:
            break
        index = rng.randrange(len(lines))
        kind = rng.randrange(7)
        line = lines[index]
        if kind <= 2:
            values = list(re.finditer(value_pattern, line))
            if values:
                found = rng.choice(values)
                nasty = rng.choice(
                    NASTY_JSON_VALUES
                    if value_pattern != _CSV_CELL
                    else NASTY_NUMBERS + ["Zed", "x" * 3000, '"', "=1+1", "True"]
                )
                lines[index] = line[: found.start(1)] + nasty + line[found.end(1) :]
        elif kind == 3:
            del lines[index]
        elif kind == 4:
            lines.insert(index, line)
        elif kind == 5:
            lines[index] = line[: rng.randrange(len(line) + 1)]
        else:
            lines[index] = line + rng.choice([",", ",x", '"', "]", "}", ",,,,"])
    out = "\n".join(lines) + "\n"
    damage = rng.randrange(6)
    if damage == 0:
        data = out.encode("utf-8")
        cut = rng.randrange(len(data) + 1)
        return data[:cut] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + data[cut:]
    if damage == 1:
        return "\ufeff" + out
    if damage == 2:
        return out.replace("\n", "\r\n")
    return out


_JSON_VALUE = r'": (-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|true|false|null|\[\]|\{\})'
_CSV_CELL = r"(?:^|,)([^,\"]*)"


def interchange_case(number: int, rng: random.Random, kind: int) -> Case:
    """A mutated JSON export, CSV export or backup given to import or restore."""
    base = _base_files()
    if kind == 15:
        text = mutate_lines(rng, base[rng.choice(["json", "run.json"])], _JSON_VALUE)
        return Case(
            number,
            ["import", "league.json", "-l", rng.choice(["demo", "new"])],
            {"league.json": text},
            uses_db=True,
        )
    if kind == 16:
        text = mutate_lines(rng, base["csv"], _CSV_CELL)
        return Case(
            number,
            ["import", "league.csv", "-l", "demo", *(["--again"] if rng.random() < 0.5 else [])],
            {"league.csv": text},
            uses_db=True,
        )
    text = mutate_lines(rng, base["backup"], _JSON_VALUE)
    return Case(
        number,
        ["restore", "backup.jsonl", "--db", "restored.db"],
        {"backup.jsonl": text},
        absent_on_failure="restored.db",
    )


def case(number: int) -> Case:
    """The fuzz case with this number (the same on every machine)."""
    rng = random.Random(number)
    kind = rng.randrange(18)
    if kind >= 15:
        return interchange_case(number, rng, kind)
    if kind == 0:
        return Case(number, ["ruleset", "check", "club.toml"], {"club.toml": ruleset_text(rng)})
    if kind == 1:
        return Case(
            number, ["ruleset", "show", "club.toml", "--json"], {"club.toml": ruleset_text(rng)}
        )
    if kind == 2:
        args = [
            "score",
            "--ruleset",
            rng.choice(["club.toml", "standard", "sinchon", "nosuch"]),
            "--bid",
            rng.choice(NASTY_NUMBERS),
            "--trump",
            rng.choice(["S", "D", "NT", "X", ""]),
            "--taken",
            rng.choice(NASTY_NUMBERS),
        ]
        if rng.random() < 0.3:
            args.append("--no-friend")
        return Case(number, args, {"club.toml": ruleset_text(rng)})
    if kind in (3, 4):
        files = {
            "record.toml": record_text(rng),
            "club.toml": ruleset_text(rng),
            "sub/club.toml": ruleset_text(rng),
        }
        args = ["replay", "record.toml"] + (["--json"] if rng.random() < 0.5 else [])
        if rng.random() < 0.1:
            args[1] = rng.choice(["/dev/zero", "/dev/null", "missing.toml", "sub"])
        return Case(number, args, files)
    if kind == 5:
        files = {"record.toml": record_text(rng), "club.toml": ruleset_text(rng)}
        return Case(
            number,
            [
                "import",
                "record.toml",
                "-l",
                rng.choice(["demo", "new", "Ana "]),
                *(["--again"] if rng.random() < 0.5 else []),
            ],
            files,
            uses_db=True,
        )
    if kind == 6:
        sub = rng.choice(["show", "void", "unvoid", "amend", "list", "log"])
        args = ["hand", sub, "-l", rng.choice(["demo", "nosuch"])]
        if sub in ("show", "void", "unvoid", "amend"):
            args.append(rng.choice(NASTY_NUMBERS))
        if sub in ("void", "unvoid", "amend"):
            args += ["--reason", rng.choice(["typo", "", "\u202e"])]
        if sub == "amend":
            args += [
                rng.choice(["--taken", "--opposition", "--contract", "--friend"]),
                rng.choice(NASTY_NUMBERS + ["15D", "Bo", "none"]),
            ]
        if sub == "list":
            args += [rng.choice(["--last", "--session"]), rng.choice(NASTY_NUMBERS)]
        if sub == "log":
            args += ["--limit", rng.choice(NASTY_NUMBERS)]
        return Case(number, args, uses_db=True)
    if kind == 7:
        return Case(
            number,
            [
                "record",
                "-l",
                "demo",
                "--declarer",
                rng.choice(PLAYERS + ["Zed"]),
                "--contract",
                rng.choice(["15D", "13NT", "21S", "99999999999D", "x"]),
                "--friend",
                rng.choice(PLAYERS + ["none", "Zed"]),
                "--taken",
                rng.choice(NASTY_NUMBERS),
            ],
            uses_db=True,
        )
    if kind == 8:
        name = rng.choice(
            [
                "Hana",
                "Ana ",
                "A\u202eB",
                "\u200b",
                "x" * 120,
                "a,b",
                "\x1b[31mRed",
                "한",
                "\u1112\u1161\u11ab",
                "",
                " ",
            ]
        )
        return Case(
            number,
            rng.choice(
                [
                    ["player", "add", name],
                    ["league", "create", name, "-r", "standard"],
                    [
                        "session",
                        "start",
                        "-l",
                        "demo",
                        "-p",
                        ",".join([name, "Bo", "Cy", "Di", "Ed"]),
                    ],
                ]
            ),
            uses_db=True,
        )
    if kind == 9:
        target = rng.choice(["out.html", "/nonexistent/x.html", "/dev/full", "sub", "."])
        if rng.random() < 0.5:
            return Case(
                number, ["standings", "-l", "demo", "--html", target], {"sub/x": ""}, uses_db=True
            )
        return Case(
            number,
            [
                "export",
                "-l",
                "demo",
                "--format",
                rng.choice(["toml", "csv", "json", "xml"]),
                "-o",
                target.replace("html", "toml"),
            ],
            {"sub/x": ""},
            uses_db=True,
        )
    if kind == 10:
        return Case(
            number,
            [
                "session",
                rng.choice(["show", "end"]),
                "-l",
                "demo",
                "--session",
                rng.choice(NASTY_NUMBERS),
            ],
            uses_db=True,
        )
    if kind == 12:
        template = rng.choice(TEMPLATES)
        if rng.random() < 0.5:
            template = '{% extends "base.html" %}{% block content %}' + template + "{% endblock %}"
        return Case(
            number,
            ["standings", "-l", "demo", "--html", "page.html", "--templates", "tpl"],
            {"tpl/standings.html": template},
            uses_db=True,
        )
    if kind == 13:
        return Case(
            number,
            [
                "ruleset",
                "diff",
                rng.choice(["club.toml", "standard", "msol"]),
                rng.choice(["other.toml", "daegu", "/etc/passwd", "nosuch"]),
            ]
            + (["--json"] if rng.random() < 0.5 else []),
            {"club.toml": ruleset_text(rng), "other.toml": ruleset_text(rng)},
        )
    if kind == 14:
        name = rng.choice(["Ana", "Bo ", "A\u202eB", "\x1b[2J", "김민준", "x" * 101, "", "Zed"])
        return Case(
            number,
            rng.choice(
                [
                    ["player", "rename", rng.choice(PLAYERS + ["Zed"]), name],
                    ["player", "merge", name, rng.choice(PLAYERS)],
                    ["league", "set", "demo", "--min-hands", rng.choice(NASTY_NUMBERS)],
                    [
                        "league",
                        "set",
                        "demo",
                        "--rank-by",
                        rng.choice(["score", "nosuch", "", "name,name"]),
                    ],
                    [
                        "session",
                        "start",
                        "-l",
                        "demo",
                        "-p",
                        ",".join(PLAYERS),
                        "--date",
                        rng.choice(["2024-02-30", "99999-01-01", "yesterday", "2024-03-05"]),
                    ],
                    ["league", "show", rng.choice(["demo", "nosuch", "\u202e"]), "--json"],
                ]
            ),
            uses_db=True,
        )
    return Case(
        number,
        [
            "deal",
            "--seed",
            rng.choice(NASTY_NUMBERS),
            "--hands",
            rng.choice(NASTY_NUMBERS),
            "--players",
            rng.choice(["A,B,C,D,E", "A,B,C,D", "A,A,B,C,D", ""]),
        ],
    )


# --- running ------------------------------------------------------------------------------------


def prepare_database(path: Path) -> str:
    """A league 'demo' with the example season and an open session: what the cases work on."""
    from click.testing import CliRunner

    from mighty_cli.cli import cli

    db = f"sqlite:///{path}"
    runner = CliRunner()
    for args in (
        ["import", str(ROOT / "examples" / "season.toml"), "-l", "demo"],
        ["session", "start", "-l", "demo", "-p", ",".join(PLAYERS)],
    ):
        result = runner.invoke(cli, args + ["--db", db])
        assert result.exit_code == 0, result.output
    return db


def database_rows(db: str) -> list:
    import sqlite3

    connection = sqlite3.connect(db.removeprefix("sqlite:///"))
    try:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return [
            (t, sorted(map(repr, connection.execute(f"SELECT * FROM {t}").fetchall())))
            for t in tables
        ]
    finally:
        connection.close()


def check(
    case_: Case,
    exit_code: int,
    stderr: str,
    exception: BaseException | None,
    seconds: float,
    limit: float,
    before: list | None,
    after: list | None,
) -> str | None:
    """What broke the CLI's promise in this run (None when it kept it)."""
    if exception is not None and not isinstance(exception, SystemExit):
        return f"raised {type(exception).__name__}: {exception}"
    if exit_code not in (0, 1, 2):
        return f"exit {exit_code}: {stderr.strip()[:300]}"
    if "internal error" in stderr or "Traceback" in stderr:
        return f"internal error: {stderr.strip()[:300]}"
    if exit_code:
        errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
        if len(errors) != 1:
            return f"{len(errors)} error lines: {stderr.strip()[:300]}"
        if exit_code == 1 and stderr.count("\n") != 1:
            return f"more than one line: {stderr.strip()[:300]}"
        if before is not None and before != after:
            return "the database changed although the command failed"
    if seconds > limit:
        return f"took {seconds:.1f} s (limit {limit:.0f} s)"
    return None


def run_in_process(case_: Case, folder: Path, db: str, limit: float) -> Outcome:
    """Run one case through click's CliRunner in ``folder``."""
    import os

    from click.testing import CliRunner

    from mighty_cli.cli import cli

    write_files(case_, folder)
    args = list(case_.args) + (["--db", db] if case_.uses_db else [])
    before = database_rows(db) if case_.uses_db else None
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        start = time.monotonic()
        with hard_limit(limit * 3):
            result = CliRunner().invoke(cli, args)
        seconds = time.monotonic() - start
    finally:
        os.chdir(cwd)
    after = database_rows(db) if case_.uses_db and result.exit_code else None
    problem = check(
        case_,
        result.exit_code,
        _own_lines(result.stderr),
        result.exception,
        seconds,
        limit,
        before,
        after,
    ) or _left_behind(case_, folder, result.exit_code)
    return Outcome(case_, result.exit_code, seconds, problem)


def _left_behind(case_: Case, folder: Path, exit_code: int) -> str | None:
    """A failed command that left the file it was making (a restore's new database)."""
    if case_.absent_on_failure is None:
        return None
    path = folder / case_.absent_on_failure
    if exit_code and path.exists():
        return f"failed, but left {case_.absent_on_failure} behind"
    if path.exists():
        path.unlink()  # a restore that worked: the next run of this case starts afresh
    return None


def _own_lines(stderr: str) -> str:
    """The command's standard error without what the test process itself wrote there while the
    run captured it: objects left by earlier tests, collected during the run, whose finalizers
    fail under pytest's unraisable-exception hook ("Exception ignored in ..."). A real process
    has no such objects (the subprocess runs check the same promise without this filter)."""
    return "".join(
        line
        for line in stderr.splitlines(keepends=True)
        if not line.startswith("Exception ignored in")
    )


class RunTimedOut(Exception):
    """A run went on past its hard time limit (raised inside it by a timer signal)."""


@contextlib.contextmanager
def hard_limit(seconds: float):
    """Stop the run inside this block after ``seconds`` (POSIX main thread; elsewhere only
    the measured time is checked)."""
    import signal
    import threading

    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def stop(signum, frame):
        raise RunTimedOut(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_subprocess(case_: Case, folder: Path, db: str, limit: float) -> Outcome:
    """Run one case as a real ``mighty`` process (the entry point's own error handling)."""
    import subprocess
    import sys

    write_files(case_, folder)
    args = list(case_.args) + (["--db", db] if case_.uses_db else [])
    before = database_rows(db) if case_.uses_db else None
    start = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mighty_cli", *args],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=limit + 30,
        )
    except subprocess.TimeoutExpired:
        return Outcome(case_, -1, time.monotonic() - start, "timed out")
    seconds = time.monotonic() - start
    after = database_rows(db) if case_.uses_db and done.returncode else None
    problem = check(
        case_, done.returncode, done.stderr, None, seconds, limit, before, after
    ) or _left_behind(case_, folder, done.returncode)
    return Outcome(case_, done.returncode, seconds, problem)


def write_files(case_: Case, folder: Path) -> None:
    for name, content in case_.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", errors="surrogatepass")


def fuzz(
    first: int,
    count: int,
    folder: Path,
    *,
    budget: float = float("inf"),
    limit: float = 10.0,
    runner: Callable = run_in_process,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Run cases ``first`` .. ``first + count - 1`` (stopping when ``budget`` seconds are spent)."""
    folder.mkdir(parents=True, exist_ok=True)
    db = prepare_database(folder / "fuzz.db")
    outcomes = []
    deadline = time.monotonic() + budget
    for number in range(first, first + count):
        if time.monotonic() > deadline:
            break
        work = folder / f"case{number}"
        work.mkdir(exist_ok=True)
        outcome = runner(case(number), work, db, limit)
        outcomes.append(outcome)
        if progress:
            progress(outcome)
    return outcomes
