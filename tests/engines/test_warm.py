"""`python -m miai.engines.warm` goes through every engine (the test command runs it before the workers)."""

from __future__ import annotations

import importlib.util

import pytest

from miai.core.registry import KINDS
from miai.engines import warm
from tests.conftest import REPO


def test_every_kinds_engine_and_the_estimator_are_warmed(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main() == 0
    warmed = [line.split()[1] for line in capsys.readouterr().out.splitlines()]
    assert set(warmed) == {"go", "estimator", "review", *KINDS}
    assert warm.main(["hex", "tanbo"]) == 0
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["hex", "tanbo"]


def test_an_unknown_name_is_refused_naming_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main(["chess"]) == 2
    assert "unknown warm-up chess; known: go, estimator, review" in capsys.readouterr().err


def test_the_test_command_warms_every_engine() -> None:
    """dev.py's two background groups together name every warm-up, each once."""
    spec = importlib.util.spec_from_file_location("dev", REPO / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    groups = [name for group in dev.WARM_UPS for name in group]
    assert sorted(groups) == sorted(name for name, _ in warm.steps())
