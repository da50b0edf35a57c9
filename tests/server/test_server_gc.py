"""A server process tunes its garbage collection once its app is built (main.tune_gc, bench/server.md)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from miai.server.settings import Settings, SettingsError


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_a_served_app_freezes_start_up_and_sets_the_thresholds(
    restored_gc: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from miai.server.main import app_from_env

    monkeypatch.setenv("MIAI_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("MIAI_GC_THRESHOLD", "40000, 15,90")
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    app_from_env()
    assert gc.get_threshold() == (40000, 15, 90)
    assert gc.get_freeze_count() > 10_000  # the modules and the app left the collections


def test_the_default_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MIAI_GC_THRESHOLD", raising=False)
    assert Settings.from_env().gc_threshold == (50_000, 20, 100)


@pytest.mark.parametrize(
    "value",
    [
        "0,10,10",
        "700,10",
        "700,10,1001",
        "1e400,10,10",
        "NaN,10,10",
        "-1,10,10",
        "[700, 10, 10]",
        "many",
        "٣,1,1",
    ],
)
def test_a_bad_threshold_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("MIAI_GC_THRESHOLD", value)
    with pytest.raises(SettingsError, match="MIAI_GC_THRESHOLD") as caught:
        Settings.from_env()
    assert "\n" not in str(caught.value)
