"""rulesets/standard.toml is the schema written out: every option, with the schema's default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mighty_cli.engine.ruleset import Ruleset, iter_options, load_ruleset_with_origins

ROOT = Path(__file__).resolve().parents[2]


def test_standard_file_sets_every_option_to_its_default():
    loaded = load_ruleset_with_origins("standard")
    schema = Ruleset()
    for key, _ in iter_options():
        if key.startswith("meta."):
            continue
        assert loaded.origins[key] == "standard.toml", f"{key} is missing from standard.toml"
        assert loaded.ruleset.get(key) == schema.get(key), key


def test_generator_reproduces_the_committed_file(tmp_path):
    committed = (ROOT / "rulesets" / "standard.toml").read_text(encoding="utf-8")
    script = (ROOT / "tools" / "gen_standard.py").read_text(encoding="utf-8")
    copy = tmp_path / "tools" / "gen_standard.py"
    copy.parent.mkdir()
    (tmp_path / "rulesets").mkdir()
    copy.write_text(script, encoding="utf-8")
    # the generator imports the package from the repository it sits in; point it at ours
    env = {"PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, str(copy)], check=True, env=env, cwd=tmp_path)
    assert (tmp_path / "rulesets" / "standard.toml").read_text(encoding="utf-8") == committed
