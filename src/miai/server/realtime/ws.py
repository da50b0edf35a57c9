"""Websocket endpoints: one per game (events, moves, chat) and one per user (dashboard and lobby).

See docs/realtime.md for every message type. A reconnecting client sends its last version `since` and gets
the events it missed, or a snapshot when it is too far behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from miai.server.api.deps import Viewer, resolve_viewer
from miai.server.play import queries
from miai.server.play.errors import CommandError
from miai.server.play.service import GameService
from miai.server.realtime.hub import Hub, visible
from miai.server.storage import repo

log = logging.getLogger(__name__)
router = APIRouter()
MAX_MISSED = 500
MAX_MESSAGE = 8192


def _same_origin(websocket: WebSocket) -> bool:
    """Cookie-authenticated websockets must come from our own pages (no cross-site hijacking)."""
    origin = websocket.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host", "")


async def _viewer(websocket: WebSocket) -> Viewer | None:
    async with websocket.app.state.sessions() as db:
        try:
            viewer = await resolve_viewer(db, websocket)  # type: ignore[arg-type]
        except Exception:
            return None
    if viewer is not None and viewer.via_cookie and not _same_origin(websocket):
        return None
    return viewer


@router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: int) -> None:
    app = websocket.app
    hub: Hub = app.state.hub
    service: GameService = app.state.games
    viewer = await _viewer(websocket)
    user_id = viewer.user.id if viewer else None
    invite = websocket.query_params.get("invite")
    since_text = websocket.query_params.get("since")
    async with app.state.sessions() as db:
        try:
            await queries.load_visible_game(db, game_id, user_id, invite)
        except CommandError as err:
            # Accept first so that the client sees the close code (a refused handshake is a bare 403).
            await websocket.accept()
            await websocket.close(code=4404 if err.status == 404 else 4403, reason=err.message[:120])
            return
        team = queries.viewer_team(await repo.players_of(db, game_id), user_id)
    await websocket.accept()
    async with hub.subscribe(f"game:{game_id}") as sub:
        last = await _catch_up(websocket, service, game_id, user_id, invite, since_text)
        receiver = asyncio.create_task(_receive(websocket, service, viewer, game_id))
        receiver.add_done_callback(lambda _task: sub.wake())
        try:
            while True:
                message = await sub.get()
                if message is None or receiver.done():
                    break
                if sub.overflowed:
                    sub.overflowed = False
                    last = await _catch_up(websocket, service, game_id, user_id, invite, str(last))
                    continue
                if message.v is not None and message.v <= last:
                    continue
                if message.t in {"joined", "confirming", "left", "unconfirmed_removed"}:
                    async with app.state.sessions() as db:
                        team = queries.viewer_team(await repo.players_of(db, game_id), user_id)
                if visible(message.audience, user_id, team):
                    await websocket.send_text(message.wire_text)
                if message.v is not None:
                    last = message.v
        except WebSocketDisconnect:
            pass
        finally:
            receiver.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await receiver


async def _catch_up(
    websocket: WebSocket,
    service: GameService,
    game_id: int,
    user_id: int | None,
    invite: str | None,
    since_text: str | None,
) -> int:
    """Send what the client missed since its version, or a full snapshot; returns the version sent."""
    async with websocket.app.state.sessions() as db:
        game = await queries.load_visible_game(db, game_id, user_id, invite)
        since = int(since_text) if since_text and since_text.isdigit() else None
        if since is not None and since <= game.version and game.version - since <= MAX_MISSED:
            for event in await queries.visible_events(db, game, since, user_id):
                await websocket.send_json(event)
            return game.version
        snapshot = await queries.snapshot(service, db, game, user_id)
    await websocket.send_json({"t": "snapshot", "d": snapshot, "v": snapshot["version"]})
    return int(snapshot["version"])


async def _receive(websocket: WebSocket, service: GameService, viewer: Viewer | None, game_id: int) -> None:
    """Client commands: move, resign, chat, ping. Each gets an ack or an error carrying the client's id."""
    while True:
        raw = await websocket.receive_text()
        request_id: Any = None
        try:
            if len(raw) > MAX_MESSAGE:
                raise ValueError("message too long")
            message = json.loads(raw)
            if not isinstance(message, dict) or not isinstance(message.get("t"), str):
                raise ValueError('a message is an object {"t": type, "d": data, "id": your id}')
            request_id = message.get("id")
            data = message.get("d") or {}
            if not isinstance(data, dict):
                raise ValueError('"d" must be an object')
            reply = await _command(service, viewer, game_id, message["t"], data)
            await _send(websocket, {"t": "ack", "d": {"id": request_id, **reply}})
        except CommandError as err:
            await _send(websocket, {"t": "error", "d": {"id": request_id, **err.body()}})
        except (ValueError, TypeError) as err:
            await _send(
                websocket,
                {"t": "error", "d": {"id": request_id, "error": "bad_message", "message": str(err)}},
            )


async def _command(
    service: GameService, viewer: Viewer | None, game_id: int, kind: str, data: dict[str, Any]
) -> dict[str, Any]:
    if kind == "ping":
        return {"pong": True}
    if viewer is None:
        raise ValueError("log in (cookie) or pass ?token= to send commands")
    version = data.get("v")
    if version is not None and not isinstance(version, int):
        raise ValueError('"v" must be an integer version')
    if kind == "move":
        move = data.get("move")
        if not isinstance(move, str) or not 1 <= len(move) <= 16:
            raise ValueError('"move" must be 1..16 characters: D4, pass, a4-d4/d7, f6, swap, resign, ...')
        return await service.move(viewer.user, game_id, move, version)
    if kind == "resign":
        return await service.move(viewer.user, game_id, "resign", version)
    if kind == "chat":
        channel, text = data.get("channel", "public"), data.get("text")
        if not isinstance(channel, str) or not isinstance(text, str):
            raise ValueError('chat needs "channel" and "text" strings')
        return {"message": await service.chat(viewer.user, game_id, channel, text)}
    raise ValueError(f"unknown message type {kind!r}; use move, resign, chat or ping")


async def _send(websocket: WebSocket, payload: dict[str, Any]) -> None:
    if websocket.application_state == WebSocketState.CONNECTED:
        await websocket.send_json(payload)


@router.websocket("/ws")
async def user_socket(websocket: WebSocket) -> None:
    """Dashboard and lobby pings for the logged-in user: {"t": "dashboard" | "lobby" | "challenge"}."""
    viewer = await _viewer(websocket)
    if viewer is None:
        await websocket.accept()
        await websocket.close(code=4401, reason="log in first")
        return
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    async with hub.subscribe(f"user:{viewer.user.id}", "lobby") as sub:
        reader = asyncio.create_task(_drain(websocket))
        reader.add_done_callback(lambda _task: sub.wake())
        try:
            while True:
                message = await sub.get()
                if message is None or reader.done():
                    break
                await websocket.send_text(message.wire_text)
        except WebSocketDisconnect:
            pass
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await reader


async def _drain(websocket: WebSocket) -> None:
    while True:
        text = await websocket.receive_text()
        try:
            message = json.loads(text)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("t") == "ping":
            await websocket.send_json({"t": "pong", "d": {}})
