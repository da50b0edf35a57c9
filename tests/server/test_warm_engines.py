"""Warming the engines at start (issue 32): every game's compiled search is loaded in the background, so no
first computer move waits for compilation; startup and /health never wait for it, and MIAI_WARM_ENGINES=false
turns it off."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.engines.pool import EnginePool
from miai.server import app as app_module
from miai.server.app import create_app
from miai.server.settings import Settings
from tests.server.conftest import make_settings


@pytest.mark.parametrize("warm", [True, False])
def test_the_engines_warm_in_the_background_unless_turned_off(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm: bool
) -> None:
    asked: list[int] = []

    async def never_done(self: EnginePool) -> list[int]:
        asked.append(self.workers)
        await asyncio.Event().wait()  # a warm-up that takes forever: nothing may wait for it
        return []

    monkeypatch.setattr(EnginePool, "warm_up", never_done)
    monkeypatch.setattr(app_module, "_warm_up_estimator", lambda: None)
    app = create_app(make_settings(database_url, tmp_path, warm_engines=warm), background=True)
    with TestClient(app) as client:
        assert client.get("/api/v1/health").status_code == 200
        client.portal.call(asyncio.sleep, 0.05)  # type: ignore[union-attr]
        assert len(asked) == (1 if warm else 0)


def test_the_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.from_env().warm_engines is True  # on unless turned off
    monkeypatch.setenv("MIAI_WARM_ENGINES", "false")
    assert Settings.from_env().warm_engines is False
    monkeypatch.setenv("MIAI_WARM_ENGINES", "not-a-bool")
    with pytest.raises(ValueError, match=r"^MIAI_WARM_ENGINES="):
        Settings.from_env()


def test_a_warm_up_that_fails_is_logged_and_the_server_serves_on(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker that dies while loading (a broken cache, no memory) costs only the first move's wait."""

    async def broken(self: EnginePool) -> list[int]:
        raise RuntimeError("the worker died while loading")

    monkeypatch.setattr(EnginePool, "warm_up", broken)
    monkeypatch.setattr(app_module, "_warm_up_estimator", lambda: None)
    app = create_app(make_settings(database_url, tmp_path, warm_engines=True), background=True)
    with caplog.at_level("WARNING", logger="miai.server.app"), TestClient(app) as client:
        client.portal.call(asyncio.sleep, 0.05)  # type: ignore[union-attr]
        assert client.get("/api/v1/health").json()["ok"] is True
        assert client.get("/api/v1/presets").status_code == 200
    assert any("warming the engines failed" in r.getMessage() for r in caplog.records)
