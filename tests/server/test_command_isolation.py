"""One failing command fails alone: the group writer undoes it and every other command goes on (finding 1
of the hardening issue: a chat message the database refused used to leave the shared session needing a
rollback, so every later move, join, chat and timeout on the process failed until a restart)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from miai.server.errors import NotStored
from miai.server.scheduling.deadlines import enforce_due
from miai.server.storage.models import ChatMessage, Game
from tests.server.conftest import register
from tests.server.test_group_commit import run, started_games, stored_moves
from tests.server.test_race_and_auth import start_two_player_game
from tests.server.test_websocket import receive_until

# Text the database itself refuses: SQLite cannot encode a lone surrogate, PostgreSQL refuses NUL in text.
# (The API refuses both at its edge; here the service is called directly, as any unforeseen database error
# would reach it.)
REFUSED = "a\ud800\x00b"


async def chats_of(service: object, game_id: int) -> list[str]:
    async with service.stream.sessions() as db:  # type: ignore[attr-defined]
        rows = await db.execute(select(ChatMessage.text).where(ChatMessage.game_id == game_id))
        return [text for (text,) in rows]


def test_a_command_the_database_refuses_fails_alone(database_url: str) -> None:
    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            (g1, b1, w1), (g2, b2, w2), (g3, b3, _w3) = games[:3]
            with pytest.raises(NotStored):
                await service.chat.post(b1, g1, "public", REFUSED)
            # Every later command of every game still works, in the same game too.
            assert (await service.moves.move(b1, g1, "E5"))["ok"]
            assert (await service.moves.move(b2, g2, "E5"))["ok"]
            await service.chat.post(w1, g1, "public", "still here")
            assert await stored_moves(service, g1) == ["E5"]
            assert await stored_moves(service, g2) == ["E5"]
            assert await chats_of(service, g1) == ["still here"]
            # ... and the scheduler still enforces deadlines.
            async with service.stream.sessions() as db:
                past = service.stream.now() - timedelta(seconds=5)
                await db.execute(update(Game).where(Game.id == g3).values(deadline_at=past))
                await db.commit()
            assert await enforce_due(service.stream.sessions, service) == 1
            async with service.stream.sessions() as db:
                game = await db.get(Game, g3)
                assert game is not None and game.status == "finished"
            assert await stored_moves(service, g3) == ["timeout"]
            del b3, w2

    run(work, database_url)


def test_a_failing_command_inside_a_group_leaves_the_others_stored(database_url: str) -> None:
    """Commands queued in one group around a failing one (chats write rows in their turn, so the failing
    one runs inside its own savepoint) are all acknowledged and stored; the failing one left nothing."""

    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            calls = []
            for index, (game_id, black, _white) in enumerate(games):
                if index == 5:
                    calls.append(service.chat.post(black, game_id, "public", REFUSED))
                elif index % 2 == 0:
                    calls.append(service.chat.post(black, game_id, "public", f"hello {index}"))
                else:
                    calls.append(service.moves.move(black, game_id, "C3"))
            results = await asyncio.gather(*calls, return_exceptions=True)
            for index, ((game_id, _black, _white), result) in enumerate(zip(games, results, strict=True)):
                if index == 5:
                    assert isinstance(result, NotStored)
                    assert await chats_of(service, game_id) == []
                elif index % 2 == 0:
                    assert not isinstance(result, BaseException), result
                    assert await chats_of(service, game_id) == [f"hello {index}"]
                else:
                    assert not isinstance(result, BaseException), result
                    assert await stored_moves(service, game_id) == ["C3"]
            # The game of the failed command plays on.
            game_id, black, white = games[5]
            assert (await service.moves.move(black, game_id, "D4"))["ok"]
            assert (await service.moves.move(white, game_id, "E5"))["ok"]
            assert await stored_moves(service, game_id) == ["D4", "E5"]

    run(work, database_url)


def test_a_command_failing_after_other_commands_wrote_keeps_their_rows(database_url: str) -> None:
    """The savepoint path in order: a chat writes its row into the open group, then a refused chat fails;
    the first chat is still stored once the group commits."""

    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            (g1, b1, _), (g2, b2, _) = games[:2]
            first = asyncio.ensure_future(service.chat.post(b1, g1, "public", "first"))
            second = asyncio.ensure_future(service.chat.post(b2, g2, "public", REFUSED))
            third = asyncio.ensure_future(service.moves.move(b2, g2, "E5"))
            results = await asyncio.gather(first, second, third, return_exceptions=True)
            assert not isinstance(results[0], BaseException), results[0]
            assert isinstance(results[1], NotStored)
            assert not isinstance(results[2], BaseException), results[2]
            assert await chats_of(service, g1) == ["first"]
            assert await chats_of(service, g2) == []
            assert await stored_moves(service, g2) == ["E5"]

    run(work, database_url)


def test_a_socket_command_the_database_refuses_fails_alone_and_the_socket_stays_open(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over the websocket: the refused command gets an error with its id, the socket answers the next
    command, and the other player's moves go on."""
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    service = client.app.state.games  # type: ignore[attr-defined]
    real_chat = service.chat.post

    async def chat_the_database_refuses(user: Any, game_id: int, channel: str, text: str) -> Any:
        return await real_chat(user, game_id, channel, REFUSED)  # as if validation had let it through

    monkeypatch.setattr(service.chat, "post", chat_the_database_refuses)
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={alice.token}") as sock:
        assert sock.receive_json()["t"] == "snapshot"
        sock.send_json({"t": "chat", "d": {"text": "hello"}, "id": "c1"})
        error = receive_until(sock, "error")
        assert error["d"]["id"] == "c1" and error["d"]["error"] == "not_stored"
        monkeypatch.setattr(service.chat, "post", real_chat)
        sock.send_json({"t": "move", "d": {"move": "E5"}, "id": "m1"})
        assert receive_until(sock, "ack")["d"]["id"] == "m1"
        sock.send_json({"t": "chat", "d": {"text": "hello again"}, "id": "c2"})
        assert receive_until(sock, "ack")["d"]["id"] == "c2"
    assert bob.post(f"/api/v1/games/{gid}/moves", {"move": "D4"}).status_code == 200
    assert [m["text"] for m in alice.get(f"/api/v1/games/{gid}").json()["chat"]] == ["hello again"]


def test_an_unexpected_fault_in_a_socket_command_answers_it_alone(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    service = client.app.state.games  # type: ignore[attr-defined]

    async def broken_move(*_args: Any) -> Any:
        raise ValueError("a bug")

    real_move = service.moves.move
    monkeypatch.setattr(service.moves, "move", broken_move)
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={alice.token}") as sock:
        assert sock.receive_json()["t"] == "snapshot"
        sock.send_json({"t": "move", "d": {"move": "E5"}, "id": "m1"})
        error = receive_until(sock, "error")
        assert error["d"]["id"] == "m1" and error["d"]["error"] == "server_error"
        monkeypatch.setattr(service.moves, "move", real_move)
        sock.send_json({"t": "move", "d": {"move": "E5"}, "id": "m2"})
        assert receive_until(sock, "ack")["d"]["id"] == "m2"
    del bob
