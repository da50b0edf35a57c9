"""A move deadline passes while the server is down: after the restart the timeout is applied exactly once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from tests.server.processes import free_port, uvicorn_factory

SECONDS_PER_MOVE = 10


@contextmanager
def server(database_url: str, data_dir: Path, port: int, **settings: str) -> Iterator[str]:
    """A server process on `port`; it ends with SIGKILL, a crash rather than a clean shutdown."""
    log = data_dir / f"server-{port}.log"
    with uvicorn_factory(
        log, crash=True, port=port, MIAI_DATABASE_URL=database_url, MIAI_DATA_DIR=str(data_dir), **settings
    ) as running:
        yield running.base


def user(base: str, name: str) -> dict[str, str]:
    with httpx.Client(base_url=base) as http:
        registered = http.post("/api/v1/accounts", json={"username": name, "password": "correct horse"})
        registered.raise_for_status()
        token = http.post(
            "/api/v1/me/tokens", json={"name": "t"}, headers={"X-CSRF-Token": registered.json()["csrf_token"]}
        )
        token.raise_for_status()
    return {"Authorization": f"Bearer {token.json()['token']}"}


def call(base: str, method: str, url: str, headers: dict[str, str], body: Any = None) -> Any:
    response = httpx.request(method, base + url, json=body, headers=headers, timeout=10)
    assert response.status_code < 300, response.text
    return response.json()


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.05)


def test_timeout_applied_once_after_restart(database_url: str, tmp_path: Path) -> None:
    port = free_port()
    with server(database_url, tmp_path, port) as base:
        players = [user(base, f"player{i}") for i in range(3)]
        gid = call(
            base,
            "POST",
            "/api/v1/games",
            players[0],
            {"size": 9, "teams": 3, "team": 1, "seconds_per_move": SECONDS_PER_MOVE},
        )["id"]
        call(base, "POST", f"/api/v1/games/{gid}/join", players[1], {"team": 2})
        call(base, "POST", f"/api/v1/games/{gid}/join", players[2], {"team": 3})
        for p in players:
            call(base, "POST", f"/api/v1/games/{gid}/confirm", p)
        call(base, "POST", f"/api/v1/games/{gid}/moves", players[0], {"move": "E5"})
        pending = call(base, "GET", f"/api/v1/games/{gid}", players[0])
        assert pending["to_move"]["team"] == 2
    time.sleep(SECONDS_PER_MOVE + 1)  # team 2's deadline passes while no server runs
    with server(database_url, tmp_path, free_port()) as base:
        for _ in range(100):
            snap = call(base, "GET", f"/api/v1/games/{gid}", players[0])
            if len(snap["moves"]) == 2:
                break
            time.sleep(0.1)
        assert [(m["team"], m["move"]) for m in snap["moves"]] == [(1, "E5"), (2, "timeout")]
        assert snap["to_move"]["team"] == 3  # the right team moves next
        assert snap["status"] == "active"
        states = {p["team"]: p["state"] for p in snap["players"]}
        assert states == {1: "active", 2: "timed_out", 3: "active"}
    team_3_deadline = datetime.fromisoformat(snap["deadline"])
    # A second restart applies nothing again. A marker game whose one-second confirmation window lapses shows
    # when the restarted server's deadline rounds have run: once it is back to waiting, any timeout still
    # due (team 2's again, or team 3's too early) would have been applied in the same round or before.
    with server(database_url, tmp_path, free_port(), MIAI_CONFIRM_WINDOW="1") as base:
        marker = call(base, "POST", "/api/v1/games", players[0], {"size": 9, "team": 1})["id"]
        call(base, "POST", f"/api/v1/games/{marker}/join", players[1], {"team": 2})
        call(base, "POST", f"/api/v1/games/{marker}/confirm", players[0])

        def marker_expired() -> bool:
            return str(call(base, "GET", f"/api/v1/games/{marker}", players[0])["status"]) == "waiting"

        wait_until(marker_expired, "the confirmation window of the marker game to lapse")
        asked_at = datetime.now(UTC)
        snap = call(base, "GET", f"/api/v1/games/{gid}", players[0])
        moves = [(m["team"], m["move"]) for m in snap["moves"]]
        if asked_at < team_3_deadline:
            assert moves == [(1, "E5"), (2, "timeout")]  # nothing is due yet, so nothing has changed
            assert snap["to_move"]["team"] == 3 and snap["status"] == "active"
        else:  # a slow machine: team 3's own deadline has passed too, and only that may have been applied
            assert moves[:2] == [(1, "E5"), (2, "timeout")]
            assert moves[2:] in ([], [(3, "timeout")]), moves
