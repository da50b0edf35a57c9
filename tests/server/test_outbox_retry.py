"""SMTP down for minutes or days: the outbox retries with back-off, then keeps failed mail for the operator.

Time is simulated: the app and the outbox sender read a clock the test moves forward, and the test runs the
sender's rounds itself. The SMTP server is a real aiosmtpd server on a loopback port, absent (nothing
listening) while SMTP is "down".
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import update

from miai.cli import main
from miai.server.app import create_app
from miai.server.notify.outbox import send_pending
from miai.server.settings import Settings
from miai.server.storage.db import make_engine
from miai.server.storage.models import OutboxMail, User
from miai.server.storage.repo import utc
from tests.server.conftest import Player, register, upgrade_to
from tests.server.processes import free_port
from tests.server.test_email import Inbox, outbox_rows, smtp_settings


class Clock:
    """The time the app sees; only the test moves it."""

    def __init__(self) -> None:
        self.moment = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


class Outbox:
    """The app under test with a closed SMTP port that a real SMTP server can later take."""

    def __init__(self, database_url: str, tmp_path: Path) -> None:
        self.clock = Clock()
        self.port = free_port()
        self.settings: Settings = smtp_settings(database_url, tmp_path, self.port)
        self.inbox = Inbox()
        self.smtp: Controller | None = None

    def start_smtp(self, handler: Any = None) -> None:
        self.smtp = Controller(handler or self.inbox, hostname="127.0.0.1", port=self.port)
        self.smtp.start()

    def stop(self) -> None:
        if self.smtp is not None:
            self.smtp.stop()

    def round(self, client: TestClient) -> int:
        sessions = client.app.state.sessions  # type: ignore[attr-defined]
        return client.portal.call(send_pending, sessions, self.settings, self.clock)  # type: ignore[union-attr,no-any-return]

    def run_for(self, client: TestClient, seconds: float, step: float) -> None:
        """Run the sender every `step` simulated seconds for `seconds`."""
        for _ in range(round(seconds / step)):
            self.clock.advance(step)
            self.round(client)


@pytest.fixture
def outbox(database_url: str, tmp_path: Path) -> Iterator[Outbox]:
    box = Outbox(database_url, tmp_path)
    yield box
    box.stop()


@pytest.fixture
def client(outbox: Outbox) -> Iterator[TestClient]:
    with TestClient(create_app(outbox.settings, now=outbox.clock, background=False)) as test_client:
        yield test_client


def challenge(client: TestClient) -> tuple[Player, Player]:
    """bob challenges alice: one mail to alice in the outbox."""
    alice, bob = register(client, "alice", "alice@example.org"), register(client, "bob", "bob@example.org")
    bob.ok("/api/v1/games", {"size": 9, "challenge": "alice"})
    assert [m.kind for m in outbox_rows(client)] == ["challenge"]
    return alice, bob


def make_admin(client: TestClient, player: Player) -> None:
    async def grant() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            await db.execute(update(User).where(User.id == player.user_id).values(is_admin=True))
            await db.commit()

    client.portal.call(grant)  # type: ignore[union-attr]


def test_smtp_down_for_ten_minutes_then_the_mail_arrives_once(client: TestClient, outbox: Outbox) -> None:
    challenge(client)
    outbox.round(client)
    outbox.run_for(client, seconds=600, step=5)  # ten minutes without SMTP, a round every 5 s
    [mail] = outbox_rows(client)
    assert 4 <= mail.attempts <= 7  # 30 s, 1 min, 2 min, 4 min, ... apart (each with up to half off)
    assert mail.last_error is not None and "refused" in mail.last_error.lower()
    assert mail.sent_at is None and mail.failed_at is None  # still pending, not dropped

    outbox.start_smtp()
    for _ in range(12 * 60):  # within the hour between attempts at most
        outbox.clock.advance(5)
        if outbox.round(client):
            break
    outbox.run_for(client, seconds=3 * 3600, step=300)  # more rounds send nothing again
    assert outbox.inbox.received() == Counter({("alice@example.org", "Miai: bob challenges you"): 1})
    [mail] = outbox_rows(client)
    assert mail.sent_at is not None and mail.last_error is None


def next_due(client: TestClient) -> datetime | None:
    pending = [m for m in outbox_rows(client) if m.sent_at is None and m.failed_at is None]
    return min((utc(m.next_attempt_at) for m in pending if m.next_attempt_at), default=None)


def fail_for_a_day(client: TestClient, outbox: Outbox) -> OutboxMail:
    """Run the sender at every moment a retry is due until the mail gives up."""
    outbox.round(client)
    start = outbox.clock()
    for _ in range(200):
        due = next_due(client)
        if due is None:
            break
        outbox.clock.moment = max(due, outbox.clock())
        outbox.round(client)
    [mail] = outbox_rows(client)
    assert mail.failed_at is not None, "the mail never gave up"
    assert outbox.clock() - start >= timedelta(days=1)  # retried for at least a day
    assert outbox.clock() - start < timedelta(days=1, hours=2)
    assert 20 <= mail.attempts <= 60  # back-off: about one attempt an hour once the delay is capped
    return mail


def test_a_mail_failing_for_a_day_is_failed_listed_and_retried(
    client: TestClient, outbox: Outbox, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, _bob = challenge(client)
    mail = fail_for_a_day(client, outbox)
    assert mail.last_error is not None and "refused" in mail.last_error.lower()
    outbox.run_for(client, seconds=2 * 86400, step=4 * 3600)  # a failed mail is not tried again by itself
    assert outbox_rows(client)[0].attempts == mail.attempts

    # the operator sees it: administrators over HTTP ...
    assert alice.get("/api/v1/admin/outbox?state=failed").status_code == 403
    make_admin(client, alice)
    listed = alice.get("/api/v1/admin/outbox?state=failed")
    assert listed.status_code == 200, listed.text
    [shown] = listed.json()["mails"]
    assert shown["id"] == mail.id and shown["state"] == "failed" and shown["to"] == "alice@example.org"
    assert shown["kind"] == "challenge" and shown["attempts"] == mail.attempts
    assert "refused" in shown["last_error"].lower() and shown["failed_at"]
    assert "body" not in shown  # account mails carry single-use links
    assert alice.get("/api/v1/admin/outbox").json()["mails"] == [shown]  # default: pending and failed
    assert alice.get("/api/v1/admin/outbox?state=pending").json()["mails"] == []

    # ... and on the command line
    assert main(["mail", "list", "--failed", "--database-url", database_url]) == 0
    out = capsys.readouterr().out
    assert f"{mail.id}" in out and "failed" in out and "alice@example.org" in out and "refused" in out.lower()
    assert main(["mail", "retry", "--all-failed", "--database-url", database_url]) == 0
    assert "1 mail(s)" in capsys.readouterr().out
    assert alice.get("/api/v1/admin/outbox?state=failed").json()["mails"] == []

    outbox.start_smtp()
    assert outbox.round(client) == 1  # due at once
    outbox.run_for(client, seconds=3600, step=60)
    assert outbox.inbox.received() == Counter({("alice@example.org", "Miai: bob challenges you"): 1})
    assert main(["mail", "list", "--database-url", database_url]) == 0
    assert capsys.readouterr().out.strip() == "no mail"


def test_an_administrator_retries_one_failed_mail_over_http(client: TestClient, outbox: Outbox) -> None:
    alice, _bob = challenge(client)
    mail = fail_for_a_day(client, outbox)
    make_admin(client, alice)
    assert alice.post(f"/api/v1/admin/outbox/{mail.id + 1}/retry").status_code == 404
    retried = alice.post(f"/api/v1/admin/outbox/{mail.id}/retry")
    assert retried.status_code == 200, retried.text
    assert retried.json() == {"ok": True, "retried": 1}
    outbox.start_smtp()
    assert outbox.round(client) == 1
    assert alice.post(f"/api/v1/admin/outbox/{mail.id}/retry").status_code == 404  # sent: never again
    assert alice.post("/api/v1/admin/outbox/retry-failed").json() == {"ok": True, "retried": 0}
    assert len(outbox.inbox.mails) == 1


class RefusingInbox(Inbox):
    """An SMTP server that has no mailbox for bob."""

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address.startswith("bob@"):
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"


def test_a_mail_refused_for_good_fails_at_once_the_others_go(client: TestClient, outbox: Outbox) -> None:
    alice, bob = register(client, "alice", "alice@example.org"), register(client, "bob", "bob@example.org")
    alice.ok("/api/v1/games", {"size": 9, "challenge": "bob"})
    bob.ok("/api/v1/games", {"size": 9, "challenge": "alice"})
    outbox.inbox = RefusingInbox()
    outbox.start_smtp()
    assert outbox.round(client) == 1
    to_bob, to_alice = outbox_rows(client)
    assert to_bob.failed_at is not None and to_bob.attempts == 1 and "550" in (to_bob.last_error or "")
    assert to_alice.sent_at is not None
    assert outbox.inbox.received() == Counter({("alice@example.org", "Miai: bob challenges you"): 1})


@pytest.mark.parametrize(
    "query",
    [
        "state=bogus",
        "state=failed%00",
        "limit=0",
        "limit=501",
        "limit=1e3",
        "limit=99999999999999999999999",
        "before=0",
        f"before={2**63}",
        "before=NaN",
        "before=%F0%9F%98%80",
    ],
)
def test_the_outbox_listing_refuses_bad_queries(client: TestClient, query: str) -> None:
    alice = register(client, "alice")
    make_admin(client, alice)
    response = alice.get(f"/api/v1/admin/outbox?{query}")
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_input"


def test_the_outbox_is_for_administrators_only(client: TestClient) -> None:
    alice = register(client, "alice")
    assert client.get("/api/v1/admin/outbox").status_code == 401
    assert alice.get("/api/v1/admin/outbox").status_code == 403
    assert alice.post("/api/v1/admin/outbox/1/retry").status_code == 403
    assert alice.post("/api/v1/admin/outbox/retry-failed").status_code == 403
    make_admin(client, alice)
    assert alice.post("/api/v1/admin/outbox/0/retry").status_code == 422
    assert alice.post(f"/api/v1/admin/outbox/{2**63}/retry").status_code == 422
    assert alice.post("/api/v1/admin/outbox/1/retry").status_code == 404


@pytest.mark.parametrize(
    "argv",
    [
        ["retry"],
        ["retry", "abc"],
        ["retry", "0"],
        ["retry", "3", "--all-failed"],
        ["list", "--limit", "0"],
        ["list", "--failed", "--sent"],
        [],
    ],
)
def test_the_mail_command_refuses_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mail", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_the_mail_command_creates_no_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mail", "list", "--data-dir", str(tmp_path / "nothing")]) == 1
    assert "has `miai serve` run" in capsys.readouterr().err
    assert not (tmp_path / "nothing").exists()


def test_migration_0007_marks_mail_the_old_sender_gave_up_on_as_failed(empty_database_url: str) -> None:
    """The old sender stopped after 10 attempts and left the mail unsent: that mail is failed, not resent."""

    async def scenario() -> list[tuple[str, str, bool]]:
        engine = make_engine(empty_database_url)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(lambda c: upgrade_to(c, "0006"))
                outbox = sa.table(
                    "outbox",
                    *(sa.column(name) for name in ("dedupe_key", "to_address", "subject", "body")),
                    sa.column("created_at", sa.DateTime(timezone=True)),
                    sa.column("sent_at", sa.DateTime(timezone=True)),
                    sa.column("attempts", sa.Integer()),
                )
                now = datetime.now(UTC)
                mail = {"to_address": "a@example.org", "subject": "s", "body": "b", "created_at": now}
                await connection.execute(
                    sa.insert(outbox),
                    [
                        {**mail, "dedupe_key": "turn:1:4:1", "sent_at": None, "attempts": 10},  # given up
                        {**mail, "dedupe_key": "challenge:2:1", "sent_at": None, "attempts": 3},  # trying
                        {**mail, "dedupe_key": "started:1:1", "sent_at": now, "attempts": 1},
                    ],
                )
            async with engine.begin() as connection:
                await connection.run_sync(lambda c: upgrade_to(c, "head"))
                query = sa.text("SELECT dedupe_key, kind, failed_at FROM outbox ORDER BY id")
                rows = await connection.execute(query)
                return [(key, kind, failed is not None) for key, kind, failed in rows]
        finally:
            await engine.dispose()

    assert asyncio.run(scenario()) == [
        ("turn:1:4:1", "turn", True),
        ("challenge:2:1", "challenge", False),
        ("started:1:1", "started", False),
    ]
