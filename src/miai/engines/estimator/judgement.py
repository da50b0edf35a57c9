"""The estimator's verdict on a position, and its explanation in words."""

from __future__ import annotations

import math
from dataclasses import dataclass

from miai.core.go.vertex import format_point

COLOUR_NAMES = ("Black", "White", "Red", "Green", "Blue", "Yellow", "Cyan", "Magenta")


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour] if colour < len(COLOUR_NAMES) else f"Colour {colour + 1}"


@dataclass(frozen=True, slots=True)
class Judgement:
    """Which stones are dead or in seki, and which colour every point counts for.

    `dead`: points of stones judged dead (they are removed for scoring and their points go to the colour
    around them). `seki`: points of stones in seki (never dead). `neutral`: points that count for nobody:
    empty points bordered by several colours (dame, shared liberties of a seki) and, under territory
    scoring with `rules.seki_territory == False`, the eyes of seki groups with any dead stones in them.
    `owner`: per point, the colour it counts for, or None. `alive_certain`: points of stones that are
    unconditionally alive (Benson). `playouts`, `seed` and `reasons` say how the verdict was reached.
    """

    dead: frozenset[int]
    seki: frozenset[int]
    neutral: frozenset[int]
    owner: tuple[int | None, ...]
    alive_certain: frozenset[int]
    playouts: int = 0
    seed: int = 0
    reasons: tuple[str, ...] = ()

    def explain(self) -> str:
        """A few lines for players: what was judged dead or in seki and why, and what counts for whom."""
        lines = [f"Dead-stone estimate from {self.playouts} playouts (seed {self.seed})."]
        lines.extend(self.reasons)
        if not self.dead:
            lines.append("No stone is dead.")
        if self.seki:
            lines.append(f"In seki (alive; shared liberties count for nobody): {self._vertices(self.seki)}.")
        if self.alive_certain:
            lines.append(f"Unconditionally alive (two or more safe eyes): {len(self.alive_certain)} stones.")
        counts: dict[int, int] = {}
        for colour in self.owner:
            if colour is not None:
                counts[colour] = counts.get(colour, 0) + 1
        area = ", ".join(f"{colour_name(c)} {n}" for c, n in sorted(counts.items()))
        lines.append(f"Points counted (stones and territory): {area or 'none'}; neutral {len(self.neutral)}.")
        return "\n".join(lines)

    @property
    def size(self) -> int:
        return math.isqrt(len(self.owner))

    def _vertices(self, points: frozenset[int]) -> str:
        return " ".join(format_point(p, self.size) for p in sorted(points))
