"""In-page notifications: "your turn" (one unread per game), a challenge received, a game finished; the
list, the unread count, marking read, the cap, the live message on the user socket, and hostile input."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from miai.server.app import create_app
from miai.server.errors import Stale
from miai.server.storage import notifications
from miai.server.storage.models import Notification, User
from tests.server.conftest import Player, make_settings, register
from tests.server.test_computer_games import centre_first, settle
from tests.server.test_group_commit import another_process_moves_on, started_games
from tests.server.test_race_and_auth import start_two_player_game

LIST = "/api/v1/me/notifications"
READ = "/api/v1/me/notifications/read"


def listing(player: Player, query: str = "") -> dict[str, Any]:
    response = player.get(f"{LIST}{query}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def kinds(player: Player) -> list[tuple[str, int | None, bool]]:
    return [(n["kind"], n["game_id"], n["read"]) for n in listing(player)["notifications"]]


def test_your_turn_is_told_once_per_game_and_moves_on_with_the_game(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    assert kinds(alice) == [("turn", gid, False)]  # the game started with alice on move
    assert kinds(bob) == []
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    assert kinds(bob) == [("turn", gid, False)]
    assert kinds(alice) == []  # her turn is over: its notice is gone
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "G7"})
    # Many moves later, still one unread "your turn" for the game
    assert kinds(bob) == [("turn", gid, False)]
    first = listing(bob)
    assert first["unread"] == 1
    shown = first["notifications"][0]
    assert shown["text"] == f"Your turn in game {gid}" and shown["url"] == f"/games/{gid}"


def test_a_game_is_one_entry_that_comes_back_unread_turn_after_turn(client: TestClient) -> None:
    """Read or not, a player's "your turn" of a game is one entry: the next turn brings it back to the top,
    unread, instead of adding one entry per turn (issue 32); the other game's entry stays as it was."""
    alice, bob = register(client, "alice"), register(client, "bob")
    other = start_two_player_game(alice, bob)
    alice.ok(f"/api/v1/games/{other}/moves", {"move": "E5"})
    gid = start_two_player_game(alice, bob)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    bob.ok(READ, {"game": other})
    for his, hers in [("C3", "G7"), ("C7", "G3"), ("F6", "D4")]:
        assert kinds(bob) == [("turn", gid, False), ("turn", other, True)]
        assert bob.ok(READ, {"game": gid})["marked"] == 1  # the game page read it
        bob.ok(f"/api/v1/games/{gid}/moves", {"move": his})
        assert kinds(alice)[0] == ("turn", gid, False)
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": hers})
    assert kinds(bob) == [("turn", gid, False), ("turn", other, True)]
    assert kinds(alice) == []  # her unread turns went as each turn passed to bob
    shown = listing(bob)
    assert shown["unread"] == 1


def test_a_challenge_and_the_result_reach_both_players(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1, "challenge": "bob"})["id"]
    challenge = listing(bob)["notifications"][0]
    assert (challenge["kind"], challenge["game_id"]) == ("challenge", gid)
    assert challenge["text"] == f"alice challenges you to game {gid}"
    assert kinds(alice) == []
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    alice.ok(f"/api/v1/games/{gid}/resign")
    won, lost = listing(bob)["notifications"][0], listing(alice)["notifications"][0]
    assert (won["kind"], won["data"]["outcome"], won["text"]) == (
        "finished",
        "win",
        f"Game {gid} has finished: you won",
    )
    assert (lost["kind"], lost["data"]["outcome"]) == ("finished", "loss")
    # the game is over: nobody keeps an unread "your turn" for it
    assert ("turn", gid, False) not in kinds(alice) + kinds(bob)
    assert [k for k, _, _ in kinds(bob)] == ["finished", "challenge"]


def test_the_user_socket_brings_each_new_notification(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    with client.websocket_connect(f"/api/v1/ws?token={bob.token}") as sock:
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
        # the notification is published before the move's dashboard ping: read up to that ping
        received = [sock.receive_json()]
        while received[-1]["t"] != "dashboard":
            received.append(sock.receive_json())
    told = [m["d"] for m in received if m["t"] == "notification"]
    assert told == [listing(bob)["notifications"][0]]
    assert told[0]["kind"] == "turn" and told[0]["read"] is False


def test_computers_and_practice_games_tell_nobody_and_guests_have_no_bell(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9})["id"]
    alice.ok(f"/api/v1/games/{gid}/resign")
    assert listing(alice) == {"notifications": [], "unread": 0, "next_before": None}
    visitor = client.post("/api/v1/practice", json={"size": 9})
    assert visitor.status_code < 300, visitor.text
    refused = client.get(LIST)
    assert refused.status_code == 403 and refused.json()["error"] == "guest", refused.text
    client.cookies.clear()
    assert client.get(LIST).status_code == 401


def store(client: TestClient, user_id: int, count: int) -> None:
    """`count` notifications stored as the bell stores them (notify/bell.tell), one at a time."""

    async def add() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            for _ in range(count):
                now = datetime(2026, 1, 1, tzinfo=UTC)
                row = notifications.new_row(user_id, "finished", None, {}, now)
                await notifications.store(await db.connection(), [row])
            await db.commit()

    client.portal.call(add)  # type: ignore[union-attr]


def test_pages_read_marks_and_the_cap(client: TestClient) -> None:
    alice = register(client, "alice")
    store(client, alice.user_id, notifications.KEEP + 5)
    everything = listing(alice, "?limit=100")
    ids = [n["id"] for n in everything["notifications"]]
    assert len(ids) == notifications.KEEP and everything["unread"] == notifications.KEEP
    assert ids == sorted(ids, reverse=True)
    assert listing(alice, "?limit=100&before=" + str(ids[-1]))["notifications"] == []  # the oldest 5 are gone
    first = listing(alice, "?limit=30")
    second = listing(alice, f"?limit=30&before={first['next_before']}")
    assert [n["id"] for n in first["notifications"] + second["notifications"]] == ids[:60]
    last = listing(alice, f"?limit=40&before={second['next_before']}")  # exactly the 40 left
    assert [n["id"] for n in last["notifications"]] == ids[60:] and last["next_before"] is None
    assert listing(alice, "?limit=0") == {"notifications": [], "unread": 100, "next_before": None}
    assert alice.ok(READ, {"id": ids[0]}) == {"ok": True, "marked": 1, "unread": 99}
    assert alice.ok(READ, {"up_to": ids[10]}) == {"ok": True, "marked": 90, "unread": 9}
    assert alice.ok(READ, {}) == {"ok": True, "marked": 9, "unread": 0}
    bob = register(client, "bob")
    store(client, bob.user_id, 1)
    assert bob.ok(READ, {"up_to": ids[0]})["marked"] == 0  # another user's ids mark nothing of bob's
    assert alice.ok(READ)["marked"] == 0 and listing(bob)["unread"] == 1


def test_opening_a_game_reads_its_notifications_only(client: TestClient) -> None:
    """The game page sends {"game": id} when a player opens it: that game's notifications are read, not
    another game's, and not another member's."""
    alice, bob = register(client, "alice"), register(client, "bob")
    first = alice.ok("/api/v1/games", {"size": 9, "team": 1, "challenge": "bob"})["id"]
    second = alice.ok("/api/v1/games", {"size": 9, "team": 1, "challenge": "bob"})["id"]
    assert alice.ok(READ, {"game": first}) == {"ok": True, "marked": 0, "unread": 0}  # bob's stay unread
    assert bob.ok(READ, {"game": first}) == {"ok": True, "marked": 1, "unread": 1}
    assert kinds(bob) == [("challenge", second, False), ("challenge", first, True)]
    assert bob.ok(READ, {"game": first})["marked"] == 0  # read already


def test_hostile_queries_and_bodies_answer_422(client: TestClient) -> None:
    alice = register(client, "alice")
    for query in (
        "limit=-1",
        f"limit={2**70}",
        "limit=101",
        "limit=1e400",
        "limit=abc",
        "limit=%00",
        "before=0",
        f"before={2**63}",
        "before=NaN",
        "before=%00",
    ):
        response = alice.get(f"{LIST}?{query}")
        assert response.status_code == 422, (query, response.text)
        assert response.json()["error"] == "bad_input"
    bodies = [
        '{"up_to": "1"}',
        '{"up_to": true}',
        '{"up_to": 1.5}',
        f'{{"up_to": {2**70}}}',
        '{"up_to": 1e400}',
        '{"up_to": NaN}',
        '{"up_to": 0}',
        '{"id": "\\u0000"}',
        '{"id": "\\ud800"}',
        '{"up_to": 1, "id": 1}',
        '{"game": 1, "id": 1}',
        '{"game": 0}',
        '{"game": "1"}',
        '{"game": null, "up_to": 1, "id": 2}',
        '{"everything": true}',
        "[]",
        '"all"',
        "{",
        json.dumps({"up_to": [1]}),
    ]
    for body in bodies:
        response = alice.client.post(
            READ, content=body.encode(), headers={**alice.headers, "Content-Type": "application/json"}
        )
        assert response.status_code == 422, (body, response.text)
        assert response.json()["error"] == "bad_input", body
    huge = alice.client.post(
        READ,
        content=b'{"up_to": ' + b"1" * 2_000_000 + b"}",
        headers={**alice.headers, "Content-Type": "application/json"},
    )
    assert huge.status_code == 413 and huge.json()["error"] == "too_large", huge.text


@pytest.fixture
def with_computers(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(database_url, tmp_path), background=False, chooser=centre_first)
    with TestClient(app) as test_client:
        yield test_client


def told_computers(client: TestClient) -> int:
    async def count() -> int:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            query = select(Notification.id).join(User, User.id == Notification.user_id)
            return len((await db.execute(query.where(User.is_bot.is_(True)))).all())

    told: int = client.portal.call(count)  # type: ignore[union-attr]
    return told


def test_a_computer_seat_is_never_told(with_computers: TestClient) -> None:
    client = with_computers
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "A1"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "J9"})
    settle(client)
    alice.ok(f"/api/v1/games/{gid}/resign")
    bob.ok(f"/api/v1/games/{gid}/resign")
    settle(client)
    assert alice.get(f"/api/v1/games/{gid}").json()["status"] == "finished"
    assert [k for k, _, _ in kinds(alice)] == ["finished"] and [k for k, _, _ in kinds(bob)] == ["finished"]
    assert told_computers(client) == 0


def test_a_move_refused_at_its_store_tells_nobody(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The notification is stored with the move's writes: when another process has moved one game on, that
    game's move is not stored and its "your turn" is not either; the other games' are."""

    async def turns_of(service: Any, user: User) -> list[int | None]:
        async with service.stream.sessions() as db:
            return [n.game_id for n in await notifications.newest(db, user.id, 10, None) if n.kind == "turn"]

    async def work(url: str) -> None:
        async with started_games(url) as (service, engine, games):
            victim = games[3][0]
            another_process_moves_on(monkeypatch, engine, victim, by=5, grouped=True)
            answers = await asyncio.gather(
                *(service.moves.move(b, g, "E5") for g, b, _ in games), return_exceptions=True
            )
            for (game_id, _black, white), answer in zip(games, answers, strict=True):
                assert isinstance(answer, Stale) == (game_id == victim)
                assert await turns_of(service, white) == ([] if game_id == victim else [game_id])

    asyncio.run(work(database_url))


def test_a_players_turn_notice_replaced_by_anothers_notification_nudges_their_bell(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storing a notification about a game removes its unread "your turn", whoever it was for: that user's
    socket hears of it (a `dashboard` nudge, on which js/bell.js re-reads the count), once, even from a
    command that pings nobody itself."""
    from miai.server.notify import bell
    from miai.server.realtime.hub import Message

    async def unread(service: Any, user: User) -> int:
        async with service.stream.sessions() as db:
            return await notifications.unread_count(db, user.id)

    async def work(url: str) -> None:
        async with started_games(url) as (service, _engine, games):
            game_id, black, white = games[0]
            published: list[Message] = []
            real_publish = service.stream.hub.publish

            async def record(message: Message) -> None:
                published.append(message)
                await real_publish(message)

            monkeypatch.setattr(service.stream.hub, "publish", record)
            await service.moves.move(black, game_id, "E5")  # black's turn notice goes, white's comes
            nudges = [m.topic for m in published if m.t == "dashboard"]
            assert sorted(nudges) == sorted([f"user:{black.id}", f"user:{white.id}"])  # one each
            assert (await unread(service, black), await unread(service, white)) == (0, 1)
            published.clear()
            async with service.stream.command(game_id) as tx:  # tells black only, nudges nobody
                tx.changes["deadline_at"] = tx.game.deadline_at
                row = bell.row_for(black, bell.FINISHED, tx.game, service.stream.now())
                assert row is not None
                tx.notifications.append(row)
            assert (await unread(service, black), await unread(service, white)) == (1, 0)
            nudge = Message(f"user:{white.id}", "dashboard", {"game_id": game_id})
            assert [m for m in published if m.topic == f"user:{white.id}"] == [nudge]
            assert [m.t for m in published if m.topic == f"user:{black.id}"] == ["notification"]

    asyncio.run(work(database_url))


def test_a_thousand_players_told_of_one_game_at_once_are_stored(client: TestClient) -> None:
    """One batch telling 1,000 (player, game) pairs: the old query had a term per pair, which SQLite refuses
    past 1,000 ("Expression tree is too large"), failing the whole batch of moves."""
    from sqlalchemy import func, insert

    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)

    async def tell_many() -> int:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            now = datetime(2026, 1, 1, tzinfo=UTC)
            users = [
                {"username": f"crowd{n}", "password_hash": "x", "settings": {}, "created_at": now}
                for n in range(1000)
            ]
            ids = list((await db.execute(insert(User).returning(User.id), users)).scalars())
            rows = [notifications.new_row(user_id, notifications.TURN, gid, {}, now) for user_id in ids]
            await notifications.store(await db.connection(), rows)
            await db.commit()
            query = select(func.count()).where(Notification.game_id == gid, Notification.user_id.in_(ids))
            return int((await db.execute(query)).scalar_one())

    assert client.portal.call(tell_many) == 1000  # type: ignore[union-attr]
