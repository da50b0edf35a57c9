"""Group commit: many games' moves share a COMMIT; a failed COMMIT acknowledges none of them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, update

from miai.server.errors import Conflict, Stale
from miai.server.game_options import GoOptions
from miai.server.notify.mailer import Mailer
from miai.server.play.service import GameService
from miai.server.realtime.hub import Hub, Message
from miai.server.storage import repo
from miai.server.storage.db import make_engine, migrate, sessions
from miai.server.storage.models import Game, User

GAMES = 12
Started = tuple[int, User, User]  # game id, black, white


@asynccontextmanager
async def started_games(
    url: str, start: bool = True
) -> AsyncIterator[tuple[GameService, Any, list[Started]]]:
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
        game_id = await service.lobby.create(black, GoOptions(size=9), team=1)
        await service.lobby.join(white, game_id, 2, None)
        if start:
            await service.lobby.confirm(black, game_id)
            await service.lobby.confirm(white, game_id)
        games.append((game_id, black, white))
    try:
        yield service, engine, games
    finally:
        await service.close()
        await engine.dispose()


async def stored_moves(service: GameService, game_id: int) -> list[str]:
    async with service.stream.sessions() as db:
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
            first = await asyncio.gather(*(service.moves.move(b, g, "E5") for g, b, _ in games))
            second = await asyncio.gather(*(service.moves.move(w, g, "D4") for g, _, w in games))
            assert all(a["ok"] for a in first + second)
            assert commits() < 2 * GAMES  # grouped: fewer COMMITs than moves
            for game_id, _, _ in games:
                assert await stored_moves(service, game_id) == ["E5", "D4"]
                async with service.stream.sessions() as db:
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
                *(service.moves.move(b, g, "E5") for g, b, _ in games), return_exceptions=True
            )
            failed = [a for a in answers if isinstance(a, Exception)]
            assert failed and all(isinstance(a, Stale) for a in failed)
            for (game_id, black, white), answer in zip(games, answers, strict=True):
                expected = [] if isinstance(answer, Exception) else ["E5"]
                assert await stored_moves(service, game_id) == expected
                if isinstance(answer, Exception):  # nothing was acknowledged, so the player plays again
                    await service.moves.move(black, game_id, "E5")
                await service.moves.move(white, game_id, "D4")
                assert await stored_moves(service, game_id) == ["E5", "D4"]

    run(work, database_url)


def test_a_game_changed_by_another_process_meanwhile_is_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, engine, games):
            game_id, black, white = games[0]
            await service.moves.move(black, game_id, "E5")
            another_process_moves_on(monkeypatch, engine, game_id, by=1)
            with pytest.raises(Stale):
                await service.moves.move(white, game_id, "D4")
            assert await stored_moves(service, game_id) == ["E5"]
            answer = await service.moves.move(white, game_id, "D4")  # read afresh, the retry goes through
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
                *(service.moves.move(b, g, "E5") for g, b, _ in games), return_exceptions=True
            )
            for (game_id, black, _), answer in zip(games, answers, strict=True):
                if game_id == victim:
                    assert isinstance(answer, Stale)
                    assert await stored_moves(service, game_id) == []
                    await service.moves.move(black, game_id, "E5")  # read afresh, the retry goes through
                else:
                    assert isinstance(answer, dict) and answer["ok"]
                assert await stored_moves(service, game_id) == ["E5"]

    run(work, database_url)


def test_a_refused_move_leaves_the_group_intact(database_url: str) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            (g1, b1, _), (g2, b2, w2) = games[0], games[1]
            answers = await asyncio.gather(
                service.moves.move(b1, g1, "E5"),
                service.moves.move(w2, g2, "E5"),  # not white's turn: refused, nothing written
                service.moves.move(b2, g2, "Z99"),  # bad vertex: refused
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

    def slow_judge(state: Any) -> judging.Verdict:
        release.wait(10)  # the estimator "thinks" until the other game has moved (or 10 s)
        return judging.Verdict()

    monkeypatch.setattr(judging, "judge_now", slow_judge)  # each service remembers only its own verdicts

    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            (g1, b1, w1), (g2, b2, _) = games[0], games[1]
            await service.moves.move(b1, g1, "pass")
            # Ends game 1: its dead stones are judged.
            ending = asyncio.create_task(service.moves.move(w1, g1, "pass"))
            await asyncio.sleep(0.2)
            other = await asyncio.wait_for(service.moves.move(b2, g2, "E5"), 5)  # not stuck behind the judge
            assert other["ok"] and not ending.done()
            release.set()
            assert (await ending)["ok"]
            async with service.stream.sessions() as db:
                game = await db.get(Game, g1)
                assert game is not None and game.status == "finished" and game.result is not None

    run(work, database_url)


def test_a_command_cancelled_while_its_group_is_stored_breaks_nothing(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A websocket closing mid-move cancels its command: the group still completes, the others are acked,
    and the cancelled move, stored, is published and its game plays on."""

    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            tasks = [asyncio.create_task(service.moves.move(b, g, "E5")) for g, b, _ in games[:3]]
            real = repo.store_commands

            async def cancel_first(db: Any, writes: Any, **options: Any) -> set[int]:
                monkeypatch.setattr(repo, "store_commands", real)
                tasks[0].cancel()
                await asyncio.sleep(0)
                return await real(db, writes, **options)

            monkeypatch.setattr(repo, "store_commands", cancel_first)
            _done, pending = await asyncio.wait(tasks, timeout=10)
            assert not pending and tasks[0].cancelled()
            assert all(t.result()["ok"] for t in tasks[1:])
            for game_id, _black, white in games[:3]:
                assert await stored_moves(service, game_id) == ["E5"]
                # No stale cache:
                answer = await asyncio.wait_for(service.moves.move(white, game_id, "D4"), 10)
                assert answer["ok"]

    run(work, database_url)


def test_another_process_moved_the_game_on(database_url: str) -> None:
    """Two server processes on one database: a move handled by one, the next by the other."""

    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            other = GameService(service.stream.sessions, Hub(), Mailer(enabled=False, base_url=""))
            try:
                game_id, black, white = games[0]
                await service.moves.move(black, game_id, "E5")
                await service.moves.move(white, game_id, "D4")  # this process holds the row at D4's version
                ack = await other.moves.move(black, game_id, "C3")  # the other process stores C3
                # A client that saw the newer version is served at once: the row is read again.
                ack = await service.moves.move(white, game_id, "F6", expected=ack["version"])
                # Through Redis each process sees the other's events: a newer version marks the row.
                other.stream.forget_if_moved_on(Message(f"game:{game_id}", "move", {}, ack["version"]))
                ack = await other.moves.move(black, game_id, "G7")
                service.stream.forget_if_moved_on(Message(f"game:{game_id}", "move", {}, ack["version"]))
                await service.moves.move(white, game_id, "B2")
                # Without either, a refusal makes the next attempt read the row again.
                with pytest.raises(Conflict):
                    await other.moves.move(black, game_id, "H8")
                assert (await other.moves.move(black, game_id, "H8"))["ok"]
                moves = await stored_moves(service, game_id)
                assert moves == ["E5", "D4", "C3", "F6", "G7", "B2", "H8"]
            finally:
                await other.close()

    run(work, database_url)


def test_a_refused_command_commits_none_of_its_orm_changes(database_url: str) -> None:
    async def work(url: str) -> None:
        async with started_games(url, start=False) as (service, engine, games):
            game_id, black, _white = games[0]
            bump = update(Game).where(Game.id == game_id).values(version=Game.version + 1)
            async with engine.connect() as other:  # another process moves the game on meanwhile
                await other.execute(bump)
                await other.commit()
            with pytest.raises(Stale):
                await service.lobby.confirm(black, game_id)  # against the row held here, now stale
            async with service.stream.sessions() as db:
                assert not any(p.confirmed for p in await repo.players_of(db, game_id))
            await service.lobby.confirm(black, game_id)  # read afresh, it goes through
            async with service.stream.sessions() as db:
                flags = {p.user_id: p.confirmed for p in await repo.players_of(db, game_id)}
            assert flags[black.id]

    run(work, database_url)


def test_an_acknowledged_confirmation_survives_a_stale_neighbour(database_url: str) -> None:
    async def work(url: str) -> None:
        async with started_games(url, start=False) as (service, engine, games):
            (g1, b1, _), (g2, b2, _) = games[0], games[1]
            async with engine.connect() as other:  # game 2 moved on elsewhere
                await other.execute(update(Game).where(Game.id == g2).values(version=Game.version + 1))
                await other.commit()
            answers = await asyncio.gather(
                service.lobby.confirm(b1, g1), service.lobby.confirm(b2, g2), return_exceptions=True
            )
            async with service.stream.sessions() as db:
                for (game_id, black, _), answer in zip(games[:2], answers, strict=True):
                    flags = {p.user_id: p.confirmed for p in await repo.players_of(db, game_id)}
                    assert flags[black.id] == (answer is None)  # stored exactly when acknowledged

    run(work, database_url)


def test_an_undo_is_stored_with_its_game_or_not_at_all(database_url: str) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, engine, games):
            from miai.server.play.practice import Practice

            practice_games = Practice(service)
            practice = []
            for _g, black, _w in games[:2]:
                local = GoOptions(size=9, mode="local")
                game_id = await practice_games.create(black, local, "first")
                await service.moves.move(black, game_id, "E5")
                await service.moves.move(black, game_id, "D4")
                practice.append((game_id, black))
            (p1, u1), (p2, u2) = practice
            async with engine.connect() as other:  # game 2 moved on elsewhere
                await other.execute(update(Game).where(Game.id == p2).values(version=Game.version + 1))
                await other.commit()
            answers = await asyncio.gather(
                practice_games.undo(u1, p1), practice_games.undo(u2, p2), return_exceptions=True
            )
            for (game_id, _user), answer in zip(practice, answers, strict=True):
                expected = ["E5"] if isinstance(answer, dict) else ["E5", "D4"]
                assert await stored_moves(service, game_id) == expected
            assert (await service.moves.move(u1, p1, "C3"))["ok"]  # the record and the row agree

    run(work, database_url)


def test_times_are_stored_as_sqlalchemy_stores_them(tmp_path: Path) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, engine, games):
            game_id, black, _ = games[0]
            await service.moves.move(black, game_id, "E5")
            async with engine.connect() as connection:
                raw = (await connection.exec_driver_sql("SELECT created_at FROM game_moves")).scalar()
                started = (
                    await connection.exec_driver_sql(f"SELECT created_at FROM games WHERE id={game_id}")
                ).scalar()
            assert len(raw) == len(started) == len("2026-11-22 04:00:00.000000"), (raw, started)

    run(work, f"sqlite+aiosqlite:///{(tmp_path / 'times.db').as_posix()}")
