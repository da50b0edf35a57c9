"""Recomputing ratings while results keep arriving, and corrections that replay only what they change
(ratings/store.py `recompute`, storage/ratings.py `lock_key`; docs/api.md "Ratings"). SQLite, PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from miai.server.game_options import load_options
from miai.server.identity.admins import set_admin
from miai.server.ratings.store import recompute, record_game
from miai.server.storage.db import make_engine, sessions
from miai.server.storage.models import Game, RatingChange, UserRating
from tests.server.conftest import register
from tests.server.ratings.test_first_rating_race import BLACK_LOSES, MOVES
from tests.server.ratings.test_ratings_api import black_resigns, game, play_opening, ratings, rows
from tests.server.test_endings import seki_moves


async def _result_during_recompute(url: str, gid: int, seats: dict[tuple[int, int], int]) -> None:
    """A rated result is being stored (its transaction open) when `miai ratings recompute` starts."""
    engine = make_engine(url)
    try:
        make_session = sessions(engine)
        async with make_session() as storing, make_session() as recomputing:
            await storing.begin()
            finished = await storing.get_one(Game, gid)
            options = load_options(finished.kind, finished.options)
            finished.status, finished.result = "finished", BLACK_LOSES
            changes = await record_game(
                storing, finished, options, seats, BLACK_LOSES, datetime.now(UTC), MOVES, False
            )
            assert changes["rated"], "the game counts for ratings"
            await storing.flush()
            rebuild = asyncio.create_task(recompute(recomputing, "go-9", datetime.now(UTC)))
            await asyncio.sleep(0.5)  # the recompute has started and waits, or (unlocked) read the history
            await storing.commit()
            await asyncio.wait_for(rebuild, 20)
            await recomputing.commit()
    finally:
        await engine.dispose()


def test_a_result_stored_during_a_recompute_is_counted_once(client: TestClient) -> None:
    ann, ben = register(client, "ann"), register(client, "ben")
    black_resigns(ben, ann)
    late = game(ben, ann)
    play_opening([ben, ann], late)  # stored moves: a recompute checks them again
    _shift_ratings(client, 100.0)  # as after a change of the formula: the recompute rewrites every rating
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    seats = {(1, 0): ben.user_id, (2, 0): ann.user_id}
    client.portal.call(_result_during_recompute, url, late, seats)  # type: ignore[union-attr]
    stored = rows(client)
    assert sorted((r[0], r[5]) for r in stored) == [(ann.user_id, 2), (ben.user_id, 2)]
    history = ratings(ann)["go-9"]["history"]
    assert [p["game_id"] for p in history][-1] == late and len(history) == 2

    async def full_recompute() -> int:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            replayed = await recompute(db, "go-9", datetime.now(UTC))
            await db.commit()
            return replayed

    assert client.portal.call(full_recompute) == 2  # type: ignore[union-attr]
    for old, new in zip(stored, rows(client), strict=True):  # the stored ratings were the replayed ones
        assert old[:2] == new[:2] and old[5] == new[5]
        assert new[2:5] == pytest.approx(old[2:5], abs=1e-9)


def _shift_ratings(client: TestClient, points: float) -> None:
    async def write() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            await db.execute(update(UserRating).values(rating=UserRating.rating + points))
            await db.commit()

    client.portal.call(write)  # type: ignore[union-attr]


def _set_rating_after(client: TestClient, game_id: int, value: float) -> None:
    async def write() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            await db.execute(
                update(RatingChange).where(RatingChange.game_id == game_id).values(rating_after=value)
            )
            await db.commit()

    client.portal.call(write)  # type: ignore[union-attr]


def _ratings_after(client: TestClient, game_id: int) -> list[float]:
    async def read() -> list[float]:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            query = select(RatingChange.rating_after).where(RatingChange.game_id == game_id)
            return list((await db.execute(query.order_by(RatingChange.id))).scalars())

    return client.portal.call(read)  # type: ignore[union-attr]


def test_a_correction_replays_from_the_corrected_game_on(client: TestClient) -> None:
    """Three rated games of one pair; the middle one's result is corrected. The first game is not
    replayed (a mark left in its stored ratings stays), the corrected and later ones are, and the ratings
    come out as a replay of everything would make them."""
    black, white, root = register(client, "black"), register(client, "white"), register(client, "root")
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    client.portal.call(set_admin, url, "root", True)  # type: ignore[union-attr]
    first = black_resigns(black, white)
    corrected = game(black, white, preset="japanese")
    for ply, move in enumerate(seki_moves()):
        (black if ply % 2 == 0 else white).ok(f"/api/v1/games/{corrected}/moves", {"move": move})
    last = black_resigns(white, black)
    before: dict[str, Any] = {p.username: ratings(p)["go-9"] for p in (black, white)}
    assert before["black"]["games"] == before["white"]["games"] == 3
    _set_rating_after(client, first, 1234.5)  # a mark a replay of the first game would overwrite
    wall = ["D4", "D3", "G3", "A2", "B1", "G1"]
    root.ok(f"/api/v1/admin/games/{corrected}/dead-stones", {"dead": wall, "note": "test"})
    assert _ratings_after(client, first) == [1234.5, 1234.5]
    after = {p.username: ratings(p)["go-9"] for p in (black, white)}
    assert after["black"]["rating"] < before["black"]["rating"]  # Black lost the corrected game
    assert after["white"]["rating"] > before["white"]["rating"]
    assert after["black"]["games"] == after["white"]["games"] == 3
    assert [p["game_id"] for p in after["black"]["history"]] == [first, corrected, last]
    partly = rows(client)

    async def full_recompute() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            await recompute(db, "go-9", datetime.now(UTC))
            await db.commit()

    client.portal.call(full_recompute)  # type: ignore[union-attr]
    for old, new in zip(partly, rows(client), strict=True):
        assert old[:2] == new[:2] and old[5] == new[5]
        assert new[2:5] == pytest.approx(old[2:5], abs=1e-9)
