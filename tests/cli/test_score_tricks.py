"""Where the bid counts tricks (변형 2마, Mighty Network 4.0's 2마: election.bid_counts =
"tricks"), `mighty score` counts --taken and --opposition in tricks, not point cards."""

from __future__ import annotations

from mighty_cli.cli import cli


def test_opposition_counts_tricks_where_the_bid_counts_tricks(runner):
    # 10 tricks: the opposition's 4 leave the declarer 6, short of his 7
    result = runner.invoke(
        cli, ["score", "-r", "variant-2", "--bid", "7", "--trump", "S", "--opposition", "4"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "declarer -1, alone, each opponent +1"
    taken = runner.invoke(
        cli, ["score", "-r", "variant-2", "--bid", "7", "--trump", "S", "--taken", "6"]
    )
    assert taken.output == result.output


def test_more_opposition_than_tricks_is_refused_in_one_line(runner):
    result = runner.invoke(
        cli, ["score", "-r", "mn4-2", "--bid", "7", "--trump", "S", "--opposition", "14"]
    )
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: --opposition 14 is more than the 13 tricks of a hand"
    )
