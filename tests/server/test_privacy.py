"""One privacy rule for chat and events (`play/privacy.py`): snapshots, `/events` and websockets show each
viewer exactly the same messages, and `/events` pages past events a viewer may not read."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from miai.server.play import queries
from miai.server.play.privacy import Reader, team_audience, teams_audience, users_audience
from miai.server.storage import repo
from miai.server.storage.models import Game
from tests.server.conftest import Player, register


def test_a_player_reads_their_team_their_pairs_and_public() -> None:
    reader = Reader(user_id=7, team=1)
    assert reader.may_read("all")
    assert reader.may_read(team_audience(1))
    assert reader.may_read(teams_audience(3, 1))
    assert reader.may_read(users_audience(9, 7))
    assert not reader.may_read(team_audience(2))
    assert not reader.may_read(teams_audience(2, 3))
    assert not reader.may_read(users_audience(8, 9))
    assert not reader.may_read("team:1,2")  # not a stored form: never readable
    assert not reader.may_read("users:17,70")  # 7 is not "in" 17 or 70
    assert not reader.may_read("nobody")


def test_spectators_and_finished_games_read_only_public() -> None:
    spectator = Reader(user_id=None, team=None)
    over = Reader(user_id=7, team=1, game_over=True)
    for audience in (team_audience(1), teams_audience(1, 2), users_audience(7, 9)):
        assert not spectator.may_read(audience)
        assert not over.may_read(audience)
    assert spectator.may_read("all") and over.may_read("all")


def test_snapshot_and_events_agree_on_a_private_message_after_its_sender_left(client: TestClient) -> None:
    """Found by attack: the snapshot listed private pairs among the current players only, so a message from a
    player who had left vanished from it while `/events` still had it."""
    ann, ben, cat = (register(client, name) for name in ("ann", "ben", "cat"))
    gid = ann.ok("/api/v1/games", {"size": 9, "teams": 3, "players_per_team": 2, "team": 1})["id"]
    ben.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    cat.ok(f"/api/v1/games/{gid}/join", {"team": 3})
    cat.ok(f"/api/v1/games/{gid}/chat", {"channel": f"user:{ann.user_id}", "text": "cat to ann"})
    cat.ok(f"/api/v1/games/{gid}/leave")
    for viewer, expected in ((ann, ["cat to ann"]), (cat, ["cat to ann"]), (ben, [])):
        snapshot = [m["text"] for m in viewer.get(f"/api/v1/games/{gid}").json()["chat"]]
        page = viewer.get(f"/api/v1/games/{gid}/events").json()["events"]
        assert snapshot == [e["d"]["text"] for e in page if e["t"] == "chat"] == expected, viewer.username


@pytest.fixture()
def three_teams(client: TestClient) -> tuple[int, list[Player]]:
    """A started 3-colour game of 3 players (teams 1, 2, 3 in order), and a spectator last."""
    users = [register(client, name) for name in ("ann", "ben", "cat", "dan")]
    gid = users[0].ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1, "seconds_per_move": 3600})["id"]
    for user, team in ((users[1], 2), (users[2], 3)):
        user.ok(f"/api/v1/games/{gid}/join", {"team": team})
    for user in users[:3]:
        user.ok(f"/api/v1/games/{gid}/confirm")
    return gid, users


def chat_texts_everywhere(
    client: TestClient, viewer: Player, gid: int
) -> tuple[list[str], list[str], list[str]]:
    """The chat this viewer sees in its snapshot, in `/events`, and in a websocket's catch-up."""
    snapshot = [m["text"] for m in viewer.get(f"/api/v1/games/{gid}").json()["chat"]]
    page = viewer.get(f"/api/v1/games/{gid}/events").json()
    events = [e["d"]["text"] for e in page["events"] if e["t"] == "chat"]
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?since=0&token={viewer.token}") as sock:
        socket = [m["d"]["text"] for m in until_pong(sock) if m["t"] == "chat"]
    return snapshot, events, socket


def until_pong(sock: Any, limit: int = 200) -> list[dict[str, Any]]:
    """Every message a socket sends before the answer to a ping sent now (the catch-up comes first)."""
    sock.send_json({"t": "ping", "id": "end"})
    received = []
    for _ in range(limit):
        message: dict[str, Any] = sock.receive_json()
        if message["t"] == "ack" and message["d"].get("id") == "end":
            return received
        received.append(message)
    raise AssertionError(f"no answer to the ping within {limit} messages")


def events_version(viewer: Player, gid: int) -> int:
    return int(viewer.get(f"/api/v1/games/{gid}").json()["version"])


def test_snapshot_events_and_websocket_show_each_viewer_the_same_chat(
    client: TestClient, three_teams: tuple[int, list[Player]]
) -> None:
    gid, (ann, ben, cat, dan) = three_teams
    ann.ok(f"/api/v1/games/{gid}/chat", {"channel": "public", "text": "hello all"})
    ann.ok(f"/api/v1/games/{gid}/chat", {"channel": "team:2", "text": "ann to team 2"})
    ben.ok(f"/api/v1/games/{gid}/chat", {"channel": f"user:{cat.user_id}", "text": "ben to cat"})
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})  # the socket's catch-up ends on a move event
    expected = {
        "ann": ["hello all", "ann to team 2"],
        "ben": ["hello all", "ann to team 2", "ben to cat"],
        "cat": ["hello all", "ben to cat"],
        "dan": ["hello all"],
    }
    for viewer in (ann, ben, cat, dan):
        snapshot, events, socket = chat_texts_everywhere(client, viewer, gid)
        assert snapshot == events == socket == expected[viewer.username], viewer.username


def test_events_page_past_what_the_viewer_may_not_read(
    client: TestClient, three_teams: tuple[int, list[Player]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page full of other teams' private messages is empty for a viewer, but `until` moves on, so paging
    from `until` reaches the end (paging from the last event received would ask for the same page again)."""
    monkeypatch.setattr(queries, "EVENTS_PAGE", 4)
    gid, (ann, ben, cat, _dan) = three_teams
    for i in range(6):
        ben.ok(f"/api/v1/games/{gid}/chat", {"channel": "team:3", "text": f"secret {i}"})
    ann.ok(f"/api/v1/games/{gid}/chat", {"channel": "public", "text": "after the secrets"})
    version = events_version(ann, gid)
    seen: list[str] = []
    since, pages = 0, 0
    while since < version:
        page = ann.get(f"/api/v1/games/{gid}/events?since={since}").json()
        assert page["version"] == version
        assert since < page["until"] <= version  # always progress
        assert len(page["events"]) <= 4
        seen += [e["d"]["text"] for e in page["events"] if e["t"] == "chat"]
        since, pages = page["until"], pages + 1
    assert seen == ["after the secrets"]
    assert pages == -(-version // 4)
    last = ann.get(f"/api/v1/games/{gid}/events?since={version}").json()
    assert last["events"] == [] and last["until"] == version
    # The secrets are versions version-6 .. version-1: the team they were for reads them on the same pages.
    cat_page = cat.get(f"/api/v1/games/{gid}/events?since={version - 7}").json()
    assert [e["d"]["text"] for e in cat_page["events"]] == ["secret 0", "secret 1", "secret 2", "secret 3"]


def test_live_private_messages_reach_only_their_readers(
    client: TestClient, three_teams: tuple[int, list[Player]]
) -> None:
    gid, (ann, ben, cat, dan) = three_teams
    version = events_version(ann, gid)
    viewers = (ann, ben, cat, dan)
    sockets = [
        client.websocket_connect(f"/api/v1/games/{gid}/ws?since={version}&token={v.token}") for v in viewers
    ]
    try:
        opened = [sock.__enter__() for sock in sockets]
        for sock in opened:
            assert until_pong(sock) == []  # up to date: nothing to catch up
        ann.ok(f"/api/v1/games/{gid}/chat", {"channel": "team:2", "text": "ann to team 2"})
        ben.ok(f"/api/v1/games/{gid}/chat", {"channel": f"user:{cat.user_id}", "text": "ben to cat"})
        ann.ok(f"/api/v1/games/{gid}/chat", {"channel": "public", "text": "to all"})
        seen = {
            v.username: [m["d"]["text"] for m in until_pong(sock) if m["t"] == "chat"]
            for v, sock in zip(viewers, opened, strict=True)
        }
    finally:
        for sock in sockets:
            sock.__exit__(None, None, None)
    assert seen == {
        "ann": ["ann to team 2", "to all"],
        "ben": ["ann to team 2", "ben to cat", "to all"],
        "cat": ["ben to cat", "to all"],
        "dan": ["to all"],
    }


def test_a_version_ahead_of_the_last_event_ends_paging(client: TestClient) -> None:
    """A command may store changes without an event: paging must still reach the version, and a socket
    catching up from there must answer (it once looped for ever)."""
    ann = register(client, "ann")
    gid = ann.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    last = events_version(ann, gid)

    async def bump() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            await db.execute(update(Game).where(Game.id == gid).values(version=Game.version + 1))
            await db.commit()

    client.portal.call(bump)  # type: ignore[attr-defined]
    page = ann.get(f"/api/v1/games/{gid}/events?since={last}").json()
    assert page == {"version": last + 1, "events": [], "until": last + 1}
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?since={last}&token={ann.token}") as sock:
        assert until_pong(sock) == []


def test_a_player_who_leaves_while_the_socket_connects_reads_no_more_team_chat(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket once took the viewer's team before subscribing: a `left` stored in between was skipped as
    already caught up, and the ex-player went on receiving the old team's chat. The race, made certain."""
    ann, ben, cat, dan = (register(client, name) for name in ("ann", "ben", "cat", "dan"))
    gid = ann.ok("/api/v1/games", {"size": 9, "teams": 3, "players_per_team": 2, "team": 1})["id"]
    for user, team in ((ben, 2), (cat, 2)):
        user.ok(f"/api/v1/games/{gid}/join", {"team": team})
    state = client.app.state  # type: ignore[attr-defined]
    real_subscribe = state.hub.subscribe

    @contextlib.asynccontextmanager
    async def subscribe_then_leave(*topics: str, **kw: Any) -> AsyncIterator[Any]:
        async with real_subscribe(*topics, **kw) as sub:
            async with state.sessions() as db:
                leaver = await repo.user_by_id(db, cat.user_id)
            await state.games.lobby.leave(leaver, gid)  # after subscribing, before the catch-up
            yield sub

    since = events_version(cat, gid)
    monkeypatch.setattr(state.hub, "subscribe", subscribe_then_leave)
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?since={since}&token={cat.token}") as sock:
        assert [m["t"] for m in until_pong(sock)] == ["left"]
        monkeypatch.setattr(state.hub, "subscribe", real_subscribe)
        ben.ok(f"/api/v1/games/{gid}/chat", {"channel": "team", "text": "team 2 only"})
        ben.ok(f"/api/v1/games/{gid}/chat", {"channel": "public", "text": "to all"})
        texts = [m["d"]["text"] for m in until_pong(sock) if m["t"] == "chat"]
    assert texts == ["to all"]
    assert [m["text"] for m in dan.get(f"/api/v1/games/{gid}").json()["chat"]] == ["to all"]
    assert ben.get(f"/api/v1/games/{gid}").json()["status"] == "waiting"
