"""The Korean catalog is complete and current: every message id in the catalogued code has a
Korean translation, no entry is fuzzy, stale or obsolete, placeholders survive translation, and
the shipped .mo is the compilation of the .po (tools/i18n.py check, as a test)."""

from __future__ import annotations

import functools
import importlib.util
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_tool():
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = load_tool()
# The code's messages are extracted once for the module's checks (each took seconds): the tests
# change the catalog (.po, .mo), never the code.
tool.extract_catalog = functools.cache(tool.extract_catalog)


def test_korean_catalog_is_complete_and_compiled():
    assert tool.problems("ko") == []


def test_the_catalog_covers_the_help_of_the_translated_commands():
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in tool.extract_catalog()}
    assert any(i.startswith("Score one hand: base, doublings") for i in ids)
    assert any(i.startswith("Check every hand of a record file") for i in ids)
    assert "Usage:" in ids and "League table" in ids and "%(count)s hand" in ids


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A copy of the Korean .po and .mo the checker reads instead of the real ones."""
    po, mo = tmp_path / "mighty.po", tmp_path / "mighty.mo"
    shutil.copy(tool.po_path("ko"), po)
    shutil.copy(tool.mo_path("ko"), mo)
    monkeypatch.setattr(tool, "po_path", lambda language: po)
    monkeypatch.setattr(tool, "mo_path", lambda language: mo)
    return po, mo


def rewrite(po: Path, old: str, new: str) -> None:
    text = po.read_text(encoding="utf-8")
    assert old in text
    po.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_checker_fails_on_a_message_without_translation(scratch):
    po, _ = scratch
    rewrite(po, 'msgstr "사용법:"', 'msgstr ""')
    assert any("no translation of 'Usage:'" in line for line in tool.problems("ko"))


def test_checker_fails_on_a_fuzzy_entry(scratch):
    po, _ = scratch
    rewrite(po, 'msgid "Usage:"', '#, fuzzy\nmsgid "Usage:"')
    assert any("fuzzy translation of 'Usage:'" in line for line in tool.problems("ko"))


def test_checker_fails_on_a_stale_entry(scratch):
    po, _ = scratch
    po.write_text(
        po.read_text(encoding="utf-8") + '\nmsgid "Gone from the code"\nmsgstr "없음"\n',
        encoding="utf-8",
    )
    assert any("stale entry 'Gone from the code'" in line for line in tool.problems("ko"))


def test_checker_fails_on_an_obsolete_entry(scratch):
    po, _ = scratch
    po.write_text(
        po.read_text(encoding="utf-8") + '\n#~ msgid "Old"\n#~ msgstr "옛것"\n', encoding="utf-8"
    )
    assert any("obsolete entry 'Old'" in line for line in tool.problems("ko"))


def test_checker_fails_on_a_lost_placeholder(scratch):
    po, _ = scratch
    rewrite(po, 'msgstr "참고: {note}"', 'msgstr "참고"')
    assert any("placeholders" in line and "note: {note}" in line for line in tool.problems("ko"))


def test_checker_fails_on_a_mo_that_is_not_the_compilation_of_the_po(scratch):
    po, _ = scratch
    rewrite(po, 'msgstr "사용법:"', 'msgstr "쓰는 법:"')
    assert any("is not the compilation of" in line for line in tool.problems("ko"))


def test_a_recompiled_mo_satisfies_the_checker(scratch):
    from babel.messages.mofile import write_mo

    po, mo = scratch
    rewrite(po, 'msgstr "사용법:"', 'msgstr "쓰는 법:"')
    with open(mo, "wb") as handle:
        write_mo(handle, tool.read_po("ko"))
    assert tool.problems("ko") == []


def test_checker_fails_on_a_particle_pair_after_a_fixed_word(scratch):
    po, _ = scratch
    rewrite(po, 'msgstr "참고: {note}"', 'msgstr "참고이(가): {note}"')
    assert any("writes '이(가)' after a fixed word" in line for line in tool.problems("ko"))


def test_checker_fails_on_a_particle_in_one_form_after_a_placeholder(scratch):
    po, _ = scratch
    rewrite(po, 'msgstr "참고: {note}"', 'msgstr "참고: {note}를 보세요"')
    assert any("writes '를' after a placeholder" in line for line in tool.problems("ko"))


def test_checker_fails_on_a_particle_apart_from_its_placeholder(scratch):
    po, _ = scratch
    rewrite(po, 'msgstr "참고: {note}"', 'msgstr "참고: {note} 는 메모입니다"')
    assert any(
        "writes the particle '는' apart from its placeholder" in line
        for line in tool.problems("ko")
    )


def test_a_particle_pair_after_a_placeholder_satisfies_the_checker(scratch):
    from babel.messages.mofile import write_mo

    po, mo = scratch
    rewrite(po, 'msgstr "참고: {note}"', "msgstr \"참고: '{note}'은(는) 메모입니다\"")
    with open(mo, "wb") as handle:
        write_mo(handle, tool.read_po("ko"))
    assert tool.problems("ko") == []
