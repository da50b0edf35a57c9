"""The browser tests' server keeps an idle connection open longer than uvicorn's default 5 s.

Playwright's API client reuses an idle connection and does not retry when the server has just closed it: a
call made about 5 s after the last one failed now and then with ECONNRESET (tests/web/support.py)."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

REQUEST = b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def answer(connection: socket.socket) -> bytes:
    """One response: its head, then as many body bytes as its Content-Length says (b"" when closed)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.lower().split(b"\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in lines if line.startswith(b"content-length:"))
    while len(body) < length:
        body += connection.recv(65536)
    return head


def test_an_idle_connection_still_answers_after_six_seconds(server: str) -> None:
    address = urlsplit(server)
    with socket.create_connection((address.hostname, address.port), timeout=10) as connection:
        connection.sendall(REQUEST)
        assert answer(connection).startswith(b"HTTP/1.1 200")
        time.sleep(6)  # past uvicorn's default keep-alive of 5 s
        connection.sendall(REQUEST)
        assert answer(connection).startswith(b"HTTP/1.1 200")
