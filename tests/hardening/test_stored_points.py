"""Issue 9, item 3: one documented range for a player's points from one hand on SQLite and
PostgreSQL alike (±1,000,000,000, ``engine.limits.POINTS_LIMIT``); anything outside it is
refused with one line, before the database sees it, and nothing is written."""

from __future__ import annotations

import pytest

from mighty_cli.engine.limits import POINTS_LIMIT
from mighty_cli.store.models import HandPlayer, PointsOutOfRange
from promises import FIVE, error_line, invoke, record_file, ruleset_file, snapshot

# No maximum bid: a contract above the 20 point cards is scored from what the keeper says, and
# this failure formula is zero up to 20, so check passes; a 30D contract then scores 10**12.
BEYOND = (
    '[election]\nmax_bid = 0\n[scoring]\nformula = "custom"\nsuccess = "taken - bid"\n'
    'failure = "max(0, bid - 20) * 100000000000"\n'
)
REFUSAL = (
    "-4,000,000,000,000 points for one player in one hand: a league stores from "
    "-1,000,000,000 to 1,000,000,000"
)
# Within the range: no doublings, a made 20 alone is 960,000,000 for the declarer.
EDGE = (
    '[scoring]\nformula = "custom"\nsuccess = "taken * 12000000"\nfailure = "bid - taken"\n'
    + "".join(
        f"[scoring.{d}]\nenabled = false\n" for d in ("run", "back_run", "no_trump", "no_friend")
    )
)


@pytest.fixture
def beyond(db, tmp_path):
    path = ruleset_file(tmp_path, BEYOND)
    assert invoke("league", "create", "big", "-r", path, "--db", db).exit_code == 0
    assert invoke("session", "start", "-l", "big", "-p", ",".join(FIVE), "--db", db).exit_code == 0
    return db


def test_record_beyond_the_range_is_one_line_and_changes_nothing(beyond):
    before = snapshot(beyond)
    message = error_line(
        invoke(
            "record",
            "-l",
            "big",
            "--declarer",
            "Ana",
            "--contract",
            "30D",
            "--friend",
            "Bo",
            "--taken",
            "5",
            "--db",
            beyond,
        )
    )
    assert message == REFUSAL
    assert snapshot(beyond) == before


def test_import_beyond_the_range_is_one_line_and_changes_nothing(beyond, tmp_path):
    before = snapshot(beyond)
    path = record_file(
        tmp_path, '[[hands]]\ndeclarer = "Ana"\ncontract = "30D"\nfriend = "Bo"\ntaken = 5\n'
    )
    assert error_line(invoke("import", path, "-l", "big", "--db", beyond)) == REFUSAL
    assert snapshot(beyond) == before


def test_points_at_the_edge_of_the_range_are_stored_and_summed(db, tmp_path):
    path = ruleset_file(tmp_path, EDGE)
    assert invoke("league", "create", "edge", "-r", path, "--db", db).exit_code == 0
    assert invoke("session", "start", "-l", "edge", "-p", ",".join(FIVE), "--db", db).exit_code == 0
    for _ in range(3):  # 3 × 960,000,000 is beyond 32 bits: the sums must still be right
        result = invoke(
            "record",
            "-l",
            "edge",
            "--declarer",
            "Ana",
            "--contract",
            "20S",
            "--friend",
            "none",
            "--taken",
            "20",
            "--again",
            "--db",
            db,
        )
        assert result.exit_code == 0, result.output
    result = invoke("standings", "-l", "edge", "--json", "--db", db)
    assert result.exit_code == 0, result.output
    assert '"score": 2880000000' in result.output
    assert '"score": -720000000' in result.output


def test_the_column_refuses_what_no_ruleset_should_produce(db):
    from sqlalchemy.exc import StatementError

    from mighty_cli.store.db import make_engine, transaction

    engine = make_engine(db)
    try:
        for value in (POINTS_LIMIT + 1, -POINTS_LIMIT - 1, 2**63):
            with pytest.raises(StatementError) as caught:
                with transaction(engine) as s:
                    s.add(
                        HandPlayer(
                            hand_id=1, player_id=1, league_id=1, role="declarer", points=value
                        )
                    )
                    s.flush()
            assert isinstance(caught.value.orig, PointsOutOfRange)
    finally:
        engine.dispose()


def test_a_friend_call_longer_than_a_league_stores_is_refused_on_every_database(db, tmp_path):
    # SQLite would keep it, PostgreSQL's VARCHAR(40) refuse it: the record check decides first.
    path = record_file(
        tmp_path,
        '[[hands]]\ndeclarer = "Ana"\ncontract = "15D"\nfriend = "Bo"\n'
        'friend_call = "SA SK SQ SJ S10 S9 S8 S7 S6 S5 S4 S3 S2 DA"\n'
        "taken = 16\n",
    )
    message = error_line(invoke("import", path, "-l", "tue", "--db", db))
    assert message == (
        "hand 1: friend_call = 'SA SK SQ SJ S10 S9 S'...: expected one card or "
        "call (at most 40 characters)"
    )
    assert "tue" not in invoke("league", "list", "--db", db).output


# Every bound of the tool switched off, so PostgreSQL itself refuses a batch of the import.
UNBOUNDED = """
import sys
import mighty_cli.engine.ruleset.formulas as expression
expression.FORMULA_VALUE_LIMIT = 10**30
import mighty_cli.engine.ruleset as ruleset  # loading calls the bounds' check_limits by name
import mighty_cli.engine.ruleset.bounds as ruleset_limits
ruleset_limits.check_limits = ruleset.check_limits = lambda rules, label: None
from mighty_cli.store import models
models.StoredPoints.process_bind_param = lambda self, value, dialect: value
from mighty_cli.cli import main
sys.argv = ["mighty", "import", sys.argv[1], "-l", "big", "--db", sys.argv[2]]
main()
"""


def test_a_batch_postgresql_refuses_is_one_line(db, tmp_path):
    import subprocess
    import sys

    if db.startswith("sqlite"):
        pytest.skip("PostgreSQL's pipelined batches only")
    ruleset_file(
        tmp_path,
        '[scoring]\nformula = "custom"\nsuccess = "1152921504606846976"\nfailure = "bid - taken"\n',
        "huge.toml",
    )
    path = record_file(
        tmp_path,
        '[[hands]]\ndeclarer = "Ana"\ncontract = "15D"\nfriend = "Bo"\ntaken = 16\n' * 2,
        ruleset="huge.toml",
    )
    done = subprocess.run(
        [sys.executable, "-c", UNBOUNDED, path, db], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1, done.stderr
    # An INSERT says "integer out of range"; the COPY an import uses on PostgreSQL says
    # 'value "..." is out of range for type integer': one line either way.
    assert done.stderr.startswith("Error: database error: ") and "out of range" in done.stderr
    assert done.stderr.count("\n") == 1
