"""Finding 7: tokens and invite codes passed in URLs (`?token=`, `?invite=`) never reach the server's logs.

A real `miai serve` on a free loopback port; its request and websocket log lines are read once it stopped.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.conftest import REPO, need

SECRETS = ("secret-http-token", "secret-invite-code", "secret-ws-token", "secret-encoded", "secret-game-ws")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def wait_until_up(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"miai serve stopped: {log.read_text()}")
        try:
            if httpx.get(f"{base}/api/v1/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError("miai serve did not answer within 60 s")


def open_socket(url: str) -> None:
    try:
        with connect(url, open_timeout=10, close_timeout=2) as socket_:
            socket_.recv(timeout=10)  # the server closes it: unknown token
    except (ConnectionClosed, InvalidStatus, TimeoutError):
        pass


def serve_and_log(tmp_path: Path, *options: str, **variables: str) -> str:
    """Start `miai serve`, send requests carrying secrets in their URLs, stop it, and return its output."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("MIAI_")}
    env.update(
        PYTHONPATH=str(REPO / "src"),
        PYTHONUNBUFFERED="1",
        MIAI_ARGON2_TIME_COST="1",
        MIAI_ARGON2_MEMORY_KIB="1024",
        **variables,
    )
    log = tmp_path / "server.log"
    command = [sys.executable, "-m", "miai", "serve", "--port", str(port), "--data-dir", str(tmp_path)]
    command.extend(options)
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base, process, log)
            assert httpx.get(f"{base}/api/v1/me?token=secret-http-token").status_code == 401
            httpx.get(f"{base}/api/v1/games/1?invite=secret-invite-code&since=0")
            httpx.get(f"{base}/api/v1/me?since=1&%74oken=secret-encoded")
            open_socket(f"ws://127.0.0.1:{port}/api/v1/ws?token=secret-ws-token")
            open_socket(f"ws://127.0.0.1:{port}/api/v1/games/1/ws?since=0&token=secret-game-ws")
            # a proxy on this host says who the client is; Miai believes it only from trusted addresses
            httpx.get(f"{base}/api/v1/health?via=proxy", headers={"X-Forwarded-For": "203.0.113.9"})
            httpx.get(f"{base}/api/v1/health?last=request")
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
    return log.read_text()


def assert_redacted(text: str, client_behind_proxy: str) -> None:
    assert "GET /api/v1/health?last=request" in text, text  # the access log was written (and read whole)
    leaked = [secret for secret in SECRETS if secret in text]
    assert not leaked, f"{leaked} in the log:\n{text}"
    assert "GET /api/v1/me?token=REDACTED HTTP/1.1" in text, text
    assert "/api/v1/games/1?invite=REDACTED&since=0" in text
    assert "/api/v1/me?since=1&%74oken=REDACTED" in text
    assert '"WebSocket /api/v1/ws?token=REDACTED"' in text, text
    assert '"WebSocket /api/v1/games/1/ws?since=0&token=REDACTED"' in text, text
    assert re.search(client_behind_proxy + r' - "GET /api/v1/health\?via=proxy', text), text


def test_miai_serve_never_logs_tokens_or_invites(tmp_path: Path) -> None:
    assert_redacted(serve_and_log(tmp_path), client_behind_proxy=r"203\.0\.113\.9:0")


def test_several_workers_never_log_them_either_and_trust_only_their_proxies(tmp_path: Path) -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    text = serve_and_log(
        tmp_path,
        "--workers",
        "2",
        "--redis-url",
        "redis://127.0.0.1:6379/0",
        MIAI_REDIS_PREFIX=f"test-access-log-{uuid.uuid4().hex[:8]}",
        MIAI_FORWARDED_ALLOW_IPS="192.0.2.1",  # some other proxy: this client's X-Forwarded-For is ignored
    )
    assert_redacted(text, client_behind_proxy=r"127\.0\.0\.1:[0-9]+")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("/a?token=x", "/a?token=REDACTED"),
        ("/a?Token=x&b=1", "/a?Token=REDACTED&b=1"),
        ("/a?b=1&invite=x&token=y", "/a?b=1&invite=REDACTED&token=REDACTED"),
        ("/a?tok%65n=x", "/a?tok%65n=REDACTED"),
        ("/a?tokens=x&b=token=y", "/a?tokens=x&b=token=y"),
        ("/a?token", "/a?token=REDACTED"),
        ("no query here", "no query here"),
    ],
)
def test_redaction(line: str, expected: str) -> None:
    from miai.server.log_redaction import redact

    assert redact(line) == expected


def test_app_from_env_redacts_uvicorns_loggers_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`uvicorn --factory miai.server.main:app_from_env` logs as uvicorn set up: the app adds the filter."""
    from miai.server.main import app_from_env

    monkeypatch.setenv("MIAI_DATA_DIR", str(tmp_path))
    app_from_env()
    access, errors = logging.getLogger("uvicorn.access"), logging.getLogger("uvicorn.error")
    with caplog.at_level(logging.INFO, access.name), caplog.at_level(logging.INFO, errors.name):
        access.info('%s - "%s %s HTTP/%s" %d', "192.0.2.7:5", "GET", "/api/v1/me?token=secret-f", "1.1", 401)
        errors.info('%s - "WebSocket %s" [accepted]', "192.0.2.7:5", "/ws?token=abc1")
    assert "GET /api/v1/me?token=REDACTED HTTP/1.1" in caplog.text
    assert "/ws?token=REDACTED" in caplog.text
    assert "secret-f" not in caplog.text and "abc1" not in caplog.text
