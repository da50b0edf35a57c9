"""The finding queries: the live list, the archive, a player's record and current games.

Built here once, as statements, so the API runs them and tests/bench EXPLAIN the very same SQL. Pages are
keyset pages (newest first): the archive by (finished_at, id) on `ix_games_finished`, or a player's games
through `ix_game_players_user_game`; the live list by id on `ix_games_live` (migration 0012).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Select,
    String,
    case,
    cast,
    exists,
    false,
    func,
    literal_column,
    or_,
    select,
    tuple_,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from miai.server.storage.models import Game, GamePlayer, User

Outcome = Literal["win", "loss", "draw"]
FILTERED_OPTIONS = frozenset({"size", "teams", "rated", "mode"})


@dataclass(frozen=True)
class GameFilter:
    """What a list may be narrowed to; None: any."""

    kind: str | None = None
    size: int | None = None
    teams: int | None = None
    rated: bool | None = None


@dataclass(frozen=True)
class ArchiveFilter(GameFilter):
    user_id: int | None = None  # whose games
    opponent_id: int | None = None  # a player on another team (than `user_id`'s, if given)
    outcome: Outcome | None = None  # for `user_id`
    reason: str | None = None  # the result's reason: resign, timeout, passes, ...
    since: datetime | None = None  # finished_at >= since
    until: datetime | None = None  # finished_at < until
    viewer_id: int | None = None  # private games are listed to their players only


def _option(dialect: str, name: str) -> ColumnElement[Any]:
    """An option of the game as JSON text (`9`, `true`). On PostgreSQL exactly the expressions of the
    statistics of migration 0012, key written out: the planner then knows how many games match."""
    assert name in FILTERED_OPTIONS  # written into the SQL: never a client's text
    if dialect == "postgresql":
        return literal_column(f"(games.options ->> '{name}')", String)
    if name == "rated":  # SQLite's json_extract turns true into 1; its json_type says `true`
        return func.json_type(Game.options, f"$.{name}")
    return cast(func.json_extract(Game.options, f"$.{name}"), String)


def _narrowed(dialect: str, query: Select[Any], where: GameFilter) -> Select[Any]:
    if where.kind is not None:
        query = query.where(Game.kind == where.kind)
    if where.size is not None:
        query = query.where(_option(dialect, "size") == str(where.size))
    if where.teams is not None:
        query = query.where(_option(dialect, "teams") == str(where.teams))
    if where.rated is True:
        query = query.where(_option(dialect, "rated") == "true")
    elif where.rated is False:  # games stored before ratings have no `rated`: unrated
        query = query.where(_option(dialect, "rated").is_distinct_from("true"))
    return query


def standard_games(dialect: str) -> ColumnElement[bool]:
    """Games between players, not practice ones (against the computer, or both sides at one screen): the
    games of a player's record (games stored before modes existed have no `mode`: standard). Practice
    games stay in the player's own archive and recent games (private: nobody else sees them), where a
    guest who signs up finds the game they just played."""
    return func.coalesce(_option(dialect, "mode"), "standard") == "standard"


def _games_of(user_id: int) -> Any:
    """The player's (game_id, team) rows, read first: a fence, so that the planner never walks every game
    in time order looking for this player's few."""
    return (
        select(GamePlayer.game_id, GamePlayer.team)
        .where(GamePlayer.user_id == user_id)
        .cte("me")
        .prefix_with("MATERIALIZED")
    )


def _team_won(dialect: str) -> ColumnElement[bool]:
    """Whether the player `me`'s team is among the result's winners (a JSON list of teams)."""
    if dialect == "postgresql":
        sql = "(CAST(games.result AS JSONB) -> 'winners') @> to_jsonb(me.team)"
    else:
        sql = "EXISTS (SELECT 1 FROM json_each(games.result, '$.winners') AS w WHERE w.value = me.team)"
    return literal_column(sql, Boolean)


def outcome_of(dialect: str) -> ColumnElement[str]:
    """win / loss / draw of the player `me` (`_games_of`) in a finished game."""
    drawn = func.coalesce(Game.result["draw"].as_boolean(), false())
    return case((drawn, "draw"), (_team_won(dialect), "win"), else_="loss")


def live_page(dialect: str, where: GameFilter, before: int | None, limit: int) -> Select[Any]:
    """Public games in progress, newest first, ids below `before`."""
    query = select(Game).where(Game.status == "active", Game.visibility == "public")
    if before is not None:
        query = query.where(Game.id < before)
    return _narrowed(dialect, query, where).order_by(Game.id.desc()).limit(limit)


def archive_page(
    dialect: str, where: ArchiveFilter, after: tuple[datetime, int] | None, limit: int
) -> Select[Any]:
    """Finished games, newest first, after the keyset `after` = (finished_at, id) of the last one shown."""
    query = select(Game).where(Game.status == "finished")
    if where.user_id is not None:
        me = _games_of(where.user_id)
        query = query.join(me, me.c.game_id == Game.id)
        if where.outcome is not None:
            query = query.where(outcome_of(dialect) == where.outcome)
    if where.opponent_id is not None:
        other = aliased(GamePlayer, name="other")
        against = [other.game_id == Game.id, other.user_id == where.opponent_id]
        if where.user_id is not None:
            against.append(other.team != me.c.team)
        query = query.where(exists().where(*against))
    viewer = aliased(GamePlayer, name="viewer")
    if where.viewer_id is None:
        query = query.where(Game.visibility == "public")
    else:
        seated = exists().where(viewer.game_id == Game.id, viewer.user_id == where.viewer_id)
        query = query.where(or_(Game.visibility == "public", seated))
    if where.reason is not None:
        query = query.where(Game.result["reason"].as_string() == where.reason)
    if where.since is not None:
        query = query.where(Game.finished_at >= where.since)
    if where.until is not None:
        query = query.where(Game.finished_at < where.until)
    if after is not None:
        query = query.where(tuple_(Game.finished_at, Game.id) < tuple_(*after))
    query = _narrowed(dialect, query, where)
    return query.order_by(Game.finished_at.desc(), Game.id.desc()).limit(limit)


def record_query(dialect: str, user_id: int) -> Select[str, str, int]:
    """The player's finished games counted per kind and outcome (win / loss / draw), `standard_games`
    only."""
    me = _games_of(user_id)
    outcome = outcome_of(dialect)
    return (
        select(Game.kind, outcome.label("outcome"), func.count().label("games"))
        .join(me, me.c.game_id == Game.id)
        .where(Game.status == "finished", standard_games(dialect))
        .group_by(Game.kind, outcome)
    )


CURRENT = ("waiting", "confirming", "active")


def current_query(user_id: int, viewer_id: int | None, limit: int) -> Select[Any]:
    """The player's unfinished games a viewer may see (private ones only to their players), newest first."""
    me = _games_of(user_id)
    viewer = aliased(GamePlayer, name="viewer")
    query = select(Game).join(me, me.c.game_id == Game.id).where(Game.status.in_(CURRENT))
    if viewer_id is None:
        query = query.where(Game.visibility == "public")
    elif viewer_id != user_id:
        seated = exists().where(viewer.game_id == Game.id, viewer.user_id == viewer_id)
        query = query.where(or_(Game.visibility == "public", seated))
    return query.order_by(Game.id.desc()).limit(limit)


def players_query(game_ids: Sequence[int]) -> Select[GamePlayer, User]:
    return (
        select(GamePlayer, User)
        .join(User, User.id == GamePlayer.user_id)
        .where(GamePlayer.game_id.in_(list(game_ids)))
        .order_by(GamePlayer.game_id, GamePlayer.team, GamePlayer.seat)
    )


def dialect_of(db: AsyncSession) -> str:
    return db.get_bind().dialect.name


async def games(db: AsyncSession, query: Select[Any]) -> list[Game]:
    return list((await db.execute(query)).scalars())


async def players_of_games(
    db: AsyncSession, game_ids: Sequence[int]
) -> dict[int, list[tuple[GamePlayer, User]]]:
    out: dict[int, list[tuple[GamePlayer, User]]] = {i: [] for i in game_ids}
    if game_ids:
        for player, user in (await db.execute(players_query(game_ids))).all():
            out[player.game_id].append((player, user))
    return out


async def record(db: AsyncSession, user_id: int) -> dict[str, dict[str, int]]:
    """{kind: {"win": n, "loss": n, "draw": n}} over the player's finished games."""
    out: dict[str, dict[str, int]] = {}
    for kind, outcome, count in (await db.execute(record_query(dialect_of(db), user_id))).all():
        out.setdefault(kind, {"win": 0, "loss": 0, "draw": 0})[outcome] = count
    return out
