"""Replaying game records to count what players chose, for the learned priors (see `shape_learning`),
and to collect the positions the move predictor learns from (see `policy_learning`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from miai.engines.kernel.board import place
from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.layout import COL, EMPTIES, EMPTY, H_N_EMPTY, H_SIZE, Int32Array, P, UInt64Array
from miai.engines.kernel.open_area import open_area_class
from miai.engines.kernel.playout import pattern_code
from miai.engines.kernel.policy_net import N_PLANES, encode, point_index

Counts = npt.NDArray[np.int64]


@jit
def count_choices(
    b: Int32Array,
    hz: UInt64Array,
    zob: UInt64Array,
    colours: Int32Array,
    points: Int32Array,
    shape_chosen: Counts,
    shape_available: Counts,
    open_chosen: Counts,
    open_available: Counts,
) -> int:
    """Replay placements (padded points; < 0 for a pass) on `b`. Before each one, every empty point counts
    as available and the chosen point as chosen: per raw 3×3 code seen from the mover's side, and per
    open-area class (`open_area.open_area_class`). Stops at a move onto a stone (a record the board cannot
    follow); returns the moves counted."""
    for i in range(points.shape[0]):
        q = wide(points[i])
        colour = wide(colours[i])
        if q < 0:
            continue
        if b[COL + q] != EMPTY:
            return i
        for k in range(b[H_N_EMPTY]):
            e = wide(b[EMPTIES + k])
            shape_available[pattern_code(b, e, colour)] += 1
            cls = open_area_class(b, e)
            if cls >= 0:
                open_available[cls] += 1
        shape_chosen[pattern_code(b, q, colour)] += 1
        cls = open_area_class(b, q)
        if cls >= 0:
            open_chosen[cls] += 1
        place(b, hz, zob, colour, q)
    return wide(points.shape[0])


@jit
def record_positions(
    b: Int32Array,
    hz: UInt64Array,
    zob: UInt64Array,
    colours: Int32Array,
    points: Int32Array,
    planes: npt.NDArray[np.uint8],
    targets: npt.NDArray[np.int64],
    start: int,
) -> int:
    """Replay placements like `count_choices`, writing before each one the mover's feature planes
    (`policy_net.encode`) to planes[start + i] and the chosen point (y * size + x) to targets[start + i].
    Stops at a move onto a stone or when the arrays are full; returns the examples written."""
    size = wide(b[H_SIZE])
    scratch = np.empty((size, size, N_PLANES), dtype=np.float32)
    libs = np.empty(P, dtype=np.int32)
    tmp = np.empty(8, dtype=np.int32)
    written = 0
    for i in range(points.shape[0]):
        q = wide(points[i])
        colour = wide(colours[i])
        if q < 0:
            continue
        if b[COL + q] != EMPTY or start + written >= targets.shape[0]:
            break
        encode(b, colour, scratch, libs, tmp)
        for y in range(size):
            for x in range(size):
                for c in range(N_PLANES):
                    planes[start + written, y, x, c] = np.uint8(scratch[y, x, c])
        targets[start + written] = point_index(q, size)
        written += 1
        place(b, hz, zob, colour, q)
    return written
