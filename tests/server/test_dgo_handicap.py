"""The `dgo` preset's handicap ranges as Dgo has them (SPEC §1.1): none on 7x7, 2-4 on 9x9, 2-5 on 13x13, 2-9
on 19x19, enforced for practice and lobby games; other presets keep their layouts' ranges."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import register

ALLOWED = [(9, 2), (9, 4), (13, 2), (13, 5), (19, 2), (19, 9)]
REFUSED = [
    (7, 2, "no handicap on 7x7"),
    (7, 9, "no handicap on 7x7"),
    (9, 5, "2..4 stones, not 5"),
    (9, 9, "2..4 stones, not 9"),
    (9, 1, "2..4 stones, not 1"),
    (13, 6, "2..5 stones, not 6"),
    (13, 9, "2..5 stones, not 9"),
]


@pytest.mark.parametrize(("size", "stones"), ALLOWED)
def test_dgo_handicap_in_range_starts_with_the_stones(client: TestClient, size: int, stones: int) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": size, "mode": "local", "handicap": stones})["id"]
    board = alice.get(f"/api/v1/games/{gid}").json()["position"]["board"]
    assert sum(1 for c in board if c == 1) == stones
    assert alice.post("/api/v1/games", {"size": size, "handicap": stones}).status_code == 201


@pytest.mark.parametrize(("size", "stones", "message"), REFUSED)
@pytest.mark.parametrize("url", ["/api/v1/practice", "/api/v1/games"])
def test_dgo_handicap_out_of_range_is_refused(
    client: TestClient, url: str, size: int, stones: int, message: str
) -> None:
    alice = register(client, "alice")
    body = {"size": size, "handicap": stones, "preset": "dgo"}
    if url.endswith("practice"):
        body["mode"] = "local"
    response = alice.post(url, body)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_options"
    assert message in response.json()["message"]
    assert "Dgo" in response.json()["message"]


@pytest.mark.parametrize("value", [-1, 10, 2**63, 4.5, "four", None, [4], {"n": 4}, True])
def test_hostile_handicap_values_get_a_clear_422(client: TestClient, value: Any) -> None:
    alice = register(client, "alice")
    for url in ("/api/v1/practice", "/api/v1/games"):
        response = alice.post(url, {"size": 9, "mode": "local", "handicap": value})
        assert response.status_code == 422, (url, value, response.text)
        assert response.json()["message"]


def test_other_presets_keep_their_handicap_ranges(client: TestClient) -> None:
    alice = register(client, "alice")
    assert alice.post("/api/v1/games", {"size": 9, "preset": "chinese", "handicap": 9}).status_code == 201
    assert alice.post("/api/v1/games", {"size": 7, "preset": "japanese", "handicap": 4}).status_code == 201
    gid = alice.ok("/api/v1/practice", {"size": 9, "mode": "local", "preset": "aga", "handicap": 6})["id"]
    board = alice.get(f"/api/v1/games/{gid}").json()["position"]["board"]
    assert sum(1 for c in board if c == 1) == 6


def test_presets_list_the_handicap_ranges(client: TestClient) -> None:
    presets = {p["key"]: p for p in client.get("/api/v1/presets").json()["presets"]}
    assert presets["dgo"]["max_handicap"] == {"7": 0, "9": 4, "13": 5, "19": 9}
    assert presets["itsyourturn"]["max_handicap"] == {"9": 9, "13": 9, "19": 9}
    assert presets["japanese"]["max_handicap"]["7"] == 4


def test_presets_give_the_komi_of_a_game_with_and_without_handicap(client: TestClient) -> None:
    """The practice form's line under Handicap says the komi the game will get (issue 32): the preset's,
    or the handicap komi; the games made agree."""
    listed = client.get("/api/v1/presets").json()
    dgo = next(p for p in listed["presets"] if p["key"] == "dgo")
    alice = register(client, "alice")
    for handicap, komi in ((0, dgo["komi"]), (3, listed["handicap_komi"])):
        body = {"size": 9, "mode": "local", "handicap": handicap}
        gid = alice.ok("/api/v1/practice", body)["id"]
        snap = alice.get(f"/api/v1/games/{gid}").json()
        assert snap["rules"]["komi"][1] == komi
        assert snap["position"]["to_move"]["team"] == (2 if handicap else 1)
    assert (dgo["komi"], listed["handicap_komi"]) == (6.5, 0.5)
