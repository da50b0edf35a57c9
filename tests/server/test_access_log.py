"""Finding 7: tokens and invite codes passed in URLs (`?token=`, `?invite=`) never reach the server's logs.

A real `miai serve` on a free loopback port (tests/server/processes.py); its request and websocket log lines
are read once it stopped.
"""

from __future__ import annotations

import logging
import re
import uuid
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.conftest import need
from tests.server.conftest import redis_reachable
from tests.server.processes import miai_serve

SECRETS = ("secret-http-token", "secret-invite-code", "secret-ws-token", "secret-encoded", "secret-game-ws")


def open_socket(url: str) -> None:
    try:
        with connect(url, open_timeout=10, close_timeout=2) as socket_:
            socket_.recv(timeout=10)  # the server closes it: unknown token
    except (ConnectionClosed, InvalidStatus, TimeoutError):
        pass


def serve_and_log(tmp_path: Path, *options: str, **variables: str) -> str:
    """Start `miai serve`, send requests carrying secrets in their URLs, stop it, and return its output."""
    options = ("--data-dir", str(tmp_path), *options)
    with miai_serve(tmp_path / "server.log", *options, cwd=tmp_path, **variables) as server:
        base, port = server.base, server.port
        assert httpx.get(f"{base}/api/v1/me?token=secret-http-token").status_code == 401
        httpx.get(f"{base}/api/v1/games/1?invite=secret-invite-code&since=0")
        httpx.get(f"{base}/api/v1/me?since=1&%74oken=secret-encoded")
        open_socket(f"ws://127.0.0.1:{port}/api/v1/ws?token=secret-ws-token")
        open_socket(f"ws://127.0.0.1:{port}/api/v1/games/1/ws?since=0&token=secret-game-ws")
        # a proxy on this host says who the client is; Miai believes it only from trusted addresses
        httpx.get(f"{base}/api/v1/health?via=proxy", headers={"X-Forwarded-For": "203.0.113.9"})
        httpx.get(f"{base}/api/v1/health?last=request")
    return server.output()  # read once the server stopped: every line written


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
    from miai.server.logs import redact

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
