"""Seat order (SPEC G17) and lobby hygiene (issue 16): players placed when the game fills sit after those who
chose their team; removed players are told why; challenges are marked as such; no empty game stays waiting."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from miai.server.storage.db import make_engine
from miai.server.storage.models import GamePlayer
from tests.server.conftest import FakeClock, Player, register, run_scheduler, upgrade_to


def snapshot(player: Player, gid: int) -> dict[str, object]:
    return player.get(f"/api/v1/games/{gid}").json()  # type: ignore[no-any-return]


def seats_of(player: Player, gid: int) -> dict[str, tuple[object, object]]:
    return {p["username"]: (p["team"], p["seat"]) for p in snapshot(player, gid)["players"]}  # type: ignore[attr-defined]


def four_players(client: TestClient) -> tuple[int, list[Player]]:
    """alice (team 1), bob (any team), carol (team 1), dave (team 2): bob can only go to team 2."""
    alice, bob, carol, dave = (register(client, n) for n in ("alice", "bob", "carol", "dave"))
    gid = alice.ok("/api/v1/games", {"size": 9, "players_per_team": 2, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {})
    carol.ok(f"/api/v1/games/{gid}/join", {"team": 1})
    return gid, [alice, bob, carol, dave]


def test_a_player_placed_when_the_game_fills_plays_after_those_who_chose_the_team(client: TestClient) -> None:
    """The report: bob chose "any team" before dave chose team 2, and took dave's turn in the rotation."""
    gid, (alice, bob, carol, dave) = four_players(client)
    assert seats_of(alice, gid)["bob"] == (None, None)  # not placed before the game fills
    dave.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    assert seats_of(alice, gid) == {"alice": (1, 0), "carol": (1, 1), "dave": (2, 0), "bob": (2, 1)}
    for p in (alice, bob, carol, dave):
        p.ok(f"/api/v1/games/{gid}/confirm")
    by_id = {p.user_id: p for p in (alice, bob, carol, dave)}
    order = []
    for vertex in ("A1", "C1", "E1", "G1", "A3"):
        on_move = by_id[snapshot(alice, gid)["to_move"]["user_id"]]  # type: ignore[index]
        order.append(on_move.username)
        on_move.ok(f"/api/v1/games/{gid}/moves", {"move": vertex})
    assert order == ["alice", "dave", "carol", "bob", "alice"]


def test_the_order_holds_when_the_game_fills_again(client: TestClient) -> None:
    """Placed at the first fill, bob stays after dave when carol leaves and erin takes her seat."""
    gid, (alice, _bob, carol, dave) = four_players(client)
    dave.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    carol.ok(f"/api/v1/games/{gid}/leave")
    register(client, "erin").ok(f"/api/v1/games/{gid}/join", {"team": 1})
    assert snapshot(alice, gid)["status"] == "confirming"
    assert seats_of(alice, gid) == {"alice": (1, 0), "erin": (1, 1), "dave": (2, 0), "bob": (2, 1)}


def test_a_player_removed_unconfirmed_is_told_why_on_the_game_and_the_dashboard(
    timed_client: TestClient, clock: FakeClock
) -> None:
    alice, bob = register(timed_client, "alice"), register(timed_client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    assert bob.get("/api/v1/dashboard").json()["removals"] == []
    clock.advance(121)
    run_scheduler(timed_client)
    removed = {"game_id": gid, "reason": "unconfirmed", "window": 120.0, "at": clock().isoformat()}
    assert snapshot(bob, gid)["removed"] == removed
    assert bob.get("/api/v1/dashboard").json()["removals"] == [removed]
    assert snapshot(alice, gid)["removed"] is None  # she confirmed and is still in the game
    assert alice.get("/api/v1/dashboard").json()["removals"] == []
    # Back in the game, bob is no longer told he was removed from it.
    bob.ok(f"/api/v1/games/{gid}/join", {})
    assert snapshot(bob, gid)["removed"] is None
    assert bob.get("/api/v1/dashboard").json()["removals"] == []


def test_a_player_removed_twice_from_a_game_is_told_once(timed_client: TestClient, clock: FakeClock) -> None:
    alice, bob = register(timed_client, "alice"), register(timed_client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    for _ in range(2):  # bob joins, does not confirm, is removed; and once more
        bob.ok(f"/api/v1/games/{gid}/join", {})
        alice.ok(f"/api/v1/games/{gid}/confirm")
        clock.advance(121)
        run_scheduler(timed_client)
    removals = bob.get("/api/v1/dashboard").json()["removals"]
    assert [(r["game_id"], r["at"]) for r in removals] == [(gid, clock().isoformat())]  # the latest
    assert snapshot(bob, gid)["removed"]["at"] == clock().isoformat()  # type: ignore[index]


def test_the_dashboard_forgets_a_removal_after_a_week(timed_client: TestClient, clock: FakeClock) -> None:
    alice, bob = register(timed_client, "alice"), register(timed_client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {})
    clock.advance(121)
    run_scheduler(timed_client)  # nobody confirmed: both removed, the game cancelled
    assert snapshot(alice, gid)["status"] == "cancelled"
    assert [r["game_id"] for r in alice.get("/api/v1/dashboard").json()["removals"]] == [gid]
    clock.advance(7 * 86400 + 1)
    assert alice.get("/api/v1/dashboard").json()["removals"] == []
    assert snapshot(alice, gid)["removed"]["reason"] == "unconfirmed"  # type: ignore[index]


def test_a_public_challenge_is_listed_as_one_for_its_player(client: TestClient) -> None:
    alice, bob, carol = (register(client, n) for n in ("alice", "bob", "carol"))
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1, "challenge": "bob"})["id"]
    for viewer in (bob, carol):
        (row,) = [g for g in viewer.get("/api/v1/games").json()["games"] if g["id"] == gid]
        assert (row["challenge_to"], row["challenge_to_name"]) == (bob.user_id, "bob")
        assert snapshot(viewer, gid)["challenge_to_name"] == "bob"
    assert carol.post(f"/api/v1/games/{gid}/join", {}).status_code == 403
    bob.ok(f"/api/v1/games/{gid}/join", {})
    assert snapshot(carol, gid)["challenge_to_name"] is None  # accepted: no longer a challenge


def test_migration_0010_cancels_games_left_waiting_with_nobody(empty_database_url: str) -> None:
    """Servers before `no_players` put a game whose players were all removed back to waiting, empty."""

    def old_data(connection: sa.Connection) -> None:
        upgrade_to(connection, "0009")
        with Session(bind=connection) as db:
            now = datetime.now(UTC)
            # users as of 0009, in SQL: the model has columns of later revisions
            db.execute(
                sa.text(
                    "INSERT INTO users (id, username, password_hash, is_admin, is_bot, settings, created_at)"
                    " VALUES (1, 'alice', 'x', false, false, '{}', :now)"
                ),
                {"now": now},
            )
            for gid, version in ((1, 5), (2, 1)):  # games as of 0009, in SQL too
                db.execute(
                    sa.text(
                        "INSERT INTO games (id, kind, status, created_by, created_at, options, visibility,"
                        " version, plies, clocks, to_move, draw_offers, result_history, redo)"
                        " VALUES (:id, 'go', 'waiting', 1, :now, '{}', 'public', :version, 0, '{}', '{}',"
                        " '[]', '[]', '[]')"
                    ),
                    {"id": gid, "now": now, "version": version},
                )
            db.flush()
            db.add(GamePlayer(game_id=2, user_id=1, joined_seq=1))  # game 2 still has a player
            db.commit()

    async def scenario() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        engine = make_engine(empty_database_url)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(old_data)
            async with engine.begin() as connection:
                await connection.run_sync(lambda c: upgrade_to(c, "head"))
                games = await connection.execute(sa.text("SELECT id, status, version FROM games ORDER BY id"))
                events = await connection.execute(sa.text("SELECT game_id, v, type, data FROM game_events"))
                return [tuple(r) for r in games], [tuple(e) for e in events]
        finally:
            await engine.dispose()

    games, events = asyncio.run(scenario())
    assert games == [(1, "cancelled", 6), (2, "waiting", 1)]
    assert [e[:3] for e in events] == [(1, 6, "cancelled")]
    data = events[0][3]
    assert (json.loads(data) if isinstance(data, str) else data)["reason"] == "no_players"
