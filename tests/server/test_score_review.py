"""Players flag wrongly scored games; administrators correct the dead stones and the result is recorded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from miai.server.identity.admins import set_admin
from tests.server.conftest import Player, make_settings, register


@pytest.fixture
def admin_client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(database_url, tmp_path), background=False)
    with TestClient(app) as client:
        yield client


def grant_admin(client: TestClient, name: str) -> None:
    """What the operator's `miai admin grant NAME` does, on the running server's database."""
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    client.portal.call(set_admin, url, name, True)  # type: ignore[union-attr]


def register_root(client: TestClient) -> Player:
    root = register(client, "root")
    grant_admin(client, "root")
    return root


def test_flag_and_correct_dead_stones(admin_client: TestClient) -> None:
    alice, bob = register(admin_client, "alice"), register(admin_client, "bob")
    root = register_root(admin_client)
    gid = alice.ok("/api/v1/games", {"size": 9, "preset": "chinese", "team": 1, "komi": [0.5]})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    for move in ["E5", "A1", "pass", "pass"]:  # White's A1 is dead inside Black's area
        mover = (
            alice
            if move in {"E5", "pass"}
            and alice.get(f"/api/v1/games/{gid}").json()["to_move"]["user_id"] == alice.user_id
            else bob
        )
        mover.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    game = alice.get(f"/api/v1/games/{gid}").json()
    assert game["status"] == "finished"
    assert bob.post(f"/api/v1/games/{gid}/flag", {"comment": ""}).status_code == 422
    outsider = register(admin_client, "eve")
    assert outsider.post(f"/api/v1/games/{gid}/flag", {"comment": "?"}).status_code == 403
    alice.ok(f"/api/v1/games/{gid}/flag", {"comment": "A1 is dead"})
    assert alice.get("/api/v1/admin/flags").status_code == 403
    flags = root.get("/api/v1/admin/flags").json()["flags"]
    assert [f["game_id"] for f in flags] == [gid]
    assert flags[0]["position"]["board"][0] == 2
    assert alice.post(f"/api/v1/admin/games/{gid}/dead-stones", {"dead": ["A1"]}).status_code == 403
    assert root.post(f"/api/v1/admin/games/{gid}/dead-stones", {"dead": ["B2"]}).status_code == 422
    corrected = root.ok(f"/api/v1/admin/games/{gid}/dead-stones", {"dead": ["A1"], "note": "A1 has no eyes"})
    result = corrected["result"]
    assert result["dead"] == ["A1"]
    assert result["corrected_by"] == "root"
    assert {s["team"]: s["total"] for s in result["scores"]} == {1: 81.0, 2: 0.5}
    assert result["winners"] == [1]
    game = alice.get(f"/api/v1/games/{gid}").json()
    assert game["result"]["corrected_by"] == "root"
    assert root.get("/api/v1/admin/flags").json()["flags"] == []

    # The review page's view of the game: every flag with its resolution, and the result it replaced.
    assert alice.get(f"/api/v1/admin/games/{gid}").status_code == 403
    assert root.get("/api/v1/admin/games/9999").status_code == 404
    review = root.get(f"/api/v1/admin/games/{gid}").json()
    assert review["result"]["dead"] == ["A1"]
    assert review["position"]["board"][0] == 2
    [flag] = review["flags"]
    assert (flag["comment"], flag["by"], flag["resolved_by"]) == ("A1 is dead", "alice", "root")
    assert flag["resolution"] == "A1 has no eyes"
    assert flag["at"].endswith("+00:00") and flag["resolved_at"]
    [earlier] = review["result_history"]
    assert earlier["replaced_by"] == "root"
    assert earlier["reason"] == "passes" and "corrected_by" not in earlier


def test_all_alive_games_cannot_be_corrected(admin_client: TestClient) -> None:
    alice, bob = register(admin_client, "alice"), register(admin_client, "bob")
    root = register_root(admin_client)
    gid = alice.ok("/api/v1/games", {"size": 9, "preset": "tromp-taylor", "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "A1"})
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "pass"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "pass"})
    response = root.post(f"/api/v1/admin/games/{gid}/dead-stones", {"dead": ["A1"]})
    assert response.status_code == 409
    assert "alive" in response.json()["message"]


def test_logging_in_tells_the_page_who_is_an_administrator(admin_client: TestClient) -> None:
    """The browser draws the Admin link from the user in the log-in answer, not only from GET /me."""
    for name, admin in (("root", True), ("alice", False)):
        made = admin_client.post("/api/v1/accounts", json={"username": name, "password": "correct horse"})
        assert made.json()["user"]["is_admin"] is False  # nobody is born an administrator
        admin_client.cookies.clear()
        if admin:
            grant_admin(admin_client, name)
        credentials = {"username": name.upper(), "password": "correct horse"}
        login = admin_client.post("/api/v1/session", json=credentials)
        assert login.status_code == 200, login.text
        assert login.json()["user"]["is_admin"] is admin
        csrf = {"X-CSRF-Token": login.json()["csrf_token"]}
        saved = admin_client.patch("/api/v1/me/settings", json={"one_click": True}, headers=csrf)
        assert saved.json()["user"]["is_admin"] is admin
        admin_client.cookies.clear()
