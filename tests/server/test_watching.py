"""Watching games (docs/api.md, "Live games" and docs/realtime.md, "watchers"): the live list's board preview,
and the spectator count a game page shows, kept up to date over the game socket."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from miai.server.play.stream import RecordMoved
from miai.server.realtime.hub import Hub, Message
from miai.server.realtime.watchers import Watchers
from miai.server.storage.models import Game
from tests.server.conftest import register
from tests.server.test_finding import new_game
from tests.server.test_websocket import receive_until


def hears_count(socket: Any, count: int) -> None:
    """The announcements come at most once a second: earlier counts may arrive first."""
    for _ in range(5):
        if receive_until(socket, "watchers")["d"] == {"count": count}:
            return
    raise AssertionError(f"never heard {count} watching")


def test_the_live_list_previews_each_board(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    preview = client.get("/api/v1/games/live").json()["games"][0]["preview"]
    assert preview["size"] == 9 and len(preview["cells"]) == 81
    # point = row * size + col, row 0 at the bottom: E5 is (4, 4), C3 is (2, 2)
    assert preview["cells"][4 * 9 + 4] == "1" and preview["cells"][2 * 9 + 2] == "2"
    assert preview["cells"].count(".") == 79


def test_previews_are_stored_with_each_move_and_read_without_replaying(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another web process (or this one after a restart) holds no rules state: the list reads the stored
    preview, so a page of 19×19 games costs no replay of their moves."""
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})

    async def no_replay(*args: Any) -> Any:
        raise AssertionError("the live list replayed a game")

    monkeypatch.setattr(client.app.state.games.stream, "current", no_replay)  # type: ignore[attr-defined]
    cells = client.get("/api/v1/games/live").json()["games"][0]["preview"]["cells"]
    assert cells[4 * 9 + 4] == "1" and cells.count(".") == 80


def _forget_preview(client: TestClient, gid: int) -> None:
    """The game as stored before previews were (migration 0015 left them NULL), and not in this
    process's memory: the list has its moves alone to go by."""

    async def forget() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            await db.execute(update(Game).where(Game.id == gid).values(preview=None))
            await db.commit()

    client.portal.call(forget)  # type: ignore[union-attr]
    client.app.state.games.stream._cache.pop(gid, None)  # type: ignore[attr-defined]


def test_a_game_without_a_stored_preview_is_previewed_from_its_moves(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    _forget_preview(client, gid)
    cells = client.get("/api/v1/games/live").json()["games"][0]["preview"]["cells"]
    assert cells[4 * 9 + 4] == "1" and cells.count(".") == 80


def test_a_record_that_keeps_moving_costs_its_thumbnail_not_the_list(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    _forget_preview(client, gid)

    async def moving(*args: Any) -> Any:
        raise RecordMoved("the record changed while read")

    monkeypatch.setattr(client.app.state.games.stream, "current", moving)  # type: ignore[attr-defined]
    answer = client.get("/api/v1/games/live")
    assert answer.status_code == 200, answer.text
    listed = answer.json()["games"]
    assert [g["id"] for g in listed] == [gid] and listed[0]["preview"] is None


def test_a_closed_count_announces_nothing_more() -> None:
    """At app shutdown the pending announcements are cancelled: none reaches a hub that has stopped."""
    heard: list[Message] = []

    class Ear(Hub):  # a hub without Redis that records what it is given
        def dispatch_here(self, message: Message) -> None:
            heard.append(message)

    async def arrive(close: bool) -> None:
        watchers = Watchers(Ear(), every=0.01)
        watchers.add(7)
        if close:
            await watchers.close()
        await asyncio.sleep(0.05)

    asyncio.run(arrive(close=False))
    assert [m.d for m in heard] == [{"count": 1}]  # announced when left open
    heard.clear()
    asyncio.run(arrive(close=True))
    assert heard == []


def test_the_live_list_previews_other_games(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob, kind="amazons", size=10)
    preview = client.get("/api/v1/games/live").json()["games"][0]["preview"]
    cells = preview["cells"]
    assert len(cells) == preview["size"] ** 2 and cells.count("1") == cells.count("2") > 0
    assert set(cells) == {".", "1", "2"}, gid


def test_a_game_page_hears_how_many_watch_and_players_are_not_counted(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)
    url = f"/api/v1/games/{gid}/ws?watchers=1"
    with client.websocket_connect(f"{url}&token={ann.token}") as player:
        assert player.receive_json()["t"] == "snapshot"
        assert player.receive_json() == {"t": "watchers", "d": {"count": 0}, "v": None}
        with client.websocket_connect(url) as first:
            assert first.receive_json()["t"] == "snapshot"
            assert first.receive_json()["d"] == {"count": 1}
            hears_count(player, 1)
            with client.websocket_connect(url) as second:
                second.receive_json()
                assert second.receive_json()["d"] == {"count": 2}
                hears_count(first, 2)
                live = client.get("/api/v1/games/live").json()["games"][0]
                assert live["spectators"] == 2  # the same count
            hears_count(first, 1)
            hears_count(player, 1)


def test_sockets_that_did_not_ask_hear_no_count(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)
    url = f"/api/v1/games/{gid}/ws"
    with client.websocket_connect(url) as quiet:
        assert quiet.receive_json()["t"] == "snapshot"
        with client.websocket_connect(url) as other:
            other.receive_json()
            with client.websocket_connect(f"{url}?watchers=1") as asking:
                asking.receive_json()
                assert asking.receive_json()["d"] == {"count": 3}
                receive_until(asking, "watchers")  # the arrivals were announced meanwhile
        ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
        assert quiet.receive_json()["t"] == "move"  # no count in between
