"""Ratings applied where results are stored: in the command that stores a rated game's result (same
transaction: a refused store changes no rating; a game that does not count is recorded with its reason),
and rebuilt from history when a result is corrected or the formula or the rules change (`miai ratings
recompute`, which applies eligibility.py's moves and pair rules again)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.game_options import GoOptions, KindOptions, load_options
from miai.server.identity.bots import is_computer
from miai.server.move_texts import NOT_MOVES
from miai.server.ratings.eligibility import (
    MOVES,
    PAIR,
    PAIR_WINDOW,
    SETUP,
    Seated,
    opponent_pairs,
    pair_reason,
    short_game_reason,
    unrated_reason,
)
from miai.server.ratings.games import rate_game, team_ranks
from miai.server.ratings.kind_keys import kind_key, system_of
from miai.server.ratings.suggest import handicap_adjustment
from miai.server.ratings.systems import Rating, System
from miai.server.ratings.systems import start as first_rating
from miai.server.ratings.verdicts import created_unrated, verdict_view
from miai.server.storage import ratings as repo
from miai.server.storage.models import Game, RatingChange, UnratedGame, UserRating
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
    moves: Mapping[int, int],
    bots_vs_people: bool,
) -> dict[str, Any]:
    """Rate a game whose result is being stored (inside its command), or record why it does not count
    (eligibility.py decides, with `moves`: each team's moves, `eligibility.moves_by_team`, and the
    operator's MIAI_BOTS_RATED_VS_PEOPLE as `bots_vs_people`). Returns the game's `rating`
    (verdicts.verdict_view)."""
    if not options.rated:
        return created_unrated(game.kind, options)
    key = kind_key(game.kind, options)
    accounts = await users_by_ids(db, list(set(seats.values())))
    seated = [
        Seated(u, accounts[u].is_guest, is_computer(accounts[u]), accounts[u].is_bot) for u in seats.values()
    ]
    teams = _teams(seats)
    ranks = team_ranks(result, list(teams))
    refused = unrated_reason(game.kind, options, seated, moves, bots_vs_people)
    if refused is not None:
        return await _unrated(db, game.id, key, refused, now)
    if ranks is None:  # none today: every result ranks its teams
        return await _unrated(db, game.id, key, (SETUP, "the result ranks no team"), now)
    system = system_of(key)
    users = [u for members in teams.values() for u in members]
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
    # Counted under the players' row locks: two games of one pair finishing at once are counted in turn.
    before_now = await repo.pair_games_since(db, key, users, now - PAIR_WINDOW)
    over = pair_reason({pair: before_now.get(pair, 0) for pair in opponent_pairs(teams)})
    if over is not None:
        await repo.drop_unplayed_ratings(db, key, users)
        return await _unrated(db, game.id, key, (PAIR, over), now)
    before = {u: _rating(rows[u], system) for u in users}
    bonus = _black_bonus(system, options, before[teams[1][0]]) if 1 in teams else 0.0
    after = rate_game(system, {t: [before[u] for u in m] for t, m in teams.items()}, ranks, bonus)
    changes: list[RatingChange] = []
    for team, members in teams.items():
        for user_id, new in zip(members, after[team], strict=True):
            row = rows[user_id]
            row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
            row.games += 1
            row.updated_at = now
            changes.append(_change(game.id, user_id, key, team, now, before[user_id], new))
    db.add_all(changes)
    return verdict_view(key, changes, None)


async def _unrated(
    db: AsyncSession, game_id: int, key: str, refused: tuple[str, str], now: datetime
) -> dict[str, Any]:
    rule, reason = refused
    await repo.mark_unrated(db, game_id, key, rule, reason, now)
    return verdict_view(key, [], reason)


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


@dataclass
class _Replayed:
    """One game a recompute goes through: its players by team, its rating rows (none yet for a game held
    back by the moves or pair rule), and where it stands in the key's history."""

    game: Game
    teams: dict[int, list[int]]
    changes: list[RatingChange]
    held: UnratedGame | None
    at: datetime


async def recompute(
    db: AsyncSession,
    key: str,
    now: datetime,
    results: Mapping[int, Mapping[str, Any]] | None = None,
    start: tuple[datetime, int] | None = None,
) -> int:
    """Rebuild the ratings of `key` from its games in the order they finished, with each game's stored
    result (or the one in `results`, by game id: a correction being stored). With `start` (finished_at,
    game id) only that game and the later rated ones are replayed, each player starting from the rating
    they had before their first replayed game (a correction changes a result, not whether a game counts);
    without, every game from the start, and the guards a history decides are applied again: the moves each
    side played and the pair allowance, over the rated games and those they held back (a game may change
    sides: the rules changed, or the history was rated under older ones). Returns how many games were
    rated. The key's ratings are locked first (storage/ratings.lock_key)."""
    await repo.lock_key(db, key, exclusive=True)
    system = system_of(key)
    replays = await _games_to_replay(db, key, start)
    moves = await repo.move_counts(db, [r.game.id for r in replays], NOT_MOVES) if start is None else {}
    window: dict[tuple[int, int], list[datetime]] = {}
    state: dict[int, Rating] = {}
    played: dict[int, int] = {}
    replayed = 0
    for replay in replays:
        game, teams, changes = replay.game, replay.teams, replay.changes
        options = load_options(game.kind, game.options)
        if start is None:
            refused = _history_reason(game, options, teams, moves.get(game.id, {}), window, replay.at)
            if refused is not None:
                for change in changes:
                    await db.delete(change)
                await repo.mark_unrated(db, game.id, key, *refused, now)
                continue
            if replay.held is not None:  # held back before, it counts now
                await db.delete(replay.held)
                changes = [
                    _change(game.id, u, key, t, replay.at, first_rating(system), first_rating(system))
                    for t, members in teams.items()
                    for u in members
                ]
                db.add_all(changes)
            for pair in opponent_pairs(teams):
                window.setdefault(pair, []).append(replay.at)
        result = (results or {}).get(game.id, game.result or {})
        before = {c.user_id: state.get(c.user_id, _first_before(c, system, start)) for c in changes}
        ranks = team_ranks(result, list(teams))
        if ranks is None:  # a result that ranks nobody (none today): the game moves no rating
            after = {t: [before[u] for u in m] for t, m in teams.items()}
        else:
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


async def _games_to_replay(db: AsyncSession, key: str, start: tuple[datetime, int] | None) -> list[_Replayed]:
    """The rated games of `key` (from `start` on), and for a full recompute also the games the moves or
    pair rule held back, in the order they finished."""
    history = await repo.history_of_key(db, key, start)
    held = {u.game_id: u for u in await repo.unrated_of_key(db, key, (MOVES, PAIR))} if start is None else {}
    games = await repo.games_by_ids(db, [h.game_id for h in history] + list(held))
    replays: list[_Replayed] = []
    for game_id, group in itertools.groupby(history, key=lambda h: h.game_id):
        changes = list(group)
        teams: dict[int, list[int]] = {}
        for change in changes:
            teams.setdefault(change.team, []).append(change.user_id)
        replays.append(_Replayed(games[game_id], teams, changes, None, _at(changes[0].finished_at)))
    seats = await repo.seats_of_games(db, list(held)) if held else {}
    for game_id, row in held.items():
        game = games.get(game_id)
        if game is not None and game.finished_at is not None and len(seats.get(game_id, {})) >= 2:
            replays.append(_Replayed(game, seats[game_id], [], row, _at(game.finished_at)))
    replays.sort(key=lambda r: (r.at, r.game.id))
    return replays


def _at(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # SQLite's are naive


def _history_reason(
    game: Game,
    options: GoOptions | KindOptions,
    teams: Mapping[int, Sequence[int]],
    moves: Mapping[int, int],
    window: Mapping[tuple[int, int], Sequence[datetime]],
    at: datetime,
) -> tuple[str, str] | None:
    """The moves and pair rules of eligibility.py for a game a recompute replays: its stored moves, and
    the games the replay has rated so far (`window`: per opponent pair, when their games finished)."""
    short = short_game_reason(game.kind, options, moves)
    if short is not None:
        return MOVES, short
    since = at - PAIR_WINDOW
    before = {pair: sum(1 for t in window.get(pair, ()) if since < t <= at) for pair in opponent_pairs(teams)}
    over = pair_reason(before)
    return (PAIR, over) if over is not None else None


def _first_before(change: RatingChange, system: System, start: tuple[datetime, int] | None) -> Rating:
    """A player's rating before their first replayed game: a new player's from the very start, else the
    rating stored with that game (what their earlier games, not replayed, left them with)."""
    if start is None:
        return first_rating(system)
    return Rating(change.rating_before, change.deviation_before, change.volatility_before)


async def recompute_all(db: AsyncSession, now: datetime) -> dict[str, int]:
    """Every key's ratings rebuilt (the CLI's `miai ratings recompute`): key -> games replayed."""
    keys = sorted({*await repo.rated_keys(db), *await repo.unrated_keys(db, (MOVES, PAIR))})
    return {key: await recompute(db, key, now) for key in keys}


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
