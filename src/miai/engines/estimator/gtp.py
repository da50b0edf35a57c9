"""The estimator as the GTP engine's dead-stone estimator (`final_score`, `final_status_list`)."""

from __future__ import annotations

from miai.core.go import GoState
from miai.engines.estimator.estimate import DEFAULT_PLAYOUTS, estimate
from miai.formats.gtp.go_players import Judgement as GtpJudgement


class GtpEstimator:
    """Fits `miai.formats.gtp.go_players.DeadStoneEstimator`: `judge(state)` gives dead and seki stones."""

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> None:
        self.playouts = playouts
        self.seed = seed

    def judge(self, state: GoState) -> GtpJudgement:
        judgement = estimate(state, self.playouts, self.seed)
        return GtpJudgement(dead=judgement.dead, seki=judgement.seki)
