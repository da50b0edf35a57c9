"""Seats never stall or overfill, and computers never keep a game open alone (issue #24 item 6).

Decided: a game needs a person. When the last person leaves before the start (or is removed unconfirmed),
the game is cancelled with the reason `no_players`; computers are added only by a creator who is in the game.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from miai.server.realtime.hub import Message
from miai.server.storage.models import Game
from tests.server.conftest import FakeClock, Player, register, run_scheduler
from tests.server.test_computer_games import client, settle  # noqa: F401  (the fixture)


def snapshot(player: Player, gid: int) -> dict[str, object]:
    return player.get(f"/api/v1/games/{gid}").json()  # type: ignore[no-any-return]


def lobby_ids(player: Player) -> list[int]:
    return [g["id"] for g in player.get("/api/v1/games").json()["games"]]


def test_the_reported_stall_computers_left_alone_cancel_the_game(client: TestClient) -> None:  # noqa: F811
    """The report: computers for teams 2 and 3, the creator leaves, adds one for team 1 (all answered 200),
    and the game sat in `waiting` with 3 of 3 seats, open to a fourth player."""
    alice, dave = register(client, "alice"), register(client, "dave")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 2, "level": 1})
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 1})
    assert snapshot(alice, gid)["status"] == "confirming"
    alice.ok(f"/api/v1/games/{gid}/leave")
    after = snapshot(alice, gid)
    assert after["status"] == "cancelled"
    assert after["cancelled"] == {"reason": "no_players"}
    assert gid not in lobby_ids(dave)
    refused = alice.post(f"/api/v1/games/{gid}/computer", {"team": 1, "level": 1})
    assert refused.status_code == 409
    assert dave.post(f"/api/v1/games/{gid}/join", {}).status_code == 409
    assert len(snapshot(alice, gid)["players"]) == 2  # type: ignore[arg-type]


def test_leaving_a_game_that_holds_only_a_computer_cancels_it(client: TestClient) -> None:  # noqa: F811
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 2, "level": 3})
    assert gid in lobby_ids(bob)
    alice.ok(f"/api/v1/games/{gid}/leave")
    assert snapshot(bob, gid)["status"] == "cancelled"
    assert gid not in lobby_ids(bob)


def test_computers_are_added_only_by_a_creator_in_the_game(client: TestClient) -> None:  # noqa: F811
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/leave")  # bob keeps the game open
    assert snapshot(bob, gid)["status"] == "waiting"
    answer = alice.post(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 1})
    assert answer.status_code == 409
    assert "join your game" in answer.json()["message"]


def test_a_computer_confirms_again_whenever_the_game_is_back_to_confirming(
    client: TestClient,  # noqa: F811
) -> None:
    alice, bob, carol = (register(client, n) for n in ("alice", "bob", "carol"))
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 1})
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    bob.ok(f"/api/v1/games/{gid}/leave")  # back to waiting: every confirmation is reset
    carol.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    snap = snapshot(alice, gid)
    assert snap["status"] == "confirming"
    assert [p["confirmed"] for p in snap["players"]] == [False, True, False]  # type: ignore[union-attr,index]
    alice.ok(f"/api/v1/games/{gid}/confirm")
    carol.ok(f"/api/v1/games/{gid}/confirm")
    assert snapshot(alice, gid)["status"] == "active"
    settle(client)


def test_a_join_never_takes_more_seats_than_the_game_has(client: TestClient) -> None:  # noqa: F811
    """Every join path, with and without a team, on a game whose seats are all taken."""
    users = [register(client, f"user{i}") for i in range(4)]
    gid = users[0].ok("/api/v1/games", {"size": 9, "teams": 3})["id"]
    users[1].ok(f"/api/v1/games/{gid}/join", {})
    users[2].ok(f"/api/v1/games/{gid}/join", {})
    for body in ({}, {"team": 1}, {"team": 3}):
        assert users[3].post(f"/api/v1/games/{gid}/join", body).status_code == 409
    assert len(snapshot(users[0], gid)["players"]) == 3  # type: ignore[arg-type]


def test_nobody_confirming_cancels_the_game_instead_of_leaving_it_empty_in_the_lobby(
    timed_client: TestClient,
    clock: FakeClock,
) -> None:
    alice, bob = register(timed_client, "alice"), register(timed_client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {})
    clock.advance(121)
    run_scheduler(timed_client)
    after = snapshot(alice, gid)
    assert after["status"] == "cancelled" and after["players"] == []
    assert after["cancelled"] == {"reason": "no_players"}
    assert gid not in lobby_ids(alice)


def test_computers_are_shown_by_engine_and_level(client: TestClient) -> None:  # noqa: F811
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 2, "level": 3})
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 3})
    names = [p["name"] for p in snapshot(alice, gid)["players"]]  # type: ignore[union-attr]
    assert names == ["alice", "Miai, level 3", "Miai, level 3"]


def test_a_refused_computer_seat_stores_nothing(client: TestClient) -> None:  # noqa: F811
    """Found by attack: a computer refused for a full or missing team still left a `computer_added` event."""
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    before = alice.get(f"/api/v1/games/{gid}/events").json()
    assert alice.post(f"/api/v1/games/{gid}/computer", {"team": 5, "level": 1}).status_code == 422
    assert alice.post(f"/api/v1/games/{gid}/computer", {"team": 1, "level": 1}).status_code == 409
    assert alice.get(f"/api/v1/games/{gid}/events").json() == before
    assert len(snapshot(alice, gid)["players"]) == 1  # type: ignore[arg-type]


def test_records_name_computers_by_engine_and_level(client: TestClient) -> None:  # noqa: F811
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 2})["id"]
    sgf = alice.get(f"/api/v1/games/{gid}/sgf").content
    assert b"PB[alice]" in sgf and b"PW[Miai, level 2]" in sgf


def test_the_seat_cap_holds_even_in_a_waiting_game_with_every_seat_taken(client: TestClient) -> None:  # noqa: F811
    """The reported overfill: a game back in `waiting` with all its seats taken (old data can hold one)."""
    users = [register(client, f"user{i}") for i in range(4)]
    gid = users[0].ok("/api/v1/games", {"size": 9, "teams": 3})["id"]
    users[1].ok(f"/api/v1/games/{gid}/join", {})
    users[2].ok(f"/api/v1/games/{gid}/join", {})

    async def back_to_waiting() -> None:  # as another server process of an older version could have left it
        state = client.app.state  # type: ignore[attr-defined]
        async with state.sessions() as db:
            moved = update(Game).where(Game.id == gid).values(status="waiting", version=Game.version + 1)
            await db.execute(moved)
            version = (await db.execute(select(Game.version).where(Game.id == gid))).scalar_one()
            await db.commit()
        state.games.stream.forget_if_moved_on(Message(f"game:{gid}", "moved", {}, version))

    client.portal.call(back_to_waiting)  # type: ignore[attr-defined]
    refused = users[3].post(f"/api/v1/games/{gid}/join", {})
    assert refused.status_code == 409 and refused.json()["message"] == "the game is full"
    assert len(snapshot(users[0], gid)["players"]) == 3  # type: ignore[arg-type]
