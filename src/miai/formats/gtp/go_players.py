"""What the Go GTP engine asks of a player and of a dead-stone estimator.

Both are protocols defined here, in formats, so that the GTP layer never imports the engines layer: an
engine (the players of miai.engines.levels and miai.engines.simple, the estimator) just has to fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from miai.core.go import PASS, GoState, Move

__all__ = ["DeadStoneEstimator", "Judgement", "MoveGenerator", "always_pass"]


class MoveGenerator(Protocol):
    """Chooses a move for `colour` (0 = Black, 1 = White) in `state`.

    `state` may have another colour to move (GTP lets the controller ask for either colour) and is never
    marked as ended, even after two passes. `seconds` is the time to spend on this move, or None when
    there is no time limit. The answer must be a legal Place, Pass or Resign for `colour`.
    """

    # Positional-only, so that any callable with these argument types fits, whatever it names them.
    def __call__(self, state: GoState, colour: int, seconds: float | None, /) -> Move: ...


@dataclass(frozen=True, slots=True)
class Judgement:
    """An estimator's verdict on a final position: points holding dead stones and stones in seki."""

    dead: frozenset[int] = frozenset()
    seki: frozenset[int] = frozenset()


class DeadStoneEstimator(Protocol):
    def judge(self, state: GoState) -> Judgement: ...


def always_pass(state: GoState, colour: int, seconds: float | None) -> Move:
    """The move generator of an engine built without one (a referee or analysis engine)."""
    return PASS
