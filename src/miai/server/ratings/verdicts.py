"""What a finished game says of its ratings (the snapshot's and the `finished` event's `rating`): whether
it was rated, each player's change, or why it was not (ratings/eligibility.py decided and stored it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.game_options import GoOptions, KindOptions, load_options
from miai.server.ratings.eligibility import setup_unrated_reason
from miai.server.ratings.kind_keys import kind_key
from miai.server.storage import ratings as repo
from miai.server.storage.models import Game, RatingChange

UNKNOWN = "this game did not count for ratings"  # rated games finished before reasons were stored


def verdict_view(key: str | None, changes: Sequence[RatingChange], reason: str | None) -> dict[str, Any]:
    """`rated` with the players' `changes` (team by team), or not with its `reason`; rounded as the
    profiles' rating history is."""
    return {
        "rated": bool(changes),
        "kind_key": key,
        "reason": None if changes else (reason or UNKNOWN),
        "changes": [
            {
                "user_id": c.user_id,
                "team": c.team,
                "before": round(c.rating_before, 2),
                "after": round(c.rating_after, 2),
                "change": round(c.rating_after - c.rating_before, 2),
            }
            for c in sorted(changes, key=lambda c: c.team)
        ],
    }


def created_unrated(kind: str, options: GoOptions | KindOptions) -> dict[str, Any]:
    """The `rating` of a game created unrated (practice games and uploaded records too)."""
    return verdict_view(None, [], setup_unrated_reason(kind, options))


async def game_rating(db: AsyncSession, game: Game) -> dict[str, Any] | None:
    """The `rating` of a finished game as stored now (a correction's replay included); None before the
    end."""
    if game.status != "finished":
        return None
    options = load_options(game.kind, game.options)
    if not options.rated:
        return created_unrated(game.kind, options)
    key = kind_key(game.kind, options)
    changes = await repo.changes_of_game(db, game.id)
    if changes:
        return verdict_view(key, changes, None)
    unrated = await repo.unrated_game(db, game.id)
    return verdict_view(key, [], unrated.reason if unrated is not None else None)
