"""E-mails about games, written to the stored outbox in the same transaction as the event they announce.

Each mail has a unique key (its outbox row's `dedupe_key`, "KIND:..."): a notification that can happen again
in the same game carries the game's version in its key, so storing it never collides with an earlier one.
Challenge mails are capped per sender and per recipient (counted in the outbox, so the caps hold across
server processes): challenges cannot be used to mail-bomb somebody.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.errors import RateLimited
from miai.server.storage import mail_queue, repo
from miai.server.storage.models import Game, OutboxMail, User

CHALLENGE = "challenge"
# (mails, window): a sender past the first cap is refused (HTTP 429, nothing created); a recipient past the
# second gets the challenge on the dashboard without a mail, so nobody can use up another player's mail.
CHALLENGES_PER_SENDER = (5, timedelta(hours=1))
CHALLENGES_PER_RECIPIENT = (2, timedelta(days=1))


def system_now() -> datetime:
    return datetime.now(UTC)


def _duration(window: timedelta) -> str:
    hours = window.total_seconds() / 3600
    return f"{hours:g} hours" if hours != 1 else "hour"


class Mailer:
    """Queues notifications for users who enabled them; does nothing when SMTP is not configured."""

    def __init__(self, enabled: bool, base_url: str, now: Callable[[], datetime] = system_now) -> None:
        self.enabled = enabled
        self.base_url = base_url.rstrip("/")
        self.now = now

    def _add(
        self, db: AsyncSession, address: str, key: str, subject: str, body: str, sender: User | None = None
    ) -> None:
        """Store one mail in the outbox (no checks: the callers decide whether this address gets it)."""
        db.add(
            OutboxMail(
                dedupe_key=key,
                kind=key.partition(":")[0][:16],
                sender_id=sender.id if sender is not None else None,
                to_address=address,
                subject=subject,
                body=body,
                created_at=self.now(),
            )
        )

    def _queue(
        self, db: AsyncSession, user: User, key: str, subject: str, body: str, sender: User | None = None
    ) -> None:
        # game notifications go only to an address its owner has verified
        if not self.enabled or not user.email or user.email_verified_at is None:
            return
        if not user.settings.get("email_notifications", True):
            return
        self._add(db, user.email, key, subject, body, sender)

    def link(self, game: Game) -> str:
        return f"{self.base_url}/games/{game.id}"

    def your_turn(self, db: AsyncSession, user: User, game: Game, version: int) -> None:
        """`version`: the game's version after the command that made it the user's turn."""
        self._queue(
            db,
            user,
            f"turn:{game.id}:v{version}:{user.id}",
            f"Miai: your turn in game {game.id}",
            f"Hello {user.username},\n\nit is your turn in game {game.id}.\n{self.link(game)}\n",
        )

    def game_started(self, db: AsyncSession, user: User, game: Game) -> None:
        self._queue(
            db,
            user,
            f"started:{game.id}:{user.id}",
            f"Miai: game {game.id} has started",
            f"Hello {user.username},\n\ngame {game.id} has started.\n{self.link(game)}\n",
        )

    def game_finished(
        self, db: AsyncSession, user: User, game: Game, result: dict[str, Any] | None, version: int
    ) -> None:
        """`version`: the game's version after the command that ended it (a practice game may end twice)."""
        winners = ", ".join(f"team {t}" for t in (result or {}).get("winners", [])) or "nobody"
        self._queue(
            db,
            user,
            f"finished:{game.id}:v{version}:{user.id}",
            f"Miai: game {game.id} has finished",
            f"Hello {user.username},\n\ngame {game.id} has finished. Winner: {winners}.\n{self.link(game)}\n",
        )

    async def challenge(self, db: AsyncSession, user: User, by: User, game: Game) -> None:
        """Mail `user` that `by` challenges them, within the caps; RateLimited (roll back: nothing is
        created) when `by` is over theirs. Call it after the game's row is written: on SQLite that write
        holds the database's write lock, on PostgreSQL both users' rows are locked, so the counts hold
        against concurrent challenges from other processes."""
        if not self.enabled:
            return
        await repo.lock_users(db, [user.id, by.id])
        now = self.now()
        limit, window = CHALLENGES_PER_SENDER
        recent = await mail_queue.mail_times(db, CHALLENGE, now - window, limit, sender_id=by.id)
        if len(recent) >= limit:
            reason = f"you have challenged {limit} players by e-mail in the last {_duration(window)}"
            raise RateLimited(reason, max(1, math.ceil((min(recent) + window - now).total_seconds())))
        limit, window = CHALLENGES_PER_RECIPIENT
        address = user.email or ""
        received = await mail_queue.mail_times(db, CHALLENGE, now - window, limit, to_address=address)
        if len(received) >= limit:
            return  # the challenge still shows on the recipient's dashboard
        self._queue(
            db,
            user,
            f"{CHALLENGE}:{game.id}:{user.id}",
            f"Miai: {by.username} challenges you",
            f"Hello {user.username},\n\n{by.username} challenges you to game {game.id}.\n{self.link(game)}\n",
            sender=by,
        )

    # ---------------------------------------------------------------- account mail (identity engineer)

    def _account_mail(self, db: AsyncSession, user: User, key: str, subject: str, body: str) -> None:
        """Password reset and address verification: sent whatever the notification setting (the caller
        decides whether the address may receive it: identity/mailed_links.py)."""
        if not self.enabled or not user.email:
            return
        self._add(db, user.email, key, subject, body, sender=user)  # counted per account (mailed_links.py)

    def password_reset(self, db: AsyncSession, user: User, key: str, link: str) -> None:
        self._account_mail(
            db,
            user,
            key,
            "Miai: reset your password",
            f"Hello {user.username},\n\nsomebody (hopefully you) asked to reset your Miai password. "
            f"This link sets a new one; it works once, within an hour:\n{link}\n\nIf it was not you, "
            "ignore this mail: your password stays as it is.\n",
        )

    def verify_email(self, db: AsyncSession, user: User, key: str, link: str) -> None:
        self._account_mail(
            db,
            user,
            key,
            "Miai: confirm your e-mail address",
            f"Hello {user.username},\n\nplease confirm that this is your address; Miai sends you no "
            f"other mail until you do. The link works once, within two days (log in first):\n{link}\n\n"
            "If you have no Miai account, ignore this mail.\n",
        )

    def address_changed(self, db: AsyncSession, user: User, old: str, key: str, link: str) -> None:
        """To the address being replaced (identity/mailed_links.py decides it may have this mail)."""
        if not self.enabled:
            return
        now = f"{self.now():%Y-%m-%d %H:%M} UTC"
        change = f"changed to {user.email}" if user.email else "removed"
        self._add(
            db,
            old,
            key,
            "Miai: your e-mail address was changed",
            f"Hello {user.username},\n\nthe e-mail address of your Miai account was {change} at {now}; "
            f"Miai no longer mails {old}.\n\nIf that was you, there is nothing to do. If it was not, this "
            f"link makes {old} your account's address again and logs every device and API token out; it "
            f"works once, within seven days:\n{link}\n\nThen set a new password with 'Forgotten "
            "password' on the log-in page.\n",
            sender=user,  # counted per account (mailed_links.py)
        )
