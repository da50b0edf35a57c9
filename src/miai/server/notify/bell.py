"""In-page notifications for members (the bell): stored with the event that causes them, sent live.

Who is told is decided where the matching e-mail is (play/moves.py, play/lobby.py); this module adds
what only the page needs: never a guest or a bot account, a text and a link, and the live message on
the user's socket (`{"t": "notification", "d": view}`), sent once the notification is stored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.realtime.hub import Message
from miai.server.storage import notifications, repo
from miai.server.storage.models import Game, Notification, User
from miai.server.storage.notifications import COLUMNS

TURN, CHALLENGE, FINISHED = notifications.TURN, "challenge", "finished"
OUTCOME_TEXT = {"win": "you won", "loss": "you lost", "draw": "a draw"}


def wants(user: User) -> bool:
    """People with accounts only: a guest has no account to come back to, and a bot account (the server's
    computer players and members' bots alike) has no page to read them on."""
    return not (user.is_guest or user.is_bot)


def outcome(result: dict[str, Any] | None, team: int | None) -> str | None:
    """The user's outcome of a finished game: win, loss, draw; None without a result or a team."""
    if result is None or team is None:
        return None
    if result.get("draw"):
        return "draw"
    return "win" if team in (result.get("winners") or []) else "loss"


def _text(kind: str, game_id: int | None, data: dict[str, Any]) -> str:
    game = f"game {game_id}"
    if kind == TURN:
        return f"Your turn in {game}"
    if kind == CHALLENGE:
        return f"{data.get('by', 'Somebody')} challenges you to {game}"
    if kind == FINISHED:
        told = OUTCOME_TEXT.get(str(data.get("outcome")))
        return f"Game {game_id} has finished" + (f": {told}" if told else "")
    return f"News about {game}"


def view(row: Notification | dict[str, Any]) -> dict[str, Any]:
    """A notification (stored, or a row just stored) as the API and the user socket send it (docs/api.md,
    Notifications)."""
    r = row if isinstance(row, dict) else {c: getattr(row, c) for c in ("id", *COLUMNS, "read_at")}
    created = repo.utc(r["created_at"])
    game_id = r["game_id"]
    return {
        "id": r["id"],
        "kind": r["kind"],
        "game_id": game_id,
        "text": _text(r["kind"], game_id, r["data"]),
        "url": f"/games/{game_id}" if game_id is not None else "/",
        "data": r["data"],
        "created_at": created.isoformat() if created else None,
        "read": r["read_at"] is not None,
    }


def row_for(
    user: User, kind: str, game: Game, now: datetime, data: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The notification to store for `user`, or None when this user gets none."""
    return notifications.new_row(user.id, kind, game.id, data or {}, now) if wants(user) else None


def message(row: dict[str, Any]) -> Message:
    """The live message of a stored notification, on its user's socket."""
    return Message(f"user:{row['user_id']}", "notification", view(row))


async def tell(
    db: AsyncSession, user: User, kind: str, game: Game, now: datetime, data: dict[str, Any] | None = None
) -> Message | None:
    """Store a notification for `user` in the session's transaction; the message to publish once that is
    committed, or None when this user gets none."""
    row = row_for(user, kind, game, now, data)
    if row is None:
        return None
    await notifications.store(await db.connection(), [row])
    return message(row)
