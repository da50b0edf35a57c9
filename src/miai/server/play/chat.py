"""Game chat: public, private team chat, and private messages between two teams or two players.

Private chat is not offered in two-player games (there is no team to talk to), and it is closed and hidden
once the game has finished; public chat stays.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from miai.server.errors import BadInput, Conflict, Forbidden, GuestsMayNot
from miai.server.game_options import load_options
from miai.server.play.privacy import EVERYONE, team_audience, teams_audience, users_audience
from miai.server.play.stream import CommandStream, Tx
from miai.server.storage import repo
from miai.server.storage.models import ChatMessage, User

MAX_LENGTH = 2000


class Chat:
    def __init__(self, stream: CommandStream) -> None:
        self.stream = stream

    async def post(self, user: User, game_id: int, channel: str, text: str) -> dict[str, Any]:
        """Post `text` on `channel` (public, team, team:N, user:ID); returns the stored message."""
        async with self.stream.command(game_id) as tx:
            return await _post(tx, user, channel, text, self.stream.now())


async def _post(tx: Tx, user: User, channel: str, text: str, now: datetime) -> dict[str, Any]:
    if user.is_guest:
        raise GuestsMayNot("guests cannot chat: register (POST /api/v1/accounts) to talk to other players")
    text = text.strip()
    if not text:
        raise BadInput("the message is empty")
    if len(text) > MAX_LENGTH:
        raise BadInput(f"a message has at most {MAX_LENGTH} characters")
    game = tx.game
    options = load_options(game.kind, game.options)
    players = await repo.players_of(tx.db, game.id)
    mine = next((p for p in players if p.user_id == user.id), None)
    if channel == "public":
        if game.visibility == "private" and mine is None:
            raise Forbidden("only players can talk in a private game")
        audience = EVERYONE
    else:
        if mine is None or mine.team is None:
            raise Forbidden("private chat is for the players of this game, once teams are set")
        if game.status == "finished":
            raise Conflict("private chat is closed once the game has finished")
        if options.seats == 2:
            raise Forbidden("private chat is not offered in two-player games")
        kind, _, value = channel.partition(":")
        if channel == "team":
            if options.players_per_team == 1:
                raise Forbidden("your team has no other player to talk to")
            audience = team_audience(mine.team)
        elif (
            kind == "team"
            and value.isdigit()
            and 1 <= int(value) <= options.teams
            and int(value) != mine.team
        ):
            audience = teams_audience(mine.team, int(value))
        elif kind == "user" and value.isdigit() and any(p.user_id == int(value) for p in players):
            if int(value) == user.id:
                raise BadInput("you cannot send a private message to yourself")
            audience = users_audience(user.id, int(value))
        else:
            raise BadInput("channel must be public, team, team:N (another team) or user:ID (a player here)")
    message = ChatMessage(
        game_id=game.id, user_id=user.id, channel=channel, audience=audience, text=text, created_at=now
    )
    tx.db.add(message)
    await tx.db.flush()
    data = {
        "id": message.id,
        "user": user.username,
        "user_id": user.id,
        "team": mine.team if mine else None,
        "channel": channel,
        "text": text,
        "at": now.isoformat(),
    }
    tx.event("chat", data, audience)
    return data
