"""A stolen API token cannot take the account over (issue "Safe at the edges, round two").

Account changes (the e-mail address, the password, API tokens) need a login session whose password was
checked in the last few minutes ("sudo", as GitHub calls it); an API token never counts. The server here has
SMTP configured (a closed port, no outbox loop), so mails stay in the stored outbox where the tests read them.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from miai.server.app import create_app
from miai.server.storage.models import Session
from tests.server.conftest import register
from tests.server.processes import free_port
from tests.server.test_accounts import PASSWORD, link_token, log_in, mails, with_session
from tests.server.test_email import smtp_settings
from tests.server.test_guests import Visitor


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(smtp_settings(database_url, tmp_path, free_port()), background=False)
    with TestClient(app) as test_client:
        yield test_client


def test_a_stolen_token_cannot_take_the_account_over(client: TestClient) -> None:
    """The attack as reported: with the token alone, move the address to one the thief reads, verify it,
    have a reset link mailed there and set a new password. Each step is tried; none may succeed."""
    owner = register(client, "owner", "owner@example.org")  # a verified address
    thief = owner.headers  # the leaked bot token, nothing else
    moved = client.patch("/api/v1/me/settings", json={"email": "thief@example.net"}, headers=thief)
    for mail in mails(client, "thief@example.net"):  # verify whatever link arrived, with the token
        client.post("/api/v1/me/email/verify", json={"token": link_token(mail)}, headers=thief)
    client.post("/api/v1/password-reset", json={"login": "owner"})
    for mail in mails(client, "thief@example.net"):
        if "reset your password" in mail.subject:
            confirm = {"token": link_token(mail), "password": "the thief's now"}
            client.post("/api/v1/password-reset/confirm", json=confirm)

    assert moved.status_code == 403, moved.text
    assert moved.json()["error"] == "session_required"
    assert [m.subject for m in mails(client, "thief@example.net")] == []
    assert client.get("/api/v1/me", headers=thief).json()["user"]["email"] == "owner@example.org"
    log_in(client, "owner", PASSWORD)  # the owner's password still works
    resets = [m for m in mails(client, "owner@example.org") if "reset your password" in m.subject]
    assert len(resets) == 1  # the reset link went to the owner's own address


def account_changes(token_id: int) -> dict[str, tuple[str, str, Any]]:
    return {
        "address": ("PATCH", "/api/v1/me/settings", {"email": "new@example.net"}),
        "address removed": ("PATCH", "/api/v1/me/settings", {"email": ""}),
        "password": (
            "POST",
            "/api/v1/me/password",
            {"current_password": PASSWORD, "new_password": "battery staple"},
        ),
        "new token": ("POST", "/api/v1/me/tokens", {"name": "mine now"}),
        "token deleted": ("DELETE", f"/api/v1/me/tokens/{token_id}", None),
        "sudo": ("POST", "/api/v1/session/sudo", {"password": PASSWORD}),
    }


def test_a_token_makes_no_account_change_and_says_why(client: TestClient) -> None:
    owner = register(client, "owner", "owner@example.org")
    (token,) = owner.get("/api/v1/me/tokens").json()["tokens"]
    for name, (method, path, body) in account_changes(token["id"]).items():
        for auth in ({"headers": owner.headers}, {"params": {"token": owner.token}}):  # header or ?token=
            answer = client.request(method, path, json=body, **auth)
            assert answer.status_code == 403, (name, answer.text)
            assert answer.json()["error"] == "session_required", (name, answer.text)
            assert "API token" in answer.json()["message"]
    me = owner.get("/api/v1/me").json()["user"]
    assert (me["email"], me["email_verified"]) == ("owner@example.org", True)
    assert [t["name"] for t in owner.get("/api/v1/me/tokens").json()["tokens"]] == ["tests"]
    log_in(client, "owner", PASSWORD)
    # What a bot's token is for stays open: reading, playing, its display settings.
    palette = client.patch("/api/v1/me/settings", json={"palette": "tol-bright"}, headers=owner.headers)
    assert palette.status_code == 200, palette.text
    same = client.patch("/api/v1/me/settings", json={"email": "owner@example.org"}, headers=owner.headers)
    assert same.status_code == 200  # the address it already has: no change
    assert owner.ok("/api/v1/games", {"size": 9, "team": 1})["id"]


def make_stale(client: TestClient, minutes: float) -> None:
    """Every session's password check happened `minutes` ago (None: never, as before migration 0018)."""

    async def move() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            when = datetime.now(UTC) - timedelta(minutes=minutes) if minutes >= 0 else None
            await db.execute(update(Session).values(password_checked_at=when))
            await db.commit()

    client.portal.call(move)  # type: ignore[union-attr]


def test_a_fresh_login_may_change_the_account_until_its_window_ends(client: TestClient) -> None:
    register(client, "owner", "owner@example.org")
    session, csrf = log_in(client, "owner")
    auth = with_session(session, csrf)
    made = client.post("/api/v1/me/tokens", json={"name": "laptop"}, headers=auth)
    assert made.status_code == 201, made.text

    make_stale(client, 14)  # still inside the 15 minutes (MIAI_SUDO_MINUTES)
    assert client.post("/api/v1/me/tokens", json={"name": "phone"}, headers=auth).status_code == 201
    make_stale(client, 16)
    for name, (method, path, body) in account_changes(made.json()["id"]).items():
        if name in ("address", "address removed", "new token"):
            answer = client.request(method, path, json=body, headers=auth)
            assert answer.status_code == 403, (name, answer.text)
            assert answer.json()["error"] == "sudo_required", (name, answer.text)
            assert "POST /api/v1/session/sudo" in answer.json()["message"]
    assert client.get("/api/v1/me", headers=auth).json()["user"]["email"] == "owner@example.org"
    # Without sudo a session still deletes a token (that only takes a way in away), and changes the
    # password with the current one (which is the proof).
    assert client.delete(f"/api/v1/me/tokens/{made.json()['id']}", headers=auth).status_code == 204
    changed = client.post(
        "/api/v1/me/password",
        json={"current_password": PASSWORD, "new_password": "battery staple"},
        headers=auth,
    )
    assert changed.status_code == 200, changed.text


def test_entering_the_password_again_opens_the_window_and_a_wrong_one_does_not(client: TestClient) -> None:
    register(client, "owner", "owner@example.org")
    session, csrf = log_in(client, "owner")
    auth = with_session(session, csrf)
    make_stale(client, -1)  # a session from before sudo existed: no check on record
    move = {"email": "owner@example.net"}
    assert client.patch("/api/v1/me/settings", json=move, headers=auth).json()["error"] == "sudo_required"

    wrong = client.post("/api/v1/session/sudo", json={"password": "not it at all"}, headers=auth)
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_password", wrong.text
    assert client.patch("/api/v1/me/settings", json=move, headers=auth).json()["error"] == "sudo_required"
    no_csrf = client.post("/api/v1/session/sudo", json={"password": PASSWORD}, headers=with_session(session))
    assert no_csrf.status_code == 403 and no_csrf.json()["error"] == "csrf"

    granted = client.post("/api/v1/session/sudo", json={"password": PASSWORD}, headers=auth)
    assert granted.status_code == 200, granted.text
    until = datetime.fromisoformat(granted.json()["sudo_until"])
    assert timedelta(minutes=14) < until - datetime.now(UTC) <= timedelta(minutes=15)
    moved = client.patch("/api/v1/me/settings", json=move, headers=auth)
    assert moved.status_code == 200 and moved.json()["user"]["email"] == "owner@example.net", moved.text
    # Only this session: another login of the same account keeps its own (old) check.
    other, other_csrf = log_in(client, "owner")
    make_stale(client, 20)
    assert client.post("/api/v1/session/sudo", json={"password": PASSWORD}, headers=auth).status_code == 200
    again = client.post("/api/v1/me/tokens", json={"name": "x"}, headers=with_session(other, other_csrf))
    assert again.status_code == 403 and again.json()["error"] == "sudo_required"


def test_guests_cannot_enter_sudo(client: TestClient) -> None:
    visitor = Visitor(client)
    visitor.practice()
    answer = visitor.post("/api/v1/session/sudo", {"password": "anything at all"})
    assert answer.status_code == 403 and answer.json()["error"] == "guest", answer.text
    assert client.post("/api/v1/session/sudo", json={"password": PASSWORD}).status_code == 401
