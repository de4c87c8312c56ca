"""The same opener after a redeal in a league (deal_miss.redeal_opener = "same",
rulesets/club-requirements.toml, 001 §3.2): the league finds who opened a stored deal miss (a
refereed hand's record, or the opener the tool proposed for a recorded one) and proposes him
again, as ``mighty replay`` does for a record."""

from __future__ import annotations

import json

from mighty_cli.cli import cli

FIVE = "Ana,Bo,Cy,Di,Ed"


def run(runner, db, *args):
    result = runner.invoke(cli, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


def next_hand(runner, db, league):
    shown = json.loads(run(runner, db, "session", "show", "-l", league, "--json"))["next"]
    return shown["dealer"], shown["opener"]


def test_redeal_opener_same_keeps_the_opener_of_the_missed_deal(runner, db):
    # Bo made 14♠ with Cy: Cy deals hand 2 and Bo opens it (previous_declarer_if_made_else_
    # friend). Di declares a deal miss: the redeal is dealt by Cy again (next_dealer = same)
    # and opened by Bo again, however many deal misses follow. Before the league knew who opened
    # a stored deal miss, it proposed the dealer, Cy.
    run(runner, db, "league", "create", "cr", "-r", "club-requirements")
    run(runner, db, "session", "start", "-l", "cr", "-p", FIVE)
    run(runner, db, "record", "-l", "cr", "-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "16")
    assert next_hand(runner, db, "cr") == ("Cy", "Bo")
    out = run(runner, db, "record", "-l", "cr", "--deal-miss", "Di")
    assert out.splitlines()[-1] == (
        "Next hand: dealer Cy, opener Bo; playing Ana, Bo, Cy, Di, Ed; deposit pot 5"
    )
    run(runner, db, "record", "-l", "cr", "--deal-miss", "Ed")
    assert next_hand(runner, db, "cr") == ("Cy", "Bo")


def test_redeal_opener_follows_the_election_rule_where_it_is_not_same(runner, db):
    # standard: the redeal is opened as election.opener says for its dealer (deal_miss.
    # redeal_opener = "dealer_rule"), whoever opened the missed deal
    run(runner, db, "league", "create", "std", "-r", "standard")
    run(runner, db, "session", "start", "-l", "std", "-p", FIVE)
    run(runner, db, "record", "-l", "std", "-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "16")
    run(runner, db, "record", "-l", "std", "--deal-miss", "Di")
    dealer, opener = next_hand(runner, db, "std")
    assert opener == dealer


def test_redeal_opener_of_a_refereed_deal_miss_is_the_one_its_record_names(runner, db, tmp_path):
    # A refereed deal miss keeps its record, opener included (the table may have changed it):
    # the league reads it there.
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.ledger.hands import record_hand
    from mighty_cli.store.ledger.succession import previous_in_session

    run(runner, db, "league", "create", "cr", "-r", "club-requirements")
    run(runner, db, "session", "start", "-l", "cr", "-p", FIVE)
    engine = make_engine(db)
    try:
        with transaction(engine) as s:
            done = record_hand(
                s,
                "cr",
                players=FIVE.split(","),
                refereed={"opener": "Di", "deal_miss": "Ed"},
                who="test",
            )
            assert done.hand.status == "deal_miss"
            previous = previous_in_session(s, _session_id(s))
            assert (previous.status, previous.opener) == ("deal_miss", "Di")
            assert done.proposal.opener == "Di"
    finally:
        engine.dispose()


def _session_id(s):
    from sqlmodel import select

    from mighty_cli.store.models import LeagueSession

    return s.exec(select(LeagueSession.id)).first()
