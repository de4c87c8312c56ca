"""Pages rendered by worker processes (``render.site_workers``): a build that hands its pages
to workers leaves the folder a build in one process leaves, file for file; a page that fails
in a worker stops the build in one line, the pages written before it recorded, no temporary
file left; a club's templates never go to the workers. And the compiled templates' cache
(``render.template_cache``): used only when private, never a reason to fail."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from test_incremental import build, files

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform == "darwin", reason="processes do not fork here"
)


@pytest.fixture
def workers_at_once(monkeypatch):
    """Workers start with the first page to render (a small league has a few dozen)."""
    from mighty_cli.site import workers as site_workers

    monkeypatch.setattr(site_workers, "START_AFTER", 0)
    started = []
    real = site_workers.Workers.__init__

    def counted(self, *args, **kwargs):
        started.append(args[1])
        real(self, *args, **kwargs)

    monkeypatch.setattr(site_workers.Workers, "__init__", counted)
    return started


def test_pages_rendered_by_workers_equal_pages_rendered_in_one_process(
    engine, tmp_path, workers_at_once
):
    alone = build(engine, tmp_path / "alone", full=True, jobs=1)
    assert workers_at_once == []
    shared = build(engine, tmp_path / "shared", full=True, jobs=2)
    assert workers_at_once == [2]
    assert (shared.pages, shared.written, shared.bytes) == (alone.pages, alone.written, alone.bytes)
    assert files(tmp_path / "shared") == files(tmp_path / "alone")
    again = build(engine, tmp_path / "shared", jobs=2)  # the workers' manifest is trusted
    assert again.written == 0


def _rendered_here(monkeypatch) -> list[str]:
    """The pages rendered in the build's own process (a worker's renders are its own)."""
    from mighty_cli.site.page_files import SiteWriter

    here, real, main = [], SiteWriter._render, os.getpid()

    def counted(self, url, template, context):
        if os.getpid() == main:
            here.append(url)
        return real(self, url, template, context)

    monkeypatch.setattr(SiteWriter, "_render", counted)
    return here


def test_a_build_that_renders_every_page_starts_the_workers_with_its_first(
    engine, tmp_path, monkeypatch
):
    """A first build (and ``--full``) of many pages: no page rendered in the build's own
    process; a later build that renders a few starts no worker."""
    from mighty_cli.site import workers as site_workers

    monkeypatch.setattr(site_workers, "START_AFTER", 8)  # the test league: a few dozen pages
    here = _rendered_here(monkeypatch)
    first = build(engine, tmp_path / "site", jobs=2)
    assert first.written == first.pages > 8 and here == []
    build(engine, tmp_path / "site", full=True, jobs=2)
    assert here == []
    (tmp_path / "site" / "index.html").write_text("defaced", encoding="utf-8")
    (tmp_path / "site" / "hands" / "31.html").unlink()
    again = build(engine, tmp_path / "site", jobs=2)
    assert again.written == 2 and sorted(here) == ["hands/31.html", "index.html"]


def test_the_league_read_while_the_workers_are_busy_makes_the_same_site(
    league_engine, tmp_path, monkeypatch
):
    """What the pages after the pass read of the league (statistics, players' sessions,
    rounds) is read while the workers have their hands full, with the pass's cursors open,
    on SQLite and PostgreSQL: the site is the one a build in one process writes."""
    from mighty_cli.site import build as site_data
    from mighty_cli.site import workers as site_workers
    from mighty_cli.site.page_files import SiteWriter

    alone = build(league_engine, tmp_path / "alone", full=True, jobs=1)
    for name, value in (("START_AFTER", 0), ("BATCH", 1), ("IN_FLIGHT", 1)):
        monkeypatch.setattr(site_workers, name, value)
    seen, read_at, real_page = [], [], SiteWriter.page
    real_read = site_data._LeagueReads.read.__func__

    def page(self, url, *args, **kwargs):
        seen.append(url)
        return real_page(self, url, *args, **kwargs)

    def read(cls, *args):
        read_at.append(len(seen))
        return real_read(cls, *args)

    monkeypatch.setattr(SiteWriter, "page", page)
    monkeypatch.setattr(site_data._LeagueReads, "read", classmethod(read))
    shared = build(league_engine, tmp_path / "shared", full=True, jobs=2)
    assert len(read_at) == 1 and 0 < read_at[0] < len(seen) - 10  # in the pass, not after
    assert (shared.pages, shared.written) == (alone.pages, alone.written)
    assert files(tmp_path / "shared") == files(tmp_path / "alone")


@pytest.mark.parametrize("failing", ["hands/34.html", "index.html"])
def test_a_page_that_fails_in_a_worker_stops_the_build_and_keeps_what_was_written(
    engine, tmp_path, monkeypatch, workers_at_once, failing
):
    """A hand's page (while the build goes on) or the last page (while it waits for the
    workers): the error told in one piece, the pages written recorded, none half-written."""
    from mighty_cli.engine.errors import MightyError
    from mighty_cli.site.manifest import read_manifest
    from mighty_cli.site.page_files import SiteWriter

    real = SiteWriter._render

    def broken(self, url, template, context):
        if url == failing:
            raise MightyError(f"{url}: broken on purpose")
        return real(self, url, template, context)

    monkeypatch.setattr(SiteWriter, "_render", broken)  # the workers fork with it
    out = tmp_path / "site"
    with pytest.raises(MightyError, match=f"{failing}: broken on purpose"):
        build(engine, out, jobs=2)
    assert workers_at_once == [2]
    written = read_manifest(out)
    assert written and failing not in written
    assert all((out / url).is_file() for url in written)
    assert not [p for p in out.rglob("*") if p.name.endswith(".part")]
    monkeypatch.setattr(SiteWriter, "_render", real)
    rest = build(engine, out, jobs=2)  # the pages not written yet, not all again
    assert rest.written == rest.pages - len(written)
    build(engine, tmp_path / "full", full=True, jobs=1)
    assert files(out) == files(tmp_path / "full")


def test_a_clubs_templates_render_in_the_build_itself(engine, tmp_path, workers_at_once):
    club = tmp_path / "club"
    club.mkdir()
    (club / "site_index.html").write_text(
        '{% extends "site_layout.html" %}{% block content %}club{% endblock %}'
    )
    report = build(engine, tmp_path / "site", template_dir=club, jobs=2)
    assert report.written == report.pages and workers_at_once == []


def test_one_job_never_starts_workers(engine, tmp_path, workers_at_once):
    build(engine, tmp_path / "site", jobs=1)
    assert workers_at_once == []


def test_the_compiled_templates_are_kept_in_a_private_cache(monkeypatch, tmp_path):
    from mighty_cli.render.html import environment
    from mighty_cli.render.template_cache import cache_folder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = cache_folder()
    assert folder == tmp_path / "cache" / "mighty" / "templates"
    environment(None, "en").get_template("site_hand.html")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    kept = sorted(folder.iterdir())
    assert kept and all(p.stat().st_size > 0 for p in kept)
    env = environment(None, "en")  # a new command: loaded, not compiled
    compiled = []
    monkeypatch.setattr(type(env), "compile", lambda *a, **k: compiled.append(a) or 1 / 0)
    env.get_template("site_hand.html")
    assert compiled == []


def test_other_options_do_not_share_compiled_templates(monkeypatch, tmp_path):
    from mighty_cli.render.template_cache import bytecode_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    one, other = bytecode_cache("trim_blocks=True"), bytecode_cache("trim_blocks=False")
    assert one.pattern != other.pattern  # type: ignore[union-attr]
    assert one.pattern == bytecode_cache("trim_blocks=True").pattern  # type: ignore[union-attr]


def test_a_cache_others_may_write_is_not_used(monkeypatch, tmp_path):
    from mighty_cli.render.template_cache import bytecode_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "mighty" / "templates"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    assert bytecode_cache() is None
    folder.chmod(0o700)
    assert bytecode_cache() is not None
    folder.rmdir()
    (tmp_path / "elsewhere").mkdir()
    folder.symlink_to(tmp_path / "elsewhere")  # a link planted at the name
    assert bytecode_cache() is None


def test_a_cache_that_cannot_be_written_or_read_fails_nothing(monkeypatch, tmp_path):
    import tempfile

    from mighty_cli.render.html import environment

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "mighty" / "templates"
    with monkeypatch.context() as full_disk:
        full_disk.setattr(tempfile, "NamedTemporaryFile", _refuse)
        page = environment(None, "en").get_template("site_sessions.html")
        assert page.name == "site_sessions.html"
    assert list(folder.iterdir()) == []  # nothing kept, nothing failed
    environment(None, "en").get_template("site_sessions.html")
    kept = list(folder.iterdir())
    assert kept
    for entry in kept:  # torn entries: compiled again, not trusted
        entry.write_bytes(entry.read_bytes()[:40])
    assert environment(None, "en").get_template("site_sessions.html").name


def test_a_worker_writes_only_inside_the_site_folder(engine, tmp_path, workers_at_once):
    out = tmp_path / "site"
    build(engine, out, jobs=2)
    outside = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("league.db"))
    assert outside == ["site"]
    assert not [
        p for p in Path(out).rglob("*") if p.name.startswith(".") and p.name != ".mighty-site.json"
    ]


def _refuse(*args, **kwargs):
    raise OSError(28, "No space left on device")


def test_the_command_takes_how_many_processes_render(engine, tmp_path, workers_at_once):
    from test_incremental import invoke

    db = str(engine.url)
    refused = invoke(db, "--output", str(tmp_path / "site"), "--jobs", "0")
    assert refused.exit_code == 2 and "--jobs" in refused.output
    assert not (tmp_path / "site").exists()
    alone = invoke(db, "--output", str(tmp_path / "site"), "--jobs", "1")
    assert alone.exit_code == 0, alone.output
    assert workers_at_once == []
    shared = invoke(db, "--output", str(tmp_path / "shared"), "-j", "2")
    assert shared.exit_code == 0, shared.output
    assert workers_at_once == [2]
    assert sorted(files(tmp_path / "shared")) == sorted(files(tmp_path / "site"))


def test_a_worker_that_dies_stops_the_build_in_one_line_instead_of_waiting(
    engine, tmp_path, monkeypatch, workers_at_once
):
    import signal

    from mighty_cli.site.manifest import read_manifest
    from mighty_cli.site.page_files import SiteWriter
    from mighty_cli.site.workers import WorkerError

    real = SiteWriter._render

    def killed(self, url, template, context):
        if url == "hands/34.html":
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        return real(self, url, template, context)

    monkeypatch.setattr(SiteWriter, "_render", killed)
    out = tmp_path / "site"
    with pytest.raises(WorkerError, match="stopped without finishing"):
        build(engine, out, jobs=2)
    written = read_manifest(out)
    assert all((out / url).is_file() for url in written) and "hands/34.html" not in written
    monkeypatch.setattr(SiteWriter, "_render", real)
    build(engine, out, jobs=2)
    build(engine, tmp_path / "full", full=True, jobs=1)
    assert files(out) == files(tmp_path / "full")
