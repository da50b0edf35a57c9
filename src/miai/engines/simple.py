"""A simple seeded Go player that reads one move ahead: `miai gtp --level simple`.

It is no search engine (that is `go_player`, the computer's levels 1..10) but an instant, deterministic
opponent for trying GTP tools and for tests that need a whole game played quickly. In order of preference it
1. captures (the largest opponent chain in atari it can take),
2. saves its own largest chain in atari when playing on the last liberty gives that chain two or more,
3. plays a random legal point, preferring points off the first two lines while the board is still
   mostly empty, and never a point that leaves its own new stone in atari (or takes it off the board);
4. passes when none of that is left.
It never fills its own single-point eyes (empty points whose neighbours are all its own stones) and only
ever chooses among the state's legal points, for any number of colours. Whatever the ko rule, it never
makes a play that repeats an earlier whole-board position of the game, so that two copies of it cannot
loop forever (under simple ko, capture-and-recapture cycles would). The time budget is ignored.
"""

from __future__ import annotations

import random

from miai.core.go import PASS, GoState, Move, Place

__all__ = ["SimplePlayer"]

# While fewer than this share of the points hold stones, prefer points away from the edge.
_OPENING_SHARE = 0.25
_EDGE_LINES = 2  # the first and second line count as "the edge"
_MIN_SIZE_FOR_EDGE_RULE = 7


class SimplePlayer:
    """`player(state, colour, seconds) -> Move`; fits miai.formats.gtp's MoveGenerator protocol."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, state: GoState, colour: int, seconds: float | None = None) -> Move:
        legal = set(state.legal_points(colour))
        if not legal:
            return PASS
        legal -= self._own_eyes(state, colour, legal)
        earlier = {before.hash for before in state.lineage()}
        urgent = self._capture_or_save(state, colour, legal, earlier)
        if urgent is not None:
            return Place(urgent)
        return self._quiet_move(state, colour, legal, earlier)

    @staticmethod
    def _own_eyes(state: GoState, colour: int, points: set[int]) -> set[int]:
        neighbours = state.geo.neighbours
        return {p for p in points if all(state.colour_at(n) == colour for n in neighbours[p])}

    def _capture_or_save(self, state: GoState, colour: int, legal: set[int], earlier: set[int]) -> int | None:
        """The best capture, else the best rescue of an own chain in atari, else None."""
        captures: dict[int, int] = {}  # point -> stones it takes
        rescues: dict[int, int] = {}  # point -> stones it saves
        seen: set[int] = set()
        for stone in state.stones():
            if stone in seen:
                continue
            chain = state.chain_points(stone)
            seen.update(chain)
            liberties = state.liberties(stone)
            if len(liberties) != 1:
                continue
            (liberty,) = liberties
            if liberty not in legal:
                continue
            after = state.play_as(colour, Place(liberty), check_ko=False)
            if after.hash in earlier:
                continue
            if state.colour_at(stone) != colour:
                captures[liberty] = captures.get(liberty, 0) + len(chain)
            elif len(after.liberties(liberty)) >= 2:
                rescues[liberty] = rescues.get(liberty, 0) + len(chain)
        for options in (captures, rescues):
            if options:
                best = max(options.values())
                return self.rng.choice(sorted(p for p, value in options.items() if value == best))
        return None

    def _quiet_move(self, state: GoState, colour: int, legal: set[int], earlier: set[int]) -> Move:
        size = state.size
        candidates = sorted(legal)
        self.rng.shuffle(candidates)
        if size >= _MIN_SIZE_FOR_EDGE_RULE and len(state.stones()) < _OPENING_SHARE * size * size:

            def edge_line(p: int) -> int:
                row, col = divmod(p, size)
                return min(row, col, size - 1 - row, size - 1 - col)

            # A stable sort keeps the random order inside each group.
            candidates.sort(key=lambda p: edge_line(p) < _EDGE_LINES)
        for p in candidates:
            after = state.play_as(colour, Place(p), check_ko=False)
            if after.colour_at(p) == colour and len(after.liberties(p)) >= 2 and after.hash not in earlier:
                return Place(p)
        return PASS
