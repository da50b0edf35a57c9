"""The administrators' view of the e-mail outbox: pending and failed mail, their errors, and retrying."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query

from miai.server.api.deps import DB, AdminViewer
from miai.server.api.inputs import Id
from miai.server.notify import review

router = APIRouter(tags=["administration"])
MAX_LIST = 500


@router.get("/admin/outbox")
async def list_outbox(
    viewer: AdminViewer,
    db: DB,
    state: Literal["pending", "failed", "sent", "waiting"] = Query(
        "waiting", description="waiting: pending and failed mail"
    ),
    limit: int = Query(100, ge=1, le=MAX_LIST),
    before: Annotated[Id | None, Query(description="only mail with a smaller id (the next page)")] = None,
) -> dict[str, Any]:
    """Mail newest first, with attempts, the last error and when it is tried next or failed."""
    states = review.WAITING if state == "waiting" else (state,)
    mails = await review.listing(db, states, limit, before)
    return {"mails": mails, "next_before": mails[-1]["id"] if len(mails) == limit else None}


@router.post("/admin/outbox/{mail_id}/retry")
async def retry_mail(mail_id: Id, viewer: AdminViewer, db: DB) -> dict[str, Any]:
    """Try a failed or pending mail again now, with a new day of retries."""
    retried = await review.retry(db, [mail_id])
    if not retried:
        raise HTTPException(404, {"error": "not_found", "message": f"no unsent mail {mail_id}"})
    return {"ok": True, "retried": len(retried)}


@router.post("/admin/outbox/retry-failed")
async def retry_failed(viewer: AdminViewer, db: DB) -> dict[str, Any]:
    """Try every failed mail again now (after fixing the SMTP settings, say)."""
    return {"ok": True, "retried": len(await review.retry(db, None))}
