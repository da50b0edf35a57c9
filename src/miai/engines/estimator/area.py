"""A live territory estimate for games in progress (the "Area" view): who is likely to get each point.

`area_estimate` returns one number per point (core point order, row 0 at the bottom):

* two colours: the share of playouts in which Black gets the point minus the share for White, in -1..1
  (+1 surely Black's, -1 surely White's, near 0 contested or neutral);
* more colours: `colour + confidence / 2`, where `colour` is the colour that gets the point most often and
  `confidence` (0..1) the share of playouts in which it does; -1.0 when no colour ever gets it.
  `decode_area` turns such a number back into (colour or None, confidence).
"""

from __future__ import annotations

import math

from miai.core.go import GoState
from miai.engines.estimator.playouts import ownership_shares

AREA_PLAYOUTS = 300
NOBODY = -1.0


def area_estimate(state: GoState, playouts: int = AREA_PLAYOUTS, seed: int = 0) -> tuple[float, ...]:
    """Per point, who is likely to get it, encoded as described in the module docstring."""
    shares = ownership_shares(state, playouts, seed)
    if state.colours == 2:
        return tuple(b - w for b, w in zip(shares[0], shares[1], strict=True))
    out = []
    for column in zip(*shares, strict=True):
        best = max(range(len(column)), key=lambda c: column[c])
        out.append(best + column[best] / 2 if column[best] > 0 else NOBODY)
    return tuple(out)


def decode_area(value: float) -> tuple[int | None, float]:
    """(colour, confidence) of a multi-colour `area_estimate` value; (None, 0.0) for nobody."""
    if value < 0:
        return None, 0.0
    colour = math.floor(value)
    return colour, min(1.0, 2 * (value - colour))
