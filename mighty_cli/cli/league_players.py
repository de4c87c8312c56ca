"""League players: ``player add|rename|merge|list``."""

from __future__ import annotations

import click

from ..i18n import N_, _
from ..render.text import table
from . import completion
from .database import by_option, database, db_option, who_default
from .options import echo_json, json_option

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


@click.group()
def player() -> None:
    """Players: add, rename, merge two records of one person, list.

    \b
    Examples:
      mighty player add 김철수
      mighty player rename Chulsoo 김철수
      mighty player merge "Kim C." 김철수
    """


@player.command("add")
@click.argument("names", nargs=-1, required=True)
@db_option
@by_option
def player_add(names, db_url, who) -> None:
    """Add players.

    \b
    Example:
      mighty player add Ana Bo 김철수
    """
    from ..engine.names import same_but_for_case
    from ..store import LeagueError
    from ..store.ledger.leagues import add_player
    from ..table.new_names import refuse_new_names

    alike = same_but_for_case(list(names))
    if alike:
        raise LeagueError(
            _(
                "{first} and {second} are one name but for case (or a character's "
                "form): add each player once, and give two people names that "
                "differ in more"
            ).format(first=repr(alike[0]), second=repr(alike[1]))
        )
    with database(db_url, creates=True) as s:
        refuse_new_names(s, names)
        for name in names:
            add_player(s, name, who_default(who))
    click.echo(_("Added {names}.").format(names=", ".join(names)))


@player.command("rename")
@click.argument("old", shell_complete=completion.players)
@click.argument("new")
@click.option("--reason", default="", help=N_("Why, for the change log."))
@db_option
@by_option
def player_rename(old, new, reason, db_url, who) -> None:
    """Rename a player (every hand follows).

    \b
    Example:
      mighty player rename Chulsoo 김철수
    """
    from ..store.ledger.leagues import rename_player
    from ..table.new_names import refuse_new_names

    with database(db_url) as s:
        refuse_new_names(s, [new])
        rename_player(s, old, new, who_default(who), reason)
    click.echo(_("Renamed {old} to {new}.").format(old=old, new=new))


@player.command("merge")
@click.argument("duplicate", shell_complete=completion.players)
@click.argument("keep", shell_complete=completion.players)
@click.option("--reason", default="", help=N_("Why, for the change log."))
@db_option
@by_option
def player_merge(duplicate, keep, reason, db_url, who) -> None:
    """Merge DUPLICATE into KEEP: two records of one person become one. Every hand moves;
    DUPLICATE stays as an alias, and the change log keeps the history.

    \b
    Example:
      mighty player merge "Kim C." 김철수 --reason "same person, typed twice"
    """
    from ..store.ledger.leagues import merge_players

    with database(db_url) as s:
        merge_players(s, duplicate, keep, who_default(who), reason)
    click.echo(_("Merged {duplicate} into {keep}.").format(duplicate=duplicate, keep=keep))


@player.command("list")
@json_option
@db_option
def player_list(as_json, db_url) -> None:
    """List players (merged records show the name they became).

    \b
    Example:
      mighty player list
    """
    from ..store.ledger.leagues import list_players

    with database(db_url) as s:
        rows = list_players(s)
    if as_json:
        echo_json({"players": [{"name": n, "merged_into": m} for n, m in rows]})
    else:
        click.echo(table([_("player"), _("merged into")], [(n, m or "") for n, m in rows]))
