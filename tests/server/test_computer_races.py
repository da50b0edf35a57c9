"""Found by attack (issue 18): practice undo / redo while the computer thinks, in the embedded engine mode.

The computer's search is held at a gate, so the test decides when its (by then stale) move arrives."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.core.go import GoState, Move
from miai.server.app import create_app
from tests.server.conftest import make_settings, register
from tests.server.test_computer_games import centre_first, computers_after, moves, settle

gate = threading.Event()


async def gated(state: GoState, level: int | str, seed: int, seconds: float | None) -> Move:
    while not gate.is_set():
        await asyncio.sleep(0.01)
    return await centre_first(state, level, seed, seconds)


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    gate.clear()
    app = create_app(make_settings(database_url, tmp_path), background=False, chooser=gated)
    with TestClient(app) as test_client:
        try:
            yield test_client
        finally:
            gate.set()  # before the app stops: it waits for the requests held at the gate


def test_undo_then_redo_while_the_computer_thinks_still_gets_its_reply(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 3})["id"]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})  # the computer starts thinking at this version
    alice.ok(f"/api/v1/games/{gid}/undo")
    alice.ok(f"/api/v1/games/{gid}/redo")  # C3 again: the computer is on move at a newer version
    gate.set()  # the first search ends: its move is refused (stale), and the newer turn must still be played
    settle(client)
    assert moves(alice, gid) == ["C3", "E5"]
    assert alice.get(f"/api/v1/games/{gid}").json()["to_move"]["user_id"] == alice.user_id


def test_back_to_start_while_the_computer_thinks_leaves_it_waiting(client: TestClient) -> None:
    """The reply the computer was thinking about is refused (the game moved on), and back at the start the
    computer (Black) waits for its player (issue 32) until Redo replays its opening."""
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "white", "level": 3})["id"]
    gate.set()
    settle(client)
    gate.clear()
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})  # the computer (Black) thinks about its reply
    alice.ok(f"/api/v1/games/{gid}/start")  # back to the empty board: Black, the computer, is on move
    gate.set()
    settle(client)
    assert moves(alice, gid) == []
    alice.ok(f"/api/v1/games/{gid}/redo")
    settle(client)
    assert moves(alice, gid) == ["E5"]


def test_slow_territory_estimates_do_not_hold_the_database_from_other_requests(client: TestClient) -> None:
    """With the engine queue, an estimate may wait long for a busy worker: one user's burst of Area clicks
    must not keep the web process's database connections (10 + 20 on PostgreSQL) from every other request."""
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 3})["id"]
    waiting = threading.Semaphore(0)

    async def slow_area(state: GoState) -> tuple[float, ...]:
        waiting.release()
        while not gate.is_set():
            await asyncio.sleep(0.01)
        return tuple(0.0 for _ in range(state.size * state.size))

    client.app.state.jobs.area = slow_area  # type: ignore[attr-defined]
    burst = 32
    clicks = [threading.Thread(target=alice.get, args=(f"/api/v1/games/{gid}/area",)) for _ in range(burst)]
    for click in clicks:
        click.start()
    started = sum(waiting.acquire(timeout=5) for _ in range(burst))  # without a free connection, fewer
    answered: list[int] = []
    other = threading.Thread(target=lambda: answered.append(alice.get(f"/api/v1/games/{gid}").status_code))
    other.start()
    other.join(timeout=8)
    answered_while_estimating = not other.is_alive()
    gate.set()
    other.join()
    for click in clicks:
        click.join()
    assert answered_while_estimating
    assert answered == [200]
    assert started == burst


def test_computers_left_alone_pass_and_end_the_game(client: TestClient) -> None:
    """Found by attack: after the only person resigned, two computers played 7,270 moves (the stand-in here;
    real engines at 5 s a move: hours of engine workers) for nobody."""
    gate.set()
    alice = register(client, "alice")
    gid = computers_after(alice)
    settle(client)
    assert moves(alice, gid) == ["A1", "E5", "E4"]  # with a person in play, the computers play
    alice.ok(f"/api/v1/games/{gid}/resign")
    settle(client)
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert snap["status"] == "finished"
    assert snap["result"]["reason"] == "passes"
    assert [m["move"] for m in snap["moves"]][3:] == ["resign", "pass", "pass"]
