"""Game chat: public, private team chat, and private messages between two teams or two players.

Private chat is not offered in two-player games (there is no team to talk to), and it is closed and hidden
once the game has finished; public chat stays.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from miai.server.play.errors import BadInput, Conflict, Forbidden
from miai.server.play.options import load_options
from miai.server.storage import repo
from miai.server.storage.models import ChatMessage, User

if TYPE_CHECKING:
    from miai.server.play.service import Tx

MAX_LENGTH = 2000


def audiences_for(
    team: int | None, user_id: int | None, finished: bool, teams: int, players: Iterable[int] = ()
) -> list[str]:
    """Every chat audience a viewer may read; `players` are the game's user ids (private messages are
    stored for the pair that exchanged them, see `post`)."""
    out = ["all"]
    if finished or user_id is None:
        return out
    out.extend(f"users:{min(user_id, o)},{max(user_id, o)}" for o in sorted(set(players)) if o != user_id)
    if team is not None:
        out.append(f"team:{team}")
        out.extend(
            f"teams:{min(team, other)},{max(team, other)}" for other in range(1, teams + 1) if other != team
        )
    return out


def readable(audience: str, team: int | None, user_id: int | None) -> bool:
    kind, _, value = audience.partition(":")
    if kind == "all":
        return True
    if kind == "team":
        return team is not None and value == str(team)
    if kind == "teams":
        return team is not None and str(team) in value.split(",")
    if kind == "users":
        return user_id is not None and str(user_id) in value.split(",")
    return False


async def post(tx: Tx, user: User, channel: str, text: str, now: datetime) -> dict[str, Any]:
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
        audience = "all"
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
            audience = f"team:{mine.team}"
        elif (
            kind == "team"
            and value.isdigit()
            and 1 <= int(value) <= options.teams
            and int(value) != mine.team
        ):
            low, high = sorted((mine.team, int(value)))
            audience = f"teams:{low},{high}"
        elif kind == "user" and value.isdigit() and any(p.user_id == int(value) for p in players):
            if int(value) == user.id:
                raise BadInput("you cannot send a private message to yourself")
            low, high = sorted((user.id, int(value)))
            audience = f"users:{low},{high}"
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
