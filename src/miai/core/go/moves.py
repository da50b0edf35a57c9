"""Go move types. Points are ints `row * size + col`, col 0 = left edge, row 0 = bottom edge (GTP A1)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Place:
    """Put a stone of the colour to move on `point`."""

    point: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Give up the turn; counts towards the consecutive-pass ending."""


@dataclass(frozen=True, slots=True)
class Resign:
    """The player on move leaves the game; the team keeps the move while a teammate remains."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """The player on move ran out of time; handled exactly like a resignation."""


Move = Place | Pass | Resign | Timeout

PASS = Pass()
RESIGN = Resign()
TIMEOUT = Timeout()
