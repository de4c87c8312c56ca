"""Issue 35, item 17: what a command stores, a backup restores, the same on SQLite and
PostgreSQL: a value a restore would refuse is refused where it comes in (one line, exit 1,
nothing stored), not stored on one database and refused by the other or by the restore."""

from __future__ import annotations

import pytest

from databases import database_params, fresh_url
from restoring import invoke

RECORD = (
    'format = "mighty-hand-record/1"\nruleset = "standard"\n'
    'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n[[hands]]\ndeclarer = "Ana"\n'
    'contract = "15D"\nfriend = "Bo"\ntaken = 16\nnote = "a\\u0000b"\n'
)


@pytest.mark.parametrize("kind", database_params())
def test_a_note_holding_a_nul_character_is_refused_at_the_import(kind, tmp_path):
    db = fresh_url(kind, tmp_path)
    path = tmp_path / "nul.toml"
    path.write_text(RECORD, encoding="utf-8")
    result = invoke("import", str(path), "--league", "N", "--db", db)
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {path}: hand 1: note: holds a NUL character (\\u0000), which no database stores\n"
    )
    assert invoke("league", "show", "N", "--db", db).exit_code == 1  # nothing stored
