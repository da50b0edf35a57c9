"""Two processes storing the results of a new player's first two rated games at the same moment: both
results are stored and rated, one after the other (the second waited for the first's lock), instead of the
unique (user, kind) pair refusing one of the two results. PostgreSQL: SQLite takes one writer at a time."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from miai.server.app import create_app
from miai.server.game_options import load_options
from miai.server.ratings.store import record_game
from miai.server.storage.db import make_engine, sessions
from miai.server.storage.models import Game, UserRating
from tests.server.conftest import fresh_database, make_settings, register
from tests.server.ratings.test_ratings_api import game

BLACK_LOSES = {"ranking": [[2], [1]], "left": [{"team": 1, "how": "resign"}]}
MOVES = {1: 20, 2: 20}  # each side's moves: more than a rated game needs


async def _both_at_once(
    url: str, first_game: int, second_game: int, seats: list[dict[tuple[int, int], int]]
) -> int:
    engine = make_engine(url)
    try:
        make_session = sessions(engine)
        async with make_session() as one, make_session() as two:
            await one.begin()
            await two.begin()
            now = datetime.now(UTC)
            g1, g2 = await one.get_one(Game, first_game), await two.get_one(Game, second_game)
            o1, o2 = load_options(g1.kind, g1.options), load_options(g2.kind, g2.options)
            await record_game(one, g1, o1, seats[0], BLACK_LOSES, now, MOVES, False)
            await one.flush()  # alice's first rating row exists, uncommitted
            late = asyncio.create_task(record_game(two, g2, o2, seats[1], BLACK_LOSES, now, MOVES, False))
            await asyncio.sleep(0.3)
            await one.commit()
            await asyncio.wait_for(late, 10)
            await two.commit()
        async with make_session() as db:
            row = (
                await db.execute(select(UserRating).where(UserRating.user_id == seats[0][(2, 0)]))
            ).scalar_one()
            return row.games
    finally:
        await engine.dispose()


def test_a_new_players_first_two_results_at_once_are_both_rated(tmp_path: Path) -> None:
    with fresh_database("postgres", tmp_path) as url:
        with TestClient(create_app(make_settings(url, tmp_path))) as client:
            alice, bob, carol = (register(client, name) for name in ("alice", "bob", "carol"))
            first, second = game(bob, alice), game(carol, alice)
        seats = [{(1, 0): bob.user_id, (2, 0): alice.user_id}, {(1, 0): carol.user_id, (2, 0): alice.user_id}]
        assert asyncio.run(_both_at_once(url, first, second, seats)) == 2
