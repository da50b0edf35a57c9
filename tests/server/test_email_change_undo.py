"""An address change is announced to the address it replaces, with a link that undoes it (as GitHub and
Google do): whoever changed it cannot keep the owner out. The mails stay in the stored outbox (SMTP is a
closed port), where the tests read them as the owner would read the old inbox.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from miai.server.storage.models import AccountToken, OutboxMail
from tests.server.conftest import register
from tests.server.mailing import mailing_client  # noqa: F401  (the `client` fixture)
from tests.server.test_accounts import link_token, log_in, mails, me, sign_up, with_session

CHANGED = "Miai: your e-mail address was changed"


def change_address(client: TestClient, session: str, csrf: str, address: str) -> Any:
    return client.patch("/api/v1/me/settings", json={"email": address}, headers=with_session(session, csrf))


def notices(client: TestClient, to: str) -> list[OutboxMail]:
    return [m for m in mails(client, to) if m.subject == CHANGED]


def undo(client: TestClient, token: str) -> Any:
    return client.post("/api/v1/email-change/undo", json={"token": token})


def test_the_old_address_is_told_and_its_link_wins_the_account_back(client: TestClient) -> None:
    owner = register(client, "owner", "owner@example.org")
    taker, taker_csrf = log_in(client, "owner")  # somebody in a session with the password
    moved = change_address(client, taker, taker_csrf, "taker@example.net")
    assert moved.status_code == 200, moved.text
    (notice,) = notices(client, "owner@example.org")
    assert "taker@example.net" in notice.body and "owner@example.org" in notice.body
    assert "undo-email-change#token=" in notice.body
    token = link_token(notice)
    assert token not in notice.dedupe_key and token not in notice.subject
    # The taker goes on: a reset link reaches the new address.
    client.post("/api/v1/password-reset", json={"login": "owner"})  # not verified yet: no reset mail
    verify = link_token(mails(client, "taker@example.net")[0])

    assert undo(client, "made-up").status_code == 400
    done = undo(client, token)  # no login needed: the owner may be locked out
    assert done.status_code == 200, done.text
    assert done.json() == {"ok": True, "email": "owner@example.org", "sessions_ended": 2, "tokens_deleted": 1}
    assert me(client, taker) == 401 and owner.get("/api/v1/me").status_code == 401  # everyone is out
    again = undo(client, token)
    assert again.status_code == 400 and again.json()["error"] == "bad_token"
    session, csrf = log_in(client, "owner")
    user = client.get("/api/v1/me", headers=with_session(session)).json()["user"]
    assert (user["email"], user["email_verified"]) == ("owner@example.org", True)  # the link proved it
    # The verification link mailed to the taker's address is void.
    late = client.post("/api/v1/me/email/verify", json={"token": verify}, headers=with_session(session, csrf))
    assert late.status_code == 400
    client.post("/api/v1/password-reset", json={"login": "owner"})
    assert [m.subject for m in mails(client, "taker@example.net")] == ["Miai: confirm your e-mail address"]
    assert len([m for m in mails(client, "owner@example.org") if "reset" in m.subject]) == 1


def test_a_removed_address_is_told_too_and_an_expired_link_does_nothing(client: TestClient) -> None:
    register(client, "owner", "owner@example.org")
    session, csrf = log_in(client, "owner")
    assert change_address(client, session, csrf, "").json()["user"]["email"] is None
    (notice,) = notices(client, "owner@example.org")
    assert "was removed" in notice.body

    async def a_week_later() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            cutoff = datetime.now(UTC) - timedelta(seconds=1)
            await db.execute(update(AccountToken).values(expires_at=cutoff))
            await db.commit()

    client.portal.call(a_week_later)  # type: ignore[union-attr]
    expired = undo(client, link_token(notice))
    assert expired.status_code == 400 and expired.json()["error"] == "bad_token"
    assert client.get("/api/v1/me", headers=with_session(session)).json()["user"]["email"] is None
    assert me(client, session) == 200  # nothing ended


def a_to_b_to_c(client: TestClient) -> tuple[str, str]:
    """From a fresh login: the address goes from a@ to b@ (verified), then to c@; the undo links mailed to
    a@ and to b@."""
    session, csrf = log_in(client, "owner")
    change_address(client, session, csrf, "b@example.org")
    verify = link_token(mails(client, "b@example.org")[-1])
    client.post("/api/v1/me/email/verify", json={"token": verify}, headers=with_session(session, csrf))
    change_address(client, session, csrf, "c@example.org")
    return link_token(notices(client, "a@example.org")[-1]), link_token(notices(client, "b@example.org")[-1])


def address_of(client: TestClient) -> str:
    session, _ = log_in(client, "owner")
    return str(client.get("/api/v1/me", headers=with_session(session)).json()["user"]["email"])


def test_after_several_changes_the_first_address_still_comes_back(client: TestClient) -> None:
    """A -> B (verified) -> C: B's link cannot cancel A's, and A's undoes the changes after it too."""
    register(client, "owner", "a@example.org")
    to_a, to_b = a_to_b_to_c(client)
    assert undo(client, to_b).json()["email"] == "b@example.org"
    assert undo(client, to_a).json()["email"] == "a@example.org"
    assert address_of(client) == "a@example.org"

    to_a, to_b = a_to_b_to_c(client)  # the other order: A's link voids the later one
    assert undo(client, to_a).json()["email"] == "a@example.org"
    assert undo(client, to_b).status_code == 400
    assert address_of(client) == "a@example.org"


def test_an_unverified_address_is_not_told(client: TestClient) -> None:
    """It never proved to be the owner's: typing a stranger's address and changing it again mails nobody."""
    session, csrf = sign_up(client, "mallory", "victim@example.org")
    assert change_address(client, session, csrf, "mallory@example.org").status_code == 200
    assert notices(client, "victim@example.org") == []


def test_a_change_that_cannot_be_announced_today_is_not_made(client: TestClient) -> None:
    register(client, "owner", "owner@example.org")
    for _ in range(3):
        session, csrf = log_in(client, "owner")
        assert change_address(client, session, csrf, "other@example.org").status_code == 200
        assert undo(client, link_token(notices(client, "owner@example.org")[-1])).status_code == 200
    session, csrf = log_in(client, "owner")
    refused = change_address(client, session, csrf, "other@example.org")
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited", refused.text
    assert 1 <= int(refused.headers["Retry-After"]) <= 86400
    user = client.get("/api/v1/me", headers=with_session(session)).json()["user"]
    assert (user["email"], user["email_verified"]) == ("owner@example.org", True)
    assert len(notices(client, "owner@example.org")) == 3
    # The other settings still save, and so does the same address.
    kept = client.patch(
        "/api/v1/me/settings",
        json={"email": "owner@example.org", "palette": "tol-muted"},
        headers=with_session(session, csrf),
    )
    assert kept.status_code == 200, kept.text


def test_undo_links_are_refused_for_other_purposes_and_hostile_tokens(client: TestClient) -> None:
    register(client, "owner", "owner@example.org")
    assert client.post("/api/v1/password-reset", json={"login": "owner"}).status_code == 202
    reset = link_token(mails(client, "owner@example.org")[-1])
    assert undo(client, reset).status_code == 400  # a reset link is not an undo link
    for token in ["a\x00b", "\ud800", "x" * 10_000, "", 7, None, ["t"], {"t": 1}]:
        answer = client.post(
            "/api/v1/email-change/undo",
            content=json.dumps({"token": token}).encode(),
            headers={"Content-Type": "application/json"},
        )
        assert answer.status_code == 422 and answer.json()["error"] == "bad_input", (token, answer.text)
    kept = client.post("/api/v1/password-reset/confirm", json={"token": reset, "password": "battery staple"})
    assert kept.status_code == 200, kept.text  # the reset link was not used up by the undo attempt
