"""A move deadline passes while the server is down: after the restart the timeout is applied exactly once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import REPO

SECONDS_PER_MOVE = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(database_url: str, data_dir: Path, port: int) -> Iterator[str]:
    env = {
        **os.environ,
        "MIAI_DATABASE_URL": database_url,
        "MIAI_DATA_DIR": str(data_dir),
        "MIAI_PORT": str(port),
        "PYTHONPATH": str(REPO / "src"),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "miai.server.main:app_from_env",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None:
                raise RuntimeError(f"server died: {process.stderr.read().decode() if process.stderr else ''}")
            time.sleep(0.1)
        else:
            raise RuntimeError("server did not start")
        yield base
    finally:
        process.send_signal(signal.SIGKILL)  # a crash, not a clean shutdown
        process.wait(10)
        if process.stderr:
            process.stderr.close()


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
    with server(database_url, tmp_path, free_port()) as base:  # a second restart applies nothing again
        time.sleep(1.5)
        snap = call(base, "GET", f"/api/v1/games/{gid}", players[0])
        moves = [(m["team"], m["move"]) for m in snap["moves"]]
        assert moves[:2] == [(1, "E5"), (2, "timeout")]
        # Team 2's timeout is never applied again; team 3 may time out legitimately if the restart was slow.
        assert moves.count((2, "timeout")) == 1
        assert all(team == 3 for team, _ in moves[2:]), moves
