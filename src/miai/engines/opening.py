"""Corners first: the top level's opening rule on big boards.

Light playouts judge the empty board poorly: their all-moves-as-first statistics rate third-line points in
the middle of a side as highly as the corners, and a search of a few seconds follows them. Players take the
empty corners first, and the shared game records say so too (a 4-4 point of an empty corner is chosen 800
times as often as an open point of the centre; see `kernel.open_area`). So during the first plies of a
two-colour game on 13×13 and up, while some corner is empty, the player takes the best of its 3-3, 3-4 and
4-4 points by the search's own statistics, unless the search finds another move clearly better (an answer
to an approach, a fight) on enough visits of the corner point to tell.
"""

from __future__ import annotations

from miai.core.go import GoState, Move, Place
from miai.engines.result import SearchResult

MIN_SIZE = 13
SLACK = 0.05  # keep the search's move when it is this much better than the best corner point ...
EVIDENCE = 100  # ... by this many visits of that corner point at least (fewer are too noisy to tell)
LINES = (2, 3)  # the third and fourth lines, from 0 at the edge


def opening_plies(size: int) -> int:
    return size + 1


def corner_box(size: int) -> int:
    """Lines from the edge that make up a corner (6 on 19×19, 4 on 13×13)."""
    return min(6, size // 3)


def empty_corner_points(state: GoState) -> list[int]:
    """The 3-3, 3-4, 4-3 and 4-4 points of every corner with no stone in it."""
    size = state.size
    box = corner_box(size)
    points: list[int] = []
    for flip_row in (False, True):
        for flip_col in (False, True):

            def point(row: int, col: int, fr: bool = flip_row, fc: bool = flip_col) -> int:
                return (size - 1 - row if fr else row) * size + (size - 1 - col if fc else col)

            if all(state.colour_at(point(r, c)) is None for r in range(box) for c in range(box)):
                points.extend(point(r, c) for r in LINES for c in LINES)
    return points


def corners_first(state: GoState, result: SearchResult[Move]) -> Move | None:
    """The corner point to play instead of the search's move, or None to keep it."""
    if state.colours != 2 or state.size < MIN_SIZE or len(state.moves()) >= opening_plies(state.size):
        return None
    corners = set(empty_corner_points(state))
    if not corners or (isinstance(result.move, Place) and result.move.point in corners):
        return None
    candidates = [c for c in result.children if isinstance(c.move, Place) and c.move.point in corners]
    if not candidates:
        return None
    best = max(candidates, key=lambda c: (c.visits, c.win_rate))
    if best.visits >= EVIDENCE and best.win_rate < result.win_rate - SLACK:
        return None
    return best.move
