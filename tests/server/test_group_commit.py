"""Group commit: many games' moves share a COMMIT; a failed COMMIT acknowledges none of them."""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, update

from miai.server.play.errors import Stale
from miai.server.play.notifications import Mailer
from miai.server.play.options import GoOptions
from miai.server.play.service import GameService
from miai.server.realtime.hub import Hub
from miai.server.storage import repo
from miai.server.storage.db import make_engine, migrate, sessions
from miai.server.storage.models import Game, User

GAMES = 12
Started = tuple[int, User, User]  # game id, black, white


@asynccontextmanager
async def started_games(url: str) -> AsyncIterator[tuple[GameService, Any, list[Started]]]:
    engine = make_engine(url)
    await migrate(engine)
    maker = sessions(engine)
    service = GameService(maker, Hub(), Mailer(enabled=False, base_url=""))
    async with maker() as db:
        users = [
            User(username=f"u{i}", password_hash="-", created_at=datetime.now(UTC), settings={})
            for i in range(2 * GAMES)
        ]
        db.add_all(users)
        await db.commit()
    games = []
    for i in range(GAMES):
        black, white = users[2 * i], users[2 * i + 1]
        game_id = await service.create(black, GoOptions(size=9), team=1)
        await service.join(white, game_id, 2, None)
        await service.confirm(black, game_id)
        await service.confirm(white, game_id)
        games.append((game_id, black, white))
    try:
        yield service, engine, games
    finally:
        await service.close()
        await engine.dispose()


async def stored_moves(service: GameService, game_id: int) -> list[str]:
    async with service.sessions() as db:
        return [m.move for m in await repo.moves_of(db, game_id)]


def count_commits(engine: Any) -> Callable[[], int]:
    commits = [0]

    @event.listens_for(engine.sync_engine, "commit")
    def _count(_connection: Any) -> None:
        commits[0] += 1

    return lambda: commits[0]


def run(work: Callable[[str], Awaitable[None]], url: str) -> None:
    asyncio.run(work(url))


def another_process_moves_on(
    monkeypatch: pytest.MonkeyPatch, engine: Any, game_id: int, by: int, grouped: bool = False
) -> None:
    """The next store finds the game's row moved on by another process between our read and our write."""
    real = repo.store_commands

    async def another_process_first(db: Any, writes: Any) -> set[int]:
        assert not grouped or len(writes) > 1  # the moves were grouped
        monkeypatch.setattr(repo, "store_commands", real)
        async with engine.connect() as other:
            await other.execute(update(Game).where(Game.id == game_id).values(version=Game.version + by))
            await other.commit()
        return await real(db, writes)

    monkeypatch.setattr(repo, "store_commands", another_process_first)


def test_concurrent_moves_share_commits_and_are_all_stored(database_url: str) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, engine, games):
            commits = count_commits(engine)
            first = await asyncio.gather(*(service.move(b, g, "E5") for g, b, _ in games))
            second = await asyncio.gather(*(service.move(w, g, "D4") for g, _, w in games))
            assert all(a["ok"] for a in first + second)
            assert commits() < 2 * GAMES  # grouped: fewer COMMITs than moves
            for game_id, _, _ in games:
                assert await stored_moves(service, game_id) == ["E5", "D4"]
                async with service.sessions() as db:
                    game = await db.get(Game, game_id)
                    assert game is not None and game.plies == 2
                    assert game.to_move["team"] == 1

    run(work, database_url)


def test_a_failed_commit_acknowledges_none_of_its_group(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            real = repo.store_commands
            calls = [0]

            async def broken_once(db: Any, writes: Any) -> list[int]:
                calls[0] += 1
                if calls[0] == 1:
                    await real(db, writes)  # the statements run, then the disk "fails" before COMMIT
                    raise OSError("disk I/O error")
                return await real(db, writes)

            monkeypatch.setattr(repo, "store_commands", broken_once)
            answers = await asyncio.gather(
                *(service.move(b, g, "E5") for g, b, _ in games), return_exceptions=True
            )
            failed = [a for a in answers if isinstance(a, Exception)]
            assert failed and all(isinstance(a, Stale) for a in failed)
            for (game_id, black, white), answer in zip(games, answers, strict=True):
                expected = [] if isinstance(answer, Exception) else ["E5"]
                assert await stored_moves(service, game_id) == expected
                if isinstance(answer, Exception):  # nothing was acknowledged, so the player plays again
                    await service.move(black, game_id, "E5")
                await service.move(white, game_id, "D4")
                assert await stored_moves(service, game_id) == ["E5", "D4"]

    run(work, database_url)


def test_a_game_changed_by_another_process_meanwhile_is_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, engine, games):
            game_id, black, white = games[0]
            await service.move(black, game_id, "E5")
            another_process_moves_on(monkeypatch, engine, game_id, by=1)
            with pytest.raises(Stale):
                await service.move(white, game_id, "D4")
            assert await stored_moves(service, game_id) == ["E5"]
            answer = await service.move(white, game_id, "D4")  # read afresh, the retry goes through
            assert answer["ok"]
            assert await stored_moves(service, game_id) == ["E5", "D4"]

    run(work, database_url)


def test_only_the_game_changed_elsewhere_fails_in_its_group(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, engine, games):
            victim = games[3][0]
            another_process_moves_on(monkeypatch, engine, victim, by=5, grouped=True)
            answers = await asyncio.gather(
                *(service.move(b, g, "E5") for g, b, _ in games), return_exceptions=True
            )
            for (game_id, black, _), answer in zip(games, answers, strict=True):
                if game_id == victim:
                    assert isinstance(answer, Stale)
                    assert await stored_moves(service, game_id) == []
                    await service.move(black, game_id, "E5")  # read afresh, the retry goes through
                else:
                    assert isinstance(answer, dict) and answer["ok"]
                assert await stored_moves(service, game_id) == ["E5"]

    run(work, database_url)


def test_a_refused_move_leaves_the_group_intact(database_url: str) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            (g1, b1, _), (g2, b2, w2) = games[0], games[1]
            answers = await asyncio.gather(
                service.move(b1, g1, "E5"),
                service.move(w2, g2, "E5"),  # not white's turn: refused, nothing written
                service.move(b2, g2, "Z99"),  # bad vertex: refused
                return_exceptions=True,
            )
            assert isinstance(answers[0], dict) and answers[0]["ok"]
            assert all(isinstance(a, Exception) and not isinstance(a, Stale) for a in answers[1:])
            assert await stored_moves(service, g1) == ["E5"]
            assert await stored_moves(service, g2) == []

    run(work, database_url)


def test_judging_a_finished_game_does_not_hold_up_other_games(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from miai.server.play import judging

    release = threading.Event()

    def slow_judge(state: Any) -> tuple[frozenset[int], frozenset[int]]:
        release.wait(10)  # the estimator "thinks" until the other game has moved (or 10 s)
        return frozenset(), frozenset()

    monkeypatch.setattr(judging, "_judge", slow_judge)
    monkeypatch.setattr(judging, "_recent", OrderedDict())  # no verdict remembered from another test

    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            (g1, b1, w1), (g2, b2, _) = games[0], games[1]
            await service.move(b1, g1, "pass")
            ending = asyncio.create_task(service.move(w1, g1, "pass"))  # ends game 1: dead stones judged
            await asyncio.sleep(0.2)
            other = await asyncio.wait_for(service.move(b2, g2, "E5"), 5)  # not stuck behind the judge
            assert other["ok"] and not ending.done()
            release.set()
            assert (await ending)["ok"]
            async with service.sessions() as db:
                game = await db.get(Game, g1)
                assert game is not None and game.status == "finished" and game.result is not None

    run(work, database_url)
