"""The export's chunk writers (:mod:`mighty_cli.store.interchange.export_chunks`) against the
general ones: every export, in every format, is the text the general writers give hand by hand from
each hand's view (``toml_hand(export_hand(...))``, ``json.dumps(hand_json(...))``, ``csv_row``
through :mod:`csv`), on leagues holding every kind of hand and awkward names, at any chunk size and
with the caches emptied as they go. The chunk writers do write the plain hands themselves (the
general path is not all that runs), and their CSV quoting is :mod:`csv`'s."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlmodel import Session
from test_interchange import corrected_league

from databases import database_params, made_once, run
from mighty_cli.store.interchange import export_chunks, exports
from mighty_cli.store.interchange.export_chunks import csv_quoted
from mighty_cli.store.interchange.export_text import (
    csv_cell,
    csv_row,
    export_hand,
    hand_json,
    toml_hand,
)
from mighty_cli.store.interchange.exports import (
    CSV_COLUMNS,
    csv_session_times,
    export_league,
    iter_hand_views,
    league_players,
    session_times,
)
from mighty_cli.store.ledger.corrections import void_hand
from mighty_cli.store.ledger.hand_reads import list_hands
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import create_league, league_setting
from mighty_cli.store.ledger.lookups import get_league
from mighty_cli.store.ledger.sessions import end_session, start_session
from mighty_cli.store.ledger.succession import session_proposal

FORMATS = ("toml", "json", "csv")
#: Names a writer must escape or keep apart: quotes, braces and percent signs (templates), a
#: backslash, formula starts (CSV), Hangul.
ODD = ['A "b"', "=SUM(1)", "x;y", "%d {0} }", "back\\slash", "이영희", "-neg"]
NOTES = [
    None,
    "",
    "plain",
    'said "twice", then\nagain',
    "=HYPERLINK()",
    "tab\there",
    "del\x7f",
    "{0} %s",
    "comma, here",
]


def general_export(s: Session, league_name: str, fmt: str) -> str:
    """The export as the general writers write it, hand by hand from each hand's view (the
    header and the JSON standings as the export writes them)."""
    league = get_league(s, league_name)
    names = league_players(s, league.id)
    times = session_times(s, league.id)
    if fmt == "csv":
        times = csv_session_times(times, league_setting(s, league, "timezone"))
    whole = export_league(s, league_name, fmt, bom=fmt == "csv")
    hands, session = [], None
    for view in iter_hand_views(s, league):
        first = view.session != session
        session = view.session
        at = times.get(view.session) if first else None
        if fmt == "toml":
            hands.append(toml_hand(export_hand(view, at)))
        elif fmt == "json":
            hands.append(json.dumps(hand_json(view, at), ensure_ascii=False))
        else:
            out = io.StringIO()
            csv.writer(out, lineterminator="\r\n").writerow(csv_row(view, names, at))
            hands.append(out.getvalue())
    if fmt == "toml":
        head = whole[: whole.index("\n[[hands]]")] if hands else whole
        return head + "".join(hands)
    if fmt == "json":
        head = whole[: whole.index('"hands": [') + len('"hands": [')]
        tail = whole[whole.index('\n ],\n "standings": ') :]
        return head + ("\n  " + ",\n  ".join(hands) if hands else "") + tail
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(
        [csv_cell(c) for c in list(CSV_COLUMNS) + names]
    )
    return "\ufeff" + out.getvalue() + "".join(hands)


def odd_league(engine, name: str = "odd") -> None:
    """Three sessions of six present (one sits out each hand) with awkward names, notes of
    every shape, deal misses, hands without a friend, a voided hand; the last session open."""
    rng = random.Random(5)
    run(engine, create_league, name, "club-requirements", who="t")
    for session in range(3):
        run(
            engine,
            start_session,
            name,
            ODD[session : session + 6] if session < 2 else ODD[:6],
            who="t",
        )
        for _ in range(12):
            players = list(run(engine, session_proposal, name)[1].players)
            if rng.random() < 0.15:
                run(
                    engine,
                    record_hand,
                    name,
                    deal_miss=rng.choice(players),
                    who="t",
                    note=rng.choice(NOTES),
                )
                continue
            declarer, friend = rng.sample(players, 2)
            run(
                engine,
                record_hand,
                name,
                declarer=declarer,
                friend=rng.choice([friend, "none"]),
                contract=rng.choice(["13S", "15H", "16D", "14NT", "20C"]),
                taken=rng.randint(5, 20),
                note=rng.choice(NOTES),
                who="t",
            )
        if session < 2:
            run(engine, end_session, name, who="t")
    run(engine, void_hand, name, 3, who="t", why="x")


def friends_leagues(engine) -> list[str]:
    """6마 hands naming the eliminated, 동대전 7마 hands of one and two friends, 허니문's
    friend hand."""
    rng = random.Random(7)
    six = ["Fiona", "Gustav", "Hugo", "Ivan", "Julia", "Karl"]  # not at 'tue''s open table
    run(engine, create_league, "six", "standard-6", who="t")
    run(engine, start_session, "six", six, who="t")
    for _ in range(6):
        declarer, friend, out = rng.sample(list(run(engine, session_proposal, "six")[1].players), 3)
        run(
            engine,
            record_hand,
            "six",
            declarer=declarer,
            contract="14S",
            friend=friend,
            taken=rng.randint(8, 20),
            eliminated=[out],
            who="t",
        )
    run(engine, end_session, "six", who="t")  # one person, one open table, in any league
    run(engine, create_league, "d7", "dongdaejeon-7", who="t")
    run(engine, start_session, "d7", six + ["Lena"], who="t")
    for index in range(6):
        declarer, friend, second = rng.sample(
            list(run(engine, session_proposal, "d7")[1].players), 3
        )
        run(
            engine,
            record_hand,
            "d7",
            declarer=declarer,
            contract="13C",
            friend=friend,
            taken=rng.randint(10, 24),
            who="t",
            **({"friend2": second} if index % 2 else {}),
        )
    run(engine, end_session, "d7", who="t")
    run(engine, create_league, "hm", "honeymoon", who="t")
    run(engine, start_session, "hm", six[:2], who="t")
    for _ in range(4):
        declarer = rng.choice(list(run(engine, session_proposal, "hm")[1].players))
        run(
            engine,
            record_hand,
            "hm",
            declarer=declarer,
            contract="14S",
            friend=f"{declarer}'s friend",
            taken=rng.randint(8, 20),
            who="t",
        )
    return ["six", "d7", "hm"]


def _make_leagues(url: str) -> list[str]:
    from mighty_cli.store.db import make_engine

    engine = make_engine(url)
    corrected_league(engine)  # imported, refereed, amended, voided, sitting out, open session
    odd_league(engine)
    names = ["tue", "odd"] + friends_leagues(engine)
    engine.dispose()
    return names


@pytest.fixture(params=database_params())
def leagues(request, tmp_path):
    """The five leagues on an engine (made once per session on each database, then copied:
    they take seconds to record) and their names."""
    from mighty_cli.store.db import make_engine

    url, names = made_once(request.param, tmp_path, "export-chunks", _make_leagues)
    engine = make_engine(url)
    yield engine, names
    engine.dispose()


def exported(engine, name: str, fmt: str) -> str:
    return run(engine, export_league, name, fmt, bom=fmt == "csv")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_export_is_the_general_writers_text_hand_by_hand(leagues, fmt):
    engine, names = leagues
    for name in names:
        with Session(engine) as s:
            assert exported(engine, name, fmt) == general_export(s, name, fmt), (name, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_chunk_size_and_emptied_caches_change_nothing(leagues, fmt, monkeypatch):
    engine, names = leagues
    whole = {name: exported(engine, name, fmt) for name in names}
    monkeypatch.setattr(exports, "CHUNK", 3)  # sessions and voided hands across chunks
    monkeypatch.setattr(exports, "SEATINGS", 2)  # seatings worked out again and again
    monkeypatch.setattr(export_chunks._Texts.__init__, "__defaults__", (3,))  # names, calls...
    for name in names:
        assert exported(engine, name, fmt) == whole[name], (name, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_chunk_writers_write_plain_hands_themselves(leagues, fmt, monkeypatch):
    """Only what the chunk writers do not cover goes the general way: a refereed hand's
    record (TOML, JSON), two friends, 허니문's friend hand."""
    general = []
    for writer in ("toml_export_hand", "json_export_hand", "csv_row"):
        original = getattr(export_chunks, writer)

        def spy(view, *args, original=original):
            general.append(view)
            return original(view, *args)

        monkeypatch.setattr(export_chunks, writer, spy)
    engine, names = leagues
    for name in names:
        general.clear()
        with Session(engine) as s:
            views = list(iter_hand_views(s, get_league(s, name)))
        exported(engine, name, fmt)
        expected = [
            v
            for v in views
            if v.friend2
            or (v.friend and v.friend.endswith("'s friend"))
            or fmt != "csv"
            and v.full
            and v.record_toml
        ]
        assert [v.number for v in general] == [v.number for v in expected], (name, fmt)
        if name in ("odd", "tue", "six"):
            assert len(general) < len(views)


def test_a_hand_without_player_rows_is_written_as_the_general_writers_write_it(engine):
    from sqlalchemy import delete

    from mighty_cli.store.models import Hand, HandPlayer

    odd_league(engine)
    with Session(engine) as s:
        hand_id = s.exec(Hand.__table__.select().where(Hand.number == 5)).first().id
        s.execute(delete(HandPlayer).where(HandPlayer.hand_id == hand_id))
        s.commit()
    for fmt in FORMATS:
        with Session(engine) as s:
            assert exported(engine, "odd", fmt) == general_export(s, "odd", fmt)
    assert "number = 5\nsession = 1\ndate = " in exported(engine, "odd", "toml")


def test_csv_quoting_is_the_csv_modules_for_every_character():
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for code in [*range(0xD800), *range(0xE000, 0x10000), 0x1F600, 0x10FFFF]:
        cell = f"a{chr(code)}b"
        out.seek(0)
        out.truncate()
        writer.writerow([cell, ""])
        assert out.getvalue() == csv_quoted(cell) + ",\r\n", hex(code)


@given(st.text())
def test_csv_quoting_is_the_csv_modules_for_any_text(text):
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(["", text, ""])
    assert out.getvalue() == f",{csv_quoted(text)},\r\n"


def test_leagues_whose_hands_interleave_read_their_own_players(engine):
    """Two leagues recording turn about (their hand ids interleave), a voided hand between:
    each league's views, read three hands at a time, are the ORM's reading of its hands, and
    its export is the general writers' text."""
    for name in ("a", "b"):
        run(engine, create_league, name, "standard", who="t")
    run(engine, start_session, "a", ["Ana", "Bo", "Cy", "Di", "Ed"], who="t")
    run(engine, start_session, "b", ["Fiona", "Gustav", "Hugo", "Ivan", "Julia", "Karl"], who="t")
    rng = random.Random(11)
    for _ in range(9):
        for name in ("a", "b"):
            declarer, friend = rng.sample(list(run(engine, session_proposal, name)[1].players), 2)
            run(
                engine,
                record_hand,
                name,
                declarer=declarer,
                contract="14S",
                friend=friend,
                taken=rng.randint(8, 20),
                who="t",
            )
    run(engine, void_hand, "a", 4, who="t", why="x")
    for name in ("a", "b"):
        with Session(engine) as s:
            league = get_league(s, name)
            for voided in (False, True):
                views = list(iter_hand_views(s, league, include_voided=voided, chunk=3))
                assert views == list_hands(s, name, include_voided=voided)
        for fmt in FORMATS:
            text = exported(engine, name, fmt)
            with Session(engine) as s:
                assert text == general_export(s, name, fmt)
