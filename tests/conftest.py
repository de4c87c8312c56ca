"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def runner(tmp_path, monkeypatch) -> CliRunner:
    """A CliRunner whose default database lives in a temporary folder."""
    monkeypatch.setenv("MIGHTY_DB", f"sqlite:///{tmp_path / 'mighty.db'}")
    return CliRunner()


@pytest.fixture
def examples() -> Path:
    return ROOT / "examples"


def pytest_report_header(config):
    url = os.environ.get("MIGHTY_TEST_POSTGRES_URL")
    return f"PostgreSQL: {url or 'not configured (PostgreSQL tests skipped)'}"
