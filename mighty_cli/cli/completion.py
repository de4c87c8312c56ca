"""Shell completion of the values a club types: ruleset names, league names, the players of the
league given (one, a list ``A,B,C``, a pair ``A/B``), its session and table numbers, and cards.

click completes commands and options by itself (``eval "$(_MIGHTY_COMPLETE=bash_source
mighty)"``); these functions complete option and argument values (``shell_complete=``). They
read the database given by ``--db`` (or ``MIGHTY_DB``, or the default file) without creating or
changing anything, and never fail: a missing database or a league that does not exist completes
nothing.

A file is offered (click's ``file`` item: the shell completes file names) only where a path is
meant and what is typed looks like one (``--ruleset ./my``, ``clubs/x``, ``my.toml``), or no
ruleset name begins so: in bash, click's script drops every name it was given once a ``file``
item comes, so offering both would offer no name at all. Bash is given a script of its own
(:class:`BashCompletion`): click's inserts a name as it reads it, so ``화요 <리그>`` became three
words on the command line; this one inserts it quoted (``화요\\ \\<리그\\>``). zsh quotes what it
is offered by itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

import click
from click.shell_completion import BashComplete, CompletionItem, add_completion_class

# Deferred imports: the store (SQLModel) loads inside the completions that read the database, so
# loading the commands for --help stays fast (tests/test_imports.py).


def _matching(values: Iterable[str], incomplete: str, prefix: str = "") -> list[CompletionItem]:
    """The values that begin with ``incomplete`` (case-insensitive), each after ``prefix``."""
    wanted = incomplete.casefold()
    seen: list[str] = []
    for value in values:
        if value.casefold().startswith(wanted) and value not in seen:
            seen.append(value)
    return [CompletionItem(prefix + value) for value in seen]


def _query(ctx: click.Context, read) -> list:
    """``read(session)`` on the command's database, or nothing where there is none."""
    try:
        from ..store import resolve_db_url
        from ..store.db import make_engine, sqlite_file

        url = resolve_db_url(_param(ctx, "db_url"))
        path = sqlite_file(url)
        if path is not None and not path.exists():
            return []
        engine = make_engine(url, create=False, missing_ok=False)
        try:
            from sqlmodel import Session

            with Session(engine) as session:
                return list(read(session))
        finally:
            engine.dispose()
    except Exception:  # completion must never print a traceback into a shell
        return []


def _param(ctx: click.Context, name: str) -> str | None:
    """A value given earlier on the command line (or by its environment variable), looking
    through the parent commands too."""
    while ctx is not None:
        value = ctx.params.get(name)
        if value:
            return value
        ctx = ctx.parent  # type: ignore[assignment]
    return None


def looks_like_path(text: str) -> bool:
    """Whether what is typed names a file rather than a ruleset: a folder in it, a start that
    only a path has (``.``, ``~``), or the ruleset files' ending."""
    return (
        "/" in text
        or os.sep in text
        or text.startswith((".", "~"))
        or text.casefold().endswith(".toml")
    )


def rulesets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The bundled rulesets beginning with what is typed; a club's file (the shell completes
    file names) where what is typed looks like a path, or no bundled name begins so."""
    from ..engine.ruleset import bundled_names

    if looks_like_path(incomplete):
        return [CompletionItem(incomplete, type="file")]
    return _matching(bundled_names(), incomplete) or [CompletionItem(incomplete, type="file")]


def leagues(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    def read(s):
        from sqlmodel import select

        from ..store.models import League

        return s.exec(select(League.name).order_by(League.name)).all()

    return _matching(_query(ctx, read), incomplete)


def _league_players(ctx: click.Context) -> list[str]:
    """The players of the league given (those seated at its sessions, the open ones first),
    or every player where no league is given."""
    league = _param(ctx, "league_name") or _param(ctx, "league")

    def read(s):
        from sqlmodel import select

        from ..store.models import League, LeagueSession, Player, SessionSeat

        if not league:
            return s.exec(
                select(Player.name)
                .where(Player.merged_into_id == None)  # noqa
                .order_by(Player.name)
            ).all()
        rows = s.exec(
            select(Player.name, LeagueSession.ended_at)
            .join(SessionSeat, SessionSeat.player_id == Player.id)
            .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
            .join(League, League.id == LeagueSession.league_id)
            .where(League.name == league)
        ).all()
        return [name for name, _ended in sorted(rows, key=lambda r: (r[1] is not None, r[0]))]

    return _query(ctx, read)


def players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """One player's name, or the next one of a comma-separated list (``A,B,C``)."""
    done, _comma, last = incomplete.rpartition(",")
    given = {name.strip().casefold() for name in done.split(",") if name.strip()}
    names = [name for name in _league_players(ctx) if name.casefold() not in given]
    return _matching(names, last, done + "," if _comma else "")


def pairs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A pair of players ``A/B`` (``--apart``, ``--substitute``): A's name, then B's after
    the slash."""
    first, slash, last = incomplete.partition("/")
    if not slash:
        return _matching(_league_players(ctx), first)
    names = [name for name in _league_players(ctx) if name.casefold() != first.casefold()]
    return _matching(names, last, first + "/")


def friends(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A friend's name, or none (the declarer played alone)."""
    return _matching(["none"], incomplete) + players(ctx, param, incomplete)


def sessions(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The league's session numbers, the open ones first."""
    league = _param(ctx, "league_name") or _param(ctx, "league")

    def read(s):
        from sqlmodel import select

        from ..store.models import League, LeagueSession

        rows = s.exec(
            select(LeagueSession.number, LeagueSession.ended_at)
            .join(League, League.id == LeagueSession.league_id)
            .where(League.name == league)
        ).all()
        return [
            str(number) for number, ended in sorted(rows, key=lambda r: (r[1] is not None, -r[0]))
        ]

    return _matching(_query(ctx, read), incomplete) if league else []


def tables(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The table numbers of the league's open round."""
    league = _param(ctx, "league_name") or _param(ctx, "league")

    def read(s):
        from sqlmodel import select

        from ..store.models import League, LeagueRound, LeagueSession

        return [
            str(number)
            for number in s.exec(  # a table is there once, however seated
                select(LeagueSession.table_number)
                .distinct()
                .join(LeagueRound, LeagueRound.id == LeagueSession.round_id)
                .join(League, League.id == LeagueRound.league_id)
                .where(League.name == league, LeagueRound.ended_at == None)  # noqa: E711
                .order_by(LeagueSession.table_number)
            ).all()
        ]

    return _matching(_query(ctx, read), incomplete) if league else []


#: The words a friend call may be besides a card (``record --friend-call``).
CALL_WORDS = ("joker", "mighty", "first-trick")


def cards(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Cards in the notation the tool reads (``SA``, ``D10``, ``JK``) and the calls that are
    not a card."""
    from ..engine.cards import format_card
    from ..engine.cards.deck import DECK

    return _matching([*(format_card(card) for card in DECK), *CALL_WORDS], incomplete)


#: What bash may be given of a name as it is: anything else is quoted with a backslash.
_PLAIN_IN_BASH = re.compile(r"[\w\-.,:/@%+=]")


def bash_word(value: str) -> str:
    """``value`` as one word of a bash command line (``화요 <리그>`` -> ``화요\\ \\<리그\\>``):
    each character the shell would read otherwise is preceded by a backslash; Hangul and
    other letters stay as they are, so the word reads as typed."""
    return "".join(c if _PLAIN_IN_BASH.fullmatch(c) else "\\" + c for c in value)


class BashCompletion(BashComplete):
    """click's bash completion, each name inserted quoted (:func:`bash_word`), read without
    losing its backslashes (``read -r``), and added as one word, never globbed."""

    source_template = """\
%(complete_func)s() {
    local IFS=$'\\n'
    local response

    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \\
%(complete_var)s=bash_complete $1)

    for completion in $response; do
        IFS=',' read -r type value <<< "$completion"

        if [[ $type == 'dir' ]]; then
            COMPREPLY=()
            compopt -o dirnames
        elif [[ $type == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ $type == 'plain' ]]; then
            COMPREPLY+=("$value")
        fi
    done

    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""

    def format_completion(self, item: CompletionItem) -> str:
        value = bash_word(item.value) if item.type == "plain" else item.value
        return f"{item.type},{value}"


def use_shell_scripts() -> None:
    """Give click the bash script above in place of its own (``bash_source``)."""
    add_completion_class(BashCompletion, "bash")
