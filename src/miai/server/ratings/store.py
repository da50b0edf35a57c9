"""Ratings applied where results are stored: in the command that stores a rated game's result (same
transaction: a refused store changes no rating), and rebuilt from history when a result is corrected or
the formula changes (`miai ratings recompute`)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.game_options import GoOptions, KindOptions, load_options
from miai.server.identity.bots import is_computer
from miai.server.ratings.eligibility import Seated, moves_played, unrated_reason
from miai.server.ratings.games import rate_game, team_ranks
from miai.server.ratings.kind_keys import kind_key, system_of
from miai.server.ratings.suggest import handicap_adjustment
from miai.server.ratings.systems import Rating, System
from miai.server.ratings.systems import start as first_rating
from miai.server.storage import ratings as repo
from miai.server.storage.models import Game, RatingChange, UserRating
from miai.server.storage.repo import users_by_ids


def _rating(row: UserRating | None, system: System) -> Rating:
    return first_rating(system) if row is None else Rating(row.rating, row.deviation, row.volatility)


def _black_bonus(system: System, options: GoOptions | KindOptions, black: Rating) -> float:
    """Handicap stones count for Black in a one-on-one Go game, as OGS rates them."""
    if system != "glicko2" or not isinstance(options, GoOptions) or not options.handicap:
        return 0.0
    return handicap_adjustment(black.rating, options.handicap, options.size)


def _teams(seats: Mapping[tuple[int, int], int]) -> dict[int, list[int]]:
    teams: dict[int, list[int]] = {}
    for (team, _seat), user_id in sorted(seats.items()):
        teams.setdefault(team, []).append(user_id)
    return teams


async def record_game(
    db: AsyncSession,
    game: Game,
    options: GoOptions | KindOptions,
    seats: Mapping[tuple[int, int], int],
    result: Mapping[str, Any],
    now: datetime,
    plies: int,
    bots_vs_people: bool,
) -> dict[int, dict[str, Any]]:
    """Rate a game whose result is being stored (inside its command) after `plies` plies; user id ->
    change, {} when the game does not count for ratings (eligibility.py decides, with the operator's
    MIAI_BOTS_RATED_VS_PEOPLE as `bots_vs_people`)."""
    if not options.rated:
        return {}
    accounts = await users_by_ids(db, list(set(seats.values())))
    seated = [
        Seated(u, accounts[u].is_guest, is_computer(accounts[u]), accounts[u].is_bot) for u in seats.values()
    ]
    moves = moves_played(plies, result)
    if unrated_reason(game.kind, options, seated, moves, bots_vs_people) is not None:
        return {}
    key = kind_key(game.kind, options)
    system = system_of(key)
    teams = _teams(seats)
    ranks = team_ranks(result, list(teams))
    users = [u for members in teams.values() for u in members]
    if ranks is None:
        return {}
    first = first_rating(system)
    await repo.lock_key(db, key, exclusive=False)  # a recompute of this key runs first, or waits
    await repo.create_missing_ratings(
        db,
        users,
        key,
        {
            "system": system,
            "rating": first.rating,
            "deviation": first.deviation,
            "volatility": first.volatility,
        },
        now,
    )
    rows = await repo.ratings_for_update(db, users, key)
    before = {u: _rating(rows[u], system) for u in users}
    bonus = _black_bonus(system, options, before[teams[1][0]]) if 1 in teams else 0.0
    after = rate_game(system, {t: [before[u] for u in m] for t, m in teams.items()}, ranks, bonus)
    changes: dict[int, dict[str, Any]] = {}
    for team, members in teams.items():
        for user_id, new in zip(members, after[team], strict=True):
            old = before[user_id]
            row = rows[user_id]
            row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
            row.games += 1
            row.updated_at = now
            db.add(_change(game.id, user_id, key, team, now, old, new))
            changes[user_id] = {
                "kind_key": key,
                "before": round(old.rating, 1),
                "after": round(new.rating, 1),
            }
    return changes


def _change(
    game_id: int, user_id: int, key: str, team: int, finished_at: datetime, old: Rating, new: Rating
) -> RatingChange:
    change = RatingChange(game_id=game_id, user_id=user_id, kind_key=key, team=team, finished_at=finished_at)
    _set(change, old, new)
    return change


def _set(change: RatingChange, old: Rating, new: Rating) -> None:
    change.rating_before, change.deviation_before, change.volatility_before = (
        old.rating,
        old.deviation,
        old.volatility,
    )
    change.rating_after, change.deviation_after, change.volatility_after = (
        new.rating,
        new.deviation,
        new.volatility,
    )


async def recompute(
    db: AsyncSession,
    key: str,
    now: datetime,
    results: Mapping[int, Mapping[str, Any]] | None = None,
    start: tuple[datetime, int] | None = None,
) -> int:
    """Rebuild the ratings of `key` from its rated games in the order they finished, with each game's
    stored result (or the one in `results`, by game id: a correction being stored). With `start`
    (finished_at, game id) only that game and the later ones are replayed, each player starting from the
    rating they had before their first replayed game; without, every game from the start. Returns how
    many games were replayed. The key's ratings are locked first (storage/ratings.lock_key)."""
    await repo.lock_key(db, key, exclusive=True)
    system = system_of(key)
    history = await repo.history_of_key(db, key, start)
    games = await repo.games_by_ids(db, [h.game_id for h in history])
    state: dict[int, Rating] = {}
    played: dict[int, int] = {}
    replayed = 0
    for game_id, group in itertools.groupby(history, key=lambda h: h.game_id):
        changes = list(group)
        game = games[game_id]
        result = (results or {}).get(game_id, game.result or {})
        teams: dict[int, list[int]] = {}
        for change in changes:
            teams.setdefault(change.team, []).append(change.user_id)
        before = {c.user_id: state.get(c.user_id, _first_before(c, system, start)) for c in changes}
        ranks = team_ranks(result, list(teams))
        if ranks is None:  # a result that ranks nobody (none today): the game moves no rating
            after = {t: [before[u] for u in m] for t, m in teams.items()}
        else:
            options = load_options(game.kind, game.options)
            bonus = _black_bonus(system, options, before[teams[1][0]]) if 1 in teams else 0.0
            after = rate_game(system, {t: [before[u] for u in m] for t, m in teams.items()}, ranks, bonus)
        for team, members in teams.items():
            for user_id, new in zip(members, after[team], strict=True):
                change = next(c for c in changes if c.user_id == user_id)
                _set(change, before[user_id], new)
                state[user_id] = new
                played[user_id] = played.get(user_id, 0) + 1
        replayed += 1
    if start is None:
        rows = await repo.ratings_of_key(db, key)
    else:  # a correction: the players of the replayed games only, whose number of games stays
        rows = await repo.ratings_for_update(db, list(state), key)
    for user_id, rating in state.items():
        row = rows.get(user_id)
        if row is None:
            row = UserRating(user_id=user_id, kind_key=key, system=system)
            db.add(row)
        row.system = system
        row.rating, row.deviation, row.volatility = rating.rating, rating.deviation, rating.volatility
        if start is None:
            row.games = played[user_id]
        row.updated_at = now
    await db.flush()
    if start is None:
        await repo.drop_ratings_without_history(db, key, list(state))
    return replayed


def _first_before(change: RatingChange, system: System, start: tuple[datetime, int] | None) -> Rating:
    """A player's rating before their first replayed game: a new player's from the very start, else the
    rating stored with that game (what their earlier games, not replayed, left them with)."""
    if start is None:
        return first_rating(system)
    return Rating(change.rating_before, change.deviation_before, change.volatility_before)


async def recompute_all(db: AsyncSession, now: datetime) -> dict[str, int]:
    """Every key's ratings rebuilt (the CLI's `miai ratings recompute`): key -> games replayed."""
    return {key: await recompute(db, key, now) for key in await repo.rated_keys(db)}


async def recompute_game(db: AsyncSession, game: Game, result: Mapping[str, Any], now: datetime) -> int:
    """A rated game's result is being corrected: its key's ratings follow, replayed from this game on
    (the earlier games' ratings do not depend on it). Returns how many games were replayed (0: the game
    did not count for ratings)."""
    options = load_options(game.kind, game.options)
    if not options.rated:
        return 0
    key = kind_key(game.kind, options)
    await repo.lock_key(db, key, exclusive=True)  # before its place in the history is read
    start = await repo.rated_moment(db, key, game.id)
    if start is None:
        return 0
    return await recompute(db, key, now, {game.id: result}, start)


async def recompute_database(url: str, now: datetime) -> dict[str, int]:
    """`miai ratings recompute`: every rating rebuilt in one transaction of the database at `url`
    (migrated first, as a server start would). Games finishing meanwhile wait for its locks (PostgreSQL)."""
    from miai.server.storage.db import make_engine, migrate, sessions

    engine = make_engine(url)
    try:
        await migrate(engine)
        async with sessions(engine)() as db:
            replayed = await recompute_all(db, now)
            await db.commit()
            return replayed
    finally:
        await engine.dispose()
