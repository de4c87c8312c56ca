"""A league table's evening opened for a front end: the session's ruleset, seating, succession
and seed, and its hand in progress taken up at the same card.

``mighty referee --league`` opens its evening in ``cli/evening_setup.py`` (which also takes
``--players``, ``--deal`` and a record to resume); a front end that only opens a table of the
league (the tablet referee of ``mighty serve``) opens it here, on the same
:class:`~.evening.Evening` and :class:`~.books.LeagueBook`. :func:`resume_live` (a hand in
progress rebuilt from its record, for undo) is shared by both.
"""

from __future__ import annotations

from ..engine.errors import MightyError
from ..engine.records import read_record, replay
from ..engine.session import Proposal, playing_order
from ..engine.translation import N_, _
from .books import LeagueBook
from .evening import Evening
from .referee_session import deal_cards, rebuild

# Deferred imports: the store (SQLModel, SQLAlchemy) loads inside open_table_evening, only when
# a league's table is opened, as in books.py: the command line's start-up never pays for it.

#: The line saying a hand in progress goes on (a session's own numbering, or a round's table).
RESUMED = N_("— hand {number} resumed at the same card")
RESUMED_AT_TABLE = N_("— table {table}, hand {number} resumed at the same card")


def resume_live(evening: Evening, rules, ruleset_name: str, text: str) -> list[str]:
    """Rebuild the evening's hand in progress from its record (hand-record TOML), every action
    replayed so it can be taken back; the lines saying so (none: nothing to resume)."""
    record = read_record(text, source=_("the hand in progress"))
    result = replay(record, rules)
    outcome, raw = result.hands[-1], record.hands[-1]
    if outcome.state is None:
        return []
    deal = deal_cards(raw["deal"], rules) if "deal" in raw else None
    five = list(outcome.players)
    dealer = raw.get("dealer", outcome.dealer)
    evening.hand = rebuild(rules, ruleset_name, five, dealer, deal, outcome.state,
                           on_change=evening._keep, opener=raw.get("opener"))
    out = [p for p in evening.present if p not in five]
    evening.proposal = Proposal(dealer, evening.hand.opener, tuple(five), tuple(out))
    number = evening.hands_before + len(evening.finished) + 1
    if evening.table is not None:
        return [_(RESUMED_AT_TABLE).format(table=evening.table, number=number),
                *evening.hand.status()[1:]]
    return [_(RESUMED).format(number=number + evening.number_offset),
            *evening.hand.status()[1:]]


def session_seed(session, seed: int | None) -> int | None:
    """The seed a league session deals from: the one kept with the session (its referee's
    first ``--seed``), else ``seed``, kept with it now (the caller's transaction writes it);
    a different seed is refused."""
    if session.deal_seed is None:
        if seed is not None:
            session.deal_seed = str(seed)
        return seed
    stored = int(session.deal_seed)
    if seed is not None and seed != stored:
        raise MightyError(_("seed {given}: session {session} deals from seed {seed} (kept when "
                            "its referee began)").format(given=seed, session=session.number,
                                                         seed=stored))
    return stored


def open_table_evening(book: LeagueBook, session_number: int,
                       seed: int | None = None) -> tuple[Evening, list[str]]:
    """The evening of a league's session (a round's table, or a session of its own), its hand
    in progress taken up for ``book``'s window (another window's next entry is refused), or
    the next hand begun as proposed. ``seed`` deals the cards when the session keeps none.
    What it says before the first prompt comes with it."""
    from ..store.lookups import get_league, league_rules
    from ..store.sessions import find_session

    with book.tx() as s:
        league = get_league(s, book.league)
        rules = league_rules(league)
        session = find_session(s, league, session_number, open_only=True)
        book.session = session.number
        seed = session_seed(session, seed)
        s.add(session)
        ruleset_name, toml_text = league.ruleset_name, league.ruleset_toml
    taken = book.take()
    state = book.evening()
    finished = book.session_hands()
    evening = Evening(rules, ruleset_name, playing_order(state.seating, rules), seed=seed,
                      book=book, finished=finished, hands_before=state.hands - len(finished),
                      ruleset_toml=toml_text,
                      number_offset=state.next_number - state.hands - 1, table=state.table,
                      duplicate=state.duplicate)
    lines = resume_live(evening, rules, ruleset_name, taken) if taken else []
    if lines:
        if evening.hand is not None and evening.hand.over:
            lines += evening._finish()
    else:
        lines += evening.start_hand(evening.next_proposal())
    return evening, lines


__all__ = ["resume_live", "session_seed", "open_table_evening", "RESUMED", "RESUMED_AT_TABLE"]
