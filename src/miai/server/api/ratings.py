"""Ratings API: a user's ratings with their history, leaderboards per kind key, handicap suggestions."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from miai.server.api.deps import DB, MaybeViewer
from miai.server.api.inputs import Line
from miai.server.api.views import rating_view
from miai.server.errors import BadInput, NotFound
from miai.server.ratings.kind_keys import go_size_class, known_key, system_of
from miai.server.ratings.suggest import suggest
from miai.server.ratings.systems import MIN_ESTABLISHED_GAMES, provisional_deviation, start
from miai.server.storage import ratings as store
from miai.server.storage import repo
from miai.server.storage.models import User, UserRating

router = APIRouter(tags=["ratings"])
Name = Annotated[Line, Path(min_length=1, max_length=64)]
MAX_HISTORY = 1000  # points of the rating graph, the latest


async def _user(db: DB, username: str) -> User:
    user = await repo.user_by_name(db, username)
    if user is None or user.is_guest:  # guests are not found by name (docs/api.md, "Guests")
        raise NotFound(f"no user {username!r}")
    return user


@router.get("/users/{username}/ratings")
async def user_ratings(username: Name, db: DB, viewer: MaybeViewer) -> dict[str, Any]:
    """Every rating of the user, per kind key, with its history (oldest first) for the rating graph.
    A private game's point only to its players: its id and time tell who played whom and how it ended."""
    user = await _user(db, username)
    rows = await store.user_ratings(db, user.id)
    points: dict[str, list[dict[str, Any]]] = {row.kind_key: [] for row in rows}
    history = await store.user_history(db, user.id, MAX_HISTORY)
    viewer_id = viewer.user.id if viewer is not None else None
    hidden = await store.unseen_private_games(db, [c.game_id for c in history], viewer_id)
    for change in (c for c in history if c.game_id not in hidden):
        points.setdefault(change.kind_key, []).append(
            {
                "game_id": change.game_id,
                "at": repo.utc(change.finished_at).isoformat(),  # type: ignore[union-attr]
                "rating": round(change.rating_after, 2),
                "deviation": round(change.deviation_after, 2),
                "change": round(change.rating_after - change.rating_before, 2),
            }
        )
    ratings = [{**rating_view(row), "history": points[row.kind_key]} for row in rows]
    return {"user": user.username, "is_bot": user.is_bot, "ratings": ratings}


@router.get("/leaderboards")
async def leaderboards(db: DB) -> dict[str, Any]:
    """Which kind keys people hold ratings of (the leaderboards page opens on the first that has any)."""
    counts = await store.rated_people(db)
    return {"kind_keys": [{"kind_key": key, "players": n} for key, n in sorted(counts.items())]}


@router.get("/leaderboards/{kind_key}")
async def leaderboard(
    kind_key: Annotated[Line, Path(max_length=24)],
    db: DB,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> dict[str, Any]:
    """The best established ratings of a kind key: provisional ratings and computer accounts left out."""
    if not known_key(kind_key):
        raise NotFound(f"no ratings {kind_key!r}: keys are go-9, go-13, go-19, go-multi, amazons, hex, tanbo")
    system = system_of(kind_key)
    order: Any = UserRating.rating if system == "glicko2" else UserRating.rating - 3 * UserRating.deviation
    limit_at = provisional_deviation(system)  # systems.provisional, in SQL
    rows = await store.leaderboard(db, kind_key, order, limit_at, MIN_ESTABLISHED_GAMES, limit)
    return {
        "kind_key": kind_key,
        "system": system,
        "players": [{"user": name, **rating_view(row)} for row, name in rows],
    }


@router.get("/users/{username}/handicap")
async def handicap_suggestion(
    username: Name,
    db: DB,
    opponent: Annotated[Line, Query(min_length=1, max_length=64)],
    size: Annotated[int, Query(ge=5, le=25)] = 19,
) -> dict[str, Any]:
    """The handicap and komi OGS would give a Go game of `size` between the user and `opponent`, from
    their one-on-one ratings of the size's class (a player not rated yet counts as 1500)."""
    user, other = await _user(db, username), await _user(db, opponent)
    if user.id == other.id:
        raise BadInput("a handicap is for two different players")
    key = go_size_class(size)
    ratings = {r.user_id: r.rating for r in await store.ratings_for_users(db, [user.id, other.id], key)}
    first = ratings.get(user.id, start("glicko2").rating)
    second = ratings.get(other.id, start("glicko2").rating)
    advice = suggest(first, second, size)
    return {
        "kind_key": key,
        "size": size,
        "black": (user, other)[advice.black].username,
        "white": (other, user)[advice.black].username,
        "handicap": advice.handicap,
        "komi": advice.komi,
        "rank_difference": round(advice.rank_difference, 2),
        "ratings": {user.username: round(first, 2), other.username: round(second, 2)},
    }
