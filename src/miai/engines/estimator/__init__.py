"""The dead-stone estimator (SPEC G4): which stones are dead or in seki at the end of a game and the score
that follows, plus a live territory estimate for games in progress.

    judgement = estimate(state)            # Judgement: dead, seki, neutral, owner, alive_certain
    result = score_with_estimate(state)    # miai.core.go.Result, scored with those dead stones
    view = area_estimate(state)            # per point, who is likely to get it
"""

from miai.engines.estimator.area import AREA_PLAYOUTS, area_estimate, decode_area
from miai.engines.estimator.estimate import (
    DEFAULT_PLAYOUTS,
    estimate,
    judge_end,
    judged_ownership,
    score_judged,
    score_with_estimate,
)
from miai.engines.estimator.gtp import GtpEstimator
from miai.engines.estimator.judgement import Judgement

__all__ = [
    "AREA_PLAYOUTS",
    "DEFAULT_PLAYOUTS",
    "GtpEstimator",
    "Judgement",
    "area_estimate",
    "decode_area",
    "estimate",
    "judge_end",
    "judged_ownership",
    "score_judged",
    "score_with_estimate",
]
