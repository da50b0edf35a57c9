"""E-mails about games, written to the stored outbox in the same transaction as the event they announce."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import Game, OutboxMail, User


class Mailer:
    """Queues notifications for users who enabled them; does nothing when SMTP is not configured."""

    def __init__(self, enabled: bool, base_url: str) -> None:
        self.enabled = enabled
        self.base_url = base_url.rstrip("/")

    def _queue(self, db: AsyncSession, user: User, key: str, subject: str, body: str) -> None:
        if not self.enabled or not user.email or not user.settings.get("email_notifications", True):
            return
        db.add(
            OutboxMail(
                dedupe_key=key,
                to_address=user.email,
                subject=subject,
                body=body,
                created_at=datetime.now(UTC),
            )
        )

    def link(self, game: Game) -> str:
        return f"{self.base_url}/games/{game.id}"

    def your_turn(self, db: AsyncSession, user: User, game: Game, ply: int) -> None:
        self._queue(
            db,
            user,
            f"turn:{game.id}:{ply}:{user.id}",
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

    def game_finished(self, db: AsyncSession, user: User, game: Game, result: dict[str, Any] | None) -> None:
        winners = ", ".join(f"team {t}" for t in (result or {}).get("winners", [])) or "nobody"
        self._queue(
            db,
            user,
            f"finished:{game.id}:{user.id}",
            f"Miai: game {game.id} has finished",
            f"Hello {user.username},\n\ngame {game.id} has finished. Winner: {winners}.\n{self.link(game)}\n",
        )

    def challenge(self, db: AsyncSession, user: User, by: User, game: Game) -> None:
        self._queue(
            db,
            user,
            f"challenge:{game.id}:{user.id}",
            f"Miai: {by.username} challenges you",
            f"Hello {user.username},\n\n{by.username} challenges you to game {game.id}.\n{self.link(game)}\n",
        )
