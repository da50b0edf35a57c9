"""Flagging wrongly scored games, and the administrators' review and correction of dead stones."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from miai.server.api.deps import DB, AdminViewer, MemberViewer, service_of
from miai.server.api.inputs import Id, Line, Text
from miai.server.play import queries
from miai.server.play.kinds import table_of
from miai.server.storage import repo

router = APIRouter(tags=["scoring review"])


class Flag(BaseModel):
    comment: Text = Field(min_length=1, max_length=2000)


Vertex = Annotated[Line, Field(min_length=2, max_length=3, description="a GTP vertex such as D4 or T19")]


class Correction(BaseModel):
    dead: list[Vertex] = Field(default_factory=list, max_length=625, description="the dead stones")
    note: Text = Field("", max_length=2000)


def _iso(moment: datetime | None) -> str | None:
    moment = repo.utc(moment)  # SQLite hands back naive datetimes; they are UTC
    return moment.isoformat() if moment else None


@router.post("/games/{game_id}/flag", status_code=201)
async def flag_score(game_id: Id, body: Flag, request: Request, viewer: MemberViewer) -> dict[str, Any]:
    return await service_of(request).score_review.flag(viewer.user, game_id, body.comment)


@router.get("/admin/flags")
async def flagged_games(request: Request, viewer: AdminViewer, db: DB) -> dict[str, Any]:
    """Open flags with the estimator's verdict and the board of each game."""
    out = []
    for flag in await repo.open_flags(db):
        game = await repo.game_row(db, flag.game_id)
        if game is None:
            continue
        state = await service_of(request).stream.current_state(db, game)
        reporter = await repo.user_by_id(db, flag.user_id)
        out.append(
            {
                "flag_id": flag.id,
                "game_id": game.id,
                "comment": flag.comment,
                "by": reporter.username if reporter else None,
                "at": _iso(flag.created_at),
                "result": game.result,
                "verdict_dead": (game.result or {}).get("dead", []),
                "position": table_of(game.kind, game.options).position(state),
            }
        )
    return {"flags": out}


@router.get("/admin/games/{game_id}")
async def review_game(game_id: Id, request: Request, viewer: AdminViewer, db: DB) -> dict[str, Any]:
    """One game for review: its snapshot, every flag (open or resolved) and the results it replaced."""
    game = await repo.game_row(db, game_id)
    if game is None:
        raise HTTPException(404, {"error": "not_found", "message": f"there is no game {game_id}"})
    data = await queries.snapshot(service_of(request).stream, db, game, None)
    flags = await repo.flags_of(db, game_id)
    people = {f.user_id for f in flags} | {f.resolved_by for f in flags if f.resolved_by is not None}
    names = await repo.users_by_ids(db, sorted(people))

    def name(user_id: int | None) -> str | None:
        user = names.get(user_id or 0)
        return user.username if user else None

    data["flags"] = [
        {
            "flag_id": f.id,
            "comment": f.comment,
            "by": name(f.user_id),
            "at": _iso(f.created_at),
            "resolved_by": name(f.resolved_by),
            "resolved_at": _iso(f.resolved_at),
            "resolution": f.resolution,
        }
        for f in flags
    ]
    data["result_history"] = list(game.result_history)
    return data


@router.post("/admin/games/{game_id}/dead-stones")
async def correct_dead_stones(
    game_id: Id, body: Correction, request: Request, viewer: AdminViewer
) -> dict[str, Any]:
    review = service_of(request).score_review
    return await review.correct_dead_stones(viewer.user, game_id, body.dead, body.note)
