"""A member's in-page notifications (notify/bell.py): the list with its unread count, and marking read."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, model_validator

from miai.server.api.deps import DB, MemberViewer, service_of
from miai.server.api.inputs import Id
from miai.server.notify import bell
from miai.server.storage import notifications

router = APIRouter(tags=["notifications"])
MAX_LIST = notifications.KEEP


class MarkRead(BaseModel):
    """Which unread notifications to mark read: all (an empty body), those up to an id, one, or those about
    one game (the game page sends it when opened: the game is read)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    up_to: Id | None = Field(None, description="every notification with this id or a smaller one")
    id: Id | None = Field(None, description="only this notification")
    game: Id | None = Field(None, description="every notification about this game")

    @model_validator(mode="after")
    def one_choice(self) -> MarkRead:
        if sum(choice is not None for choice in (self.up_to, self.id, self.game)) > 1:
            raise ValueError("send one of up_to, id and game, not several")
        return self


@router.get("/me/notifications")
async def list_notifications(
    viewer: MemberViewer,
    db: DB,
    limit: Annotated[int, Query(ge=0, le=MAX_LIST)] = 20,
    before: Annotated[
        Id | None, Query(description="only older ones: the previous page's next_before")
    ] = None,
) -> dict[str, Any]:
    """Newest first, with the unread count (limit=0: the count alone); `next_before` only when there is
    more (one row beyond the page is read to know)."""
    rows = await notifications.newest(db, viewer.user.id, limit + 1, before) if limit else []
    page, more = rows[:limit], len(rows) > limit
    return {
        "notifications": [bell.view(row) for row in page],
        "unread": await notifications.unread_count(db, viewer.user.id),
        "next_before": page[-1].id if more else None,
    }


@router.post("/me/notifications/read")
async def mark_read(
    request: Request, viewer: MemberViewer, db: DB, body: MarkRead | None = None
) -> dict[str, Any]:
    """Mark read; answers how many changed and the unread count left."""
    choice = body or MarkRead(up_to=None, id=None, game=None)
    now = service_of(request).stream.now()
    marked = await notifications.mark_read(db, viewer.user.id, now, choice.up_to, choice.id, choice.game)
    await db.commit()
    return {"ok": True, "marked": marked, "unread": await notifications.unread_count(db, viewer.user.id)}
