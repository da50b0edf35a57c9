"""Review finds on finding games (docs/api.md, "Finding games and players"): `since` / `until` with an
offset compare as the same instant on SQLite as on PostgreSQL, practice games stay out of a record, and the
live list and the archive read their shared filters alike."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient

from tests.server.conftest import Player, register
from tests.server.test_finding import ids, new_game


def finished_game(winner: Player, loser: Player) -> tuple[int, datetime]:
    gid = new_game(winner, loser)
    winner.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    loser.ok(f"/api/v1/games/{gid}/resign", {})
    finished = winner.get(f"/api/v1/games/archive?user={winner.username}").json()["games"][0]
    assert finished["id"] == gid
    return gid, datetime.fromisoformat(finished["finished_at"])


def archive_between(client: TestClient, **moments: datetime) -> list[int]:
    query = "&".join(f"{name}={quote(moment.isoformat())}" for name, moment in moments.items())
    return ids(client.get(f"/api/v1/games/archive?{query}"))


def test_since_and_until_with_an_offset_are_the_same_instant_on_every_database(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid, finished = finished_game(ann, bob)
    east, west = timezone(timedelta(hours=5)), timezone(timedelta(hours=-5))
    just_before, just_after = finished - timedelta(minutes=1), finished + timedelta(minutes=1)
    # the same instants written in other zones: 12:00 UTC is 17:00+05:00 and 07:00-05:00
    assert archive_between(client, since=just_before.astimezone(east)) == [gid]
    assert archive_between(client, since=just_before.astimezone(west)) == [gid]
    assert archive_between(client, until=just_after.astimezone(west)) == [gid]
    assert archive_between(client, until=just_after.astimezone(east)) == [gid]
    assert archive_between(client, since=just_after.astimezone(west)) == []
    assert archive_between(client, until=just_before.astimezone(east)) == []
    naive_utc = just_before.replace(tzinfo=None)  # no offset: UTC
    assert archive_between(client, since=naive_utc) == [gid]


def test_an_archive_cursor_with_an_offset_pages_from_the_same_instant(client: TestClient) -> None:
    """A cursor is the server's own text, but one written with an offset (-05:00) must still mean the
    instant it names: the page after it holds the games finished before that instant."""
    import base64

    ann, bob = register(client, "ann"), register(client, "bob")
    first, when = finished_game(ann, bob)
    second, _ = finished_game(bob, ann)
    later = (when + timedelta(seconds=1)).astimezone(timezone(timedelta(hours=-5)))
    text = f"{later.isoformat()}|{second + 1}"
    cursor = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    assert first in ids(client.get(f"/api/v1/games/archive?cursor={cursor}"))


def test_practice_games_are_no_part_of_a_profiles_record(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    finished_game(ann, bob)
    local = ann.ok("/api/v1/practice", {"size": 9, "mode": "local"})["id"]
    ann.ok(f"/api/v1/games/{local}/resign", {})
    against_computer = {"size": 9, "mode": "computer", "level": 1, "colour": "black"}
    computer = ann.ok("/api/v1/practice", against_computer)["id"]
    ann.ok(f"/api/v1/games/{computer}/resign", {})
    for gid in (local, computer):
        assert ann.get(f"/api/v1/games/{gid}").json()["status"] == "finished"
    profile: dict[str, Any] = client.get("/api/v1/users/ann").json()
    assert profile["record"] == {"go": {"win": 1, "loss": 0, "draw": 0}}


def test_practice_games_are_in_the_players_own_archive_but_not_their_record(client: TestClient) -> None:
    """A practice game is the player's own (private): in their archive and recent games, where a guest who
    signs up finds the game they played, but not in the record of wins and losses, nor seen by others."""
    ann, bob = register(client, "ann"), register(client, "bob")
    won, _ = finished_game(ann, bob)
    local = ann.ok("/api/v1/practice", {"size": 9, "mode": "local"})["id"]
    ann.ok(f"/api/v1/games/{local}/resign", {})
    assert ann.get(f"/api/v1/games/{local}").json()["status"] == "finished"
    assert ids(ann.get("/api/v1/games/archive?user=ann")) == [local, won]
    assert ids(bob.get("/api/v1/games/archive?user=ann")) == [won]
    assert [g["id"] for g in bob.get("/api/v1/users/ann").json()["recent"]] == [won]
    profile: dict[str, Any] = ann.get("/api/v1/users/ann").json()
    assert [g["id"] for g in profile["recent"]] == [local, won]
    assert profile["record"] == {"go": {"win": 1, "loss": 0, "draw": 0}}
