"""tools/rotation_search.py, the search that found ``designs.ROTATIONS``' base round: what it
returns is a round of the tables asked, and its own count of a rotation's repeats agrees with
the package's plan of the same rotation."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mighty_cli.tournament.designs import ROTATIONS, Rotation, rotated_rounds
from mighty_cli.tournament.plan import plan_facts

ROOT = Path(__file__).resolve().parents[2]
ORBITS = [6, 6, 6, 6, 6, 3, 3, 3, 1]
SIZES = [7, 7, 7, 7, 6, 6]


def load_tool():
    spec = importlib.util.spec_from_file_location(
        "rotation_search", ROOT / "tools" / "rotation_search.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def players(count: int) -> list[str]:
    return [f"P{i:02d}" for i in range(count)]


def test_the_search_returns_a_base_round_of_the_tables_asked():
    tool = load_tool()
    _cost, base = tool.search(ORBITS, SIZES, 3_000, seed=1)
    assert sorted(len(table) for table in base) == sorted(SIZES)
    seats = sorted(seat for table in base for seat in table)
    assert seats == [(o, r) for o, size in enumerate(ORBITS) for r in range(size)]
    rotation = Rotation(tuple(ORBITS), tuple(tuple(t) for t in base), tuple(range(6)))
    facts = plan_facts([], rotated_rounds(players(40), rotation))
    assert tool.figures(ORBITS, base) == (facts.repeats, sum(m - 2 for *_, m in facts.thrice))


def test_the_shipped_rotation_counts_72_by_the_tool_too():
    rotation = ROTATIONS[40, tuple(SIZES), 6]
    assert load_tool().figures(list(rotation.orbits), list(rotation.base)) == (72, 0)
