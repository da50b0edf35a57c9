"""Guests: a visitor plays the computer or a same-screen game without an account, may do nothing else, is
deleted after inactivity with their games, and keeps their games by registering.

A deterministic stand-in plays for the computer: the first legal point from the centre out, and a pass
after the visitor's pass, so a game ends when the visitor passes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from miai.core.go import PASS, GoState, Move
from miai.server.app import create_app
from miai.server.errors import GuestsMayNot
from miai.server.identity import guests
from miai.server.scheduling.guests import expire_guests
from miai.server.storage.models import Game, GameMove, Session, User
from tests.server.conftest import FakeClock, make_settings, register
from tests.server.test_computer_games import centre_first, settle

DAY = 86400.0


async def stand_in(state: GoState, level: int | str, seed: int, seconds: float | None) -> Move:
    if state.last_move == PASS:
        return PASS
    return await centre_first(state, level, seed, seconds)


def app_for(database_url: str, tmp_path: Path, clock: FakeClock, **settings: Any) -> Any:
    return create_app(
        make_settings(database_url, tmp_path, **settings), now=clock, background=False, chooser=stand_in
    )


@pytest.fixture
def client(database_url: str, tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    with TestClient(app_for(database_url, tmp_path, clock)) as test_client:
        yield test_client


class Visitor:
    """A browser without an account: its cookie jar, and the CSRF token the first practice game gave it."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: list[Any] = []  # this browser's cookies (the client's jar is shared)
        self.csrf = ""

    def request(self, method: str, url: str, json: Any = None, csrf: bool = True) -> Any:
        use(self.client, self.cookies)
        headers = {"X-CSRF-Token": self.csrf} if csrf and self.csrf else {}
        response = self.client.request(method, url, json=json, headers=headers)
        self.cookies = list(self.client.cookies.jar)
        self.client.cookies.clear()
        return response

    def get(self, url: str) -> Any:
        return self.request("GET", url)

    def post(self, url: str, json: Any = None, csrf: bool = True) -> Any:
        return self.request("POST", url, json, csrf)

    def ok(self, url: str, json: Any = None) -> Any:
        response = self.post(url, json)
        assert response.status_code < 300, response.text
        return response.json()

    def practice(self, **body: Any) -> int:
        answer = self.ok("/api/v1/practice", {"size": 9, **body})
        if "csrf_token" in answer:
            self.csrf = answer["csrf_token"]
        return int(answer["id"])


def use(client: TestClient, cookies: list[Any]) -> None:
    client.cookies.clear()
    for cookie in cookies:
        client.cookies.jar.set_cookie(cookie)


def count(client: TestClient, query: Any) -> int:
    async def run() -> int:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            return int((await db.execute(query)).scalar_one())

    return client.portal.call(run)  # type: ignore[union-attr]


def rows(client: TestClient, model: Any, *where: Any) -> int:
    return count(client, select(func.count()).select_from(model).where(*where))


def expire(client: TestClient) -> int:
    state = client.app.state  # type: ignore[attr-defined]
    days = state.settings.guest_idle_days
    return client.portal.call(expire_guests, state.sessions, state.games.stream.now, days)  # type: ignore[union-attr]


def test_a_visitor_plays_the_computer_to_the_end_registers_and_keeps_the_games(client: TestClient) -> None:
    visitor = Visitor(client)
    answer = visitor.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 2})
    visitor.csrf, finished = answer["csrf_token"], answer["id"]
    guest = answer["guest"]
    assert guest["is_guest"] is True and guest["username"].startswith("guest-") and guest["email"] is None
    assert visitor.get("/api/v1/me").json()["user"]["id"] == guest["id"]
    for move in ("C3", "G7", "C7"):
        visitor.ok(f"/api/v1/games/{finished}/moves", {"move": move})
        settle(client)
    visitor.ok(f"/api/v1/games/{finished}/moves", {"move": "pass"})
    settle(client)  # the stand-in passes too: the game is over
    snapshot = visitor.get(f"/api/v1/games/{finished}").json()
    assert snapshot["status"] == "finished", snapshot["status"]
    assert [m["move"] for m in snapshot["moves"]][:6] == ["C3", "E5", "G7", "E4", "C7", "D5"]
    local = visitor.practice(mode="local")  # a game at one screen, still going
    visitor.ok(f"/api/v1/games/{local}/moves", {"move": "D4"})
    assert visitor.get("/api/v1/me").json()["user"]["is_guest"] is True  # the same guest, not a new one
    guest_cookies = list(visitor.cookies)

    registered = visitor.post(
        "/api/v1/accounts", {"username": "ada", "password": "correct horse", "email": None}
    )
    assert registered.status_code == 201, registered.text
    user = registered.json()["user"]
    assert (user["id"], user["username"], user["is_guest"]) == (guest["id"], "ada", False)
    visitor.csrf = registered.json()["csrf_token"]
    dashboard = visitor.get("/api/v1/dashboard").json()
    assert [g["id"] for g in dashboard["games"]] == [local]
    mine = visitor.get(f"/api/v1/games/{finished}").json()
    assert mine["status"] == "finished"
    assert "ada" in [p["username"] for p in mine["players"]]
    archive = visitor.get("/api/v1/games/archive?user=ada").json()
    assert finished in [g["id"] for g in archive["games"]], archive
    # The guest session ended with the guest; the account logs in with its password.
    use(client, guest_cookies)
    assert client.get("/api/v1/me").status_code == 401
    client.cookies.clear()
    login = client.post("/api/v1/session", json={"username": "ada", "password": "correct horse"})
    assert login.status_code == 200, login.text
    client.cookies.clear()


def test_guests_play_practice_games_only(client: TestClient) -> None:
    member = register(client, "bob")
    open_game = member.ok("/api/v1/games", {"size": 9})["id"]
    visitor = Visitor(client)
    own = visitor.practice()
    name = visitor.get("/api/v1/me").json()["user"]["username"]
    refused = {
        "create a game": visitor.post("/api/v1/games", {"size": 9}),
        "challenge": visitor.post("/api/v1/games", {"size": 9, "challenge": "bob"}),
        "join": visitor.post(f"/api/v1/games/{open_game}/join", {}),
        "leave": visitor.post(f"/api/v1/games/{open_game}/leave"),
        "chat": visitor.post(f"/api/v1/games/{own}/chat", {"channel": "public", "text": "hello"}),
        "computer seat": visitor.post(f"/api/v1/games/{open_game}/computer", {"level": 1}),
        "score flag": visitor.post(f"/api/v1/games/{own}/flag", {"comment": "wrong"}),
        "api token": visitor.post("/api/v1/me/tokens", {"name": "bot"}),
        "password": visitor.post(
            "/api/v1/me/password", {"current_password": "whatever1", "new_password": "whatever2"}
        ),
        "verification": visitor.post("/api/v1/me/email/verification"),
        "e-mail": visitor.request("PATCH", "/api/v1/me/settings", {"email": "a@example.org"}),
        "e-mail notifications": visitor.request(
            "PATCH", "/api/v1/me/settings", {"email_notifications": True}
        ),
    }
    for what, response in refused.items():
        assert response.status_code == 403, (what, response.text)
        assert response.json()["error"] == "guest", (what, response.text)
        assert "register" in response.json()["message"], what
    # What stays open to a guest: their own settings, and their own games.
    assert visitor.request("PATCH", "/api/v1/me/settings", {"palette": "tol-bright"}).status_code == 200
    assert visitor.post("/api/v1/practice", {"size": 9, "rated": True}).status_code == 422  # never rated
    # Nobody finds a guest: not by name for a challenge, not their games in public lists.
    challenge = member.post("/api/v1/games", {"size": 9, "challenge": name})
    assert challenge.status_code == 404, challenge.text
    assert member.get(f"/api/v1/games/{own}").status_code in (403, 404)
    assert own not in [g["id"] for g in client.get("/api/v1/games").json()["games"]]
    for path in (
        f"users/{name}/ratings",
        f"users/{name}/handicap?opponent=bob",
        f"users/bob/handicap?opponent={name}",
    ):
        assert member.get(f"/api/v1/{path}").status_code == 404, path
    assert client.post("/api/v1/session", json={"username": name, "password": ""}).status_code == 422
    assert client.post("/api/v1/session", json={"username": name, "password": "x"}).status_code == 401
    # The play layer refuses too (websocket commands reach it without the HTTP routes).
    services = client.app.state.games  # type: ignore[attr-defined]

    async def chat_as_guest() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            guest = (await db.execute(select(User).where(User.username == name))).scalar_one()
        await services.chat.post(guest, own, "public", "hi")

    with pytest.raises(GuestsMayNot):
        client.portal.call(chat_as_guest)  # type: ignore[union-attr]


def test_a_guest_cannot_act_on_another_guests_game(client: TestClient) -> None:
    first, second = Visitor(client), Visitor(client)
    game = first.practice(colour="black")
    second.practice()
    assert first.get("/api/v1/me").json()["user"]["id"] != second.get("/api/v1/me").json()["user"]["id"]
    for url, body in (
        (f"/api/v1/games/{game}/moves", {"move": "C3"}),
        (f"/api/v1/games/{game}/resign", None),
        (f"/api/v1/games/{game}/undo", None),
        (f"/api/v1/games/{game}/end", None),
    ):
        response = second.post(url, body)
        assert response.status_code in (403, 404, 409), (url, response.text)
    assert second.get(f"/api/v1/games/{game}").status_code in (403, 404)
    assert first.get(f"/api/v1/games/{game}").json()["moves"] == []  # nothing happened to it


def test_names_grant_nothing(client: TestClient) -> None:
    for name in ("guest-abc", "Guest_1", "GUEST", "guest"):
        response = client.post("/api/v1/accounts", json={"username": name, "password": "correct horse"})
        assert response.status_code == 422, (name, response.text)
        assert "reserved" in response.json()["message"]
    client.cookies.clear()
    # A person whose name merely looks like a guest's (allowed: "guests") is a member like any other.
    member = register(client, "guests")
    me = member.get("/api/v1/me").json()["user"]
    assert me["is_guest"] is False
    assert member.post("/api/v1/games", {"size": 9}).status_code == 201


def test_hostile_bodies_make_no_guest_and_writes_need_the_csrf_token(client: TestClient) -> None:
    visitor = Visitor(client)
    bodies: list[Any] = [
        {"size": "nine"},
        {"size": 10**30},
        {"size": 9, "level": 1e308},
        {"size": 9, "colour": "bl\x00ack"},
        {"size": 8},
        {"size": 9, "mode": "standard"},
        {"kind": "chess"},
        [],
        "x" * 1000,
    ]
    for body in bodies:
        response = visitor.post("/api/v1/practice", body)
        assert response.status_code == 422, (body, response.text)
    assert count(client, select(func.count()).select_from(User)) == 0
    assert visitor.cookies == []
    game = visitor.practice()
    assert visitor.post(f"/api/v1/games/{game}/moves", {"move": "C3"}, csrf=False).status_code == 403
    registering = visitor.post(
        "/api/v1/accounts", {"username": "carol", "password": "correct horse"}, csrf=False
    )
    assert registering.status_code == 403  # a cross-site form cannot claim a guest's games
    bad = visitor.post("/api/v1/accounts", {"username": "guest-x", "password": "correct horse"})
    assert bad.status_code == 422
    assert visitor.get("/api/v1/me").json()["user"]["is_guest"] is True  # still the guest, games and all


def test_idle_guests_expire_with_their_games(client: TestClient, clock: FakeClock) -> None:
    member = register(client, "dave")
    kept_game = member.ok("/api/v1/practice", {"size": 9})["id"]
    idle, active, claimed = Visitor(client), Visitor(client), Visitor(client)
    idle_game = idle.practice()
    active_game = active.practice(mode="local")
    claimed_game = claimed.practice()
    claimed.ok("/api/v1/accounts", {"username": "erin", "password": "correct horse"})
    guest_ids = [v.get("/api/v1/me").json()["user"]["id"] for v in (idle, active)]
    clock.advance(6 * DAY)
    assert active.get(f"/api/v1/games/{active_game}").status_code == 200  # seen: its week starts again
    assert expire(client) == 0
    clock.advance(2 * DAY)  # idle: 8 days unseen; active: 2 days
    assert expire(client) == 1
    assert idle.get("/api/v1/me").status_code == 401  # the session went with the guest
    assert rows(client, User, User.id == guest_ids[0]) == 0
    assert rows(client, Game, Game.id == idle_game) == 0
    assert rows(client, GameMove, GameMove.game_id == idle_game) == 0
    assert rows(client, Session, Session.user_id == guest_ids[0]) == 0
    for game in (kept_game, active_game, claimed_game):  # members' games, and the active guest's
        assert rows(client, Game, Game.id == game) == 1
    clock.advance(30 * DAY)
    assert expire(client) == 1  # now the other guest; members never expire
    assert member.get("/api/v1/me").status_code == 200
    assert rows(client, Game, Game.id == claimed_game) == 1


def test_guests_are_limited_by_address(database_url: str, tmp_path: Path, clock: FakeClock) -> None:
    app = app_for(
        database_url, tmp_path, clock, rate_limits_enabled=True, rate_limit_guests="2/hour", redis_url=""
    )
    with TestClient(app) as test_client:
        for _ in range(2):
            Visitor(test_client).practice()
        refused = Visitor(test_client).post("/api/v1/practice", {"size": 9})  # a third new cookie
        assert refused.status_code == 429, refused.text
        assert "guest" in refused.json()["message"]
        assert "Retry-After" in refused.headers


def test_a_guest_has_no_profile_or_archive_for_others_to_browse(client: TestClient) -> None:
    guest = Visitor(client)
    guest.practice(colour="black")
    name = guest.get("/api/v1/me").json()["user"]["username"]
    alice = register(client, "alice")
    for url in (f"/api/v1/users/{name}", f"/api/v1/games/archive?user={name}"):
        assert alice.get(url).status_code == 404, url
        assert client.get(url).status_code == 404, url  # a visitor without any session
    assert guest.get(f"/api/v1/users/{name}").status_code == 200  # the guest sees their own


def test_a_name_registered_during_a_claim_is_refused_not_a_crash(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(client, "ada")
    visitor = Visitor(client)
    visitor.practice()

    async def not_seen_yet(db: Any, name: str) -> None:
        return None  # as if "ada" registered between the claim's check and its write

    monkeypatch.setattr(guests.repo, "user_by_name", not_seen_yet)
    body = {"username": "Ada", "password": "correct horse", "email": None}
    refused = visitor.post("/api/v1/accounts", body)
    assert refused.status_code == 422 and "taken" in refused.json()["message"], refused.text
    assert visitor.get("/api/v1/me").json()["user"]["is_guest"] is True  # still the guest
