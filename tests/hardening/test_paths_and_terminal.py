"""Issue 21, items 6 and 7: what the tool reads and writes for a user stays where it was told
(templates, the site's folder, output files), a password never reaches the screen, and text
from a file or the database cannot act on the terminal."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from promises import ROOT, error_line, invoke

SEASON = str(ROOT / "examples" / "season.toml")


@pytest.fixture
def league(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    assert invoke("import", SEASON, "--league", "S", "--db", url).exit_code == 0
    return url


def test_a_template_linked_out_of_its_folder_is_refused(league, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "passwd").write_text("root:x:0:0 SECRET", encoding="utf-8")
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "standings.html").symlink_to(tmp_path / "elsewhere" / "passwd")
    page = tmp_path / "page.html"
    said = error_line(
        invoke(
            "standings",
            "-l",
            "S",
            "--html",
            str(page),
            "--templates",
            str(tmp_path / "tpl"),
            "--db",
            league,
        )
    )
    assert "a link out of its folder" in said and not page.exists()


def test_a_template_that_repeats_a_string_beyond_a_page_is_refused(league, tmp_path):
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "standings.html").write_text("{{ 'a' * 1000000000 }}", encoding="utf-8")
    page = tmp_path / "page.html"
    said = error_line(
        invoke(
            "standings",
            "-l",
            "S",
            "--html",
            str(page),
            "--templates",
            str(tmp_path / "tpl"),
            "--db",
            league,
        )
    )
    assert "longer than a page may be" in said and not page.exists()


def test_a_template_whose_page_grows_without_end_is_stopped(league, tmp_path):
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "standings.html").write_text(
        "{% for i in range(100000) %}{{ 'a' * 100000 }}{% endfor %}", encoding="utf-8"
    )
    page = tmp_path / "page.html"
    said = error_line(
        invoke(
            "standings",
            "-l",
            "S",
            "--html",
            str(page),
            "--templates",
            str(tmp_path / "tpl"),
            "--db",
            league,
        )
    )
    assert "grows beyond" in said and not page.exists()


def test_the_site_never_writes_through_a_link_in_its_folder(league, tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "players").symlink_to(elsewhere)
    said = error_line(invoke("site", "-l", "S", "-o", str(out), "--db", league))
    assert "is a link" in said and list(elsewhere.iterdir()) == []


def test_an_output_file_is_replaced_never_written_through_a_planted_link(league, tmp_path):
    target = tmp_path / "export.toml"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    for stale in (".export.toml.part", "export.toml.part"):  # the old fixed temporary names
        (tmp_path / stale).symlink_to(victim)
    assert invoke("export", "-l", "S", "-o", str(target), "--db", league).exit_code == 0
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert target.read_text(encoding="utf-8").startswith("format")


def test_a_site_page_replaces_a_link_at_its_name_never_writes_through_it(tmp_path):
    from mighty_cli.engine.outputs import replace_bytes

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    (tmp_path / "1.html").symlink_to(victim)
    written = replace_bytes(str(tmp_path / "1.html"), b"<p>page</p>")
    assert victim.read_text(encoding="utf-8") == "keep me"
    page = tmp_path / "1.html"
    assert not page.is_symlink() and page.read_bytes() == b"<p>page</p>"
    assert [written.st_ino, written.st_mtime_ns] == [page.stat().st_ino, page.stat().st_mtime_ns]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1.html", "victim.txt"]


def test_a_site_page_is_readable_by_all_whatever_the_mask(tmp_path):
    import stat

    from mighty_cli.engine import outputs

    before = os.umask(0o077)
    try:
        outputs._umask.cache_clear()  # read again under this mask
        outputs.replace_bytes(str(tmp_path / "1.html"), b"page")
    finally:
        os.umask(before)
        outputs._umask.cache_clear()
    assert stat.S_IMODE((tmp_path / "1.html").stat().st_mode) == 0o644


def test_a_site_page_that_cannot_be_written_leaves_nothing_behind(tmp_path):
    from mighty_cli.engine.outputs import OutputError, replace_bytes

    (tmp_path / "1.html").mkdir()  # a folder where the page goes
    with pytest.raises(OutputError, match="cannot write"):
        replace_bytes(str(tmp_path / "1.html"), b"page")
    with pytest.raises(OutputError, match="cannot write"):
        replace_bytes(str(tmp_path / "missing" / "2.html"), b"page")
    assert [p.name for p in tmp_path.iterdir()] == ["1.html"]
    assert list((tmp_path / "1.html").iterdir()) == []


@pytest.mark.parametrize(
    "url,secret",
    [
        ("postgresql+psycopg://club:hunter2@127.0.0.1:1/mighty", "hunter2"),
        ("postgresql+psycopg://club@127.0.0.1:1/mighty?password=hunter2", "hunter2"),
        ("postgresql+psycopg://club:p%40ss-hunter2@127.0.0.1:1/mighty", "hunter2"),
    ],
)
def test_a_password_never_reaches_the_screen(url, secret):
    shown = invoke("where", "--db", url)
    assert shown.exit_code == 0 and secret not in shown.output and "***" in shown.output
    failed = invoke("league", "list", "--db", url)
    assert failed.exit_code == 1 and secret not in failed.output + failed.stderr


def test_a_password_holding_a_bare_at_is_refused_without_showing_it():
    said = error_line(
        invoke(
            "league", "list", "--db", "postgresql+psycopg://club:p@ss-hunter2@127.0.0.1:1/mighty"
        )
    )
    assert "%40" in said and "hunter2" not in said and "ss-" not in said


def _mighty_in_a_terminal(args, tmp_path) -> str:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mighty_cli", *args],
        encoding="utf-8",
        timeout=60,
        cwd=str(tmp_path),
        env=dict(os.environ, TERM="xterm"),
    )
    child.expect(pexpect.EOF)
    return child.before


def test_a_note_cannot_set_the_terminals_title(tmp_path):
    url = f"sqlite:///{tmp_path / 'league.db'}"
    for args in (
        ["league", "create", "L", "-r", "standard"],
        ["session", "start", "-l", "L", "-p", "A,B,C,D,E"],
        [
            "record",
            "-l",
            "L",
            "-d",
            "A",
            "-c",
            "15D",
            "-f",
            "B",
            "-t",
            "16",
            "--note",
            "hi\x1b]0;PWNED\x07 \x1b]52;c;Y2xpcA==\x07 \u202eyalp",
        ],
    ):
        assert invoke(*args, "--db", url).exit_code == 0
    shown = _mighty_in_a_terminal(["hand", "show", "-l", "L", "1", "--db", url], tmp_path)
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "hi\\x1b]0;PWNED\\x07" in shown and "\\u202eyalp" in shown


def test_an_error_naming_a_file_cannot_act_on_the_terminal(tmp_path):
    name = "x\x1b]0;pwn\x07.toml"
    result = subprocess.run(
        [sys.executable, "-m", "mighty_cli", "replay", name],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert result.returncode == 1 and "\x1b" not in result.stderr
    assert "x\\x1b]0;pwn\\x07.toml" in result.stderr


def test_output_to_a_pipe_stays_exact(tmp_path):
    url = f"sqlite:///{tmp_path / 'league.db'}"
    assert invoke("import", SEASON, "--league", "S", "--db", url).exit_code == 0
    result = subprocess.run(
        [sys.executable, "-m", "mighty_cli", "export", "-l", "S", "--format", "csv", "--db", url],
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0 and b"\r\n" in result.stdout
