"""Where players play in open areas: the tree's prior for points with no stone nearby, learned from games.

A 3×3 shape cannot tell a corner's 4-4 point from the centre: both are empty all round. On boards of 13×13
and more, a point with no stone within `REACH` (Manhattan distance) is therefore classed by its distance to
the two nearest edges, as lines 1..MAX_LINE counted from the edge (the nearer first, MAX_LINE meaning "that
far or further"), and valued by how often players chose such points in real games: the corner points
(4-4, 3-4, 3-3) far above the average, the first two lines and the centre below. `open_area_rates.txt` holds
"near line, far line, times chosen, times available" rows written by `miai.engines.shape_learning`.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import numpy.typing as npt

from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.layout import COL, H_SIZE, Int32Array, W
from miai.engines.kernel.shapes import rate_rows, relative_rates

OPEN_RATES_FILE = "open_area_rates.txt"
MIN_SIZE = 13  # smaller boards have no open areas worth the name
REACH = 3
MAX_LINE = 7
CLASSES = (MAX_LINE + 1) * (MAX_LINE + 1)  # index near * (MAX_LINE + 1) + far
SMOOTHING = 200.0  # pseudo-observations at the average rate


@jit
def near_stones(b: Int32Array, q: int, size: int, reach: int) -> bool:
    """Some stone lies within Manhattan distance `reach` of q."""
    row = q // W - 1
    col = q % W - 1
    for dr in range(-reach, reach + 1):
        r = row + dr
        if r < 0 or r >= size:
            continue
        span = reach - abs(dr)
        for dc in range(-span, span + 1):
            c = col + dc
            if 0 <= c < size and b[COL + (r + 1) * W + c + 1] >= 0:
                return True
    return False


@jit
def open_area_class(b: Int32Array, q: int) -> int:
    """The class of an empty point in an open area of a big board (see the module), or -1."""
    size = wide(b[H_SIZE])
    if size < MIN_SIZE or near_stones(b, q, size, REACH):
        return -1
    row = q // W - 1
    col = q % W - 1
    a = min(row, size - 1 - row, MAX_LINE - 1) + 1
    c = min(col, size - 1 - col, MAX_LINE - 1) + 1
    return min(a, c) * (MAX_LINE + 1) + max(a, c)


def parse_open_rates(text: str) -> dict[int, tuple[int, int]]:
    """{class: (chosen, available)} from the rates file's "near far chosen available" rows."""
    rates: dict[int, tuple[int, int]] = {}
    for number, line, (near, far, chosen, available) in rate_rows(
        text, OPEN_RATES_FILE, "near far chosen available"
    ):
        if not 1 <= near <= far <= MAX_LINE or chosen > available:
            raise ValueError(f"{OPEN_RATES_FILE} line {number}: impossible row {line!r}")
        rates[near * (MAX_LINE + 1) + far] = (chosen, available)
    return rates


def open_rates_text(chosen: npt.NDArray[np.int64], available: npt.NDArray[np.int64], source: str) -> str:
    header = [
        f"# Miai {OPEN_RATES_FILE}: open-area points chosen / available, learned by"
        " miai.engines.shape_learning",
        f"# from {source}",
        "# near line, far line (1 = the edge, 7 = the seventh line or beyond), chosen, available",
    ]
    rows = [
        f"{cls // (MAX_LINE + 1)} {cls % (MAX_LINE + 1)} {chosen[cls]} {available[cls]}"
        for cls in range(CLASSES)
        if available[cls] > 0
    ]
    return "\n".join(header + rows) + "\n"


def open_values_from_rates(rates: dict[int, tuple[int, int]]) -> npt.NDArray[np.float64]:
    """Per class: rate / (rate + average rate), each rate smoothed towards the average; 0.5 when unseen."""
    values = np.full(CLASSES, 0.5, dtype=np.float64)
    for cls, value in relative_rates(rates, SMOOTHING).items():
        values[cls] = value
    return values


def open_area_values() -> npt.NDArray[np.float64]:
    """The value table learned from real games, as shipped with Miai."""
    text = resources.files("miai.engines.kernel").joinpath(OPEN_RATES_FILE).read_text(encoding="utf-8")
    return open_values_from_rates(parse_open_rates(text))


OPEN_AREA_VALUES = open_area_values()
