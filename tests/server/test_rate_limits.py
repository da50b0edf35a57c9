"""Rate limits shared across processes (issue 15, finding 8).

Counts live in the shared Redis under a prefix of each test's own (never flushed: keys expire by themselves).
The client address of a request is set with the `x-test-client` header, which `addressed` turns into the
ASGI client address the way uvicorn's proxy-headers support would.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from miai.server.api.rate_limits import RateLimits
from miai.server.app import create_app
from miai.server.errors import RateLimited
from tests.conftest import need
from tests.server.conftest import make_settings, redis_reachable, register
from tests.server.tcp_proxy import ThreadedTcpProxy

REDIS = "redis://127.0.0.1:6379/0"
PASSWORD = "correct horse"


def addressed(app: FastAPI) -> Any:
    """The app, with each request's client address taken from its `x-test-client` header."""

    async def wrapper(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == b"x-test-client":
                    scope = {**scope, "client": (value.decode(), 1234)}
        await app(scope, receive, send)

    return wrapper


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{(tmp_path / 'miai.db').as_posix()}"


def limited_settings(tmp_path: Path, **overrides: Any) -> Any:
    values: dict[str, Any] = {
        "rate_limits_enabled": True,
        "redis_prefix": f"test-limits-{uuid.uuid4().hex[:12]}",
    }
    values.update(overrides)
    return make_settings(sqlite_url(tmp_path), tmp_path, **values)


@contextmanager
def running(settings: Any) -> Iterator[TestClient]:
    with TestClient(addressed(create_app(settings, background=False))) as client:
        yield client


def login(
    client: TestClient, username: str, password: str, address: str, device: str | None = None
) -> httpx.Response:
    """A login from `address`, with no cookie but the device cookie given (a browser of its own)."""
    client.cookies.clear()
    headers = {"x-test-client": address}
    if device is not None:
        headers["cookie"] = f"miai_device={device}"
    return client.post("/api/v1/session", json={"username": username, "password": password}, headers=headers)


def assert_limited(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"] == "rate_limited"
    assert response.json()["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600


# ------------------------------------------------------------------------------- across processes


def test_login_limits_hold_across_two_app_instances_sharing_redis(tmp_path: Path) -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    settings = limited_settings(
        tmp_path, redis_url=REDIS, rate_limit_login="100/minute", rate_limit_login_checks="4/minute"
    )
    with running(settings) as first, running(settings) as second:
        register(first, "dora")
        codes = [
            login(client, "dora", "wrong password", f"198.51.100.{i}").status_code
            for i, client in enumerate([first, second, first, second])
        ]
        assert codes == [401, 401, 401, 401]
        # Four failures in all, two on each process: the name is used up on both.
        assert_limited(login(first, "dora", "wrong password", "198.51.100.9"))
        assert_limited(login(second, "dora", "wrong password", "198.51.100.9"))


def test_address_limit_holds_across_two_app_instances(tmp_path: Path) -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    settings = limited_settings(tmp_path, redis_url=REDIS, rate_limit_login="3/minute")
    with running(settings) as first, running(settings) as second:
        codes = [
            login(client, f"nobody{i}", "wrong password", "203.0.113.5").status_code
            for i, client in enumerate([first, second, first])
        ]
        assert codes == [401, 401, 401]
        assert_limited(login(second, "nobody9", "wrong password", "203.0.113.5"))
        assert login(first, "nobody9", "wrong password", "203.0.113.6").status_code == 401  # other address


# ------------------------------------------------------------------------------- lockout


def test_strangers_guessing_passwords_do_not_lock_the_owner_out_of_a_known_device(tmp_path: Path) -> None:
    settings = limited_settings(tmp_path, rate_limit_login="5/minute", rate_limit_login_checks="3/minute")
    with running(settings) as client:
        register(client, "erin")
        owner = login(client, "erin", PASSWORD, "192.0.2.10")
        assert owner.status_code == 200
        device = owner.cookies.get("miai_device")
        assert device
        client.cookies.clear()
        # A stranger, from the owner's own address (a shared network), guesses until the name is locked
        # (the owner's first login, from a browser not yet known, counted as one check of three).
        codes = [login(client, "ERIN", "guess", "192.0.2.10").status_code for _ in range(2)]
        assert codes == [401, 401]
        assert_limited(login(client, "erin", "guess", "192.0.2.10"))
        # The right password from a browser the server does not know is locked out too ...
        assert_limited(login(client, "erin", PASSWORD, "192.0.2.11"))
        # ... and so are forged or borrowed device cookies ...
        forged = device.split(".")[0] + "." + "0" * 64
        assert_limited(login(client, "erin", PASSWORD, "192.0.2.11", device=forged))
        assert_limited(login(client, "erin", PASSWORD, "192.0.2.11", device="x" * 5000))
        raw = client.post(
            "/api/v1/session",
            json={"username": "erin", "password": PASSWORD},
            headers={"x-test-client": "192.0.2.11", "cookie": b"miai_device=\xc3\xa9.\xff\x00"},
        )
        assert_limited(raw)
        # ... but the owner's browser, recognised by its device cookie, still gets in.
        back = login(client, "erin", PASSWORD, "192.0.2.10", device=device)
        assert back.status_code == 200, back.text
        assert back.json()["user"]["username"] == "erin"


def test_the_browser_an_account_was_made_in_is_recognised(tmp_path: Path) -> None:
    settings = limited_settings(tmp_path, rate_limit_login_checks="1/minute")
    with running(settings) as client:
        made = client.post("/api/v1/accounts", json={"username": "olga", "password": PASSWORD})
        assert made.status_code == 201
        device = made.cookies.get("miai_device")
        assert device
        assert login(client, "olga", "guess", "192.0.2.50").status_code == 401
        assert_limited(login(client, "olga", PASSWORD, "192.0.2.50"))
        assert login(client, "olga", PASSWORD, "192.0.2.50", device=device).status_code == 200


def test_a_device_cookie_of_one_account_does_not_open_another(tmp_path: Path) -> None:
    settings = limited_settings(tmp_path, rate_limit_login_checks="2/minute")
    with running(settings) as client:
        register(client, "fay")
        register(client, "mallory")
        own = login(client, "mallory", PASSWORD, "192.0.2.20").cookies.get("miai_device")
        assert own
        client.cookies.clear()
        for _ in range(2):
            assert login(client, "fay", "guess", "192.0.2.20", device=own).status_code == 401
        assert_limited(login(client, "fay", PASSWORD, "192.0.2.20", device=own))


def test_guessing_the_password_with_a_stolen_session_is_limited(tmp_path: Path) -> None:
    """The current password of a change and the password that enters sudo (identity/sudo.py) are counted
    together, per account; a token cannot guess at all (it may not make these requests)."""
    settings = limited_settings(tmp_path, rate_limit_login_checks="3/minute")
    with running(settings) as client:
        owner = register(client, "nina")
        logged_in = login(client, "nina", PASSWORD, "192.0.2.41")  # the cookie stays in the client
        csrf = {"X-CSRF-Token": logged_in.json()["csrf_token"]}
        change = {"current_password": "a guess", "new_password": "a new password"}
        for _ in range(2):
            assert client.post("/api/v1/me/password", json=change, headers=csrf).status_code == 403
        assert owner.post("/api/v1/session/sudo", {"password": "a guess"}).status_code == 403  # a token
        wrong = client.post("/api/v1/session/sudo", json={"password": "a guess"}, headers=csrf)
        assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_password"
        assert_limited(client.post("/api/v1/session/sudo", json={"password": PASSWORD}, headers=csrf))
        right = {**change, "current_password": PASSWORD}
        assert_limited(client.post("/api/v1/me/password", json=right, headers=csrf))
        # Counted apart from logins: the owner still logs in, even from a browser the server does not know.
        assert login(client, "nina", PASSWORD, "192.0.2.40").status_code == 200


# ------------------------------------------------------------------------------- every limited route


def never(*_args: Any) -> Any:
    raise AssertionError("no computer move is expected in this test")


def test_every_limited_route_answers_429_with_retry_after(tmp_path: Path) -> None:
    limited = ("register", "chat", "challenge", "practice", "area", "password_reset")
    rules = {f"rate_limit_{name}": "2/minute" for name in limited}
    settings = limited_settings(tmp_path, **rules)
    app = create_app(settings, background=False, chooser=never)
    with TestClient(addressed(app)) as client:
        client.headers["x-test-client"] = "192.0.2.1"
        alice = register(client, "alice")
        client.headers["x-test-client"] = "192.0.2.2"
        bob = register(client, "bob")

        # registration, per address
        client.headers["x-test-client"] = "192.0.2.3"
        register(client, "carol")
        register(client, "chloe")
        assert_limited(client.post("/api/v1/accounts", json={"username": "cindy", "password": PASSWORD}))
        client.headers["x-test-client"] = "192.0.2.4"
        register(client, "cindy")  # another address is counted apart

        # challenges, per sender
        for _ in range(2):
            assert alice.post("/api/v1/games", json={"challenge": "bob"}).status_code == 201
        assert_limited(alice.post("/api/v1/games", json={"challenge": "bob"}))
        assert alice.post("/api/v1/games", json={"size": 9}).status_code == 201  # an open game: no challenge

        # chat, per user: HTTP and websocket share one count
        gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
        bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
        chat = f"/api/v1/games/{gid}/chat"
        for _ in range(2):
            assert alice.post(chat, {"text": "hello"}).status_code == 201
        assert_limited(alice.post(chat, {"text": "hello"}))
        assert bob.post(chat, {"text": "hi"}).status_code == 201
        with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={bob.token}") as sock:
            first = send_chat(sock, "from the socket", 1)
            assert first["t"] == "ack", first
            refused = send_chat(sock, "one too many", 2)
            assert refused["t"] == "error", refused
            assert refused["d"]["id"] == 2
            assert refused["d"]["error"] == "rate_limited"
            assert refused["d"]["retry_after"] >= 1
            assert send_chat(sock, "still limited", 3)["d"]["error"] == "rate_limited"  # the socket lives on
        assert_limited(bob.post(chat, {"text": "and over HTTP"}))

        # practice games, per user
        for _ in range(2):
            assert alice.post("/api/v1/practice", json={"size": 9}).status_code == 201
        assert_limited(alice.post("/api/v1/practice", json={"size": 9}))

        # the territory estimate, per user or (anonymous) per address
        area = f"/api/v1/games/{gid}/area"
        for _ in range(2):
            assert bob.get(area).status_code != 429
        assert_limited(bob.get(area))
        client.headers["x-test-client"] = "192.0.2.5"
        for _ in range(2):
            assert client.get(area).status_code != 429
        assert_limited(client.get(area))

        # password reset requests, per address
        client.headers["x-test-client"] = "192.0.2.6"
        for _ in range(2):
            assert client.post("/api/v1/password-reset", json={"login": "alice"}).status_code == 202
        assert_limited(client.post("/api/v1/password-reset", json={"login": "bob"}))


def send_chat(sock: Any, text: str, request_id: int) -> dict[str, Any]:
    sock.send_json({"t": "chat", "d": {"text": text}, "id": request_id})
    for _ in range(20):
        message: dict[str, Any] = sock.receive_json()
        if message["t"] in ("ack", "error") and message["d"].get("id") == request_id:
            return message
    raise AssertionError(f"no answer to chat {request_id}")


def test_limits_are_off_when_disabled(tmp_path: Path) -> None:
    settings = limited_settings(tmp_path, rate_limits_enabled=False, rate_limit_register="1/hour")
    with running(settings) as client:
        for name in ("gina", "hana", "iris"):
            register(client, name)


# ------------------------------------------------------------------------------- Redis failure


def test_when_redis_fails_limits_are_counted_in_the_process_and_nothing_fails(tmp_path: Path) -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    with ThreadedTcpProxy("127.0.0.1", 6379) as proxy:
        settings = limited_settings(
            tmp_path, redis_url=f"redis://127.0.0.1:{proxy.port}/0", rate_limit_register="2/minute"
        )
        with running(settings) as client:
            client.headers["x-test-client"] = "192.0.2.30"
            register(client, "jane")  # counted in Redis
            proxy.cut()
            register(client, "kate")  # Redis is gone: counted in this process, no error
            assert_limited(client.post("/api/v1/accounts", json={"username": "lena", "password": PASSWORD}))
            client.headers["x-test-client"] = "192.0.2.31"
            register(client, "lena")
            proxy.restore()


def test_identifiers_of_any_text_are_safe_keys() -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")

    async def scenario() -> None:
        limits = RateLimits(
            {"login_checks": "1/minute"}, REDIS, key_prefix=f"test-limits-{uuid.uuid4().hex[:12]}"
        )
        try:
            for name in ("a\ud800b", "nul\x00name", "\U0001f600" * 300, ""):
                await limits.hit("login_checks", "account", name)
                with pytest.raises(RateLimited):
                    await limits.hit("login_checks", "account", name)
                assert limits.shared  # Redis took every one of them
        finally:
            await limits.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("text", ["", "ten a minute", "0/minute", "-1/minute", "10/fortnight", "1e999/hour"])
def test_a_bad_limit_setting_is_refused_naming_it(text: str, tmp_path: Path) -> None:
    from miai.server.settings import Settings, SettingsError

    with pytest.raises(SettingsError, match="MIAI_RATE_LIMIT_CHAT"):
        Settings.from_env(rate_limit_chat=text)
    with pytest.raises(ValueError, match="MIAI_RATE_LIMIT_CHAT"):
        RateLimits({"chat": text})



def test_guesses_sent_all_at_once_are_counted_before_any_is_checked(tmp_path: Path) -> None:
    """A failure counted only after argon2 let 20 parallel guesses through a limit of 3."""
    import concurrent.futures

    settings = limited_settings(
        tmp_path,
        rate_limit_login="100/minute",
        rate_limit_login_checks="3/minute",
        argon2_time_cost=3,  # the real cost: the race this guards against lies in the hash's time
        argon2_memory_kib=65536,
    )
    with running(settings) as client:
        register(client, "pia")
        client.cookies.clear()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = pool.map(lambda i: login(client, "pia", f"guess {i}", "192.0.2.60"), range(20))
            codes = [answer.status_code for answer in answers]
        assert codes.count(401) == 3
        assert codes.count(429) == 17


def test_one_user_cannot_flood_the_lobby_with_games_or_seat_toggles(tmp_path: Path) -> None:
    """150 public games in three seconds pushed everybody else's out of the lobby, and every join or leave
    notifies every open lobby socket."""
    settings = limited_settings(tmp_path, rate_limit_games="3/minute", rate_limit_seats="4/minute")
    with running(settings) as client:
        alice, bob = register(client, "alice"), register(client, "bob")
        made = [alice.post("/api/v1/games", json={"size": 9}) for _ in range(4)]
        assert [r.status_code for r in made[:3]] == [201, 201, 201]
        assert_limited(made[3])
        gid = made[0].json()["id"]
        toggles = [bob.post(f"/api/v1/games/{gid}/{step}", json={}) for step in ("join", "leave") * 2]
        assert [r.status_code for r in toggles] == [200, 200, 200, 200]
        assert_limited(bob.post(f"/api/v1/games/{gid}/join", json={}))
        assert bob.post("/api/v1/games", json={"size": 9}).status_code == 201  # counted per user
