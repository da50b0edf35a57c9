"""`python -m miai.engines.warm` goes through every engine (the test command runs it before the workers)."""

from __future__ import annotations

import pytest

from miai.core.registry import KINDS
from miai.engines import warm


def test_every_kinds_engine_and_the_estimator_are_warmed(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main() == 0
    warmed = [line.split()[1] for line in capsys.readouterr().out.splitlines()]
    assert warmed == ["go", "estimator", "review", *sorted(k for k in KINDS if k != "go")]
    assert set(warmed) >= {"go", "amazons", "hex", "tanbo"}
