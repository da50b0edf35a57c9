"""The engine queue's settings and `miai worker`'s start: bad values stop it with one clear line."""

from __future__ import annotations

import pytest

from miai.cli import main
from miai.server.settings import Settings, SettingsError


def test_the_redis_queue_without_redis_is_a_start_up_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIAI_ENGINE_QUEUE", "redis")
    with pytest.raises(SettingsError, match="MIAI_ENGINE_QUEUE=redis needs MIAI_REDIS_URL"):
        Settings.from_env()
    monkeypatch.setenv("MIAI_REDIS_URL", "redis://127.0.0.1:6379/0")
    assert Settings.from_env().engine_queue == "redis"


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("MIAI_ENGINE_QUEUE", "rabbit"),
        ("MIAI_ENGINE_JOB_VISIBILITY", "nan"),
        ("MIAI_ENGINE_JOB_VISIBILITY", "0.5"),
        ("MIAI_ENGINE_REPLY_TIMEOUT", "inf"),
        ("MIAI_ENGINE_SWEEP_INTERVAL", "1e400"),
        ("MIAI_ENGINE_SWEEP_INTERVAL", "-1"),
    ],
)
def test_bad_engine_queue_values_name_their_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError, match=variable):
        Settings.from_env()


def test_miai_worker_needs_redis(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["worker"]) == 2
    assert "MIAI_REDIS_URL" in capsys.readouterr().err
    monkeypatch.setenv("MIAI_ENGINE_JOB_VISIBILITY", "abc")
    assert main(["worker", "--redis-url", "redis://127.0.0.1:6379/0"]) == 2
    assert "MIAI_ENGINE_JOB_VISIBILITY" in capsys.readouterr().err
