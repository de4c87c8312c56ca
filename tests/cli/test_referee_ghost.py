"""Ghost 4마 at the referee (000 §3.5.2): with the deal known the referee turns up the ghost's
top card and plays it himself; undo takes it back with the entry before it; in open cards the
table enters what it turned up."""

from __future__ import annotations

from mighty_cli.engine.cards import parse_card, parse_cards
from mighty_cli.engine.hand.seats import GHOST
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.referee_session import RefereeSession

FOUR = ["Ana", "Bo", "Cy", "Di"]
DEAL = {
    "Ana": "S4 DA DK DQ DJ HQ HJ H10 H9 H8",
    "Bo": "JK S5 S8 S9 C5 C6 C7 D4 D5 D6",
    "Cy": "S6 S10 SJ C8 C9 C10 D7 D8 D9 D10",
    "Di": "S7 SQ SK SA CJ CQ CK CA H4 H5",
    "ghost": "HA C3 D2 S2 C2 H2 D3 S3 H3 C4",
    "kitty": "H6 H7 HK",
}


def referee(deal=True) -> RefereeSession:
    cards = {who: parse_cards(text) for who, text in DEAL.items()} if deal else None
    session = RefereeSession(load_ruleset("ghost-4"), "ghost-4", FOUR, "Ana", cards, opener="Ana")
    for line in ("13h", "pass", "pass", "pass"):
        assert session.handle(line)[0].startswith("✓"), line
    if deal:
        assert session.handle("DJ DQ DK")[0].startswith("✓")
    assert session.handle("none")[0].startswith("✓")
    return session


def test_the_referee_plays_the_ghosts_top_card_itself():
    session = referee()
    for card in ("S4", "S5", "S6"):
        session.handle(card)
    out = session.handle("S7")
    # Di's ♠7 is followed by the ghost's ♥A, which wins trick 1; then the ghost leads ♣3 and
    # calls the joker, and it is Ana's turn
    assert sum("the ghost's top card: ghost" in line for line in out) == 2
    state = session.state
    assert state.tricks[0].winner == GHOST
    assert state.current_trick == ((GHOST, state.current_trick[0][1]),)
    assert (
        state.current_trick[0][1].card == parse_card("C3") and state.current_trick[0][1].joker_call
    )
    assert state.to_move == "Ana"
    # undo takes back Di's ♠7 with the ghost's two cards
    session.handle("undo")
    assert session.state.to_move == "Di" and len(session.state.current_trick) == 3
    # and the saved hand replays, the ghost's cards included
    for card in ("S7", "H8", "JK", "C8", "CJ"):
        assert session.handle(card)[0].startswith("✓"), card
    hand = state_to_hand(session.state, {w: parse_cards(t) for w, t in DEAL.items()})
    assert hand["tricks"][0] == "S4 S5 S6 S7 HA"
    (outcome,) = replay(
        Record(ruleset="ghost-4", players=FOUR, hands=[hand | {"opener": "Ana"}])
    ).hands
    assert outcome.status == "in_progress"


def test_in_open_cards_the_table_enters_the_ghosts_card():
    session = referee(deal=False)
    for card in ("S4", "S5", "S6", "S7"):
        session.handle(card)
    assert session.state.to_move == GHOST  # nobody knows its pile: the table turns it up
    out = session.handle("HA")
    assert out[0].startswith("✓") and session.state.tricks[0].winner == GHOST
