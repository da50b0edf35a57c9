"""Websocket endpoints: one per game (events, moves, chat) and one per user (dashboard and lobby).

See docs/realtime.md for every message type. A reconnecting client sends its last version `since` and gets
the events it missed, or a snapshot when it is too far behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from miai.server.api.deps import Viewer, resolve_viewer
from miai.server.api.rate_limits import rate_limits_of, user_key
from miai.server.api.ws_messages import (
    BadMessage,
    ChatMessage,
    MoveMessage,
    PingMessage,
    ResignMessage,
    parse_game_message,
    parse_socket_target,
    parse_user_message,
)
from miai.server.errors import CommandError
from miai.server.play import queries
from miai.server.play.privacy import Reader
from miai.server.play.service import GameService
from miai.server.play.stream import LIVE
from miai.server.realtime.hub import Hub, Message, Subscription, resync_notice
from miai.server.realtime.watchers import WATCHERS, Watchers
from miai.server.storage import repo

log = logging.getLogger(__name__)
router = APIRouter()
MAX_MISSED = queries.EVENTS_PAGE
UNSUPPORTED_DATA = 1003  # the close code for a binary frame (RFC 6455)
BAD_QUERY = 4422  # the close code for a game id, `since` or invite outside its range
UNAUTHORIZED = 4401  # an unknown or revoked token (HTTP: 401), or no login where one is needed
# Events after which a game socket reads what its viewer may see again (the loop, not the direct path).
TEAM_CHANGES = frozenset({"joined", "confirming", "left", "unconfirmed_removed"})
GAME_STATE_CHANGES = frozenset({"finished", "reset"})  # private chat closes or reopens


def _same_origin(websocket: WebSocket) -> bool:
    """Cookie-authenticated websockets must come from our own pages (no cross-site hijacking)."""
    origin = websocket.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host", "")


class CredentialRefused(Exception):
    """The socket came with a token that is unknown or revoked: closed with 4401, as HTTP answers 401."""


async def _viewer(websocket: WebSocket) -> Viewer | None:
    """The socket's user; None for a spectator without credentials (or with a cookie of another site)."""
    async with websocket.app.state.sessions() as db:
        try:
            viewer = await resolve_viewer(db, websocket)  # type: ignore[arg-type]
        except HTTPException as err:
            raise CredentialRefused(str(err.detail)) from None
    if viewer is not None and viewer.via_cookie and not _same_origin(websocket):
        return None
    return viewer


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    await websocket.accept()  # first, so that the client sees the close code (a refused handshake is 403)
    await websocket.close(code=code, reason=reason[:120])


@router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """Validates the game id and `since` (closing with 4422 when they are out of range), then serves."""
    query = websocket.query_params
    try:
        number, since, invite = parse_socket_target(game_id, query.get("since"), query.get("invite"))
    except BadMessage as err:
        await _refuse(websocket, BAD_QUERY, str(err))
        return
    try:
        viewer = await _viewer(websocket)
    except CredentialRefused:
        await _refuse(websocket, UNAUTHORIZED, "unknown or revoked token")
        return
    await _game_socket(websocket, number, since, invite, viewer)


async def _game_socket(
    websocket: WebSocket, game_id: int, since: int | None, invite: str | None, viewer: Viewer | None
) -> None:
    app = websocket.app
    hub: Hub = app.state.hub
    service: GameService = app.state.games
    user_id = viewer.user.id if viewer else None
    async with app.state.sessions() as db:
        try:
            await queries.load_visible_game(db, game_id, user_id, invite)
        except CommandError as err:
            await _refuse(websocket, 4404 if err.status == 404 else 4403, err.message)
            return
    await websocket.accept()
    watchers: Watchers = app.state.watchers
    wants_count = websocket.query_params.get("watchers") == "1"  # the game page's "N watching"
    async with hub.subscribe(f"game:{game_id}", owner=_owner(viewer)) as sub:
        await _check_not_revoked(websocket, viewer, sub)
        receiver: asyncio.Task[None] | None = None
        spectating = False  # whether this socket is counted among the game's spectators

        def recount(team: int | None) -> None:
            """Spectators are the sockets of people not seated here, re-read as seats change."""
            nonlocal spectating
            if (team is None) != spectating:
                spectating = team is None
                (watchers.add if spectating else watchers.discard)(game_id)

        try:
            # Who may read what is read with each catch-up, after subscribing: a team change after that
            # read arrives as an event below; one before it is in the read.
            last, reader = await _catch_up(websocket, service, game_id, user_id, invite, since)
            recount(reader.team)
            if wants_count:
                await websocket.send_text((await watchers.message(game_id)).wire_text)
            receiver = asyncio.create_task(_receive(websocket, service, viewer, game_id))
            receiver.add_done_callback(lambda _task: sub.wake())

            def direct(message: Message) -> bool:
                """In the hub's dispatch, while this socket is idle (hub.py): an ordinary event is sent at
                once; one that changes what this viewer may read waits for the loop below."""
                nonlocal last
                if message.t == WATCHERS:
                    if wants_count:
                        sub.send_now(websocket.send_text(message.wire_text))
                    return True
                if message.t in TEAM_CHANGES or message.t in GAME_STATE_CHANGES:
                    return False
                if message.v is not None and message.v <= last:
                    return True
                if reader.may_read(message.audience):
                    sub.send_now(websocket.send_text(message.wire_text))
                if message.v is not None:
                    last = message.v
                return True

            while True:
                message = await sub.get(direct)
                if message is None or receiver.done():
                    break
                if sub.overflowed:
                    sub.overflowed = False
                    last, reader = await _catch_up(websocket, service, game_id, user_id, invite, last)
                    recount(reader.team)
                    continue
                if message.t == WATCHERS:
                    if wants_count:
                        await websocket.send_text(message.wire_text)
                    continue
                if message.v is not None and message.v <= last:
                    continue
                if message.t in TEAM_CHANGES:
                    async with app.state.sessions() as db:
                        team = queries.viewer_team(await repo.players_of(db, game_id), user_id)
                    reader = dataclasses.replace(reader, team=team)
                    recount(team)
                elif message.t in GAME_STATE_CHANGES:  # a practice undo can reopen a finished game
                    reader = dataclasses.replace(reader, game_over=message.t == "finished")
                if reader.may_read(message.audience):
                    await websocket.send_text(message.wire_text)
                if message.v is not None:
                    last = message.v
        except (WebSocketDisconnect, RuntimeError):  # RuntimeError: the receiver closed it (binary frame)
            pass
        except CommandError as err:  # the game became invisible to this viewer (say, it was deleted)
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await websocket.close(code=4404 if err.status == 404 else 4403, reason=err.message[:120])
        finally:
            if spectating:
                watchers.discard(game_id)
            if receiver is not None:
                receiver.cancel()
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                    await receiver
            await _close_if_revoked(websocket, sub)


def _owner(viewer: Viewer | None) -> tuple[int, str] | None:
    """What makes a socket revocable (see revocation.py): its user and credential."""
    return (viewer.user.id, viewer.credential) if viewer is not None and viewer.credential else None


async def _check_not_revoked(websocket: WebSocket, viewer: Viewer | None, sub: Subscription) -> None:
    """A revocation committed between authenticating this socket and subscribing it could not close it:
    look once more, now that any later revocation will."""
    if viewer is None or not viewer.credential:
        return
    async with websocket.app.state.sessions() as db:
        if viewer.via_cookie:
            gone = await repo.session_by_hash(db, viewer.credential) is None
        else:
            gone = await repo.token_by_hash(db, viewer.credential) is None
    if gone:
        sub.revoke()


async def _close_if_revoked(websocket: WebSocket, sub: Subscription) -> None:
    if sub.close_code is not None and websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await websocket.close(code=sub.close_code, reason="your login or token was revoked")


async def _catch_up(
    websocket: WebSocket,
    service: GameService,
    game_id: int,
    user_id: int | None,
    invite: str | None,
    since: int | None,
) -> tuple[int, Reader]:
    """Send what the client missed since its version, or a full snapshot; returns the version sent and what
    this viewer may read as of that version."""
    async with websocket.app.state.sessions() as db:
        game = await queries.load_visible_game(db, game_id, user_id, invite)
        reader = queries.reader_of(game, await repo.players_of(db, game_id), user_id)
        if since is not None and since <= game.version and game.version - since <= MAX_MISSED:
            sent = since
            while sent < game.version:
                page = await queries.visible_events(db, game, sent, user_id)
                for event in page.events:
                    await websocket.send_json(event)
                sent = page.until
            return sent, reader
        snapshot = await queries.snapshot(service.stream, db, game, user_id)
    await websocket.send_json({"t": "snapshot", "d": snapshot, "v": snapshot["version"]})
    return int(snapshot["version"]), reader


async def _receive(websocket: WebSocket, service: GameService, viewer: Viewer | None, game_id: int) -> None:
    """Client commands: move, resign, chat, ping. Each gets an ack or an error carrying the client's id."""
    while True:
        text = await _receive_text(websocket)
        if text is None:
            return
        request_id: int | str | None = None
        try:
            message = parse_game_message(text)
            request_id = message.id
            if message.t == "chat" and viewer is not None:  # the same per-user limit as HTTP chat
                await rate_limits_of(websocket.app).hit("chat", *user_key(viewer.user.id))
            reply = await _command(service, viewer, game_id, message)
            await _send(websocket, {"t": "ack", "d": {"id": request_id, **reply}})
        except BadMessage as err:
            await _send(websocket, {"t": "error", "d": err.body()})
        except CommandError as err:
            await _send(websocket, {"t": "error", "d": {"id": request_id, **err.body()}})
        except Exception:
            # A server fault on one command (the command stream has undone it) answers that command alone;
            # the socket stays open for the next one.
            log.exception("a websocket command failed in game %s", game_id)
            failed = {"error": "server_error", "message": "the server failed on this command; try again"}
            await _send(websocket, {"t": "error", "d": {"id": request_id, **failed}})


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text frame; None when it was a binary frame, after closing the socket with 1003."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    text = frame.get("text")
    if text is None:
        await websocket.close(code=UNSUPPORTED_DATA, reason="binary frames are not accepted; send JSON text")
        return None
    return str(text)


async def _command(
    service: GameService,
    viewer: Viewer | None,
    game_id: int,
    message: MoveMessage | ResignMessage | ChatMessage | PingMessage,
) -> dict[str, Any]:
    if isinstance(message, PingMessage):
        return {"pong": True}
    if viewer is None:
        raise BadMessage("log in (cookie) or pass ?token= to send commands", message.id)
    if isinstance(message, MoveMessage):
        return await service.moves.move(viewer.user, game_id, message.d.move, message.d.v)
    if isinstance(message, ResignMessage):
        return await service.moves.move(viewer.user, game_id, "resign", message.d.v if message.d else None)
    return {"message": await service.chat.post(viewer.user, game_id, message.d.channel, message.d.text)}


async def _send(websocket: WebSocket, payload: dict[str, Any]) -> None:
    """A reply to the client, unless it has gone meanwhile (closed right after its last command): its
    reader then ends the socket, and the command it sent stands or not as stored."""
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await websocket.send_json(payload)


@router.websocket("/ws")
async def user_socket(websocket: WebSocket) -> None:
    """Dashboard and lobby pings for the logged-in user: {"t": "dashboard" | "lobby" | "challenge"}."""
    try:
        viewer = await _viewer(websocket)
    except CredentialRefused:
        viewer = None
    if viewer is None:
        await _refuse(websocket, UNAUTHORIZED, "log in first")
        return
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    topic = f"user:{viewer.user.id}"
    async with hub.subscribe(topic, "lobby", owner=_owner(viewer)) as sub:
        await _check_not_revoked(websocket, viewer, sub)
        try:
            await _relay(websocket, sub, topic)
        finally:
            await _close_if_revoked(websocket, sub)


@router.websocket("/live/ws")
async def live_socket(websocket: WebSocket) -> None:
    """Public games in progress for anyone, logged in or not (the home and watch pages): each move's new
    board as {"t": "live"}, and the lobby's pings {"t": "lobby"} (a game started or finished). No login is
    read: what it sends is what GET /games/live shows everyone."""
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    async with hub.subscribe(LIVE, "lobby") as sub:
        await _relay(websocket, sub, LIVE)


async def _relay(websocket: WebSocket, sub: Subscription, topic: str) -> None:
    """Send what `sub` hears until the client leaves, answering its pings (`_drain`); a resync notice of
    `topic` where messages were lost (a full queue, Redis away): the client reads everything again."""
    reader = asyncio.create_task(_drain(websocket))
    reader.add_done_callback(lambda _task: sub.wake())

    def direct(message: Message) -> bool:  # while idle: sent in the hub's dispatch (hub.py)
        sub.send_now(websocket.send_text(message.wire_text))
        return True

    try:
        while True:
            message = await sub.get(direct)
            if message is None or reader.done():
                break
            if sub.overflowed:
                sub.overflowed = False
                message = resync_notice(topic)
            await websocket.send_text(message.wire_text)
    except WebSocketDisconnect:
        pass
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
            await reader


async def _drain(websocket: WebSocket) -> None:
    """The user and live sockets' only command: ping, answered with pong; anything else gets `bad_message`."""
    while True:
        text = await _receive_text(websocket)
        if text is None:
            return
        try:
            parse_user_message(text)
        except BadMessage as err:
            await _send(websocket, {"t": "error", "d": err.body()})
            continue
        await _send(websocket, {"t": "pong", "d": {}})
