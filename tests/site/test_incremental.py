"""Incremental site builds (issue 24): a build writes only the pages whose content changed,
and the folder it leaves equals a full build's, file for file; pages the site no longer has
are removed, files the tool did not write never are; a club's template that the sandbox
refuses stops the build in one line with nothing written."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from databases import run
from site_league import EVIL, LEAGUE

#: One time of generation for every build compared: a kept page keeps the time it was made.
WHEN = datetime(2024, 4, 2, 12, 0, tzinfo=timezone.utc)


def files(folder: Path) -> dict[str, bytes]:
    """Every file's bytes; the manifest's without each page's file stamp (its modification
    time and inode: two folders never share them)."""
    found = {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }
    if ".mighty-site.json" in found:
        manifest = json.loads(found[".mighty-site.json"])
        manifest["pages"] = {url: entry[:3] for url, entry in manifest["pages"].items()}
        found[".mighty-site.json"] = json.dumps(manifest, sort_keys=True).encode()
    return found


def build(engine, out: Path, **options):
    from mighty_cli.site.build import build_site

    return run(
        engine, build_site, LEAGUE, out, timezone_name="Asia/Seoul", generated=WHEN, **options
    )


def assert_same_as_full(engine, out: Path, full: Path) -> None:
    """``out`` holds, byte for byte, what a full build into an empty folder writes."""
    build(engine, full, full=True)
    built, expected = files(out), files(full)
    assert sorted(built) == sorted(expected)
    assert [name for name in expected if built[name] != expected[name]] == []


def test_an_unchanged_league_writes_no_page(engine, tmp_path):
    first = build(engine, tmp_path / "site")
    assert first.written == first.pages
    again = build(engine, tmp_path / "site")
    assert (again.written, again.removed, again.pages) == (0, 0, first.pages)
    assert (again.bytes, again.largest) == (first.bytes, first.largest)


def test_an_incremental_build_equals_a_full_build_after_adding_amending_and_voiding_hands(
    engine, tmp_path
):
    from mighty_cli.store.ledger.corrections import amend_hand, void_hand
    from mighty_cli.store.ledger.hands import record_hand

    out = tmp_path / "site"
    pages = build(engine, out).pages
    steps = [
        (
            "add",
            lambda: run(
                engine,
                record_hand,
                LEAGUE,
                declarer="Di",
                contract="15H",
                friend="Ana",
                friend_call="HA",
                taken=17,
                who="t",
            ),
        ),
        ("amend", lambda: run(engine, amend_hand, LEAGUE, 37, who="t", why="miscounted", taken=12)),
        ("void", lambda: run(engine, void_hand, LEAGUE, 36, who="t", why="misdeal")),
        (
            "void a refereed hand",
            lambda: run(engine, void_hand, LEAGUE, 33, who="t", why="misdeal"),
        ),
    ]
    for name, change in steps:
        change()
        report = build(engine, out)
        assert 0 < report.written < pages, name  # some pages, never the whole site
        assert_same_as_full(engine, out, tmp_path / f"full-{name}")


def test_a_hand_page_is_replayed_only_when_its_record_changed(engine, tmp_path, monkeypatch):
    from mighty_cli.site import build as site_data
    from mighty_cli.store.ledger.hands import record_hand

    out = tmp_path / "site"
    build(engine, out)
    replayed = []
    original = site_data.hand_detail
    monkeypatch.setattr(
        site_data, "hand_detail", lambda *args: replayed.append(args[1]) or original(*args)
    )
    run(
        engine,
        record_hand,
        LEAGUE,
        declarer="Di",
        contract="15H",
        friend="Ana",
        friend_call="HA",
        taken=17,
        who="t",
    )
    report = build(engine, out)
    assert replayed == []  # the new hand is not refereed: no hand page is made again
    assert report.written < report.pages


def test_a_page_the_site_no_longer_has_is_removed(engine, tmp_path, monkeypatch):
    from mighty_cli.site import page_files as site_pages

    out = tmp_path / "site"
    monkeypatch.setattr(site_pages, "HANDS_PER_PAGE", 4)  # session 1's ten hands: 3 pages
    build(engine, out)
    assert (out / "sessions" / "1-3.html").is_file()
    monkeypatch.setattr(site_pages, "HANDS_PER_PAGE", 100)
    report = build(engine, out)
    assert not (out / "sessions" / "1-2.html").exists()
    assert not (out / "sessions" / "1-3.html").exists()
    assert report.removed >= 2 and report.left == 0
    assert_same_as_full(engine, out, tmp_path / "full")


def test_a_file_the_tool_did_not_write_is_never_removed(engine, tmp_path, monkeypatch):
    from mighty_cli.site import page_files as site_pages

    out = tmp_path / "site"
    monkeypatch.setattr(site_pages, "HANDS_PER_PAGE", 4)
    build(engine, out)
    ours = {
        "notes.txt": b"the club's own",
        "hands/999.html": b"<p>a page of ours</p>",
        "players/extra/x.html": b"x",
    }
    for name, data in ours.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    (out / "sessions" / "1-3.html").write_text("edited by hand", encoding="utf-8")
    monkeypatch.setattr(site_pages, "HANDS_PER_PAGE", 100)
    report = build(engine, out)
    for name, data in ours.items():
        assert (out / name).read_bytes() == data, name
    # a page the tool wrote, changed since, that the site no longer has: left, and said
    assert (out / "sessions" / "1-3.html").read_text(encoding="utf-8") == "edited by hand"
    assert not (out / "sessions" / "1-2.html").exists()
    assert report.removed >= 1 and report.left == 1
    again = build(engine, out)  # no longer in the manifest: never touched again
    assert (again.removed, again.left) == (0, 0)
    assert (out / "sessions" / "1-3.html").is_file()


def test_a_manifest_naming_a_file_outside_the_site_removes_nothing(engine, tmp_path):
    from mighty_cli.site.manifest import MANIFEST

    out = tmp_path / "site"
    build(engine, out)
    outside = tmp_path / "outside.html"
    outside.write_text("keep", encoding="utf-8")
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    digest = __import__("hashlib").sha256(b"keep").hexdigest()
    manifest["pages"]["../outside.html"] = ["k", digest, 4]
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    report = build(engine, out)
    assert outside.read_text(encoding="utf-8") == "keep"
    assert report.written == report.pages  # a manifest not the tool's: trusted for nothing
    assert_same_as_full(engine, out, tmp_path / "full")


def test_an_unchanged_page_is_trusted_by_its_stamp_without_being_read(
    engine, tmp_path, monkeypatch
):
    """A page whose size, modification time and inode are as written is not read again; one
    edited in place to the same size (its time changed) is read, found changed and rewritten."""
    from mighty_cli.site import manifest as site_manifest

    out = tmp_path / "site"
    build(engine, out)
    page = out / "sessions.html"
    size = page.stat().st_size
    with page.open("r+b") as handle:  # same size, same inode, a later time
        handle.write(b"<!-- changed by hand -->")
    stamp = page.stat()
    os.utime(page, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000))
    assert page.stat().st_size == size
    opened = []
    real_open = open
    monkeypatch.setattr(
        site_manifest,
        "open",
        lambda path, *a, **k: opened.append(path) or real_open(path, *a, **k),
        raising=False,
    )
    report = build(engine, out)
    assert report.written == 1 and [str(path) for path in opened] == [str(page)]
    assert_same_as_full(engine, out, tmp_path / "full")


def test_a_page_changed_by_hand_is_written_again(engine, tmp_path):
    out = tmp_path / "site"
    build(engine, out)
    (out / "index.html").write_text("defaced", encoding="utf-8")
    (out / "hands" / "31.html").unlink()
    report = build(engine, out)
    assert report.written == 2
    assert_same_as_full(engine, out, tmp_path / "full")


def test_a_change_of_language_writes_every_page(engine, tmp_path):
    out = tmp_path / "site"
    build(engine, out)
    report = build(engine, out, lang="ko")
    assert report.written == report.pages
    full = tmp_path / "full-ko"
    build(engine, full, lang="ko", full=True)
    assert files(out) == files(full)


def test_the_code_that_shapes_a_page_is_part_of_every_pages_key():
    """A change to a filter, the chart or the folding of messages renders every page again:
    each module of the pages' rendering is in the site's version (``site.build._CODE``), but
    those that only decide where and when a page is written, and the round board's QR codes
    (``round show --html``'s slips: no page of the site has one)."""
    from mighty_cli.site import build as site_data

    package = Path(site_data.__file__).parents[1]
    written_only = {
        "render/__init__.py",
        "render/template_cache.py",
        "site/__init__.py",
        "site/workers.py",
        "site/garbage.py",
        "render/qr.py",
    }
    rendering = {
        f"{folder}/{path.name}"
        for folder in ("render", "site")
        for path in (package / folder).glob("*.py")
    }
    assert rendering - written_only <= set(site_data._CODE)
    assert all((package / name).is_file() for name in site_data._CODE)


def test_full_writes_every_page(engine, tmp_path):
    out = tmp_path / "site"
    first = build(engine, out)
    report = build(engine, out, full=True)
    assert report.written == first.pages


# --- the command ---------------------------------------------------------------------------


def invoke(db: str, *args: str):
    from mighty_cli.cli import cli

    return CliRunner().invoke(
        cli, ["site", "--league", LEAGUE, *args, "--db", db], env={"MIGHTY_LANG": "en"}
    )


def test_the_command_says_how_many_pages_it_wrote_and_removed(engine, tmp_path, monkeypatch):
    from mighty_cli.site import page_files as site_pages

    db = str(engine.url)
    out = tmp_path / "site"
    first = invoke(db, "--output", str(out))
    assert first.exit_code == 0, first.output
    total = int(first.output.split(" of ")[1].split()[0])
    assert first.output.startswith(f"Wrote {total} of {total} pages to ")
    again = invoke(db, "--output", str(out))
    assert again.output.startswith(f"Wrote 0 of {total} pages to "), again.output
    monkeypatch.setattr(site_pages, "HANDS_PER_PAGE", 4)
    invoke(db, "--output", str(out))
    monkeypatch.setattr(site_pages, "HANDS_PER_PAGE", 100)
    result = invoke(db, "--output", str(out), "--full")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Wrote {total} of {total} pages to ")
    removed = result.output.splitlines()[1]
    assert removed.startswith("Removed ") and removed.endswith(" pages the site no longer has.")
    assert not (out / "sessions" / "1-3.html").exists()


@pytest.mark.parametrize(
    "escape",
    [
        "{{ ''.__class__.__mro__ }}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ cycler.__init__.__globals__.os }}",
    ],
)
@pytest.mark.parametrize("template", ["site_index.html", "site_hand.html", "site_session.html"])
def test_the_sandbox_still_refuses_an_escape_from_a_user_template(
    engine, tmp_path, escape, template
):
    """Bundled templates render unsandboxed; a club's folder keeps every page in the sandbox,
    and a refused template stops the build in one line with nothing written, even when it is
    the last page rendered (the index)."""
    db = str(engine.url)
    club = tmp_path / "club"
    club.mkdir()
    (club / template).write_text(escape, encoding="utf-8")
    out = tmp_path / "site"
    result = invoke(db, "--output", str(out), "--templates", str(club))
    assert result.exit_code == 1
    assert result.output.startswith("Error: template error: ")
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not out.exists()


def test_a_refused_user_template_changes_nothing_in_a_site_already_there(engine, tmp_path):
    db = str(engine.url)
    out = tmp_path / "site"
    assert invoke(db, "--output", str(out)).exit_code == 0
    before = files(out)
    club = tmp_path / "club"
    club.mkdir()
    (club / "site_index.html").write_text("{{ ''.__class__.__mro__ }}", encoding="utf-8")
    result = invoke(db, "--output", str(out), "--templates", str(club))
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert files(out) == before


def test_the_bundled_templates_render_outside_the_sandbox_and_a_club_folder_inside():
    from jinja2.sandbox import SandboxedEnvironment

    from mighty_cli.render.html import environment

    assert not isinstance(environment(None), SandboxedEnvironment)
    assert isinstance(environment(Path(__file__).parent), SandboxedEnvironment)


def test_a_player_named_in_markup_stays_escaped_on_unsandboxed_pages(engine, tmp_path):
    out = tmp_path / "site"
    build(engine, out)
    texts = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html"))
    assert EVIL not in texts and "&lt;script&gt;" in texts


def test_a_pages_temporary_file_left_by_a_killed_process_is_removed_by_the_next_build(
    engine, tmp_path
):
    """A process killed while writing a page leaves its ``.part`` file; the next build
    removes it, and only it: files of the same shape not named after a page stay."""
    out = tmp_path / "site"
    build(engine, out)
    old = os.stat(out / "index.html").st_mtime - 60
    left = [out / ".index.html.ab12cd_9.part", out / "hands" / ".31.html.zzzzzzzz.part"]
    kept = [
        out / ".notes.txt.ab12cd_9.part",
        out / "hands" / ".x.html.ab12cd_9.part",
        out / ".index.html.toolong12.part",
    ]
    for path in left + kept:
        path.write_bytes(b"<html")
        os.utime(path, (old, old))
    build(engine, out)
    assert [path.name for path in left if path.exists()] == []
    assert [path.name for path in kept if not path.exists()] == []


def test_a_temporary_file_newer_than_the_build_or_through_a_link_is_left(tmp_path):
    """Newer than the build: another build is writing it now. Through a link: not the
    site's."""
    from mighty_cli.site.manifest import remove_leftovers

    (tmp_path / "hands").mkdir()
    now = tmp_path / "hands" / ".3.html.abcdefgh.part"
    now.write_bytes(b"being written")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / ".1.html.abcdefgh.part").write_bytes(b"theirs")
    (tmp_path / "players").symlink_to(elsewhere)
    later = now.stat().st_mtime + 1
    assert remove_leftovers(tmp_path, now.stat().st_mtime - 1) == 0 and now.exists()
    assert remove_leftovers(tmp_path, later) == 1 and not now.exists()
    assert (elsewhere / ".1.html.abcdefgh.part").exists()


def test_a_copied_site_folder_is_read_once_not_at_every_build(engine, tmp_path, monkeypatch):
    """Copied (or restored) pages have new inodes: the next build reads each to trust it and
    records the new stamps; the build after reads none."""
    import shutil

    from mighty_cli.site import manifest as site_manifest

    build(engine, tmp_path / "site")
    out = tmp_path / "copy"
    shutil.copytree(tmp_path / "site", out)
    read = []
    monkeypatch.setattr(
        site_manifest,
        "open",
        lambda path, mode: read.append(path) or open(path, mode),
        raising=False,
    )
    first = build(engine, out)
    assert first.written == 0 and len(read) == first.pages
    read.clear()
    again = build(engine, out)
    assert again.written == 0 and read == []
    assert files(out) == files(tmp_path / "site")


def test_a_build_collects_garbage_rarely_and_leaves_the_collector_as_it_found_it(
    engine, tmp_path, monkeypatch
):
    """mighty_cli.site.garbage: inside a build the young generation is collected every YOUNG
    allocations and what was alive before is frozen; after it (also after one that failed),
    the thresholds and the frozen objects are as before."""
    import gc

    from mighty_cli.engine.errors import MightyError
    from mighty_cli.site import build as site_data
    from mighty_cli.site import garbage

    before = gc.get_threshold()
    seen = []
    real = site_data._write_pages

    def watched(*args):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        return real(*args)

    monkeypatch.setattr(site_data, "_write_pages", watched)
    build(engine, tmp_path / "site")
    assert seen == [(garbage.YOUNG, True)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0

    def failing(*args):
        raise MightyError("stopped on purpose")

    monkeypatch.setattr(site_data, "_write_pages", failing)
    with pytest.raises(MightyError):
        build(engine, tmp_path / "site")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
