"""Engine reviews of finished games: ask for one (quick, or deep for the game's players), read them."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.api.deps import DB, MaybeViewer, MemberViewer, service_of
from miai.server.api.inputs import Id, Invite
from miai.server.api.rate_limits import enforce, user_key
from miai.server.engine_jobs.protocol import EngineJobs
from miai.server.engine_jobs.reviewing import MAX_POSITIONS, STALLED
from miai.server.errors import CommandError, Conflict, Forbidden
from miai.server.play import queries
from miai.server.storage import repo
from miai.server.storage import reviews as stored
from miai.server.storage.models import Review

router = APIRouter(tags=["reviews"])


class ReviewQueueFull(CommandError):
    """The asker's reviews waiting or computing already hold as many positions as one user may queue: the
    engines' time is shared by user (`engine_jobs/turns.py`), and this bounds what one user holds."""

    status = 429
    code = "review_queue_full"


class AskReview(BaseModel):
    model_config = ConfigDict(extra="forbid")

    depth: Literal["quick", "deep"] = "quick"


def review_view(review: Review, full: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": review.id,
        "depth": review.depth,
        "status": review.status,
        "done": review.done,
        "total": review.total,
        "requested_by": review.requested_by,
        "updated_at": (repo.utc(review.updated_at) or review.updated_at).isoformat(),
    }
    if full:
        out["positions"] = [_position(p) for p in review.result.get("positions", [])]
        out["swings"] = review.result.get("swings", [])
    return out


def _position(stored_position: dict[str, Any]) -> dict[str, Any]:
    """A stored position as the API gives it: `score` holds one number per team or none (a position stored
    before scores were per team held Black's lead alone: left out rather than misread)."""
    if len(stored_position.get("score", [])) == len(stored_position.get("shares", [])):
        return stored_position
    return {**stored_position, "score": []}


async def make_room(db: AsyncSession, user_id: int, positions: int, limit: int) -> None:
    """Refuse a review of `positions` that would take the user's queued positions over `limit`."""
    await repo.lock_users(db, [user_id])  # two asks at once count one after the other
    queued = await stored.queued_positions(db, user_id)
    if queued + positions > limit:
        raise ReviewQueueFull(
            f"you have {queued} positions of reviews waiting or being computed, this one adds {positions},"
            f" and one member may have at most {limit} queued: ask again once yours are done",
            queued=queued,
            positions=positions,
            limit=limit,
        )


@router.post("/games/{game_id}/review")
async def ask_review(
    game_id: Id,
    request: Request,
    response: Response,
    viewer: MemberViewer,
    db: DB,
    invite: Invite | None = None,
    body: AskReview | None = None,
) -> dict[str, Any]:
    """Stored once per game and depth: asking again answers the review there is (200), a new one 202."""
    body = body or AskReview()  # no body at all: the default depth, as for an empty object
    user_id = viewer.user.id
    game = await queries.load_visible_game(db, game_id, user_id, invite)
    if game.status != "finished":
        raise Conflict("only finished games can be reviewed")
    players = await repo.players_of(db, game.id)
    if body.depth == "deep" and all(p.user_id != user_id for p in players):
        raise Forbidden("only the game's players may ask for a deep review")
    jobs: EngineJobs = request.app.state.jobs
    queued_limit: int = request.app.state.settings.review_queued_positions
    now = service_of(request).stream.now()
    found = await stored.reviews_of(db, game.id)
    existing = next((r for r in found if r.depth == body.depth), None)
    if existing is None:
        total = len(await repo.moves_of(db, game.id)) + 1
        limit = min(MAX_POSITIONS, queued_limit)
        if total > limit:
            raise Conflict(
                f"this game has {total} positions; a review covers at most {limit}",
                positions=total,
                limit=limit,
            )
        # The hourly allowance first: a flood of asks is refused in memory, before any takes the member's
        # lock and counts the queue in the database (an ask refused for a full queue still counts).
        await enforce(request, "reviews", *user_key(user_id))
        await make_room(db, user_id, total, queued_limit)
        review, created = await stored.ask(db, game.id, body.depth, total, user_id, now)
    else:
        review, created = existing, False
        if review.status == "failed":  # computed again from its stored positions, in this user's turns
            await enforce(request, "reviews", *user_key(user_id))  # a retry asks for work as a new ask does
            await make_room(db, user_id, review.total - review.done, queued_limit)
    idle = now - (repo.utc(review.updated_at) or now)
    # A running review's `updated_at` is its runner's heartbeat; a pending one's, when it was asked for.
    stalled = not created and review.status in stored.UNFINISHED and idle > STALLED
    failed = review.status == "failed" and await stored.retry(db, review.id, user_id, now)
    await db.commit()
    if created or failed:
        jobs.review(review.id, user_id)
    elif stalled:  # submitted again: its runner claims it (the stopped one's lease is stale)
        stalled = await jobs.resubmit_review(review.id, review.requested_by or 0)
    await db.refresh(review)
    response.status_code = 202 if created or failed or stalled else 200
    return review_view(review, full=False)


@router.get("/games/{game_id}/review")
async def get_reviews(
    game_id: Id,
    viewer: MaybeViewer,
    db: DB,
    invite: Invite | None = None,
    depth: Literal["quick", "deep"] | None = None,
) -> dict[str, Any]:
    """The game's reviews (quick and deep, as far as they are computed; `depth` only that one), visible as
    the game is."""
    user_id = viewer.user.id if viewer else None
    game = await queries.load_visible_game(db, game_id, user_id, invite)
    found = [r for r in await stored.reviews_of(db, game.id) if depth is None or r.depth == depth]
    return {"reviews": [review_view(r, full=True) for r in found]}
