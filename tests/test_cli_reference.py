"""The command reference (docs/reference.md, docs/reference.ko.md) is the commands' own help in
both languages: checked here, so a changed option without a regenerated reference fails
(issue 25 item 2)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def reference():
    spec = importlib.util.spec_from_file_location(
        "cli_reference", ROOT / "tools" / "cli_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_matches_the_commands_help(reference):
    assert reference.drifted() == [], "run 'python tools/cli_reference.py write'"


def test_every_command_is_in_both_references(reference):
    english = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    korean = (ROOT / "docs" / "reference.ko.md").read_text(encoding="utf-8")
    for path in reference.command_paths():
        name = " ".join(("mighty",) + path)
        assert f"## {name}\n" in english and f"## {name}\n" in korean
    assert "Usage: mighty round start" in english and "사용법: mighty round start" in korean


def test_a_planted_drift_is_caught(reference, tmp_path, monkeypatch, capsys):
    planted = {}
    for lang, path in reference.FILES.items():
        text = path.read_text(encoding="utf-8")
        copy = tmp_path / path.name
        copy.write_text(
            text.replace("--players", "--people", 1) if lang == "en" else text, encoding="utf-8"
        )
        planted[lang] = copy
    assert reference.drifted(planted) == [planted["en"]]
    monkeypatch.setattr(reference, "FILES", planted)
    monkeypatch.setattr(reference, "ROOT", tmp_path)
    monkeypatch.setattr("sys.argv", ["cli_reference.py", "check"])
    with pytest.raises(SystemExit) as stop:
        reference.main()
    assert stop.value.code == 1
    assert "reference.md does not match the commands' help" in capsys.readouterr().err
