"""JSON views shared by several route modules (a route module is imported by the app alone)."""

from __future__ import annotations

from typing import Any

from miai.server.identity.accounts import PALETTES
from miai.server.identity.bots import is_computer
from miai.server.play.queries import shown_name
from miai.server.ratings.kind_keys import system_of
from miai.server.ratings.suggest import rank_label, rating_to_rank
from miai.server.ratings.systems import Rating, provisional
from miai.server.storage.models import GamePlayer, User, UserRating


def user_view(user: User, private: bool = False) -> dict[str, Any]:
    view: dict[str, Any] = {"id": user.id, "username": user.username}
    if private:
        view.update(
            email=user.email,
            email_verified=user.email is not None and user.email_verified_at is not None,
            settings=user.settings,
            is_admin=user.is_admin,  # the stored role only (`miai admin grant`), never a name
            is_guest=user.is_guest,  # the stored flag only, never a name
            is_bot=user.is_bot,  # POST /me/bot (irreversible) or a server computer player
            palettes=list(PALETTES),
        )
    return view


def rating_view(row: UserRating) -> dict[str, Any]:
    system = system_of(row.kind_key)
    rating = Rating(row.rating, row.deviation, row.volatility)
    view: dict[str, Any] = {
        "kind_key": row.kind_key,
        "system": system,
        "rating": round(row.rating, 2),
        "deviation": round(row.deviation, 2),
        "volatility": None if row.volatility is None else round(row.volatility, 6),
        "provisional": provisional(system, rating, row.games),
        "games": row.games,
    }
    if system == "glicko2" and row.kind_key.startswith("go-"):
        view["rank"] = rank_label(rating_to_rank(row.rating))  # OGS's kyu/dan names
    return view


def players_view(rows: list[tuple[GamePlayer, User]]) -> list[dict[str, Any]]:
    """A listed game's players (the live list, the archive, profiles and the dashboard)."""
    return [
        {
            "name": shown_name(user),
            "user": user.username,
            "team": p.team,
            "is_bot": user.is_bot,
            "computer": is_computer(user),  # the server's own computer player (a bot account too)
            "is_guest": user.is_guest,  # a guest has no page for others to open: not a link
        }
        for p, user in rows
    ]
