"""The page of a hand played card by card where six were present and the dealer sat the hand
out (docs/rules.md §9): its tricks show their leader, winner and points. Replaying the hand alone
among the five who played refused a dealer not among them, and every trick showed '–'."""

from __future__ import annotations

from html.parser import HTMLParser

from click.testing import CliRunner

from mighty_cli.cli import cli

SIX = "Ana,Bo,Cy,Di,Ed,김철수"


class TrickRows(HTMLParser):
    """The cells of each row of the page's tricks table."""

    def __init__(self):
        super().__init__()
        self.rows: list[list[str]] = []
        self.in_tricks = self.open = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.in_tricks = dict(attrs).get("class") == "tricks"
        elif tag == "tr" and self.in_tricks:
            self.rows.append([])
            self.open = True

    def handle_endtag(self, tag):
        if tag == "tr":
            self.open = False
        elif tag == "table":
            self.in_tricks = False

    def handle_data(self, data):
        if self.open and data.strip():
            self.rows[-1].append(data.strip())


def test_a_hand_whose_dealer_sat_out_shows_its_tricks(tmp_path, db):
    record = tmp_path / "six.toml"
    runner = CliRunner()
    assert (
        runner.invoke(
            cli,
            [
                "simulate",
                "-r",
                "standard",
                "--hands",
                "6",
                "--seed",
                "3",
                "--players",
                SIX,
                "-o",
                str(record),
            ],
        ).exit_code
        == 0
    )
    result = runner.invoke(cli, ["import", str(record), "--league", "six", "--db", db])
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        cli, ["site", "-l", "six", "--output", str(tmp_path / "site"), "--db", db]
    )
    assert result.exit_code == 0, result.output
    names = SIX.split(",")
    shown = 0
    for path in sorted((tmp_path / "site" / "hands").glob("*.html")):
        parser = TrickRows()
        parser.feed(path.read_text(encoding="utf-8"))
        tricks = parser.rows[1:]  # the header row first
        if not tricks:  # a deal miss
            continue
        shown += 1
        assert len(tricks) == 10, path
        assert [
            cells for cells in tricks if cells[1] not in names or cells[-2] not in names
        ] == [], path
    assert shown >= 4  # the dealer sits out of most of them (six present)
