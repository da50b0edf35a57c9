"""The bot switch: a member turns their own account into a bot account, for good (docs/bots.md)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from miai.server.api.deps import DB, FreshUser, member_viewer
from miai.server.api.views import user_view
from miai.server.identity.bots import become_bot

router = APIRouter(tags=["accounts"])


class BotSwitch(BaseModel):
    confirm: Literal["irreversible"] = Field(
        description='must be "irreversible": an account marked as a bot stays a bot'
    )


@router.post("/me/bot", dependencies=[Depends(member_viewer)])
async def mark_as_bot(body: BotSwitch, user: FreshUser, db: DB) -> dict[str, Any]:
    """Mark your own account as a bot account (irreversible). Bots play through `miai bot` with an API
    token; they cannot be administrators, and play rated games against people only where the operator
    allows it (MIAI_BOTS_RATED_VS_PEOPLE)."""
    changed = become_bot(user)
    await db.commit()
    return {"user": user_view(user, private=True), "changed": changed}
