"""League operations: each function works inside the caller's transaction and raises a
:class:`~mighty_cli.store.LeagueError` (or another project error) for bad input, so the caller's
rollback leaves the database exactly as it was.

The CLI opens one transaction per command (:func:`mighty_cli.store.db.transaction`) and calls
one of these. Hands are scored through the hand-record engine (``engine.record``): a recorded
outcome is checked and scored as a one-hand record; an import replays the whole record first.

The operations live in one module per concern (``lookups``, ``leagues``, ``sessions``, ``hands``,
``corrections``, ``queries``, ``interchange``); this module gathers their public names so callers
can keep writing ``services.record_hand``.
"""

from __future__ import annotations

from .corrections import Correction, amend_hand, change_log, unvoid_hand, void_hand  # noqa: F401
from .hands import (  # noqa: F401
    HandView,
    Recorded,
    enter_hand,
    evaluate_hand,
    list_hands,
    record_hand,
    show_hand,
)
from .exports import export_league, iter_export, write_export  # noqa: F401
from .interchange import (  # noqa: F401
    BATCH,
    Imported,
    export_record,
    import_record,
    save_refereed_hand,
)
from .leagues import (  # noqa: F401
    LeagueSummary,
    add_player,
    configure_league,
    create_league,
    league_summaries,
    list_players,
    merge_players,
    rename_player,
    ruleset_toml_text,
)
from .lookups import (  # noqa: F401
    PLAYING_ROLES,
    RULING_ROLES,
    check_name,
    ensure_players,
    find_player,
    get_league,
    get_player,
    league_rules,
    log_change,
)
from .queries import (  # noqa: F401
    CHART_POINTS,
    LeaguePage,
    SessionTable,
    league_page,
    player_stats,
    standings,
)
from .sessions import (  # noqa: F401
    SessionEndInfo,
    SessionVerdict,
    end_session,
    ended_by_rule,
    seating,
    session_end_info,
    session_note,
    session_proposal,
    session_verdict,
    start_session,
)
