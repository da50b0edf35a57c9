"""Rating-farming guards (ratings/eligibility.py, docs/api.md "Ratings"): a game marked rated counts only
when played out between different accounts of people, long enough, on a standard board with usual komi
and handicap. Through the API on SQLite and PostgreSQL, and the rule itself for what the API cannot set up."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.server.game_options import load_options
from miai.server.ratings.eligibility import (
    MOVES,
    SETUP,
    Seated,
    moves_by_team,
    setup_unrated_reason,
    unrated_reason,
)
from miai.server.storage import repo
from tests.server.conftest import register
from tests.server.ratings.test_ratings_api import OPENING, game, ratings


def test_a_resignation_before_each_side_played_its_share_moves_no_rating(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    for played in (0, 1, len(OPENING["go"]) - 1):
        gid = game(bob, alice)
        for ply, move in enumerate(OPENING["go"][:played]):
            (bob if ply % 2 == 0 else alice).ok(f"/api/v1/games/{gid}/moves", {"move": move})
        resigner = bob if played % 2 == 0 else alice
        resigner.ok(f"/api/v1/games/{gid}/resign", {})
        finished = bob.get(f"/api/v1/games/{gid}").json()
        assert finished["status"] == "finished"
        assert ratings(alice) == {} and ratings(bob) == {}, played
        assert finished["rating"] == {
            "rated": False,
            "kind_key": "go-9",
            "reason": "each side must play at least 10 moves (passes not counted) for the game to be rated",
            "changes": [],
        }
    gid = game(bob, alice)
    for ply, move in enumerate(OPENING["go"]):
        (bob if ply % 2 == 0 else alice).ok(f"/api/v1/games/{gid}/moves", {"move": move})
    bob.ok(f"/api/v1/games/{gid}/resign", {})
    assert ratings(alice)["go-9"]["games"] == 1 and ratings(bob)["go-9"]["games"] == 1


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"size": 7}, "9x9, 13x13 or 19x19"),
        ({"size": 19, "komi": [50]}, "komi is 0..9"),
        ({"size": 19, "komi": [-7.5]}, "komi is 0..9"),
        ({"kind": "hex", "size": 5}, "size 11, 13, 19"),
        ({"kind": "hex", "opening": "none"}, "swap or the centre-row ban"),
    ],
)
def test_odd_boards_and_komi_cannot_be_rated(
    client: TestClient, options: dict[str, Any], reason: str
) -> None:
    alice = register(client, "alice")
    refused = alice.post("/api/v1/games", {"team": 1, "rated": True, **options})
    assert refused.status_code == 422, refused.text
    assert refused.json()["message"].startswith("rated: ") and reason in refused.json()["message"]
    assert alice.post("/api/v1/games", {"team": 1, "rated": False, **options}).status_code == 201


PERSON, OTHER = Seated(1, False, False, False), Seated(2, False, False, False)


def go(**options: Any) -> Any:
    return load_options("go", {"size": 19, "rated": True, **options})


def reason(options: Any, players: list[Seated], moves: dict[int, int], bots_vs_people: bool = False) -> str:
    """The rule and reason `unrated_reason` gives, as "rule: reason" ("" when the game counts)."""
    found = unrated_reason("go", options, players, moves, bots_vs_people)
    return "" if found is None else f"{found[0]}: {found[1]}"


def test_the_rule_for_players_moves_and_setup() -> None:
    enough = {1: 20, 2: 20}  # 19x19: 20 moves a side
    assert reason(go(), [PERSON, OTHER], enough) == ""
    assert reason(go(rated=False), [PERSON, OTHER], enough) == f"{SETUP}: the game is not rated"
    assert "different accounts" in reason(go(), [PERSON, PERSON], enough)
    assert "different accounts" in reason(go(), [PERSON], enough)
    guest = Seated(3, True, False, False)
    assert "guests" in reason(go(), [PERSON, guest], enough)
    computer = Seated(4, False, True, False)
    assert "computer" in reason(go(), [computer, PERSON], enough)
    bot, other_bot = Seated(5, False, False, True), Seated(6, False, False, True)
    assert "operator" in reason(go(), [bot, PERSON], enough)
    assert reason(go(), [bot, PERSON], enough, bots_vs_people=True) == ""
    assert reason(go(), [bot, other_bot], enough) == ""
    for short in ({1: 20, 2: 19}, {1: 19, 2: 20}, {1: 20}, {}):
        assert reason(go(), [PERSON, OTHER], short).startswith(f"{MOVES}: each side must play at least 20")
    assert reason(go(size=9), [PERSON, OTHER], {1: 10, 2: 10}) == ""
    assert reason(go(size=13), [PERSON, OTHER], {1: 15, 2: 14}).startswith(f"{MOVES}: ")
    assert "practice" in (setup_unrated_reason("go", go(mode="local")) or "")
    assert setup_unrated_reason("go", go(handicap=9, komi=[0.5])) is None
    assert "handicap" in (setup_unrated_reason("go", go(handicap=12)) or "")
    assert setup_unrated_reason("go", go(teams=3, komi=[0, 6.5, 6.5])) is None
    assert "komi" in (setup_unrated_reason("go", go(teams=3, komi=[0, 6.5, 12])) or "")
    assert setup_unrated_reason("hex", load_options("hex", {"size": 11, "rated": True})) is None
    small_hex = load_options("hex", {"size": 5, "rated": True})
    assert "size" in (setup_unrated_reason("hex", small_hex) or "")
    for fair in ("swap", "centre_row_ban"):
        assert setup_unrated_reason("hex", load_options("hex", {"opening": fair, "rated": True})) is None
    unfair = load_options("hex", {"opening": "none", "rated": True})
    assert "opening" in (setup_unrated_reason("hex", unfair) or "")


def test_every_caller_of_lobby_create_is_refused_a_rated_game_that_cannot_count(client: TestClient) -> None:
    """Not the HTTP route alone: the lobby itself refuses the setup, as it refuses a guest (same 422)."""
    from miai.server.game_options import OptionsError

    alice = register(client, "alice")
    service = client.app.state.games  # type: ignore[attr-defined]

    async def create(options: dict[str, Any], kind: str = "go") -> int:
        async with service.stream.sessions() as db:
            user = await repo.user_by_name(db, "alice")
        game_id: int = await service.lobby.create(user, load_options(kind, options), team=1)
        return game_id

    for kind, options in (("go", {"size": 7}), ("hex", {"opening": "none"}), ("hex", {"size": 5})):
        with pytest.raises(OptionsError, match=r"^rated: "):
            client.portal.call(create, {**options, "rated": True}, kind)  # type: ignore[union-attr]
    assert alice.get("/api/v1/games").json()["games"] == []  # nothing was created
    game_id = client.portal.call(create, {"size": 19, "rated": True})  # type: ignore[union-attr]
    assert alice.get(f"/api/v1/games/{game_id}").json()["options"]["rated"] is True


def test_passes_resignations_and_timeouts_are_not_moves() -> None:
    record = [(1, "D4"), (2, "pass"), (1, "autopass"), (2, "Q16"), (1, "resign"), (2, "timeout"), (0, "draw")]
    assert moves_by_team(record) == {1: 1, 2: 1}
    assert moves_by_team([(2, "swap"), (1, "a1")]) == {2: 1, 1: 1}  # Hex's swap is a move
    assert moves_by_team([]) == {}
