"""Accounts (finding 10 of issue 15): password change, password reset by e-mail, e-mail verification; and
hostile values in every account text field.

The server here has SMTP configured (pointing at a closed port, and no outbox loop runs), so the mails stay
in the stored outbox where the tests read the links, as a user would read them in their inbox.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect

from miai.server.api.cookies import COOKIE
from miai.server.storage.models import AccountToken, OutboxMail
from tests.server.conftest import register
from tests.server.mailing import mailing_client  # noqa: F401  (the `client` fixture)

PASSWORD = "correct horse"


def mails(client: TestClient, to: str) -> list[OutboxMail]:
    async def read() -> list[OutboxMail]:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            query = select(OutboxMail).where(OutboxMail.to_address == to).order_by(OutboxMail.id)
            return list((await db.execute(query)).scalars())

    return client.portal.call(read)  # type: ignore[union-attr,no-any-return]


def link_token(mail: OutboxMail) -> str:
    found = re.search(r"http://miai\.example\.org/[a-z-]+#token=(\S+)", mail.body)
    assert found is not None, mail.body
    return found.group(1)


def log_in(client: TestClient, username: str, password: str = PASSWORD) -> tuple[str, str]:
    """A new login session: (cookie value, CSRF token); the client's cookie jar is left empty."""
    client.cookies.clear()
    response = client.post("/api/v1/session", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    value = client.cookies[COOKIE]
    client.cookies.clear()
    return value, response.json()["csrf_token"]


def with_session(value: str, csrf: str | None = None) -> dict[str, str]:
    headers = {"Cookie": f"{COOKIE}={value}"}
    return headers | ({"X-CSRF-Token": csrf} if csrf else {})


def me(client: TestClient, value: str) -> int:
    return client.get("/api/v1/me", headers=with_session(value)).status_code


def sign_up(client: TestClient, username: str, email: str) -> tuple[str, str]:
    """Register without following the verification link: (cookie value, CSRF token)."""
    client.cookies.clear()
    body = {"username": username, "password": PASSWORD, "email": email}
    response = client.post("/api/v1/accounts", json=body)
    assert response.status_code == 201, response.text
    assert response.json()["user"]["email_verified"] is False
    value = client.cookies[COOKIE]
    client.cookies.clear()
    return value, response.json()["csrf_token"]


# ------------------------------------------------------------------------------- password change


def test_changing_the_password_ends_the_other_sessions_and_their_websockets(client: TestClient) -> None:
    register(client, "alice")
    here, csrf = log_in(client, "alice")
    there, _ = log_in(client, "alice")
    client.cookies.set(COOKIE, there)
    with client.websocket_connect("/api/v1/ws") as socket:
        socket.send_json({"t": "ping"})
        assert socket.receive_json()["t"] == "pong"
        client.cookies.clear()

        wrong = client.post(
            "/api/v1/me/password",
            json={"current_password": "not it at all", "new_password": "battery staple"},
            headers=with_session(here, csrf),
        )
        assert wrong.status_code == 403, wrong.text
        assert wrong.json()["error"] == "wrong_password"
        assert me(client, there) == 200  # nothing changed

        short = client.post(
            "/api/v1/me/password",
            json={"current_password": PASSWORD, "new_password": "short"},
            headers=with_session(here, csrf),
        )
        assert short.status_code == 422 and "new_password" in short.json()["message"]

        changed = client.post(
            "/api/v1/me/password",
            json={"current_password": PASSWORD, "new_password": "battery staple"},
            headers=with_session(here, csrf),
        )
        assert changed.status_code == 200, changed.text
        assert changed.json()["sessions_ended"] >= 2  # the registration's session and `there`
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4401
    assert me(client, here) == 200  # the session that changed it stays
    assert me(client, there) == 401
    assert client.post("/api/v1/session", json={"username": "alice", "password": PASSWORD}).status_code == 401
    log_in(client, "alice", "battery staple")


# ------------------------------------------------------------------------------- password reset


def test_a_password_reset_link_works_once_within_the_hour(client: TestClient) -> None:
    alice = register(client, "alice", "alice@example.org")
    old_session, _ = log_in(client, "alice")
    for login in ("alice", "ALICE@example.org"):  # the username or the (verified) address, any case
        asked = client.post("/api/v1/password-reset", json={"login": login})
        assert asked.status_code == 202, asked.text
    resets = [m for m in mails(client, "alice@example.org") if "reset your password" in m.subject]
    assert len(resets) == 2
    first, latest = link_token(resets[0]), link_token(resets[1])
    assert first not in resets[0].dedupe_key and first not in resets[0].subject  # never in the Message-ID

    assert confirm(client, first, "battery staple").status_code == 400  # a newer link replaced it
    too_short = confirm(client, latest, "short")
    assert too_short.status_code == 422  # refused before the link is used up
    done = confirm(client, latest, "battery staple")
    assert done.status_code == 200, done.text
    assert done.json()["tokens_deleted"] == 1
    assert me(client, old_session) == 401  # every session ended
    assert alice.get("/api/v1/me").status_code == 401  # and every API token: whoever took the account over
    again = confirm(client, latest, "another password")
    assert again.status_code == 400 and again.json()["error"] == "bad_token"
    log_in(client, "alice", "battery staple")


def confirm(client: TestClient, token: str, password: str) -> Any:
    return client.post("/api/v1/password-reset/confirm", json={"token": token, "password": password})


def test_a_reset_link_expires_after_an_hour(client: TestClient) -> None:
    register(client, "alice", "alice@example.org")
    assert client.post("/api/v1/password-reset", json={"login": "alice"}).status_code == 202
    token = link_token(mails(client, "alice@example.org")[-1])

    async def an_hour_later() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            cutoff = datetime.now(UTC) - timedelta(seconds=1)
            await db.execute(update(AccountToken).values(expires_at=cutoff))
            await db.commit()

    client.portal.call(an_hour_later)  # type: ignore[union-attr]
    assert confirm(client, token, "battery staple").status_code == 400
    log_in(client, "alice")


def test_a_reset_request_answers_the_same_whoever_is_asked_for(client: TestClient) -> None:
    register(client, "alice", "alice@example.org")
    sign_up(client, "bob", "bob@example.org")  # address not verified: no reset mail goes there
    answers = [
        client.post("/api/v1/password-reset", json={"login": login})
        for login in ("alice", "nobody", "nobody@example.org", "bob", "bob@example.org", "computer-1")
    ]
    assert {(a.status_code, a.text) for a in answers} == {(answers[0].status_code, answers[0].text)}
    assert answers[0].status_code == 202
    assert [m.subject for m in mails(client, "bob@example.org")] == ["Miai: confirm your e-mail address"]
    assert len(mails(client, "alice@example.org")) == 1


# ------------------------------------------------------------------------------- e-mail verification


def test_game_mail_waits_until_the_address_is_verified(client: TestClient) -> None:
    session, csrf = sign_up(client, "carol", "carol@example.org")
    dave = register(client, "dave", "dave@example.org")  # verified through the link
    carol_token = client.post("/api/v1/me/tokens", json={"name": "t"}, headers=with_session(session, csrf))
    headers = {"Authorization": f"Bearer {carol_token.json()['token']}"}
    gid = dave.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    assert client.post(f"/api/v1/games/{gid}/join", json={"team": 2}, headers=headers).status_code == 200
    dave.ok(f"/api/v1/games/{gid}/confirm")
    assert client.post(f"/api/v1/games/{gid}/confirm", headers=headers).status_code == 200
    assert [m.subject for m in mails(client, "carol@example.org")] == ["Miai: confirm your e-mail address"]
    assert f"Miai: game {gid} has started" in [m.subject for m in mails(client, "dave@example.org")]


def test_verifying_and_changing_the_address(client: TestClient) -> None:
    session, csrf = sign_up(client, "carol", "carol@example.org")
    auth = with_session(session, csrf)
    first = link_token(mails(client, "carol@example.org")[0])
    assert client.post("/api/v1/me/email/verify", json={"token": "made-up"}, headers=auth).status_code == 400
    # another user cannot use carol's link
    other, other_csrf = sign_up(client, "erin", "erin@example.org")
    stolen = client.post(
        "/api/v1/me/email/verify", json={"token": first}, headers=with_session(other, other_csrf)
    )
    assert stolen.status_code == 400

    verified = client.post("/api/v1/me/email/verify", json={"token": first}, headers=auth)
    assert verified.status_code == 200, verified.text
    assert verified.json()["user"]["email_verified"] is True
    assert client.post("/api/v1/me/email/verification", headers=auth).status_code == 409  # nothing to do

    changed = client.patch("/api/v1/me/settings", json={"email": "carol@example.net"}, headers=auth)
    assert changed.json()["user"]["email_verified"] is False
    old_link = link_token(mails(client, "carol@example.net")[0])
    resent = client.post("/api/v1/me/email/verification", headers=auth)
    assert resent.status_code == 202
    assert client.post("/api/v1/me/email/verify", json={"token": old_link}, headers=auth).status_code == 400
    newest = link_token(mails(client, "carol@example.net")[-1])
    client.patch("/api/v1/me/settings", json={"email": "carol@example.com"}, headers=auth)
    # a link for an address that was replaced since verifies nothing
    assert client.post("/api/v1/me/email/verify", json={"token": newest}, headers=auth).status_code == 400
    assert client.get("/api/v1/me", headers=auth).json()["user"]["email_verified"] is False


# ------------------------------------------------------------------------------- hostile values

LONG = "x" * 10_000
HOSTILE_TEXT = ["a\x00b", "\x00", "a\ud800b", "\udfff", "tab\there", "line\nbreak", "\x7f", "\u009f", LONG]
WRONG_TYPES: list[Any] = [7, 1.5, True, ["alice"], {"a": 1}]

# (method, path, a good body, the text fields to make hostile, the login it needs: an API token, a fresh
# session (account changes refuse tokens: test_sudo.py), or none)
ROUTES: list[tuple[str, str, dict[str, Any], list[str], str | None]] = [
    (
        "POST",
        "/api/v1/accounts",
        {"username": "zed", "password": PASSWORD, "email": "z@example.org"},
        ["username", "password", "email"],
        None,
    ),
    ("POST", "/api/v1/session", {"username": "alice", "password": PASSWORD}, ["username", "password"], None),
    ("PATCH", "/api/v1/me/settings", {"email": "a@example.org"}, ["email"], "token"),
    ("PATCH", "/api/v1/me/settings", {"email": "a@example.org"}, ["email"], "session"),
    ("POST", "/api/v1/me/tokens", {"name": "laptop"}, ["name"], "session"),
    (
        "POST",
        "/api/v1/me/password",
        {"current_password": PASSWORD, "new_password": "battery staple"},
        ["current_password", "new_password"],
        "session",
    ),
    ("POST", "/api/v1/session/sudo", {"password": PASSWORD}, ["password"], "session"),
    ("POST", "/api/v1/password-reset", {"login": "alice"}, ["login"], None),
    (
        "POST",
        "/api/v1/password-reset/confirm",
        {"token": "abc", "password": "battery staple"},
        ["token", "password"],
        None,
    ),
    ("POST", "/api/v1/me/email/verify", {"token": "abc"}, ["token"], "token"),
    ("POST", "/api/v1/email-change/undo", {"token": "abc"}, ["token"], None),
]


def raw_json(body: dict[str, Any]) -> bytes:
    """JSON as a hostile client may send it: lone surrogates as \\u escapes (valid JSON, invalid text)."""
    import json

    return json.dumps(body, ensure_ascii=True).encode()


@pytest.mark.parametrize(
    ("method", "path", "body", "fields", "login"), ROUTES, ids=[f"{r[0]} {r[1]} {r[4]}" for r in ROUTES]
)
def test_hostile_account_values_get_a_clear_422(
    client: TestClient, method: str, path: str, body: dict[str, Any], fields: list[str], login: str | None
) -> None:
    alice = register(client, "alice", "alice@example.org").headers
    logins = {"token": alice, "session": with_session(*log_in(client, "alice")), None: {}}
    headers = {"Content-Type": "application/json", **logins[login]}
    wrong = []
    for field in fields:
        for value in [*HOSTILE_TEXT, *WRONG_TYPES]:
            response = client.request(method, path, content=raw_json({**body, field: value}), headers=headers)
            problem = response.json()
            clear = problem["error"] == "bad_input" and field in problem["message"]
            if response.status_code != 422 or not clear:
                wrong.append((field, repr(value)[:40], response.status_code, response.text[:200]))
    assert wrong == []
    # the account is untouched: the old password still logs in, and the server still answers
    assert client.get("/api/v1/me", headers=alice).status_code == 200
    log_in(client, "alice")


@pytest.mark.parametrize("name", ["a%00b", "%00", "%ED%A0%80", "x" * 10_000, "tab%09"])
def test_hostile_profile_names_are_refused(client: TestClient, name: str) -> None:
    response = client.get(f"/api/v1/users/{name}")
    assert response.status_code in (404, 422), response.text
    assert response.json()["error"] in ("bad_input", "not_found")


def test_a_password_may_hold_any_printable_characters(client: TestClient) -> None:
    password = "correct horse \u00e9\u4e2d\U0001f40e \"'\\ <>"
    response = client.post("/api/v1/accounts", json={"username": "uma", "password": password})
    assert response.status_code == 201, response.text
    log_in(client, "uma", password)


# ------------------------------------------------------------------------------- no mail bombs


def test_verification_links_cannot_fill_a_strangers_inbox(client: TestClient) -> None:
    """Typing someone else's address again and again, or asking for the link again, mails it at most three
    times a day (per address, and per account)."""
    value, csrf = sign_up(client, "mallory", "victim@example.org")
    headers = with_session(value, csrf)
    for address in ["other@example.org", "victim@example.org"] * 3:
        changed = client.patch("/api/v1/me/settings", json={"email": address}, headers=headers)
        assert changed.status_code == 200, changed.text  # the address is saved all the same
    for _ in range(3):
        again = client.post("/api/v1/me/email/verification", headers=headers)
        assert again.status_code in {202, 429}, again.text
    assert again.status_code == 429 and again.json()["error"] == "rate_limited"
    assert 1 <= int(again.headers["Retry-After"]) <= 86400
    assert len(mails(client, "victim@example.org")) <= 3
    assert len(mails(client, "other@example.org")) + len(mails(client, "victim@example.org")) <= 3


def test_reset_links_are_capped_per_address_without_saying_so(client: TestClient) -> None:
    address = "alice@example.org"
    register(client, "alice", address)  # verified
    for _ in range(6):
        answer = client.post("/api/v1/password-reset", json={"login": "alice"})
        assert answer.status_code == 202
    assert len([m for m in mails(client, address) if m.kind == "reset_password"]) == 3


@pytest.mark.parametrize("address", ["x@[127.0.0.1]", "g:v@y.org;", "a@-.-", "nobody@localhost", "a b@c.org"])
def test_addresses_mail_cannot_go_to_as_given_are_refused(client: TestClient, address: str) -> None:
    """A pattern let through IP literals and group syntax (where the mail would go is not what is stored)."""
    body = {"username": "mallory", "password": PASSWORD, "email": address}
    refused = client.post("/api/v1/accounts", json=body)
    assert refused.status_code == 422 and refused.json()["message"].startswith("email:"), refused.text
    value, csrf = sign_up(client, "mallory", "mallory@example.org")
    patched = client.patch("/api/v1/me/settings", json={"email": address}, headers=with_session(value, csrf))
    assert patched.status_code == 422 and patched.json()["message"].startswith("email:"), patched.text


def test_an_address_is_stored_with_its_domain_in_lower_case(client: TestClient) -> None:
    value, _ = sign_up(client, "dora", "Dora.Explorer+miai@Example.ORG")
    assert client.get("/api/v1/me", headers=with_session(value)).json()["user"]["email"] == (
        "Dora.Explorer+miai@example.org"
    )


def test_stone_marks_setting_defaults_off_saves_and_refuses_non_flags(client: TestClient) -> None:
    value, csrf = sign_up(client, "marka", "marka@example.org")
    headers = with_session(value, csrf)
    assert client.get("/api/v1/me", headers=headers).json()["user"]["settings"]["stone_marks"] is False
    saved = client.patch("/api/v1/me/settings", json={"stone_marks": True}, headers=headers)
    assert saved.status_code == 200 and saved.json()["user"]["settings"]["stone_marks"] is True
    for hostile in ({"a": 1}, [True], "maybe", 2, "x" * 1000):
        refused = client.patch("/api/v1/me/settings", json={"stone_marks": hostile}, headers=headers)
        assert refused.status_code == 422, refused.text
    assert client.get("/api/v1/me", headers=headers).json()["user"]["settings"]["stone_marks"] is True


def test_the_session_check_answers_a_visitor_without_an_error(client: TestClient) -> None:
    """GET /session: 200 with no user for a visitor (the page's check on every load), the user and CSRF
    token once logged in; GET /me keeps its 401 for clients that need a login."""
    client.cookies.clear()
    assert client.get("/api/v1/session").json() == {"user": None, "csrf_token": None}
    assert client.get("/api/v1/me").status_code == 401
    made = client.post("/api/v1/accounts", json={"username": "sessioncheck", "password": "correct horse"})
    assert made.status_code == 201, made.text
    mine = client.get("/api/v1/session").json()
    assert mine["user"]["username"] == "sessioncheck" and mine["csrf_token"] == made.json()["csrf_token"]
    assert mine == client.get("/api/v1/me").json()
    for path in ("/api/v1/session", "/api/v1/me"):  # a shared cache never keeps one user's token for others
        answer = client.get(path)
        assert answer.headers["cache-control"] == "no-store" and "Cookie" in answer.headers["vary"]
