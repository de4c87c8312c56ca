"""``hand log`` shows when each change was made in the league's time zone (``league set
--timezone``), else the machine's, with the zone's name; ``--json`` keeps the stored UTC
moment. A Seoul club read its log nine hours off before. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from click.testing import CliRunner

from mighty_cli.cli import cli


def run(db, *args):
    result = CliRunner().invoke(cli, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


def test_hand_log_is_shown_in_the_leagues_time_zone(db):
    run(db, "league", "create", "club", "-r", "standard")
    run(db, "league", "set", "club", "--timezone", "Asia/Seoul", "--reason", "we are in Seoul")
    stored = json.loads(run(db, "hand", "log", "-l", "club", "--json"))["changes"]
    at = datetime.fromisoformat(stored[0]["at"])
    assert at.utcoffset() == timedelta(0)  # --json: the stored moment, in UTC
    lines = run(db, "hand", "log", "-l", "club").splitlines()[2:]
    seoul = at + timedelta(hours=9)  # KST has no summer time
    assert lines[0].startswith(f"{seoul:%Y-%m-%d %H:%M} KST ")


def test_hand_log_names_the_zone_it_shows(db):
    run(db, "league", "create", "club", "-r", "standard")
    run(db, "league", "set", "club", "--timezone", "UTC", "--reason", "utc")
    stored = json.loads(run(db, "hand", "log", "-l", "club", "--json"))["changes"]
    at = datetime.fromisoformat(stored[0]["at"])
    lines = run(db, "hand", "log", "-l", "club").splitlines()[2:]
    assert lines[0].startswith(f"{at:%Y-%m-%d %H:%M} UTC ")
