"""Club ruleset files written by tests: a club that extends a bundled ruleset."""

from __future__ import annotations


def club_file(tmp_path, **session) -> str:
    """A club's ruleset: club-requirements with the session-end options it agreed on."""
    path = tmp_path / "club-session-end.toml"
    path.write_text(
        'extends = "club-requirements"\n[meta]\nname = "club-session-end"\n'
        "[session]\n" + "".join(f"{k} = {v}\n" for k, v in session.items()),
        encoding="utf-8",
    )
    return str(path)
