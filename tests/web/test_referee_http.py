"""The tablet referee over HTTP (``/tables/T/referee``): whole hands tapped by the page's own
buttons and stored exactly as the terminal referee stores the same hand typed at it; an
illegal card refused with the terminal's reason; undo across a trick; a page reloaded, a
second tablet and the terminal going on at the same card; one tablet at a time."""

from __future__ import annotations

import html
import random

import pytest

from databases import made_once
from refereeing import Tablet, live_record, play_through, stored_hands, terminal
from serving import KEY, make_app, mighty, round_json

FIVE = "Ana,Bo,Cy,Di,Ed"


def one_table(url: str, ruleset: str = "standard", players: str = FIVE) -> None:
    mighty("league", "create", "cup", "--ruleset", ruleset, db=url)
    mighty("round", "start", "-l", "cup", "--players", players, db=url)


def two_copies(tmp_path, key: str, build=one_table) -> tuple[str, str]:
    """The same league twice: one refereed on the tablet, one at the terminal."""
    import sqlite3

    web, _nothing = made_once("sqlite", tmp_path, key, build, name="web.db")
    with sqlite3.connect(tmp_path / "web.db") as source, \
            sqlite3.connect(tmp_path / "terminal.db") as copy:
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


def test_a_seeded_hand_tapped_on_the_tablet_is_stored_as_the_terminal_stores_it(
        leagues, tablet):
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
