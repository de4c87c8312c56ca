"""The tablet referee over HTTP (``/tables/T/referee``): whole hands tapped by the page's own
buttons and stored exactly as the terminal referee stores the same hand typed at it; an
illegal card refused with the terminal's reason; undo across a trick; a page reloaded, a
second tablet and the terminal going on at the same card; one tablet at a time."""

from __future__ import annotations

import html
import random
import sqlite3

import pytest
from refereeing import (
    Tablet,
    engine_lines,
    live_record,
    play_through,
    proposal,
    stored_hands,
    tap_lines,
    terminal,
)
from serving import make_app, mighty, round_json

from databases import database_params, fresh_url, made_once

FIVE = "Ana,Bo,Cy,Di,Ed"


def one_table(url: str, ruleset: str = "standard", players: str = FIVE) -> None:
    mighty("league", "create", "cup", "--ruleset", ruleset, db=url)
    mighty("round", "start", "-l", "cup", "--players", players, db=url)


def two_copies(tmp_path, key: str, build=one_table) -> tuple[str, str]:
    """The same league twice: one refereed on the tablet, one at the terminal."""
    web, _nothing = made_once("sqlite", tmp_path, key, build, name="web.db")
    with (
        sqlite3.connect(tmp_path / "web.db") as source,
        sqlite3.connect(tmp_path / "terminal.db") as copy,
    ):
        source.backup(copy)
    source.close()
    copy.close()
    return web, f"sqlite:///{tmp_path / 'terminal.db'}"


def code(db: str, table: int = 1) -> str:
    return round_json(db)["tables"][table - 1]["code"]


@pytest.fixture
def leagues(tmp_path):
    return two_copies(tmp_path, "referee-five")


def client_for(db: str, folder, address: str = "10.0.0.7"):
    from starlette.testclient import TestClient

    return TestClient(make_app(db, folder), client=(address, 50000))


@pytest.fixture
def tablet(leagues, tmp_path):
    web, _typed = leagues
    with client_for(web, tmp_path / "served") as client:
        yield Tablet(client)


def test_a_seeded_hand_tapped_on_the_tablet_is_stored_as_the_terminal_stores_it(leagues, tablet):
    web, typed = leagues
    page = tablet.start(code(web), seed=42)
    assert page.status == 200 and page.has("election")
    page = play_through(tablet, random.Random(5))
    assert any("saved to league cup as table 1's hand 1" in line for line in page.said)
    assert page.has("election")  # the next hand is asked for at once
    output = terminal(typed, tablet.lines, "--seed", "42")
    assert "saved to league cup as table 1's hand 1" in output
    assert stored_hands(web) == stored_hands(typed) and len(stored_hands(web)) > 1
    # one tap per card, a dozen at most for the election, the exchange and the call
    assert tablet.taps <= 50 + 12
    with sqlite3.connect(web.removeprefix("sqlite:///")) as connection:
        who = connection.execute("SELECT who FROM change_log ORDER BY id").fetchall()
    connection.close()
    assert who[-1] == ("table 1 (Ref)",)  # the table, and the name its referee gave


def test_an_illegal_card_is_refused_with_the_terminals_reason(leagues, tablet):
    web, typed = leagues
    tablet.start(code(web), seed=42)
    page = play_through(tablet, random.Random(5), stop=lambda page: page.has("play"))
    page = tablet.tap(line=page.cards()[0])  # the lead
    greyed = page.cards(greyed=True)
    assert greyed, "a card that cannot follow suit is greyed"
    before = live_record(web)
    refused = tablet.tap(line=greyed[0])
    assert refused.status == 422 and refused.said[0].startswith("✗ trick 1:")
    assert live_record(web) == before  # nothing changed
    assert refused.prompt == page.prompt  # asked again
    # the greyed card said so before it was tapped, in the same words
    assert f'data-reason="{refused.said[0][2:]}"' in html.unescape(page.html)
    output = terminal(typed, [*tablet.lines, greyed[0]], "--seed", "42")
    assert refused.said[0] in output


def into_trick_two(tablet: Tablet, web: str, seed: int | None = 42):
    """Start refereeing and tap until trick 2 has its lead on the table."""
    tablet.start(code(web), seed=seed)
    return play_through(
        tablet, random.Random(5), stop=lambda page: page.prompt.startswith("[trick 2, ")
    )


def test_undo_goes_back_across_a_trick_and_the_league_keeps_it(leagues, tablet):
    web, _typed = leagues
    page = into_trick_two(tablet, web)
    played = len(tablet.lines)
    page = tablet.tap(line="undo")
    assert page.said[0].startswith("↶ took back") and page.prompt.startswith("[trick 2]")
    page = tablet.tap(line="undo")  # the last card of trick 1
    assert page.prompt.startswith("[trick 1, ") and "4 point" not in page.prompt
    kept = live_record(web)
    assert kept is not None and kept.count("\n") > 0
    resumed = Tablet(tablet.client)
    assert resumed.open().prompt == page.prompt  # the league holds the hand as shown
    page = tablet.tap(line="undo to 1")
    assert page.prompt.startswith("[trick 1] ") and len(tablet.lines) == played + 3
    assert page.has("play") and "undo to 1" not in page.html


def test_the_same_tap_sent_twice_is_entered_once(leagues, tablet):
    web, _typed = leagues
    page = into_trick_two(tablet, web)
    card = page.cards()[0]
    before = live_record(web).count(card.upper())  # in the deal
    form = {"at": page.at, "line": card}
    first = tablet.client.post(tablet.address, data=form)
    again = tablet.client.post(tablet.address, data=form)
    assert first.status_code == again.status_code == 200
    assert first.text.count(card.upper()) == again.text.count(card.upper())
    stale = tablet.client.post(tablet.address, data={"at": page.at, "line": "undo"})
    assert stale.status_code == 409 and "nothing was entered" in stale.text
    assert live_record(web).count(card.upper()) == before + 1


def test_a_reloaded_page_and_a_restarted_server_go_on_at_the_same_card(leagues, tablet, tmp_path):
    web, _typed = leagues
    page = into_trick_two(tablet, web)
    again = tablet.open()
    assert (again.status, again.prompt, again.at) == (200, page.prompt, page.at)
    assert again.cards() == page.cards()
    # the server stopped and started again: the tablet's cookies find the hand in the league
    with client_for(web, tmp_path / "again") as restarted:
        restarted.cookies.update(tablet.client.cookies)
        after = Tablet(restarted)
        reopened = after.open()
        assert (reopened.prompt, reopened.at) == (page.prompt, page.at)
        card = reopened.cards()[0]
        assert after.tap(line=card).status == 200
        assert card.upper() in live_record(web)


def test_a_second_tablet_is_told_who_holds_the_table_and_takes_it_over(leagues, tablet, tmp_path):
    web, _typed = leagues
    page = into_trick_two(tablet, web)
    from starlette.testclient import TestClient

    with TestClient(tablet.client.app, client=("10.0.0.9", 50000)) as other:
        second = Tablet(other)
        shown = second.open()
        assert "Ref holds this table" in shown.html and shown.has("election") is False
        refused = second.start(code(web), who="Mina")
        assert refused.status == 409 and "confirm to take it over" in refused.html
        taken = second.start(code(web), who="Mina", take=True)
        assert (taken.status, taken.prompt, taken.at) == (200, page.prompt, page.at)
        late = tablet.tap(line=page.cards()[0])
        assert late.status == 409 and "Mina" in late.html and "nothing was entered" in late.html
        assert second.tap(line=taken.cards()[0]).status == 200


def test_the_terminal_goes_on_where_the_tablet_left_and_the_tablet_is_told(leagues, tablet):
    web, _typed = leagues
    page = into_trick_two(tablet, web)
    output = terminal(web, [])
    assert "table 1, hand 1 resumed at the same card" in output
    assert page.prompt.split("]")[0] in output
    late = tablet.tap(line=page.cards()[0])
    assert late.status == 409 and "another window (the terminal referee" in late.html
    taken = tablet.start(code(web), take=True)
    assert (taken.prompt, taken.at) == (page.prompt, page.at)


def test_a_deal_miss_is_stored_as_the_terminal_stores_it(leagues, tablet):
    web, typed = leagues
    page = tablet.start(code(web))  # open cards: anyone may declare one
    assert page.has("miss")
    player = page.form("miss").selects["player"][2]
    page = tablet.tap(line="miss", player=player)
    assert any("declares a deal miss" in line for line in page.said)
    assert any("saved to league cup" in line for line in page.said)
    terminal(typed, tablet.lines)
    assert stored_hands(web) == stored_hands(typed)
    assert stored_hands(web)[0][1] == "deal_miss"


def test_an_open_cards_hand_is_stored_as_the_terminal_stores_it(leagues, tablet):
    from mighty_cli.engine.ruleset import load_ruleset

    web, typed = leagues
    dealer, opener, players = proposal(tablet.start(code(web)))
    page = tap_lines(tablet, engine_lines(load_ruleset("standard"), players, dealer, opener, 7))
    assert any("saved to league cup" in line for line in page.said)
    terminal(typed, tablet.lines)
    assert stored_hands(web) == stored_hands(typed)


#: Every table shape the terminal referee plays, with its players: 6마 and 7마 with their
#: eliminations, two jokers, 허니문's friend hands, ghost 4마's pile, 8마's two decks.
SHAPES = {
    "standard-6": 6,
    "standard-7": 7,
    "double-joker": 5,
    "honeymoon": 2,
    "ghost-4": 4,
    "chicago-8": 8,
}
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu"]


def shape_leagues(tmp_path, ruleset: str) -> tuple[str, str]:
    count = SHAPES[ruleset]

    def build(url: str) -> None:
        one_table(url, ruleset, ",".join(NAMES[:count]))

    return two_copies(tmp_path, f"referee-{ruleset}", build)


@pytest.mark.parametrize("ruleset", ["standard-6", "double-joker", "honeymoon", "chicago-8"])
def test_a_seeded_hand_of_each_table_shape_is_stored_as_the_terminal_stores_it(tmp_path, ruleset):
    web, typed = shape_leagues(tmp_path, ruleset)
    with client_for(web, tmp_path / "served") as client:
        tablet = Tablet(client)
        tablet.start(code(web), seed=42)
        page = play_through(tablet, random.Random(5))
    assert any("saved to league cup" in line for line in page.said)
    if ruleset == "standard-6":  # the declarer eliminated a player (탈락) on the page
        hand, *roles = stored_hands(web)
        assert "elimination = [" in hand[18]
        assert [row[4] for row in roles].count("eliminated") == 1
    terminal(typed, tablet.lines, "--seed", "42")
    assert stored_hands(web) == stored_hands(typed)


@pytest.mark.parametrize("ruleset", ["standard-7", "ghost-4"])
def test_an_open_cards_hand_of_each_table_shape_is_stored_as_the_terminal_stores_it(
    tmp_path, ruleset
):
    from mighty_cli.engine.ruleset import load_ruleset

    web, typed = shape_leagues(tmp_path, ruleset)
    with client_for(web, tmp_path / "served") as client:
        tablet = Tablet(client)
        dealer, opener, players = proposal(tablet.start(code(web)))
        page = tap_lines(tablet, engine_lines(load_ruleset(ruleset), players, dealer, opener, 7))
    assert any("saved to league cup" in line for line in page.said)
    terminal(typed, tablet.lines)
    assert stored_hands(web) == stored_hands(typed)


def test_a_referee_named_in_korean_is_kept_and_named_to_a_second_tablet(leagues, tablet):
    web, _typed = leagues
    page = tablet.start(code(web), who="민지", seed=42)
    assert page.status == 200 and page.has("election")
    assert tablet.open().has("election")  # the name's cookie read back
    from starlette.testclient import TestClient

    with TestClient(tablet.client.app, client=("10.0.0.9", 50000)) as other:
        shown = Tablet(other).open()
    assert "민지 holds this table" in html.unescape(shown.html)


@pytest.mark.parametrize("line", ["save {tmp}/evening.toml", "저장 {tmp}/e.toml", "quit", "q"])
def test_a_tablet_may_not_save_a_file_on_the_server_nor_quit(leagues, tablet, tmp_path, line):
    web, _typed = leagues
    page = tablet.start(code(web), seed=42)
    before = sorted(path.name for path in tmp_path.iterdir())
    refused = tablet.tap(text=line.format(tmp=tmp_path))
    assert refused.status == 422 and "not from a tablet" in refused.html
    assert refused.prompt == page.prompt and tablet.open().has("election")
    assert sorted(path.name for path in tmp_path.iterdir()) == before


@pytest.mark.parametrize("kind", database_params())
def test_a_tablet_and_the_terminal_hand_the_table_back_and_forth(kind, tmp_path):
    url = fresh_url(kind, tmp_path)
    one_table(url)
    with client_for(url, tmp_path / "served") as client:
        tablet = Tablet(client)
        page = into_trick_two(tablet, url)
        card = page.cards()[0]
        output = terminal(url, [card])  # the terminal takes the hand up and plays a card
        assert "resumed at the same card" in output and output.count("✓") == 1
        late = tablet.tap(line=page.cards()[-1])
        assert late.status == 409 and "another window" in late.html
        taken = tablet.start(code(url), take=True)
        assert taken.status == 200 and taken.at != page.at  # one card further
        assert play_through(tablet, random.Random(3)).status == 200
    assert round_json(url)["tables"][0]["hands"] == 1


def test_a_tap_needs_the_tables_code_and_this_sites_page(leagues, tablet, tmp_path):
    web, _typed = leagues
    page = tablet.start(code(web), seed=42)
    kept = live_record(web)
    from starlette.testclient import TestClient

    with TestClient(tablet.client.app, client=("10.0.0.9", 50000)) as stranger:
        stranger.cookies.update(
            {
                name: value
                for name, value in tablet.client.cookies.items()
                if name.startswith("mighty_referee")
            }
        )  # a token, no code
        refused = stranger.post(tablet.address, data={"at": page.at, "line": "pass"})
        assert refused.status_code == 403 and "entry code" in refused.text
        wrong = stranger.post(tablet.address + "/start", data={"code": "x", "who": "Eve"})
        assert wrong.status_code == 403
    forged = tablet.client.post(
        tablet.address,
        data={"at": page.at, "line": "pass"},
        headers={"sec-fetch-site": "cross-site"},
    )
    assert forged.status_code == 403 and live_record(web) == kept
    assert tablet.tap(number="abc", suit="s").status == 400
    assert tablet.tap(line="card:c5").status == 400  # a card called without its holder
    assert tablet.open().at == page.at  # nothing entered


@pytest.mark.parametrize("seen_by", ["a tap", "a reload"])
def test_a_hand_recorded_elsewhere_meanwhile_is_said_and_the_next_hand_asked(
    leagues, tablet, seen_by
):
    web, _typed = leagues
    page = into_trick_two(tablet, web)
    players = round_json(web)["tables"][0]["players"]
    mighty(
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        players[0],
        "-c",
        "15D",
        "-f",
        players[1],
        "-t",
        "16",
        db=web,
    )  # a keeper's entry replaces the tablet's hand
    late = tablet.tap(line=page.cards()[0]) if seen_by == "a tap" else tablet.open()
    assert "entered meanwhile elsewhere" in late.html
    assert late.status == (409 if seen_by == "a tap" else 200)
    assert late.has("election") and late.at.startswith("2.")  # the table's hand 2
