"""MIAI_COMPUTER_SECONDS: the computer's think per move in server games reaches the engine that plays."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.core.go import PASS, GoState, Move, new_game, preset
from miai.engines.players import MoveChoice, MoveRequest
from miai.engines.record import encode_move
from miai.server.app import create_app
from miai.server.engine_jobs.engine import PoolEngine
from miai.server.settings import Settings
from tests.server.conftest import make_settings, register


def test_a_server_game_computer_thinks_the_configured_seconds(database_url: str, tmp_path: Path) -> None:
    asked: list[float | None] = []

    async def passer(state: GoState, level: int | str, seed: int, seconds: float | None) -> Move:
        asked.append(seconds)
        return PASS

    settings = make_settings(database_url, tmp_path, computer_seconds=0.75)
    with TestClient(create_app(settings, background=False, chooser=passer)) as client:
        alice = register(client, "alice")
        gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 10})["id"]
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
        assert client.portal is not None
        client.portal.call(client.app.state.computers.idle)  # type: ignore[attr-defined]
        moves = [m["move"] for m in alice.get(f"/api/v1/games/{gid}").json()["moves"]]
    assert moves == ["C3", "pass"] and asked == [0.75]


def test_the_pool_engine_asks_its_players_for_its_seconds() -> None:
    requests: list[MoveRequest] = []

    async def scenario() -> None:
        engine = PoolEngine(workers=1, shared=False, seconds=1.25)

        async def choose(request: MoveRequest) -> MoveChoice:
            requests.append(request)
            return MoveChoice(encode_move(PASS), None)

        engine.pool.choose = choose  # type: ignore[method-assign]
        try:
            move, _ = await engine.choose(7, 1, new_game(9, preset("chinese", 9)), 10, 0, None)
        finally:
            await engine.close()
        assert move == PASS

    asyncio.run(scenario())
    assert [r.seconds for r in requests] == [1.25]


def test_the_default_is_five_seconds() -> None:
    assert Settings().computer_seconds == 5.0


@pytest.mark.parametrize("value", ["0", "-1", "61", "nan", "inf", "soon"])
def test_a_bad_think_time_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("MIAI_COMPUTER_SECONDS", value)
    with pytest.raises(ValueError) as caught:
        Settings.from_env()
    assert "\n" not in str(caught.value) and str(caught.value).startswith("MIAI_COMPUTER_SECONDS=")


def test_a_good_think_time_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIAI_COMPUTER_SECONDS", "1.5")
    assert Settings.from_env().computer_seconds == 1.5
