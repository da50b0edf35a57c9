"""Confirmation windows, clocks, draws, challenges and matches, with an injected clock."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import FakeClock, Player, register, run_scheduler


def snapshot(player: Player, gid: int) -> dict[str, object]:
    return player.get(f"/api/v1/games/{gid}").json()  # type: ignore[no-any-return]


def test_unconfirmed_players_are_removed_when_the_window_closes(
    timed_client: TestClient, clock: FakeClock
) -> None:
    alice, bob, carol = (register(timed_client, n) for n in ("alice", "bob", "carol"))
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {})  # no team chosen: assigned when the game fills
    assert snapshot(alice, gid)["status"] == "confirming"
    assert {p["team"] for p in snapshot(alice, gid)["players"]} == {1, 2}  # type: ignore[attr-defined]
    alice.ok(f"/api/v1/games/{gid}/confirm")
    clock.advance(60)
    run_scheduler(timed_client)
    assert snapshot(alice, gid)["status"] == "confirming"  # the window is still open
    clock.advance(61)
    run_scheduler(timed_client)
    after = snapshot(alice, gid)
    assert after["status"] == "waiting"
    assert [p["username"] for p in after["players"]] == ["alice"]  # type: ignore[attr-defined]
    carol.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    assert snapshot(alice, gid)["status"] == "confirming"


def start(client: TestClient, **options: object) -> tuple[int, Player, Player]:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "preset": "chinese", "team": 1, **options})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    return gid, alice, bob


def test_per_move_limit_timeout_ends_a_two_player_game(timed_client: TestClient, clock: FakeClock) -> None:
    gid, alice, _bob = start(timed_client, seconds_per_move=30)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    clock.advance(29)
    run_scheduler(timed_client)
    assert snapshot(alice, gid)["status"] == "active"
    clock.advance(2)
    run_scheduler(timed_client)
    final = snapshot(alice, gid)
    assert final["status"] == "finished"
    assert final["result"]["winners"] == [1]  # type: ignore[index]
    assert final["result"]["reason"] == "timeout"  # type: ignore[index]


def test_fischer_clock_adds_the_increment(timed_client: TestClient, clock: FakeClock) -> None:
    gid, alice, _bob = start(timed_client, seconds_per_move=600, clock="fischer", main_time=100, increment=10)
    clock.advance(30)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    assert snapshot(alice, gid)["clocks"]["1"]["main"] == 80  # type: ignore[index]
    clock.advance(105)  # bob has 100 s of main time: over
    run_scheduler(timed_client)
    assert snapshot(alice, gid)["status"] == "finished"


def test_byoyomi_periods(timed_client: TestClient, clock: FakeClock) -> None:
    gid, alice, _bob = start(
        timed_client, seconds_per_move=600, clock="byoyomi", main_time=10, periods=3, period_time=20
    )
    clock.advance(35)  # main time used up, then one full period and part of the next
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    assert snapshot(alice, gid)["clocks"]["1"] == {"main": 0.0, "periods": 2}  # type: ignore[index]
    deadline = datetime.fromisoformat(str(snapshot(alice, gid)["deadline"]))
    assert deadline == clock() + timedelta(seconds=10 + 3 * 20)  # bob still has main + 3 periods


def test_agreed_draw_needs_every_remaining_team(timed_client: TestClient) -> None:
    users = [register(timed_client, f"user{i}") for i in range(3)]
    gid = users[0].ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    users[1].ok(f"/api/v1/games/{gid}/join", {"team": 2})
    users[2].ok(f"/api/v1/games/{gid}/join", {"team": 3})
    for user in users:
        user.ok(f"/api/v1/games/{gid}/confirm")
    users[0].ok(f"/api/v1/games/{gid}/draw", {"accept": True})
    users[1].ok(f"/api/v1/games/{gid}/draw", {"accept": True})
    assert snapshot(users[0], gid)["status"] == "active"
    users[2].ok(f"/api/v1/games/{gid}/draw", {"accept": True})
    final = snapshot(users[0], gid)
    assert final["status"] == "finished"
    assert final["result"]["ranking"] == [[1, 2, 3]]  # type: ignore[index]
    assert final["result"]["reason"] == "agreed_draw"  # type: ignore[index]


def test_draw_is_refused_in_two_colour_games(timed_client: TestClient) -> None:
    gid, alice, _ = start(timed_client)
    assert alice.post(f"/api/v1/games/{gid}/draw", {"accept": True}).status_code == 409


def test_challenge_accept_decline_and_swap_match(timed_client: TestClient) -> None:
    alice, bob, carol = (register(timed_client, n) for n in ("alice", "bob", "carol"))
    created = alice.ok("/api/v1/games", {"size": 9, "challenge": "bob", "swap_match": True})
    first, second = created["games"]
    assert carol.post(f"/api/v1/games/{first}/join", {}).status_code == 403
    challenges = bob.get("/api/v1/dashboard").json()["challenges"]
    assert {c["id"] for c in challenges} == {first, second}
    bob.ok(f"/api/v1/games/{first}/join", {})
    bob.ok(f"/api/v1/games/{second}/join", {})
    teams = {
        gid: {p["username"]: p["team"] for p in snapshot(alice, gid)["players"]}  # type: ignore[attr-defined]
        for gid in (first, second)
    }
    assert teams[first] == {"alice": 1, "bob": 2}
    assert teams[second] == {"alice": 2, "bob": 1}  # colours swap in the second game
    assert snapshot(alice, first)["match_id"] == snapshot(alice, second)["match_id"]
    third = alice.ok("/api/v1/games", {"size": 9, "challenge": "carol"})["id"]
    carol.ok(f"/api/v1/games/{third}/decline")
    assert snapshot(alice, third)["status"] == "cancelled"


def test_private_challenge_can_be_seen_and_accepted_by_the_challenged(timed_client: TestClient) -> None:
    alice, bob, eve = (register(timed_client, n) for n in ("alice", "bob", "eve"))
    gid = alice.ok("/api/v1/games", {"size": 9, "challenge": "bob", "visibility": "private"})["id"]
    challenge = bob.get("/api/v1/dashboard").json()["challenges"][0]
    assert challenge["from_username"] == "alice"
    assert challenge["invite_code"]
    assert bob.get(f"/api/v1/games/{gid}").status_code == 200
    assert eve.get(f"/api/v1/games/{gid}").status_code == 403
    bob.ok(f"/api/v1/games/{gid}/join", {})
    assert snapshot(alice, gid)["status"] == "confirming"


def test_presets_are_listed(timed_client: TestClient) -> None:
    presets = {p["key"]: p for p in timed_client.get("/api/v1/presets").json()["presets"]}
    assert presets["dgo"]["sizes"] == [7, 9, 13, 19]
    assert presets["dipgo"]["max_colours"] == 16


def test_a_teammate_does_not_get_a_clock_that_ran_out_back(
    timed_client: TestClient, clock: FakeClock
) -> None:
    """Found by review: a player who timed out left the team's clock untouched, so the next player of the
    team started with the whole main time again. The team's clock is the team's: what was used is gone."""
    ann, ben, cat, dan = (register(timed_client, name) for name in ("ann", "ben", "cat", "dan"))
    fischer = {"clock": "fischer", "main_time": 60, "increment": 5, "seconds_per_move": 600}
    gid = ann.ok("/api/v1/games", {"size": 9, "players_per_team": 2, "team": 1, **fischer})["id"]
    for user, team in ((ben, 2), (cat, 1), (dan, 2)):
        user.ok(f"/api/v1/games/{gid}/join", {"team": team})
    for user in (ann, ben, cat, dan):
        user.ok(f"/api/v1/games/{gid}/confirm")
    clock.advance(61)  # ann (team 1, seat 0) lets the team's 60 s run out
    run_scheduler(timed_client)
    snap = snapshot(ann, gid)
    assert snap["status"] == "active"  # cat plays on for team 1 ...
    assert snap["clocks"]["1"] == {"main": 0, "periods": 0}  # type: ignore[index]  # ... with no time left
    clock.advance(1)
    run_scheduler(timed_client)  # so cat's turn is over at once, and with it team 1
    final = snapshot(ann, gid)
    assert final["status"] == "finished" and final["result"]["winners"] == [2]  # type: ignore[index]


def test_a_move_after_the_deadline_is_a_timeout_even_before_the_scheduler_runs(
    timed_client: TestClient, clock: FakeClock
) -> None:
    """Found by attack: a move that arrived after its deadline, before the deadline loop's next round, was
    accepted (and in Fischer even earned the increment)."""
    gid, alice, _bob = start(timed_client, seconds_per_move=30)
    clock.advance(31)
    late = alice.post(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    assert late.status_code == 409 and "time ran out" in late.json()["message"]
    final = snapshot(alice, gid)
    assert final["status"] == "finished" and final["result"]["reason"] == "timeout"  # type: ignore[index]
    assert [m["move"] for m in final["moves"]] == ["timeout"]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "clock_options",
    [
        {"clock": "byoyomi", "main_time": 0, "periods": 1, "period_time": 5e-324},
        {"clock": "byoyomi", "main_time": 0.2, "periods": 3, "period_time": 30},
        {"clock": "fischer", "main_time": 0.0004, "increment": 100},
    ],
)
def test_clocks_of_less_than_a_second_are_refused(
    timed_client: TestClient, clock_options: dict[str, object]
) -> None:
    """Found by attack: a period of 5e-324 s made a late move answer 500, and sub-second clocks were written
    to records that no reader (ours included) could read back."""
    alice = register(timed_client, "alice")
    answer = alice.post("/api/v1/games", {"size": 9, "seconds_per_move": 60, **clock_options})
    assert answer.status_code == 422 and answer.json()["error"] == "bad_options"
