"""Finding 7: security headers on every response, Secure and signed session cookies, HSTS over https."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from miai.server.app import create_app
from miai.server.storage import repo
from tests.server.conftest import make_settings

COOKIE = "miai_session"
SECRET = "s" * 40
OTHER_SECRET = "t" * 40
PASSWORD = "correct horse"


def app_client(
    database_url: str, tmp_path: Path, base_url: str = "http://testserver", **overrides: Any
) -> TestClient:
    values: dict[str, Any] = {"base_url": base_url, "secret_key": SECRET, **overrides}
    app = create_app(make_settings(database_url, tmp_path, **values), background=False)
    return TestClient(app, base_url=base_url)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{(tmp_path / 'miai.db').as_posix()}"


@pytest.fixture
def http_client(sqlite_url: str, tmp_path: Path) -> Iterator[TestClient]:
    with app_client(sqlite_url, tmp_path) as client:
        yield client


def register(client: TestClient, username: str = "ada") -> Any:
    response = client.post("/api/v1/accounts", json={"username": username, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return response


def me_with_cookie(client: TestClient, value: str) -> Any:
    """GET /me carrying exactly this session cookie value (raw, as a hostile client may send it)."""
    client.cookies.clear()
    return client.get("/api/v1/me", headers=[(b"cookie", f"{COOKIE}={value}".encode())])


def directives(policy: str) -> dict[str, list[str]]:
    parsed = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


# ------------------------------------------------------------------------------------------ headers


PATHS = ["/", "/games/12", "/static/js/app.js", "/static/app.css", "/api/v1/health", "/api/v1/nothing-here"]


@pytest.mark.parametrize("path", PATHS)
def test_every_response_carries_the_security_headers(http_client: TestClient, path: str) -> None:
    response = http_client.get(path)
    headers = response.headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"
    policy = directives(headers["content-security-policy"])
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval, nothing from elsewhere
    assert policy["object-src"] == ["'none'"]
    assert "strict-transport-security" not in headers  # plain http: HSTS would be ignored and wrong


def test_validation_errors_carry_them_too(http_client: TestClient) -> None:
    response = http_client.post("/api/v1/session", json={"username": 5})
    assert response.status_code == 422
    assert response.headers["x-frame-options"] == "DENY"


def test_the_policy_lets_the_ui_reach_its_own_websockets_and_images(http_client: TestClient) -> None:
    response = http_client.get("/", headers={"host": "go.example.org:8443"})
    policy = directives(response.headers["content-security-policy"])
    assert policy["connect-src"] == ["'self'", "ws://go.example.org:8443", "wss://go.example.org:8443"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["style-src"] == ["'self'"]


@pytest.mark.parametrize("host", ["evil.org; script-src *", "a b", "x'y", ""])
def test_a_strange_host_header_is_never_written_into_the_policy(http_client: TestClient, host: str) -> None:
    response = http_client.get("/api/v1/health", headers={"host": host})
    policy = directives(response.headers["content-security-policy"])
    assert policy["connect-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]


def test_the_api_documentation_page_gets_a_policy_for_its_cdn(http_client: TestClient) -> None:
    response = http_client.get("/api/v1/docs")
    assert response.status_code == 200
    policy = directives(response.headers["content-security-policy"])
    assert "https://cdn.jsdelivr.net" in policy["script-src"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_https_adds_hsts(sqlite_url: str, tmp_path: Path) -> None:
    with app_client(sqlite_url, tmp_path, base_url="https://go.example.org") as client:
        response = client.get("/api/v1/health")
    assert response.headers["strict-transport-security"] == "max-age=31536000"


# ------------------------------------------------------------------------------------------ cookies


def set_cookie_header(response: Any) -> str:
    headers = response.headers.multi_items()
    return str(next(v for k, v in headers if k == "set-cookie" and v.startswith(COOKIE)))


def test_the_session_cookie_is_secure_over_https(sqlite_url: str, tmp_path: Path) -> None:
    with app_client(sqlite_url, tmp_path, base_url="https://go.example.org") as client:
        cookie = set_cookie_header(register(client)).lower()
        assert "; secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
        assert client.get("/api/v1/me").status_code == 200  # and it works (the test client speaks https)


def test_the_session_cookie_is_not_secure_over_plain_http(http_client: TestClient) -> None:
    cookie = set_cookie_header(register(http_client)).lower()
    assert "; secure" not in cookie  # or no browser would send it back to a development server


def test_cookie_secure_can_be_turned_off_behind_https(sqlite_url: str, tmp_path: Path) -> None:
    with app_client(sqlite_url, tmp_path, base_url="https://go.example.org", cookie_secure=False) as client:
        assert "; secure" not in set_cookie_header(register(client)).lower()


def test_the_cookie_is_the_session_token_signed(http_client: TestClient) -> None:
    register(http_client)
    value = http_client.cookies[COOKIE]
    token, dot, signature = value.rpartition(".")
    assert dot and len(token) >= 40 and len(signature) >= 40
    assert http_client.get("/api/v1/me").status_code == 200
    # The bare token (what the cookie held before) is no longer a session, nor is a changed signature.
    changed = signature[:-1] + ("B" if signature.endswith("A") else "A")
    for forged in (token, f"{token}.{changed}", f"{token}.{signature}x", f"x{token}.{signature}"):
        assert me_with_cookie(http_client, forged).status_code == 401, forged
    assert me_with_cookie(http_client, value).status_code == 200


def test_a_forged_cookie_never_reaches_the_database(
    http_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(http_client)
    token = http_client.cookies[COOKIE].rpartition(".")[0]
    lookups: list[str] = []
    real = repo.session_by_hash

    async def counting(db: Any, token_hash: str) -> Any:
        lookups.append(token_hash)
        return await real(db, token_hash)

    monkeypatch.setattr(repo, "session_by_hash", counting)
    assert me_with_cookie(http_client, f"{token}.bad").status_code == 401
    assert lookups == []


@pytest.mark.parametrize("value", ["", ".", "a.b.c", "x" * 5000, "é.ü", "%00.%00", '"quoted"'])
def test_hostile_cookies_are_simply_not_logged_in(http_client: TestClient, value: str) -> None:
    response = me_with_cookie(http_client, value)
    assert response.status_code == 401, response.text
    assert response.json()["error"] == "unauthorized"


def test_logout_ends_the_signed_session(http_client: TestClient) -> None:
    csrf = register(http_client).json()["csrf_token"]
    value = http_client.cookies[COOKIE]
    assert http_client.delete("/api/v1/session", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert me_with_cookie(http_client, value).status_code == 401  # deleted, not just forgotten


def test_a_new_secret_key_logs_everyone_out(sqlite_url: str, tmp_path: Path) -> None:
    with app_client(sqlite_url, tmp_path, secret_key=SECRET) as client:
        register(client)
        value = client.cookies[COOKIE]
    with app_client(sqlite_url, tmp_path, secret_key=OTHER_SECRET) as client:
        assert me_with_cookie(client, value).status_code == 401
    with app_client(sqlite_url, tmp_path, secret_key=SECRET) as client:  # the session itself was not touched
        assert me_with_cookie(client, value).status_code == 200


def test_the_websocket_accepts_the_signed_cookie_only(http_client: TestClient) -> None:
    register(http_client)
    value = http_client.cookies[COOKIE]
    with http_client.websocket_connect("/api/v1/ws") as socket:
        socket.send_json({"t": "ping"})
        assert socket.receive_json()["t"] == "pong"
    http_client.cookies.clear()
    http_client.cookies.set(COOKIE, value.rpartition(".")[0])  # the token without its signature
    with http_client.websocket_connect("/api/v1/ws") as socket, pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == 4401


def test_a_server_fault_answers_in_the_api_shape_with_the_headers(sqlite_url: str, tmp_path: Path) -> None:
    app = create_app(make_settings(sqlite_url, tmp_path), background=False)

    async def fault() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/api/v1/test-fault", fault)
    app.router.routes.insert(0, app.router.routes.pop())  # before the UI's catch-all route
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/v1/test-fault")
    assert response.status_code == 500
    assert response.json() == {"error": "server_error", "message": "the server failed on this request"}
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
