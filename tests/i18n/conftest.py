"""Every output the Korean tests here see reads as Korean: no particle left in pair notation
(``김민수이(가)``, ``Eddie(으)로``) and none standing apart from its word (``홍길동 는``,
``SA 는 서지우 에게``). Each command a test runs (``CliRunner.invoke``) and each line the referee
and the evening return is kept, and the test fails at its end when one holds a leftover, so a
message that loses its pair, or a Korean text built from pieces, cannot come back."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from korean_text import leftovers


@pytest.fixture(autouse=True)
def korean_reads_as_korean(monkeypatch):
    """Keep every output of the test and fail when one holds a leftover."""
    from mighty_cli.table.evening import Evening
    from mighty_cli.table.referee_session import RefereeSession

    outputs: list[str] = []

    def kept(function, text_of):
        def call(*args, **kwargs):
            result = function(*args, **kwargs)
            outputs.append(text_of(result))
            return result

        return call

    monkeypatch.setattr(CliRunner, "invoke", kept(CliRunner.invoke, lambda r: r.output))
    for owner in (RefereeSession, Evening):
        monkeypatch.setattr(owner, "handle", kept(owner.handle, "\n".join))
    yield
    found = [piece for text in outputs for piece in leftovers(text)]
    assert not found, f"Korean output that does not read as Korean: {found}"
