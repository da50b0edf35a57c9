"""Clients count clocks on the server's time: the snapshot and the dashboard carry `now`, and every event
that starts a turn carries `turn_started_at` (docs/api.md, docs/realtime.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import FakeClock, register

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def test_snapshot_dashboard_and_events_carry_the_server_time(
    timed_client: TestClient, clock: FakeClock
) -> None:
    black, white = register(timed_client, "timeblack"), register(timed_client, "timewhite")
    options = {"size": 9, "team": 1, "clock": "fischer", "main_time": 60, "increment": 5}
    gid = black.ok("/api/v1/games", options)["id"]
    white.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    for player in (black, white):
        player.ok(f"/api/v1/games/{gid}/confirm")

    clock.moment = START + timedelta(seconds=7)
    black.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    clock.moment = START + timedelta(seconds=19.5)
    snap = white.get(f"/api/v1/games/{gid}").json()
    assert datetime.fromisoformat(snap["now"]) == START + timedelta(seconds=19.5)
    assert datetime.fromisoformat(snap["turn_started_at"]) == START + timedelta(seconds=7)
    dashboard = white.get("/api/v1/dashboard").json()
    assert datetime.fromisoformat(dashboard["now"]) == START + timedelta(seconds=19.5)

    events = white.get(f"/api/v1/games/{gid}/events?since=0").json()["events"]
    started = next(e["d"] for e in events if e["t"] == "started")
    move = next(e["d"] for e in events if e["t"] == "move")
    assert datetime.fromisoformat(started["turn_started_at"]) == START
    # The move's event says when White's clock started, and White's deadline is its main time after that.
    assert datetime.fromisoformat(move["turn_started_at"]) == START + timedelta(seconds=7)
    assert datetime.fromisoformat(move["deadline"]) == START + timedelta(seconds=67)
    assert move["clocks"]["1"]["main"] == 60 - 7 + 5
