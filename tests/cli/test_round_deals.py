"""``mighty round deals``: a duplicate round's deal sheet, for a director who lays the round's
deals out with real cards. Each seat's cards are the ones the referee deals and ``record``
checks for that deal number; the text fits a terminal, the page escapes names and gives each
deal a page, and a round that is not duplicate, a missing one, or deals beyond the round are
refused in one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from club_files import club_file
from databases import fresh_url
from korean_text import leftovers
from league_calls import mighty, ok, refused

from mighty_cli.cli import cli
from mighty_cli.engine.cards import parse_cards
from mighty_cli.engine.hand.seats import GHOST
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.session import duplicate_proposal
from mighty_cli.render.text import display_width
from mighty_cli.store.duplicate import expected_deal

FIFTEEN = [f"P{i:02d}" for i in range(1, 16)]
STANDARD = load_ruleset("standard")


@pytest.fixture
def cup(db):
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    return db


@pytest.fixture
def lite(tmp_path):
    """The league on SQLite alone: for the wording and the page (the store's reads are
    checked on both databases above)."""
    url = fresh_url("sqlite", tmp_path, "cli.db")
    ok(url, "league", "create", "cup", "--ruleset", "standard")
    return url


def duplicate(db, players, seed=7, league="cup") -> list[list[str]]:
    plan = json.loads(ok(db, "round", "start", "-l", league, "-p", ",".join(players),
                         "--duplicate", "--seed", str(seed), "--json"))
    return [t["players"] for t in plan["tables"]]


def sheet(db, *args, league="cup") -> dict:
    return json.loads(ok(db, "round", "deals", "-l", league, "--json", *args))


def held(cards) -> list[int]:
    return sorted(parse_cards(cards))


def test_each_seat_holds_the_cards_record_checks_for_its_deal(cup):
    """Eleven players: a table of six and one of five. At every table, every seat of deals 1
    to 7 holds what the store checks a hand of that deal against (the seat's player dealt
    the deal's cards from its fixed seat), the kitty too; the dealer, opener and the seat
    sitting out are the deal's."""
    tables = duplicate(cup, FIFTEEN[:11], seed=23)
    data = sheet(cup, "--deals", "7")
    assert (data["seed"], data["deals"], data["mighty"]) == (23, 7, "SA")
    by_size = {size["size"]: size for size in data["sizes"]}
    assert sorted(by_size) == [5, 6]
    checked = 0
    for players in tables:
        size = by_size[len(players)]
        assert players in [table["players"] for table in size["tables"]]
        for deal in size["deals"]:
            proposal = duplicate_proposal(STANDARD, players, deal["deal"])
            dealt = expected_deal(STANDARD, 23, deal["deal"], proposal.players)
            assert players[deal["dealer"] - 1] == proposal.dealer
            assert players[deal["opener"] - 1] == proposal.opener
            assert [players[seat - 1] for seat in deal["sitting_out"]] \
                == list(proposal.sitting_out)
            for seat in deal["seats"]:
                player = players[seat["seat"] - 1]
                if player in proposal.sitting_out:
                    assert seat["sits_out"] and seat["cards"] is None
                else:
                    assert held(seat["cards"]) == sorted(dealt[player])
                    checked += 1
            assert held(deal["kitty"]) == sorted(dealt["kitty"])
    assert checked == 7 * 5 * 2


def test_the_referee_deals_the_opener_the_cards_the_sheet_gives_his_seat(cup):
    tables = duplicate(cup, FIFTEEN, seed=11)
    first = sheet(cup, "--deals", "1")["sizes"][0]["deals"][0]
    opener = next(seat for seat in first["seats"] if seat["seat"] == first["opener"])
    for number, players in enumerate(tables, start=1):
        result = mighty(cup, "referee", "--league", "cup", "--table", str(number), stdin="q\n")
        assert result.exit_code == 0, result.output
        line = next(line for line in result.output.splitlines() if " holds " in line)
        who, cards = line.split(" holds ")
        assert players.index(who) + 1 == first["opener"]
        assert held(cards) == held(opener["cards"])


def test_the_text_lays_out_each_seat_by_suit_high_to_low_the_jokers_last_the_mighty_starred(
        lite):
    """Seed 7, deal 1 at tables of five (worked out by the engine's deal: seat 5 holds ♠A,
    seat 1 the joker); each line within 100 columns."""
    duplicate(lite, FIFTEEN)
    text = ok(lite, "round", "deals", "-l", "cup", "--deals", "2")
    assert text.startswith("Deal sheet of round 1 of cup (standard, seed 7): 2 deals.\n"
                           "Seats count clockwise from each table's first dealer; each hand "
                           "by suit, ♠ ♥ ◆ ♣, high to low, then\nthe jokers; * marks the "
                           "mighty (♠A; ◆A when ♠ is trump).\n\nTables of 5 players:\n")
    deal = text[text.index("Deal 1:"):text.index("Deal 2:")]
    assert deal == ("Deal 1: seat 1 deals, seat 1 opens\n"
                    "  Seat 1  ♠ 9 8       ♥ 5         ◆ 8 6 3    ♣ Q 8 5       JK\n"
                    "  Seat 2  ♠ Q J 10 2  ♥ Q 8       ◆ K Q 9 2\n"
                    "  Seat 3  ♠ 4         ♥ K J 10 3  ◆ 10 7     ♣ K J 9\n"
                    "  Seat 4  ♠ 7         ♥ A 9 6     ◆ J        ♣ 10 7 6 4 2\n"
                    "  Seat 5  ♠ A* K 6 5  ♥ 7 2       ◆ A 4      ♣ A 3\n"
                    "  Kitty   ♠ 3         ♥ 4         ◆ 5\n\n")
    assert max(len(line) for line in text.splitlines()) <= 100


def test_a_long_seating_wraps_within_100_columns(lite):
    names = [f"Player-{letter * 12}" for letter in "ABCDEFGHIJK"]
    duplicate(lite, names)
    text = ok(lite, "round", "deals", "-l", "cup", "--deals", "1")
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "Player-" + "A" * 12 in text


def test_by_default_the_sheet_lays_out_a_score_slips_lines(lite):
    duplicate(lite, FIFTEEN)
    data = sheet(lite)
    assert data["deals"] == 12
    assert [deal["deal"] for deal in data["sizes"][0]["deals"]] == list(range(1, 13))


def test_a_round_that_is_not_duplicate_is_refused_in_one_line(cup):
    ok(cup, "round", "start", "-l", "cup", "-p", ",".join(FIFTEEN[:5]))
    said = refused(cup, "round", "deals", "-l", "cup")
    assert said.startswith("Error: round 1 of league 'cup' is not a duplicate round")


def test_a_missing_league_or_round_is_refused_in_one_line(cup):
    duplicate(cup, FIFTEEN[:5])
    assert "league 'cup' has no round 2" in refused(cup, "round", "deals", "-l", "cup",
                                                    "--round", "2")
    result = mighty(cup, "round", "deals", "-l", "nope")
    assert result.exit_code == 1 and "no league named 'nope'" in result.output


def test_deals_beyond_the_rounds_are_refused(db, tmp_path):
    """A ruleset whose sessions play two hands: a round of two deals; --deals 3 is refused in
    one line, and beyond the sheet's bound is a usage error."""
    ok(db, "league", "create", "cup", "-r", club_file(tmp_path, hands_per_session=2))
    duplicate(db, FIFTEEN[:5])
    assert sheet(db)["deals"] == 2
    said = refused(db, "round", "deals", "-l", "cup", "--deals", "3")
    assert "--deals 3: round 1 plays 2 deals (session.hands_per_session of " \
        "club-session-end)" in said
    refused(db, "round", "deals", "-l", "cup", "--deals", "101", code=2)
    refused(db, "round", "deals", "-l", "cup", "--json", "--html", str(tmp_path / "d.html"),
            code=2)


def test_the_page_escapes_names_and_gives_each_deal_a_page(lite, tmp_path):
    duplicate(lite, ['<b>Ana', 'Bo&Co', 'Cy"q', "Di", "Ed"])
    page = tmp_path / "deals.html"
    said = ok(lite, "round", "deals", "-l", "cup", "--deals", "3", "--html", str(page))
    assert said == f"Wrote {page} (round 1, 3 deals).\n"
    html = page.read_text(encoding="utf-8")
    assert "<b>Ana" not in html and "&lt;b&gt;Ana" in html and "Bo&amp;Co" in html
    assert html.count('<section class="deal"') == 3
    assert "@page { size: A4;" in html and "break-after: page" in html
    assert '<b class="mighty" title="Mighty">A*</b>' in html


def test_korean_text_and_page(lite, tmp_path):
    duplicate(lite, FIFTEEN[:6])
    result = CliRunner().invoke(cli, ["round", "deals", "-l", "cup", "--deals", "1",
                                      "--db", lite], env={"MIGHTY_LANG": "ko"})
    assert result.exit_code == 0, result.output
    assert "1번째 딜: 1번 자리가 딜러, 2번 자리가 선; 1번 자리가 쉽니다\n  1번 자리   쉼\n" \
        in result.output
    assert "\n  바닥 카드  ♠ 3         ♥ 4         ◆ 5\n" in result.output
    assert leftovers(result.output) == []
    assert max(map(display_width, result.output.splitlines())) <= 100
    ok(lite, "league", "set", "cup", "--lang", "ko")
    page = tmp_path / "deals.html"
    ok(lite, "round", "deals", "-l", "cup", "--deals", "1", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert '<html lang="ko">' in html and "cup — 1라운드 딜 시트" in html
    assert "바닥 카드" in html and leftovers(html) == []


def test_the_ghosts_pile_is_laid_out_in_its_dealt_order(tmp_path):
    url = fresh_url("sqlite", tmp_path, "cli.db")
    ok(url, "league", "create", "cup", "--ruleset", "ghost-4")
    players = duplicate(url, ["G", "H", "I", "J"], seed=2)[0]
    text = ok(url, "round", "deals", "-l", "cup", "--deals", "1")
    assert "The ghost's pile is in its dealt order, its top card first." in text
    rules = load_ruleset("ghost-4")
    proposal = duplicate_proposal(rules, players, 1)
    pile = expected_deal(rules, 2, 1, proposal.players)[GHOST]
    line = next(line for line in text.splitlines() if line.startswith("  Ghost "))
    assert parse_cards(line.split()[1:]) == pile


def test_six_handed_the_sheet_says_how_the_eliminated_hand_is_dealt_out(tmp_path):
    url = fresh_url("sqlite", tmp_path, "cli.db")
    ok(url, "league", "create", "cup", "--ruleset", "standard-6")
    duplicate(url, ["A", "B", "C", "D", "E", "F"], seed=2)
    text = ok(url, "round", "deals", "-l", "cup", "--deals", "1")
    assert "After the election the declarer eliminates 1 player: the hand and the kitty are " \
        "dealt out, 2 cards\nto each other player and 5 to the declarer.\n" in text
    data = sheet(url)
    assert data["table"]["eliminated"] == {"players": 1, "each": 2, "declarer": 5}


def test_a_round_that_is_not_duplicate_is_refused_in_korean(lite):
    ok(lite, "round", "start", "-l", "cup", "-p", ",".join(FIFTEEN[:5]))
    result = CliRunner().invoke(cli, ["round", "deals", "-l", "cup", "--db", lite],
                                env={"MIGHTY_LANG": "ko"})
    assert result.exit_code == 1
    assert result.output.startswith("오류: 리그 'cup'의 1라운드는 듀플리케이트 라운드가 아닙니다")
    assert len(result.output.strip().splitlines()) == 1 and leftovers(result.output) == []


def test_a_player_who_joins_mid_round_is_listed_in_the_seat_he_takes(lite):
    players = duplicate(lite, FIFTEEN[:5], seed=2)[0]
    ok(lite, "player", "add", "Zed")
    ok(lite, "round", "seat", "-l", "cup", "--table", "1", "--leave", players[3], "--join",
       "Zed")
    tables = sheet(lite, "--deals", "1")["sizes"][0]["tables"]
    assert tables == [{"table": 1, "players": players[:3] + ["Zed"] + players[4:]}]
