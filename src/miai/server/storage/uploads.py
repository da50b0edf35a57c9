"""Storing an uploaded record as a finished game, in one transaction, and reading its record back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import Game, GameEvent, GameMove, GamePlayer, UploadedRecord
from miai.server.storage.repo import lock_users

UPLOADER = "uploader"  # the `state` of the uploader's row in game_players: of no team, never on move


@dataclass(frozen=True)
class NewRecord:
    """The rows of an uploaded game: `game` the games columns, `moves` (ply, team, seat, text) of the main
    line, `events` (type, data) in order, and the record kept beside them."""

    game: dict[str, Any]
    moves: Sequence[tuple[int, int, int, str]]
    events: Sequence[tuple[str, dict[str, Any]]]
    sgf: str
    nodes: list[dict[str, Any]]


@dataclass(frozen=True)
class UploadTotals:
    """What a member's uploaded records hold: how many, and the moves of their main lines (their games'
    stored moves, the rows and events an upload costs most)."""

    records: int
    moves: int


async def upload_totals(db: AsyncSession, uploader_id: int, *, lock: bool = False) -> UploadTotals:
    """The member's totals; `lock` first locks their user row so that two uploads of theirs count one after
    the other."""
    if lock:
        await lock_users(db, [uploader_id])
    query = (
        select(func.count(), func.coalesce(func.sum(Game.plies), 0))
        .select_from(UploadedRecord)
        .join(Game, Game.id == UploadedRecord.game_id)
        .where(Game.created_by == uploader_id)
    )
    records, moves = (await db.execute(query)).one()
    return UploadTotals(int(records), int(moves))


async def store_record(db: AsyncSession, uploader_id: int, new: NewRecord, now: datetime) -> int:
    """Insert every row of the uploaded game and commit; its id. Nothing is stored if any insert fails."""
    game = Game(**new.game, created_by=uploader_id, created_at=now, finished_at=now, version=len(new.events))
    db.add(game)
    await db.flush()
    db.add(
        GamePlayer(
            game_id=game.id,
            user_id=uploader_id,
            team=None,
            seat=None,
            joined_seq=1,
            confirmed=True,
            state=UPLOADER,
        )
    )
    db.add_all(
        GameMove(game_id=game.id, ply=ply, team=team, seat=seat, move=text, created_at=now)
        for ply, team, seat, text in new.moves
    )
    db.add_all(
        GameEvent(game_id=game.id, v=v, type=t, data=d, audience="all", created_at=now)
        for v, (t, d) in enumerate(new.events, start=1)
    )
    db.add(UploadedRecord(game_id=game.id, sgf=new.sgf, nodes=new.nodes, created_at=now))
    await db.commit()
    return game.id


async def record_of(db: AsyncSession, game_id: int) -> UploadedRecord | None:
    """The uploaded record of a game; None for games played here."""
    query = select(UploadedRecord).where(UploadedRecord.game_id == game_id)
    return (await db.execute(query)).scalar_one_or_none()
