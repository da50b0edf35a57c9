"""A playout policy for the generic MCTS that finishes Go games in the compiled kernel."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from miai.core.go import GoState
from miai.core.registry import GameState
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.patterns import PATTERNS
from miai.engines.kernel.playout import new_rng, policy_knobs, repeated_playouts
from miai.engines.mcts import PlayoutPolicy


def kernel_playout(light: bool = True) -> PlayoutPolicy:
    """Go playouts in compiled code (light policy, or uniformly random with `light=False`).

    The kernel's generator is seeded from the search's `random.Random`, so the search stays deterministic.
    """

    knobs = policy_knobs(light)

    def playout(state: GameState[Any], rng: random.Random) -> Sequence[float]:
        if not isinstance(state, GoState):
            raise TypeError(f"kernel_playout plays Go only, not {type(state).__name__}")
        position = from_state(state)
        size = state.size
        totals = repeated_playouts(
            position.b,
            position.hz,
            position.zob,
            position.komi,
            new_rng(rng.getrandbits(63)),
            PATTERNS,
            knobs,
            1,
            3 * size * size + 50,
        )
        return tuple(float(x) for x in totals[: state.colours])

    return playout
