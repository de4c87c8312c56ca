"""Options shared by several commands, as decorators."""

from __future__ import annotations

import json
from typing import Any

import click

from ..i18n import N_

json_option = click.option("--json", "as_json", is_flag=True,
                           help=N_("Print one JSON object instead of text."))


def ruleset_option(required: bool = True, default: str | None = None):
    """``--ruleset NAME|FILE``: a bundled ruleset name (or alias) or a ruleset file."""
    return click.option("--ruleset", "-r", "ruleset_name", required=required and default is None,
                        default=default, metavar="NAME|FILE",
                        help=N_("A bundled ruleset (see 'mighty ruleset list') or a .toml file."))


def echo_json(data: Any) -> None:
    """Print JSON the same way everywhere: UTF-8 text, not escapes, so Korean names read."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))
