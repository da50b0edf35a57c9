"""The read side: game snapshots, events since a version, lobby and dashboard, all filtered per viewer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.errors import Forbidden, NotFound
from miai.server.game_options import load_options
from miai.server.identity.bots import is_computer
from miai.server.play.computer_names import computer_name
from miai.server.play.kinds import table_of
from miai.server.play.preview import preview_of
from miai.server.play.privacy import Reader
from miai.server.play.stream import CommandStream
from miai.server.play.views import recorded_move
from miai.server.ratings.verdicts import game_rating
from miai.server.storage import repo
from miai.server.storage.models import Game, GamePlayer, SeatRemoval, User


def _iso(moment: datetime | None) -> str | None:
    moment = repo.utc(moment)
    return moment.isoformat() if moment else None


async def load_visible_game(db: AsyncSession, game_id: int, user_id: int | None, invite: str | None) -> Game:
    game = await repo.game_row(db, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    if game.visibility == "private" and invite != game.invite_code:
        players = await repo.players_of(db, game_id)
        invited = user_id is not None and game.challenge_to == user_id
        if not invited and (user_id is None or all(p.user_id != user_id for p in players)):
            raise Forbidden("this private game needs its invite link")
    return game


def viewer_team(players: list[GamePlayer], user_id: int | None) -> int | None:
    return next((p.team for p in players if p.user_id == user_id), None)


async def snapshot(
    stream: CommandStream, db: AsyncSession, game: Game, user_id: int | None
) -> dict[str, Any]:
    """Everything a client needs to draw a game, as this viewer may see it."""
    table = table_of(game.kind, game.options)
    options = table.options
    # First: if the record changed since `game` was read, this reads the row again (then all below agrees).
    state = await stream.current_state(db, game) if game.status in {"active", "finished"} else None
    players = await repo.players_of(db, game.id)
    challenged = [game.challenge_to] if game.challenge_to is not None else []
    users = await repo.users_by_ids(db, [p.user_id for p in players] + challenged)
    team = viewer_team(players, user_id)
    data: dict[str, Any] = {
        "id": game.id,
        "kind": game.kind,
        "title": table.title,
        "team_names": table.team_names(),
        "status": game.status,
        "version": game.version,
        "options": options.to_json(),
        "rules": table.rules(),
        "created_at": _iso(game.created_at),
        "created_by": game.created_by,
        "deadline": _iso(game.deadline_at),
        "turn_started_at": _iso(game.turn_started_at),
        "now": _iso(stream.now()),  # the server's time: clients count clocks from it, not from their own
        "clocks": game.clocks,
        "to_move": game.to_move,
        "result": game.result,
        "rating": await game_rating(db, game),  # rated, with each change, or why not (finished games)
        "challenge_to": game.challenge_to,
        "challenge_to_name": users[game.challenge_to].username if game.challenge_to in users else None,
        "match_id": game.match_id,
        "players": [
            {
                "user_id": p.user_id,
                "username": users[p.user_id].username if p.user_id in users else "?",
                "team": p.team,
                "seat": p.seat,
                "confirmed": p.confirmed,
                "state": p.state,
                "computer": _computer_level(users.get(p.user_id)),
                "name": shown_name(users.get(p.user_id)),
                "is_guest": p.user_id in users and users[p.user_id].is_guest,  # no page to link to
                "is_bot": p.user_id in users and users[p.user_id].is_bot,  # a program plays it (badge)
            }
            for p in players
        ],
        "you": {"user_id": user_id, "team": team} if user_id is not None else None,
    }
    is_player = user_id is not None and any(p.user_id == user_id for p in players)
    if game.visibility == "private" and (is_player or game.challenge_to == user_id):
        data["invite_code"] = game.invite_code
    data["draw_offers"] = list(game.draw_offers)
    data["redo"] = len(game.redo)
    if game.status == "cancelled":
        data["cancelled"] = await _cancelled(db, game)
    # Why the viewer is no longer in this game, when the server took them out of it.
    removal = await repo.last_removal(db, user_id, game.id) if user_id is not None and not is_player else None
    data["removed"] = removal_json(removal) if removal is not None else None
    if state is not None:
        data["position"] = table.position(state)
        data["moves"] = [
            recorded_move(m.ply, m.team, m.seat, m.move, m.user_id)
            for m in await repo.moves_of(db, game.id)
            if m.ply <= game.plies  # not a move stored after the row was read
        ]
    reader = reader_of(game, players, user_id)
    audiences = [a for a in await repo.chat_audiences(db, game.id) if reader.may_read(a)]
    data["chat"] = [
        {
            "id": c.id,
            "user_id": c.user_id,
            "user": users[c.user_id].username if c.user_id in users else "?",
            "team": next((p.team for p in players if p.user_id == c.user_id), None),
            "channel": c.channel,
            "text": c.text,
            "at": _iso(c.created_at),
        }
        for c in await repo.chat_for(db, game.id, audiences)
    ]
    return data


async def _cancelled(db: AsyncSession, game: Game) -> dict[str, Any]:
    """`reason`: `declined` (a challenge), `no_players` (nobody left to play), None (games cancelled before
    reasons); a declined challenge also has the decliner's own words, `message`, when they gave some."""
    why = await repo.last_event(db, game.id, ("cancelled", "declined"))
    if why is None:
        return {"reason": None}
    if why.type == "declined":
        return {"reason": "declined", "message": why.data.get("reason")}
    return {"reason": str(why.data.get("reason"))}


def removal_json(removal: SeatRemoval) -> dict[str, Any]:
    return {
        "game_id": removal.game_id,
        "reason": removal.reason,
        "window": removal.window_seconds,
        "at": _iso(removal.created_at),
    }


REMOVALS_SHOWN = timedelta(days=7)  # how long the dashboard tells a player why a game left their list


async def recent_removals(db: AsyncSession, user_id: int, now: datetime) -> list[dict[str, Any]]:
    """The user's seat removals of the last week, newest first, from games they are not in again; one per
    game (removed, back in and removed again is one game gone from their list)."""
    newest: dict[int, SeatRemoval] = {}
    for removal in await repo.removals_since(db, user_id, now - REMOVALS_SHOWN):
        newest.setdefault(removal.game_id, removal)
    return [removal_json(r) for r in newest.values()]


def shown_name(user: User | None) -> str:
    """A person's username; a computer by engine and level ("Miai, level 3"), not by its account name."""
    level = _computer_level(user)
    if level is not None:
        return computer_name(level)
    return user.username if user is not None else "?"


def _computer_level(user: User | None) -> int | str | None:
    """The level of a computer player, None for people (member bots included)."""
    level = user.settings["bot_level"] if user is not None and is_computer(user) else None
    return level if isinstance(level, int | str) else None


EVENTS_PAGE = 500  # stored events looked at per call


@dataclass
class EventPage:
    """Events a viewer may read, and the last version looked at (events it may not read are skipped, so a
    client pages on from `until`, not from the last event it received)."""

    events: list[dict[str, Any]]
    until: int


def reader_of(game: Game, players: list[GamePlayer], user_id: int | None) -> Reader:
    return Reader(user_id, viewer_team(players, user_id), game.status == "finished")


async def visible_events(db: AsyncSession, game: Game, after: int, user_id: int | None) -> EventPage:
    """The next stored events after version `after` (up to a page) that this viewer may read."""
    reader = reader_of(game, await repo.players_of(db, game.id), user_id)
    scanned = await repo.events_since(db, game.id, after, EVENTS_PAGE)
    last = scanned[-1].v if scanned else after
    # A short page holds every stored event up to the game's version (a command may store changes but no
    # event, so the last event can be older than the version): the client has read up to the version.
    until = last if len(scanned) == EVENTS_PAGE else max(last, game.version)
    readable = [{"t": e.type, "d": e.data, "v": e.v} for e in scanned if reader.may_read(e.audience)]
    return EventPage(readable, until)


async def lobby(db: AsyncSession, user_id: int | None = None) -> list[dict[str, Any]]:
    """Open public games with free seats, challenges included; `joined` tells the viewer whether they are
    in it already."""
    out = []
    games = await repo.open_games(db)
    challenged = await repo.users_by_ids(db, [g.challenge_to for g in games if g.challenge_to is not None])
    for game in games:
        options = load_options(game.kind, game.options)
        players = await repo.players_of(db, game.id)
        to = challenged.get(game.challenge_to) if game.challenge_to is not None else None
        out.append(
            {
                "id": game.id,
                "kind": game.kind,
                "options": options.to_json(),
                "players": len(players),
                "seats": options.seats,
                "free": options.seats - len(players),
                "teams": [sum(1 for p in players if p.team == t) for t in range(1, options.teams + 1)],
                "joined": user_id is not None and any(p.user_id == user_id for p in players),
                # A challenge: only this user may join (anyone else is refused with 403).
                "challenge_to": game.challenge_to,
                "challenge_to_name": to.username if to is not None else None,
                "created_at": _iso(game.created_at),
            }
        )
    return out


async def dashboard(db: AsyncSession, user_id: int) -> list[dict[str, Any]]:
    """The user's unfinished games: their turn first, then by time left to move."""
    games = await repo.games_of_user(db, user_id, ("waiting", "confirming", "active"))
    rows: list[tuple[tuple[bool, float, int], dict[str, Any]]] = []
    for game in games:
        mine = game.to_move.get("user_id") == user_id and game.status == "active"
        deadline = repo.utc(game.deadline_at)
        order = (not mine, deadline.timestamp() if deadline else float("inf"), game.id)
        row = {
            "id": game.id,
            "kind": game.kind,
            "status": game.status,
            "options": game.options,
            "to_move": game.to_move,
            "your_turn": mine,
            "deadline": deadline.isoformat() if deadline else None,
            "preview": preview_of(game.preview) if game.preview is not None else None,
        }
        rows.append((order, row))
    rows.sort(key=lambda pair: pair[0])
    return [row for _, row in rows]
