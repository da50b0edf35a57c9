"""One rated game's effect on its players: ranks from the stored result, then the key's system."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from miai.server.ratings.systems import Rating, System, glicko2_game, openskill_game


def team_ranks(result: Mapping[str, Any], teams: Sequence[int]) -> dict[int, int] | None:
    """team -> rank (1 best; tied teams share one) from the result's `ranking` (groups of teams, best
    first: winners, then the rest, or by score); None when the result ranks nobody."""
    ranking = result.get("ranking")
    if not isinstance(ranking, list) or not ranking:
        return None
    ranks: dict[int, int] = {}
    for place, group in enumerate(ranking, start=1):
        for team in group if isinstance(group, list) else []:
            if isinstance(team, int) and team in teams and team not in ranks:
                ranks[team] = place
    if len(ranks) != len(teams):
        return None
    return ranks


def rate_game(
    system: System,
    teams: Mapping[int, Sequence[Rating]],
    ranks: Mapping[int, int],
    black_bonus: float = 0.0,
) -> dict[int, list[Rating]]:
    """Each team's players' ratings after the game. `black_bonus`: rating points added to team 1's
    rating for the expectation only (a Glicko-2 handicap game, see suggest.handicap_adjustment)."""
    order = sorted(teams)
    if system == "openskill":
        after = openskill_game([teams[t] for t in order], [ranks[t] for t in order])
        return dict(zip(order, after, strict=True))
    (first, second) = order
    (a,), (b,) = teams[first], teams[second]
    score = 0.5 if ranks[first] == ranks[second] else (1.0 if ranks[first] < ranks[second] else 0.0)
    bonus_a = black_bonus if first == 1 else 0.0
    bonus_b = black_bonus if second == 1 else 0.0
    seen_a = Rating(a.rating + bonus_a, a.deviation, a.volatility)
    seen_b = Rating(b.rating + bonus_b, b.deviation, b.volatility)
    new_a = glicko2_game(seen_a, seen_b, score)
    new_b = glicko2_game(seen_b, seen_a, 1.0 - score)
    return {
        first: [Rating(new_a.rating - bonus_a, new_a.deviation, new_a.volatility)],
        second: [Rating(new_b.rating - bonus_b, new_b.deviation, new_b.volatility)],
    }
