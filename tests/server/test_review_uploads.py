"""Reviews of uploaded records (issue 19): a record, with handicap stones or Miai's N-colour extension, is
reviewed position by position like a game played here, its swings are those of the record's colours, and
its uploader counts as its player (a deep review)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.core.go import preset
from miai.core.go.game import new_game
from miai.core.go.moves import PASS, Place
from miai.formats.sgf.go import dump_go
from miai.server.app import create_app
from tests.conftest import shared_data
from tests.server.conftest import Player, make_settings, register
from tests.server.test_reviews import TINY, computed

UPLOAD = "/api/v1/games/upload"
# Two handicap stones, so White moves first; White wins by resignation.
HANDICAP = "(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]AB[gc][cg]PB[Kuro]PW[Shiro]RE[W+R];W[ee];B[ge];W[ec];B[cd];W[gg])"


def three_colours() -> bytes:
    state = new_game(9, preset("dipgo", 9, 3), colours=3)
    for point in (40, 0, 80, 41, 1, 79, 30):
        state = state.play(Place(point))
    state = state.play(PASS)
    return dump_go(state, players={0: ["Ann"], 1: ["Bob"], 2: ["Cy", "Dee"]}, rules_key="dipgo")


RECORDS: dict[str, Callable[[], bytes]] = {
    "gnugo-9-handicap": lambda: shared_data("gnugo", "games", "9handicap.sgf").read_bytes(),
    "handicap": HANDICAP.encode,
    "three-colours": three_colours,
}


@pytest.fixture
def review_client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(database_url, tmp_path, **TINY), background=False)) as client:
        yield client


def uploaded(client: TestClient, player: Player, data: bytes) -> int:
    headers = {**player.headers, "Content-Type": "application/x-go-sgf"}
    response = client.post(UPLOAD, content=data, headers=headers)
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


@pytest.mark.parametrize("name", RECORDS)
def test_an_uploaded_record_is_reviewed_move_by_move(review_client: TestClient, name: str) -> None:
    ann = register(review_client, "ann")
    gid = uploaded(review_client, ann, RECORDS[name]())
    snap = ann.get(f"/api/v1/games/{gid}").json()
    moves: list[dict[str, Any]] = snap["moves"]
    asked = ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"})
    assert asked.status_code == 202, asked.text
    computed(review_client)
    [review] = ann.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert (review["status"], review["done"], review["total"]) == ("done", len(moves) + 1, len(moves) + 1)
    colours = snap["options"]["teams"]
    for position in review["positions"]:
        assert len(position["shares"]) == colours and sum(position["shares"]) == pytest.approx(1.0, abs=1e-3)
        assert len(position["ownership"]) == snap["options"]["size"] ** 2
        assert len(position["score"]) == colours  # each colour's expected points
    assert review["swings"]
    for swing in review["swings"]:  # each the record's own colour (and so its player) that made the move
        assert swing["team"] == moves[swing["move"] - 1]["team"]
        assert snap["options"]["names"][swing["team"] - 1]
    if name != "three-colours":
        assert moves[0]["team"] == 2  # White starts after the handicap stones
        assert review["positions"][0]["ownership"].count("1") > 0  # the stones are on the board reviewed


def test_the_uploader_may_ask_for_a_deep_review_of_their_record(review_client: TestClient) -> None:
    ann, eve = register(review_client, "ann"), register(review_client, "eve")
    gid = uploaded(review_client, ann, HANDICAP.encode())
    invite = ann.get(f"/api/v1/games/{gid}").json()["invite_code"]
    denied = eve.post(f"/api/v1/games/{gid}/review?invite={invite}", {"depth": "deep"})
    assert denied.status_code == 403 and "players" in denied.json()["message"]
    assert eve.post(f"/api/v1/games/{gid}/review?invite={invite}", {"depth": "quick"}).status_code == 202
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "deep"}).status_code == 202
    computed(review_client)
    reviews = ann.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert sorted((r["depth"], r["status"], r["done"]) for r in reviews) == [
        ("deep", "done", 6),
        ("quick", "done", 6),
    ]
