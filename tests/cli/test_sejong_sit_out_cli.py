"""세종's sit-out (session.sit_out = "losing_team", issue 21 item 12) checked by the store when
a hand is recorded."""

from __future__ import annotations

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]


def test_session_sit_out_losing_team_is_checked_when_a_hand_is_recorded(runner, db):
    from mighty_cli.cli import cli

    assert runner.invoke(cli, ["league", "create", "S", "-r", "sejong", "--db", db]).exit_code == 0
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "S", "-p", ",".join(SIX), "--db", db]
        ).exit_code
        == 0
    )
    first = runner.invoke(
        cli, ["record", "-l", "S", "-d", "Bo", "-c", "15S", "-f", "Cy", "-t", "16", "--db", db]
    )
    assert first.exit_code == 0, first.output
    # Bo and Cy made it: a winner may not sit out, one of the opposition may
    refused = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "S",
            "-d",
            "Di",
            "-c",
            "15S",
            "-f",
            "Ed",
            "-t",
            "16",
            "--players",
            "Ana,Cy,Di,Ed,Fay",
            "--db",
            db,
        ],
    )
    assert refused.exit_code == 1 and "not of the losing team" in refused.output
