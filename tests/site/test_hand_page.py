"""A hand's page tells the story (issue 24 item 5): the outcome first, as the league counts it
(the contract made or failed and by how much, the declarer, the friend and when he came out,
each side's point cards, the doublings, every seat's score: what `mighty hand show` and the
session page say), then the deal and the tricks, each trick's winning card and point cards
marked; a Korean page in Korean words and one card notation (issue 24 item 6)."""

from __future__ import annotations

import re
import shutil

import pytest

from databases import run
from site_league import LEAGUE, REFEREED, Page, read

#: The refereed hands of the test league (site_league.make_league), by number.
HANDS = {31 + index: name for index, name in enumerate(REFEREED)}


@pytest.fixture(scope="module")
def league(tmp_path_factory, league_file):
    """The test league, its site in English and in Korean, and each hand as the store says."""
    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.hand_reads import show_hand

    folder = tmp_path_factory.mktemp("hand-page")
    shutil.copyfile(league_file, folder / "league.db")
    engine = make_engine(f"sqlite:///{folder / 'league.db'}")
    for lang in ("en", "ko"):
        run(engine, build_site, LEAGUE, folder / lang, lang=lang, timezone_name="Asia/Seoul")
    views = {n: run(engine, show_hand, LEAGUE, n) for n in range(31, 39)}
    yield folder, engine, views
    engine.dispose()


def outcome_of(page: Page) -> dict[str, str]:
    """The outcome section's facts (dd by class) and its verdict."""
    html = page.html.split('<section id="outcome"', 1)[1].split("</section>", 1)[0]
    facts = {
        cls: re.sub(r"<[^>]+>", "", text)
        for cls, text in re.findall(r'<dd class="(\w+)">(.*?)</dd>', html)
    }
    facts["verdict"] = re.sub(
        r"<[^>]+>", "", re.search(r'<p class="verdict[^"]*">(.*?)</p>', html).group(1)
    )
    return facts


def scores_of(page: Page) -> dict[str, tuple[str, int]]:
    """Each seat's role and score from the outcome's table."""
    return {
        cells[0]: (cells[1], int(cells[-1].replace("+", "")))
        for _, cells in page.rows_of("scores")[1:]
    }


def target(contract: str) -> int:
    from mighty_cli.engine import load_ruleset
    from mighty_cli.engine.cards import parse_bid

    return load_ruleset("standard").contract_target(parse_bid(contract).number)


@pytest.mark.parametrize("number", sorted(HANDS))
def test_the_outcome_comes_first_and_is_the_leagues(league, number):
    folder, _, views = league
    view = views[number]
    page = read(folder / "en", f"hands/{number}.html")
    html = page.html
    assert html.index('id="outcome"') < html.index('id="deal"') < html.index('id="tricks"')
    facts = outcome_of(page)
    assert facts["declarer"] == view.declarer
    if view.friend:
        assert facts["friend"].startswith(view.friend + " (")
    else:
        assert facts["friend"].startswith("no friend")
    margin = abs(view.taken - target(view.contract))
    word = "made" if view.success else "failed"
    assert facts["verdict"].endswith(f"{word} by {margin}" if margin else f"{word} exactly")
    assert (
        f"ruling party (여당) {view.taken} · opposition (야당) {20 - view.taken}" in facts["taken"]
    )
    assert facts["contract"].startswith(("♠", "◆", "♥", "♣", "no-trump"))
    # every seat's score is the hand's stored one, as the session page shows it too
    scores = scores_of(page)
    assert {name: score for name, (_, score) in scores.items()} == view.deltas
    assert scores[view.declarer][0] == "Declarer"
    session = read(folder / "en", f"sessions/{view.session}.html")
    columns = [cells for _, cells in session.rows_of("hands")[:1]][0][8:]
    row = next(
        cells for attrs, cells in session.rows_of("hands") if attrs.get("id") == f"hand-{number}"
    )
    shown = {
        name: int(value.replace("+", "")) for name, value in zip(columns, row[8:]) if value != "–"
    }
    assert shown == view.deltas


def test_made_and_failed_both_shown(league):
    folder, _, views = league
    verdicts = {n: read(folder / "en", f"hands/{n}.html").all("p") for n in HANDS}
    classes = {
        n: next(a["class"] for a in tags if a.get("class", "").startswith("verdict"))
        for n, tags in verdicts.items()
    }
    assert {"verdict made", "verdict failed"} <= set(classes.values())
    assert all(
        classes[n] == ("verdict made" if views[n].success else "verdict failed") for n in HANDS
    )
    # run: the ruling party took every point card, doubled
    run_hand = next(n for n, name in HANDS.items() if name == "run")
    facts = outcome_of(read(folder / "en", f"hands/{run_hand}.html"))
    assert facts["taken"].startswith("ruling party (여당) 20 · opposition (야당) 0")
    assert "×2" in facts["doublings"] and "run" in facts["doublings"]


def trick_rows(page: Page) -> list[tuple[list[tuple[str, str, str]], str, int]]:
    """Each trick: its cards (classes, who played it, face), its winner and its points."""
    body = page.html.split('<table class="tricks">', 1)[1].split("</table>", 1)[0]
    result = []
    for row in re.findall(r'<tr><td class="num">\d+</td>(.*?)</tr>', body):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        spans = re.findall(r'<span class="([^"]*)" title="([^"]*)">([^<]*)</span>', cells[1])
        result.append((spans, re.sub(r"<[^>]+>", "", cells[2]), int(cells[3])))
    return result


def test_the_friend_is_shown_with_the_trick_his_card_came_out_in(league):
    from mighty_cli.render.html import card_face

    folder, _, views = league
    shown = 0
    for number in HANDS:
        view = views[number]
        page = read(folder / "en", f"hands/{number}.html")
        found = re.search(r"revealed in trick (\d+)", outcome_of(page)["friend"])
        assert (found is None) == (view.friend is None)
        if found is None:
            continue
        spans = trick_rows(page)[int(found.group(1)) - 1][0]
        played = [face for _, who, face in spans if who == view.friend]
        called = {"mighty": ("♠A", "◆A")}.get(view.friend_call, (card_face(view.friend_call),))
        assert played and played[0].rstrip("!").split("/")[0] in called
        shown += 1
    assert shown >= 2


def test_each_trick_marks_its_winning_card_and_its_point_cards(league):
    folder, _, _ = league
    for number in HANDS:
        tricks = trick_rows(read(folder / "en", f"hands/{number}.html"))
        assert len(tricks) == 10
        for spans, winner, points in tricks:
            assert [who for classes, who, _ in spans if "winner" in classes.split()] == [winner]
            assert sum(1 for classes, _, _ in spans if "point" in classes.split()) == points
            for classes, _, face in spans:
                rank = face.rstrip("!").split("/")[0][1:]
                if not face.startswith("JK"):  # the joker scores nothing under standard
                    assert ("point" in classes.split()) == (rank in ("10", "J", "Q", "K", "A"))


#: English words that must not stay on a Korean hand page.
ENGLISH = (
    "joker",
    "friend",
    "made",
    "failed",
    "declarer",
    "pass",
    "kitty",
    "trump",
    "no-trump",
    "outcome",
    "opposition",
    "ruling",
    "revealed",
    "trick",
    "exactly",
    "card",
    "contract",
    "dealer",
    "deal",
    "session",
    "score",
    "mighty",
    "run",
    "by",
)


def visible_text(page: Page) -> str:
    """The text of the page's main part, without the players' names."""
    main = page.html.split("<main>", 1)[1].split("</main>", 1)[0]
    text = re.sub(r"<[^>]+>", " ", main)
    for name in ("Bo", "Cy", "Di", "Ed", "Ana"):
        text = re.sub(rf"\b{name}\b", " ", text)
    return text


@pytest.mark.parametrize("number", sorted(HANDS))
def test_a_korean_hand_page_speaks_korean_in_one_card_notation(league, number):
    folder, _, views = league
    page = read(folder / "ko", f"hands/{number}.html")
    text = visible_text(page)
    words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]+", text)} - {"jk"}
    assert words & set(ENGLISH) == set()
    assert words == set()  # nothing but the joker's notation is Latin
    # cards, bids and calls all in the suit symbols the hands are dealt in
    assert re.search(r"\b[SDHC](10|[2-9AKQJ])\b", text) is None
    assert re.search(r"\b\d{2}(S|D|H|C|NT)\b", text) is None
    facts = outcome_of(page)
    view = views[number]
    assert facts["declarer"] == view.declarer
    assert facts["verdict"].endswith("성공" if view.success else "실패")
    assert f"여당 {view.taken}" in facts["taken"]
    assert scores_of(page)[view.declarer][0] == "주공"
    assert "패스" in page.text("p")


def test_a_voided_refereed_hand_says_so(tmp_path, engine):
    from mighty_cli.site.build import build_site
    from mighty_cli.store.ledger.corrections import void_hand

    run(engine, void_hand, LEAGUE, 33, who="t", why="misdeal")
    run(engine, build_site, LEAGUE, tmp_path / "site", lang="ko")
    page = read(tmp_path / "site", "hands/33.html")
    assert page.all("section", id="outcome")[0]["class"] == "voided"
    assert "무효" in page.text("p")
    assert (
        read(tmp_path / "site", "hands/31.html").all("section", id="outcome")[0]["class"]
        == "scored"
    )
    engine.dispose()


def test_an_outcome_only_hand_tells_the_same_facts(league):
    """The outcome section reads a hand's stored rows, whether it was refereed or recorded
    outcome only (then the session page is its page): made by 1, failed by 3, the voided."""
    from mighty_cli.engine import load_ruleset
    from mighty_cli.site import page_reads as q
    from mighty_cli.site.hand_page import hand_outcome, outcome_facts
    from mighty_cli.store.db import transaction
    from mighty_cli.store.ledger.lookups import get_league

    _, engine, views = league
    rules = load_ruleset("standard")
    with transaction(engine) as s:
        league_id = get_league(s, LEAGUE).id
        lines = {h.number: h for _, hands in q.iter_session_hands(s, league_id) for h in hands}
    made, failed, voided = (hand_outcome(rules, outcome_facts(lines[n])) for n in (36, 37, 38))
    assert (made.success, made.margin, made.taken, made.opposition) == (True, 1, 15, 5)
    assert (failed.success, failed.margin, failed.taken, failed.opposition) == (False, 3, 11, 9)
    assert voided.voided and made.corrected
    for outcome, number in ((made, 36), (failed, 37)):
        view = views[number]
        assert (outcome.declarer, outcome.friend, outcome.contract, outcome.call_kind) == (
            view.declarer,
            view.friend,
            view.contract,
            "card",
        )
        assert {x.name: x.delta for x in outcome.seats} == view.deltas
        assert [x.role for x in outcome.seats].count("declarer") == 1


def test_two_called_cards_under_dongdaejeon_7_show_each_friend_where_he_came_out(tmp_path):
    """동대전 7마: the declarer calls two cards (``S9+H10``). Hands played by the engine's
    simulation, imported and published: each hand page names both cards, the friends (the
    cards' holders other than the declarer: two, or one holding both) and the trick where
    each friend first played a called card, as read from the record alone."""
    from mighty_cli.engine import load_ruleset
    from mighty_cli.engine.records import Record
    from mighty_cli.engine.simulation import simulate
    from mighty_cli.render.html import card_face
    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.hand_reads import show_hand
    from mighty_cli.store.ledger.leagues import create_league

    players = ["Ana", "Bo", "민수", "Di", "Ed", "지우", "Gus"]
    record = simulate(load_ruleset("dongdaejeon-7"), "dongdaejeon-7", players, 12, 3).record
    engine = make_engine(f"sqlite:///{tmp_path / 'league.db'}")
    run(engine, create_league, "동대전", "dongdaejeon-7")
    run(engine, import_record, "동대전", Record("dongdaejeon-7", players, record.hands))
    for lang in ("en", "ko"):
        run(engine, build_site, "동대전", tmp_path / lang, lang=lang)
    told = set()
    for number, hand in enumerate(record.hands, 1):
        if "+" not in hand.get("friend", ""):
            continue
        declarer = run(engine, show_hand, "동대전", number).declarer
        holder = {
            card: name
            for name, cards in hand["deal"].items()
            if name != "kitty"
            for card in cards.split()
        }
        first: dict[str, int] = {}
        for card in hand["friend"].split("+"):
            who = holder.get(card, declarer)  # a card of the kitty: the declarer's
            trick = next(
                (
                    n
                    for n, cards in enumerate(hand["tricks"], 1)
                    if card in [x.split("/")[0].rstrip("!") for x in cards.split()]
                ),
                None,
            )  # None: discarded
            if who != declarer and trick is not None:
                first[who] = min(trick, first.get(who, trick))
        tricks = sorted(set(first.values()))
        friend = outcome_of(read(tmp_path / "en", f"hands/{number}.html"))["friend"]
        names, _, said = friend.partition(" (")
        assert set(names.split(", ")) == set(first), (number, friend)
        faces = "+".join(card_face(card) for card in hand["friend"].split("+"))
        revealed = (
            f"revealed in trick {tricks[0]}"
            if len(tricks) == 1
            else f"revealed in tricks {', '.join(map(str, tricks))}"
        )
        assert said == f"card friend {faces}, {revealed})", (number, friend)
        korean = outcome_of(read(tmp_path / "ko", f"hands/{number}.html"))["friend"]
        assert f"{', '.join(map(str, tricks))}턴에 드러남" in korean, (number, korean)
        told.add(len(first))
    assert told == {1, 2}  # hands with two friends, and with one holding both cards
    engine.dispose()
