"""Two processes seating the first computer of a level at the same moment share one bot account.

Found by the multi-process topology test: both transactions created `computer-N`, the unique name refused the
second, and that player's whole command failed with 503 ("not stored")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from miai.server.play.computer import bot_user
from miai.server.storage.db import make_engine, migrate, sessions
from tests.server.conftest import fresh_database


async def _race(url: str) -> tuple[int, int, bool]:
    engine = make_engine(url)
    try:
        await migrate(engine)
        make_session = sessions(engine)
        async with make_session() as first, make_session() as second:
            await first.begin()
            await second.begin()
            mine = await bot_user(first, 4, set())  # inserted, not yet committed
            theirs = asyncio.create_task(bot_user(second, 4, set()))  # waits on the unique name
            await asyncio.sleep(0.3)
            await first.commit()
            other = await asyncio.wait_for(theirs, 10)
            await second.commit()
            return mine.id, other.id, other.is_bot
    finally:
        await engine.dispose()


def test_two_transactions_creating_the_same_computer_share_its_account(tmp_path: Path) -> None:
    with fresh_database("postgres", tmp_path) as url:
        mine, theirs, is_bot = asyncio.run(_race(url))
    assert theirs == mine
    assert is_bot
