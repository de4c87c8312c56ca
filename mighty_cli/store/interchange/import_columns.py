"""The rows an import writes (:mod:`.import_batch`), as tuples: each table's columns in the
order of its tuples, and the tables they go to (written by Core inserts, :mod:`.bulk`). A new
hand column is written here (DEVELOPERS.md, "The store's tables")."""

from __future__ import annotations

from ..models import Hand, LeagueSession, SessionSeat

HAND_TABLE = Hand.__table__  # type: ignore[attr-defined]
SESSION_TABLE = LeagueSession.__table__  # type: ignore[attr-defined]
SEAT_TABLE = SessionSeat.__table__  # type: ignore[attr-defined]
#: The outcome's columns (what :func:`..ledger.hands.hand_columns` gives), in the order written.
OUTCOME_COLUMNS = (
    "status",
    "dealer_id",
    "declarer_id",
    "friend_id",
    "deal_miss_id",
    "contract",
    "friend_call",
    "taken",
    "success",
    "base",
    "multiplier",
    "doublings",
    "run",
    "back_run",
    "full",
    "eliminated_seat",
)


#: The columns of the rows an import writes, in the order of its tuples.
HAND_COLUMNS = (
    "id",
    "league_id",
    "session_id",
    "number",
    "voided",
    "pot_after",
    "record_toml",
    "note",
    "created_at",
) + OUTCOME_COLUMNS


MEMBER_COLUMNS = ("hand_id", "player_id", "league_id", "seat", "role", "points", "pot")


SESSION_COLUMNS = ("id", "league_id", "number", "day", "first_dealer_id", "started_at", "ended_at")


SEAT_COLUMNS = ("session_id", "seat", "player_id")
