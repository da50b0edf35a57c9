"""Browser-test support: a Miai server in a subprocess, a cuttable TCP proxy, API players and Chromium."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import httpx

from tests.conftest import REPO

ARTIFACTS = REPO / "tests" / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "correct horse"
ADMIN = "webadmin"  # the shared test server's administrator (granted with `miai admin grant`)
_SERVER_ENV: dict[str, dict[str, str]] = {}  # base URL -> the environment its server runs with


def chromium_path(headless_shell: bool = True) -> str | None:
    """Debian's headless shell when installed and wanted (the old headless mode, which Playwright itself
    runs for headless tests: the same Blink without the browser around it; a third less CPU over the layout
    tests here), else Debian's Chromium."""
    for name in ("chromium-headless-shell", "chromium")[0 if headless_shell else 1 :]:
        if Path(f"/usr/bin/{name}").exists():
            return f"/usr/bin/{name}"
        if found := shutil.which(name):
            return found
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def miai_server(data_dir: Path, port: int | None = None, **env_overrides: str) -> Iterator[str]:
    """Run `uvicorn miai.server.main:app_from_env` on a fresh SQLite database in `data_dir`."""
    port = port or free_port()
    env = {
        **os.environ,
        "MIAI_DATABASE_URL": f"sqlite+aiosqlite:///{(data_dir / 'miai.db').as_posix()}",
        "MIAI_DATA_DIR": str(data_dir),
        "MIAI_PORT": str(port),
        "PYTHONPATH": str(REPO / "src"),
        "MIAI_RATE_LIMITS_ENABLED": "false",  # one server for the whole session: every user from 127.0.0.1
        "MIAI_ARGON2_TIME_COST": "1",  # the cheapest hash: the browser tests sign up hundreds of users
        "MIAI_ARGON2_MEMORY_KIB": "64",
        **env_overrides,
    }
    log = (data_dir / "server.log").open("wb")
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
            # Playwright's API client (Node) reuses an idle connection without retrying: with uvicorn's 5 s
            # keep-alive, a call after a wait of about 5 s met the server closing that connection at the same
            # moment (ECONNRESET). Browsers retry such a request; the tests' client keeps it open longer.
            "--timeout-keep-alive",
            "120",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    _SERVER_ENV[base] = env
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None:
                raise RuntimeError(f"the server died: {(data_dir / 'server.log').read_text()}")
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 60 s")
            time.sleep(0.1)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()


def database_file(base: str) -> Path:
    """The SQLite file of the server at `base`."""
    return Path(_SERVER_ENV[base]["MIAI_DATABASE_URL"].removeprefix("sqlite+aiosqlite:///"))


def grant_admin(base: str, name: str) -> None:
    """`miai admin grant NAME` on the database of the server at `base`, as its operator would run it."""
    done = subprocess.run(
        [sys.executable, "-m", "miai", "admin", "grant", name],
        env=_SERVER_ENV[base],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


class TcpProxy:
    """Forwards a local port to the server; `cut()` drops every connection and refuses new ones."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = int(self.listener.getsockname()[1])
        self.open = True
        self.requests: list[str] = []  # first line of every request seen while open
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets.update((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, from_client: bool) -> None:
        first = from_client
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if first:
                    self.requests.append(data.split(b"\r\n", 1)[0].decode("latin-1"))
                    first = False
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                self._close(s)

    def _close(self, s: socket.socket) -> None:
        with self._lock:
            self._sockets.discard(s)
        with suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        s.close()

    def cut(self) -> None:
        self.open = False
        with self._lock:
            sockets = list(self._sockets)
        for s in sockets:
            self._close(s)

    def restore(self) -> None:
        self.open = True

    def stop(self) -> None:
        self._stopped = True
        self.cut()
        self.listener.close()


class Caller(Protocol):
    """Anyone who calls the API: an `ApiPlayer` (a token) or a browser's user (`ui.User`, a session)."""

    def call(self, method: str, path: str, body: Any = None) -> Any: ...


def start_game(players: Sequence[Caller], options: dict[str, Any], teams: Sequence[int] = ()) -> int:
    """The first player creates a game with `options`, the others join it (with its invite code), and all
    confirm: the game has started. `teams`: each player's team, in order (else 1, 2, 3, ...)."""
    teams = list(teams) or list(range(1, len(players) + 1))
    created = players[0].call("POST", "/games", {**options, "team": teams[0]})
    gid = int(created["id"])
    for player, team in zip(players[1:], teams[1:], strict=True):
        player.call("POST", f"/games/{gid}/join", {"team": team, "invite": created["invite_code"]})
    for player in players:
        player.call("POST", f"/games/{gid}/confirm")
    return gid


_clients: dict[str, httpx.Client] = {}


def http_client(base: str) -> httpx.Client:
    """One keep-alive HTTP client per server for the API players (hundreds of moves per screenshot game)."""
    if base not in _clients:
        _clients[base] = httpx.Client(base_url=base, timeout=20)
    return _clients[base]


def close_clients() -> None:
    while _clients:
        _clients.popitem()[1].close()


@dataclass
class ApiPlayer:
    """A player that talks to the HTTP API with a personal token, as a bot or script would."""

    base: str
    username: str
    user_id: int
    token: str

    @staticmethod
    def register(base: str, username: str) -> ApiPlayer:
        with httpx.Client(base_url=base, timeout=20) as http:
            r = http.post("/api/v1/accounts", json={"username": username, "password": PASSWORD})
            r.raise_for_status()
            body = r.json()
            csrf = {"X-CSRF-Token": body["csrf_token"]}
            t = http.post("/api/v1/me/tokens", json={"name": "tests"}, headers=csrf)
            t.raise_for_status()
        return ApiPlayer(base, username, body["user"]["id"], t.json()["token"])

    def call(self, method: str, path: str, body: Any = None) -> Any:
        r = http_client(self.base).request(
            method, f"/api/v1{path}", json=body, headers={"Authorization": f"Bearer {self.token}"}
        )
        assert r.status_code < 300, f"{method} {path}: {r.status_code} {r.text}"
        return r.json() if r.content else None

    def game(self, game_id: int) -> Any:
        return self.call("GET", f"/games/{game_id}")

    def play(self, game_id: int, move: str) -> Any:
        return self.call("POST", f"/games/{game_id}/moves", {"move": move})
