"""E-mail goes through the stored outbox: queued while SMTP is down, sent exactly once after a restart.

A real SMTP server (aiosmtpd on a free loopback port) receives the mails; the app is started three times on
the same database: first with SMTP pointing at a closed port, then with the SMTP server up, then once more.
"""

from __future__ import annotations

import email
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from email.message import Message
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import select

from miai.server.app import create_app
from miai.server.notify.outbox import send_pending
from miai.server.settings import Settings
from miai.server.storage.models import OutboxMail
from tests.server.conftest import Player, make_settings, register
from tests.server.processes import free_port


class Inbox:
    """aiosmtpd handler that keeps every delivered mail as (envelope recipients, parsed message)."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append((list(envelope.rcpt_tos), email.message_from_bytes(envelope.content)))
        return "250 Message accepted for delivery"

    def received(self) -> Counter[tuple[str, str]]:
        return Counter((message["To"], message["Subject"]) for _, message in self.mails)


def smtp_settings(database_url: str, tmp_path: Path, port: int, **overrides: Any) -> Settings:
    return make_settings(
        database_url,
        tmp_path,
        smtp_host="127.0.0.1",
        smtp_port=port,
        mail_from="miai@example.org",
        base_url="http://miai.example.org",
        **overrides,
    )


def outbox_rows(client: TestClient) -> list[OutboxMail]:
    async def read() -> list[OutboxMail]:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            return list((await db.execute(select(OutboxMail).order_by(OutboxMail.id))).scalars())

    return client.portal.call(read)  # type: ignore[union-attr]


def send_all(client: TestClient, settings: Settings) -> int:
    """Run the outbox sender on the app's own event loop until nothing is left to send."""
    total = 0
    for _ in range(20):
        sessions = client.app.state.sessions  # type: ignore[attr-defined]
        sent: int = client.portal.call(send_pending, sessions, settings)  # type: ignore[union-attr]
        total += sent
        if sent == 0:
            return total
    raise AssertionError("the outbox never ran dry")


def play_until_mails_are_queued(client: TestClient) -> tuple[Player, Player, int]:
    """alice (team 1) and bob play two moves; carol (notifications off) and dave (no address) play too."""
    alice = register(client, "alice", "alice@example.org")
    bob = register(client, "bob", "bob@example.org")
    carol = register(client, "carol", "carol@example.org")
    dave = register(client, "dave")
    off = client.patch("/api/v1/me/settings", json={"email_notifications": False}, headers=carol.headers)
    assert off.status_code == 200, off.text
    assert off.json()["user"]["settings"]["email_notifications"] is False

    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})

    other = carol.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    dave.ok(f"/api/v1/games/{other}/join", {"team": 2})
    carol.ok(f"/api/v1/games/{other}/confirm")
    dave.ok(f"/api/v1/games/{other}/confirm")
    carol.ok(f"/api/v1/games/{other}/moves", {"move": "E5"})
    dave.ok(f"/api/v1/games/{other}/moves", {"move": "C3"})
    return alice, bob, gid


def expected_mails(gid: int) -> Counter[tuple[str, str]]:
    started, turn = f"Miai: game {gid} has started", f"Miai: your turn in game {gid}"
    return Counter(
        {
            ("alice@example.org", started): 1,
            ("bob@example.org", started): 1,
            ("alice@example.org", turn): 2,  # the first move (ply 0) and after bob's reply (ply 2)
            ("bob@example.org", turn): 1,  # after alice's first move
        }
    )


def an_hour_later() -> datetime:
    """The failed attempts back off: the restarted server is a while later (an hour is the longest wait)."""
    return datetime.now(UTC) + timedelta(hours=1, seconds=1)


def wait_for(condition: Any, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def test_outbox_survives_a_restart_and_sends_each_mail_once(database_url: str, tmp_path: Path) -> None:
    closed = free_port()
    down = smtp_settings(database_url, tmp_path, closed)
    with TestClient(create_app(down, background=False)) as client:
        _alice, _bob, gid = play_until_mails_are_queued(client)
        assert send_all(client, down) == 0  # SMTP is down: nothing goes out, nothing is lost
        queued = outbox_rows(client)
    expected = expected_mails(gid)
    assert Counter((m.to_address, m.subject) for m in queued) == expected
    assert all(m.sent_at is None and m.attempts >= 1 and m.last_error for m in queued)
    assert not any(m.to_address.startswith("carol") for m in queued)

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        up = smtp_settings(database_url, tmp_path, controller.port, outbox_interval=0.05)
        later = create_app(up, background=True, now=an_hour_later)  # when the failed mails are due again
        with TestClient(later) as client:  # the outbox loop sends on its own
            assert wait_for(lambda: len(inbox.mails) >= sum(expected.values()))
            time.sleep(0.3)  # a few more rounds of the loop must not send anything twice
            after_restart = outbox_rows(client)
        assert inbox.received() == expected
        for envelope_to, message in inbox.mails:
            assert envelope_to == [message["To"]]
            assert message["From"] == "miai@example.org"
            assert f"http://miai.example.org/games/{gid}" in message.get_payload()
        message_ids = [message["Message-ID"] for _, message in inbox.mails]
        assert len(set(message_ids)) == len(message_ids)
        assert all(m.sent_at is not None for m in after_restart)

        with TestClient(create_app(up, background=False)) as client:  # a third start sends nothing again
            assert send_all(client, up) == 0
            assert len(outbox_rows(client)) == len(after_restart)
        assert inbox.received() == expected
    finally:
        controller.stop()
