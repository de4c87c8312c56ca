"""What every failed command promises (issue 9): exit 1 or 2, exactly one error line, never a
traceback or an internal error, and the database as it was."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from mighty_cli.cli import cli

ROOT = Path(__file__).resolve().parents[2]
FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
HEAD = (
    'format = "mighty-hand-record/1"\nruleset = "{ruleset}"\n'
    'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n'
)
RECORDED = '[[hands]]\ndeclarer = "Ana"\ncontract = "15D"\nfriend = "Bo"\ntaken = 16\n'


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def error_line(result: Result, codes: tuple[int, ...] = (1,)) -> str:
    """The one error line of a failed command (asserting the promise), without 'Error: '."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}"
    )
    assert result.exit_code in codes, (result.exit_code, result.output)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    if result.exit_code == 1:  # exit 2 also prints the usage line above the error
        assert result.stderr.count("\n") == 1, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.output
    return errors[0][len("Error: ") :]


def record_file(
    folder: Path, body: str = RECORDED, ruleset: str = "standard", name: str = "record.toml"
) -> str:
    path = folder / name
    path.write_text(HEAD.format(ruleset=ruleset) + body, encoding="utf-8")
    return str(path)


def ruleset_file(folder: Path, text: str, name: str = "club.toml") -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def snapshot(db: str) -> dict:
    """Every row of every table of the database behind a URL."""
    from databases import snapshot as rows
    from mighty_cli.store.db import make_engine

    engine = make_engine(db)
    try:
        return rows(engine)
    finally:
        engine.dispose()
