"""The two rating systems behind one small interface, pure functions of ratings and results.

* Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), for two teams of one player each, through the
  `glicko2` package. Each game is its own rating period, as lichess rates: the players' ratings move after
  every game, not once a month. The package's volatility step uses the player's rating where the paper has
  the deviation (phi^2 in f(x), step 5.1); `_Player` puts the paper's term back (it only shows away from
  1500, where the ratings' scale is centred: see tests/server/ratings/test_systems.py).
* OpenSkill's Plackett-Luce model (Weng and Lin 2011, the `openskill` package), for games of several teams or
  teams of several players: one update for all teams from their ranks (ties share a rank).

A `Rating` is (rating, deviation, volatility): Glicko's r, RD and sigma, or OpenSkill's mu and sigma (no
volatility). A rating is provisional while its deviation is large: RD >= 110 (lichess's threshold) or
OpenSkill sigma >= 5 (8.33 at the start: about twenty one-on-one games, fewer with more teams), and while
it has fewer than `MIN_ESTABLISHED_GAMES` rated games (a few wins over established players bring a new RD
down fast). Provisional ratings are on no leaderboard.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import glicko2
from openskill.models import PlackettLuce

System = Literal["glicko2", "openskill"]
SCALE = 173.7178  # Glicko-2's internal scale (Glickman's step 2)
TAU = 0.5  # the system constant; Glickman suggests 0.3..1.2, the package's default
# lichess's bounds keep a rating from freezing (tiny RD) or running away (huge volatility).
MIN_DEVIATION = 45.0
MAX_DEVIATION = 350.0
MAX_VOLATILITY = 0.1
PROVISIONAL_DEVIATION = 110.0
PROVISIONAL_SIGMA = 5.0
MIN_ESTABLISHED_GAMES = 10


@dataclass(frozen=True)
class Rating:
    rating: float
    deviation: float
    volatility: float | None = None


GLICKO_START = Rating(1500.0, 350.0, 0.06)
_MODEL = PlackettLuce()
OPENSKILL_START = Rating(_MODEL.mu, _MODEL.sigma)


def start(system: System) -> Rating:
    return GLICKO_START if system == "glicko2" else OPENSKILL_START


def provisional_deviation(system: System) -> float:
    """The deviation from which a rating is provisional."""
    return PROVISIONAL_DEVIATION if system == "glicko2" else PROVISIONAL_SIGMA


def provisional(system: System, rating: Rating, games: int = MIN_ESTABLISHED_GAMES) -> bool:
    """Whether a rating after `games` rated games is provisional (not yet established)."""
    return rating.deviation >= provisional_deviation(system) or games < MIN_ESTABLISHED_GAMES


class _Player(glicko2.Player):  # type: ignore[misc]  # the package has no type hints
    _tau = TAU

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        """Glickman's f(x) of step 5.1, with phi^2 (the deviation) as in the paper."""
        phi2: float = (self.rd / SCALE) ** 2
        ex = math.exp(x)
        return ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / TAU**2


def glicko2_period(player: Rating, games: Sequence[tuple[Rating, float]]) -> Rating:
    """`player` after one rating period of `games`: (opponent, score 1 win / 0.5 draw / 0 loss)."""
    if not games:
        return player
    p = _Player(player.rating, player.deviation, player.volatility or GLICKO_START.volatility)
    p.update_player([o.rating for o, _ in games], [o.deviation for o, _ in games], [s for _, s in games])
    return Rating(float(p.rating), float(p.rd), float(p.vol))


def glicko2_game(player: Rating, opponent: Rating, score: float) -> Rating:
    """`player` after one game against `opponent`: one game, one rating period, within lichess's bounds."""
    after = glicko2_period(player, [(opponent, score)])
    volatility = min(after.volatility or 0.0, MAX_VOLATILITY)
    return Rating(after.rating, min(max(after.deviation, MIN_DEVIATION), MAX_DEVIATION), volatility)


def openskill_game(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """Every player after one game: `teams` of players, `ranks` one per team (1 best, equal = tied)."""
    if len(teams) != len(ranks) or len(teams) < 2:
        raise ValueError("one rank per team, and at least two teams")
    players = [[_MODEL.rating(mu=r.rating, sigma=r.deviation) for r in team] for team in teams]
    rated = _MODEL.rate(players, ranks=[float(r) for r in ranks])
    return [[Rating(float(p.mu), float(p.sigma)) for p in team] for team in rated]


def ordinal(system: System, rating: Rating) -> float:
    """What a leaderboard sorts by: Glicko's rating, OpenSkill's mu - 3 sigma (its documented ordinal)."""
    return rating.rating if system == "glicko2" else rating.rating - 3 * rating.deviation
