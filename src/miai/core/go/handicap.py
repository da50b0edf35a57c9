"""Fixed handicap layouts: Dgo's traditional table (SPEC §1.9) and the GTP / GNU Go layout."""

from __future__ import annotations

from miai.core.errors import InvalidRules
from miai.core.go.rules import HandicapLayout


def _star_line(size: int) -> int:
    return 2 if size < 13 else 3  # 0-based: 3rd line below 13x13, 4th line from 13x13 up


def max_fixed_handicap(size: int, layout: HandicapLayout) -> int:
    if size == 7 and layout is HandicapLayout.TRADITIONAL:
        return 0  # Dgo allows no handicap on 7x7 (SPEC G10)
    if size < 7:
        return 0
    if size % 2 == 0 or size == 7:
        return 4
    return 9


def fixed_handicap(size: int, stones: int, layout: HandicapLayout) -> list[tuple[int, int]]:
    """Handicap points as (col, row) with row 0 at the bottom, in placement order."""
    limit = max_fixed_handicap(size, layout)
    if stones < 2 or stones > limit:
        if limit == 0:
            raise InvalidRules(f"no fixed handicap on {size}x{size} with the {layout.value} layout")
        raise InvalidRules(f"fixed handicap on {size}x{size} must be 2..{limit} stones, not {stones}")
    low = _star_line(size)
    high = size - 1 - low
    mid = size // 2
    lower_left, upper_right = (low, low), (high, high)
    upper_left, lower_right = (low, high), (high, low)
    # GTP: 3 adds upper left; traditional (Dgo, AGA, Wikipedia): 3 adds Black's lower right.
    third, fourth = (upper_left, lower_right) if layout is HandicapLayout.GTP else (lower_right, upper_left)
    corners = [lower_left, upper_right, third, fourth]
    sides_lr = [(low, mid), (high, mid)]
    sides_tb = [(mid, low), (mid, high)]
    centre = (mid, mid)
    if stones <= 4:
        return corners[:stones]
    if stones == 5:
        return [*corners, centre]
    if stones == 6:
        return corners + sides_lr
    if stones == 7:
        return [*corners, *sides_lr, centre]
    if stones == 8:
        return corners + sides_lr + sides_tb
    return [*corners, *sides_lr, *sides_tb, centre]
