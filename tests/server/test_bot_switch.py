"""Bot accounts of members (issue #19): the irreversible switch, declining a challenge with a reason, and
the operator's rule on rated games between bots and people (ratings/eligibility.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from miai.server.errors import BadInput
from miai.server.identity.bots import become_bot
from miai.server.storage.models import User
from tests.server.conftest import Player, make_settings, register
from tests.server.ratings.test_ratings_api import game, play_opening, ratings
from tests.server.test_guests import Visitor

SWITCH = {"confirm": "irreversible"}


def make_bot(client: TestClient, name: str) -> Player:
    bot = register(client, name)
    assert bot.ok("/api/v1/me/bot", SWITCH)["user"]["is_bot"] is True
    return bot


def test_a_member_marks_their_account_as_a_bot_for_good(client: TestClient) -> None:
    bot = register(client, "alphabot")
    assert bot.get("/api/v1/me").json()["user"]["is_bot"] is False
    answer = bot.ok("/api/v1/me/bot", SWITCH)
    assert answer["changed"] is True and answer["user"]["is_bot"] is True
    # Its API token still works afterwards (bots play through tokens), and the switch has no way back.
    me = bot.get("/api/v1/me")
    assert me.status_code == 200 and me.json()["user"]["is_bot"] is True
    assert bot.ok("/api/v1/me/bot", SWITCH)["changed"] is False
    assert bot.get("/api/v1/users/alphabot/ratings").json()["is_bot"] is True  # shown to everyone


@pytest.mark.parametrize(
    "body", [{}, {"confirm": "yes"}, {"confirm": True}, {"confirm": "irreversible\u0000"}, [], "x"]
)
def test_the_switch_must_be_confirmed_in_words(client: TestClient, body: object) -> None:
    person = register(client, "careful")
    answer = person.post("/api/v1/me/bot", body)
    assert answer.status_code == 422, answer.text
    assert person.get("/api/v1/me").json()["user"]["is_bot"] is False


def test_the_switch_needs_a_login(client: TestClient) -> None:
    assert client.post("/api/v1/me/bot", json=SWITCH).status_code == 401


def test_a_guest_is_refused_the_switch_as_a_guest(client: TestClient) -> None:
    visitor = Visitor(client)
    visitor.practice(mode="local")  # a guest account, and its CSRF token
    answer = visitor.post("/api/v1/me/bot", SWITCH)
    assert answer.status_code == 403 and answer.json()["error"] == "guest", answer.text
    assert visitor.get("/api/v1/me").json()["user"]["is_bot"] is False


def test_guests_and_administrators_cannot_become_bots() -> None:
    with pytest.raises(BadInput, match="guest"):
        become_bot(User(username="g", password_hash="!", is_guest=True, is_admin=False, is_bot=False))
    with pytest.raises(BadInput, match="administrator"):
        become_bot(User(username="a", password_hash="!", is_guest=False, is_admin=True, is_bot=False))


def _challenge(player: Player, name: str, **options: object) -> int:
    answer = player.post("/api/v1/games", {"challenge": name, "size": 9, **options})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def test_views_say_which_player_is_a_bot(client: TestClient) -> None:
    """The badge's data: the game snapshot's and the lists' players, and the profile, which also says that a
    person's challenge to the bot cannot be rated here."""
    human, bot = register(client, "viewer"), make_bot(client, "badgebot")
    game_id = _challenge(human, "badgebot")
    bot.ok(f"/api/v1/games/{game_id}/join", {})
    seated = {p["username"]: p["is_bot"] for p in human.get(f"/api/v1/games/{game_id}").json()["players"]}
    assert seated == {"viewer": False, "badgebot": True}
    profile = human.get("/api/v1/users/badgebot").json()
    assert (profile["is_bot"], profile["computer"], profile["rated_challenges"]) == (True, False, False)
    assert human.get("/api/v1/users/viewer").json()["rated_challenges"] is True
    other_bot = make_bot(client, "peerbot")  # bots among themselves play rated games
    assert other_bot.get("/api/v1/users/badgebot").json()["rated_challenges"] is True
    assert other_bot.get("/api/v1/users/viewer").json()["rated_challenges"] is False
    for player in (human, bot):  # (a game with no clock to start needs no confirming)
        if human.get(f"/api/v1/games/{game_id}").json()["status"] == "confirming":
            player.ok(f"/api/v1/games/{game_id}/confirm")
    live = client.get("/api/v1/games/live").json()["games"]
    shown = next(g for g in live if g["id"] == game_id)
    listed = {p["user"]: (p["is_bot"], p["computer"]) for p in shown["players"]}
    assert listed == {"viewer": (False, False), "badgebot": (True, False)}


def test_a_declined_challenge_shows_the_reason_to_the_challenger(client: TestClient) -> None:
    human, bot = register(client, "challenger"), make_bot(client, "pickybot")
    game_id = _challenge(human, "pickybot")
    bot.ok(f"/api/v1/games/{game_id}/decline", {"reason": "this bot plays on 19x19 only"})
    seen = human.get(f"/api/v1/games/{game_id}").json()
    assert seen["status"] == "cancelled"
    assert seen["cancelled"] == {"reason": "declined", "message": "this bot plays on 19x19 only"}
    events = human.get(f"/api/v1/games/{game_id}/events").json()["events"]
    assert events[-1]["t"] == "declined" and events[-1]["d"]["reason"] == "this bot plays on 19x19 only"


def test_a_bot_account_gets_no_notifications(client: TestClient) -> None:
    """A bot plays through `miai bot`, not a page: the challenge reaches it, the bell does not."""
    human, bot = register(client, "caller"), make_bot(client, "quietbot")
    _challenge(human, "quietbot")
    listed = bot.get("/api/v1/me/notifications")
    assert listed.status_code == 200 and listed.json()["notifications"] == [], listed.text


def test_declining_without_a_reason_still_works(client: TestClient) -> None:
    human, other = register(client, "asker"), register(client, "busy")
    game_id = _challenge(human, "busy")
    other.ok(f"/api/v1/games/{game_id}/decline")
    cancelled = human.get(f"/api/v1/games/{game_id}").json()["cancelled"]
    assert cancelled == {"reason": "declined", "message": None}


@pytest.mark.parametrize(
    "reason",
    ['"nul\\u0000here"', '"two\\nlines"', '"\\ud800"', '"' + "x" * 201 + '"', "12", '["a"]', "1e999"],
)
def test_a_hostile_decline_reason_is_refused(client: TestClient, reason: str) -> None:
    human, other = register(client, "asker2"), register(client, "decliner")
    game_id = _challenge(human, "decliner")
    body = '{"reason": ' + reason + "}"  # raw JSON: a lone surrogate cannot be encoded otherwise
    answer = client.post(
        f"/api/v1/games/{game_id}/decline",
        content=body.encode(),
        headers={**other.headers, "content-type": "application/json"},
    )
    assert answer.status_code == 422, answer.text
    assert human.get(f"/api/v1/games/{game_id}").json()["status"] == "waiting"  # nothing was declined


def test_a_decline_with_an_unknown_field_is_refused(client: TestClient) -> None:
    human, other = register(client, "asker3"), register(client, "typist")
    game_id = _challenge(human, "typist")
    answer = other.post(f"/api/v1/games/{game_id}/decline", {"reason": "x", "junk": 1})
    assert answer.status_code == 422, answer.text
    assert human.get(f"/api/v1/games/{game_id}").json()["status"] == "waiting"


def test_a_bot_plays_rated_games_against_people_only_where_the_operator_allows_it(
    client: TestClient,
) -> None:
    human, bot = register(client, "rateduser"), make_bot(client, "ratedbot")
    refused = human.post("/api/v1/games", {"challenge": "ratedbot", "size": 9, "rated": True})
    assert refused.status_code == 422 and "operator" in refused.json()["message"], refused.text
    _challenge(human, "ratedbot")  # unrated: fine
    # An open rated game: the bot cannot take the seat either (the same rule, at the seat).
    open_game = human.ok("/api/v1/games", {"size": 9, "rated": True})["id"]
    joined = bot.post(f"/api/v1/games/{open_game}/join", {})
    assert joined.status_code == 403 and "operator" in joined.json()["message"], joined.text
    # Bots among themselves may play rated.
    other_bot = make_bot(client, "ratedbot2")
    bots_game = _challenge(other_bot, "ratedbot", rated=True)
    bot.ok(f"/api/v1/games/{bots_game}/join", {})


def _switch_mid_game_then_resign(human: Player, switcher: Player) -> int:
    """A rated game between two people, one of whom turns into a bot before it ends: Black resigns."""
    gid = game(human, switcher)
    play_opening([human, switcher], gid)
    switcher.ok("/api/v1/me/bot", SWITCH)
    human.ok(f"/api/v1/games/{gid}/resign", {})
    assert human.get(f"/api/v1/games/{gid}").json()["status"] == "finished"
    return gid


def test_a_player_who_becomes_a_bot_mid_game_leaves_the_result_unrated(client: TestClient) -> None:
    human, switcher = register(client, "steadfast"), register(client, "turncoat")
    _switch_mid_game_then_resign(human, switcher)
    assert ratings(human) == {} and ratings(switcher) == {}


@pytest.fixture
def lenient_client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(database_url, tmp_path, bots_rated_vs_people=True)
    with TestClient(create_app(settings, background=False)) as test_client:
        yield test_client


def test_the_operator_may_allow_rated_games_between_bots_and_people(lenient_client: TestClient) -> None:
    human, bot = register(lenient_client, "rateduser"), make_bot(lenient_client, "ratedbot")
    game_id = _challenge(human, "ratedbot", rated=True)
    bot.ok(f"/api/v1/games/{game_id}/join", {})
    assert human.get(f"/api/v1/games/{game_id}").json()["status"] == "confirming"
    assert human.get("/api/v1/users/ratedbot").json()["rated_challenges"] is True


def test_where_the_operator_allows_it_a_mid_game_switch_still_rates(lenient_client: TestClient) -> None:
    human, switcher = register(lenient_client, "steadfast"), register(lenient_client, "turncoat")
    _switch_mid_game_then_resign(human, switcher)
    assert ratings(human)["go-9"]["games"] == 1 and ratings(switcher)["go-9"]["games"] == 1
