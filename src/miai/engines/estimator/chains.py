"""The chains of a position and the groups they form, read once from a core `GoState`."""

from __future__ import annotations

from dataclasses import dataclass

from miai.core.go import GoState


@dataclass(frozen=True, slots=True)
class Chain:
    """A maximal set of connected stones of one colour and its liberties."""

    index: int
    colour: int
    points: frozenset[int]
    liberties: frozenset[int]

    @property
    def anchor(self) -> int:
        """The chain's lowest point: a stable name for it."""
        return min(self.points)


class Chains:
    """Every chain of a position, with the chain at each point (`at[p]`, -1 on empty points)."""

    def __init__(self, state: GoState) -> None:
        self.state = state
        board = state.board()
        self.board = board
        self.neighbours = state.geo.neighbours
        self.at: list[int] = [-1] * len(board)
        chains: list[Chain] = []
        for start, colour in enumerate(board):
            if colour is None or self.at[start] >= 0:
                continue
            index = len(chains)
            stack = [start]
            self.at[start] = index
            points: list[int] = []
            liberties: set[int] = set()
            while stack:
                p = stack.pop()
                points.append(p)
                for n in self.neighbours[p]:
                    other = board[n]
                    if other is None:
                        liberties.add(n)
                    elif other == colour and self.at[n] < 0:
                        self.at[n] = index
                        stack.append(n)
            chains.append(Chain(index, colour, frozenset(points), frozenset(liberties)))
        self.chains = chains

    def around(self, p: int) -> set[int]:
        """Indices of the chains next to point p."""
        return {self.at[n] for n in self.neighbours[p] if self.at[n] >= 0}

    def groups(self) -> list[list[int]]:
        """Chains of one colour joined through empty regions that only that colour borders.

        Their owner can connect such chains at will, so they stand or fall together (a chain next to an
        eye of a live group is part of that group). Returns lists of chain indices.
        """
        parent = list(range(len(self.chains)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for region in self.empty_regions():
            bordering = {self.at[n] for p in region for n in self.neighbours[p] if self.at[n] >= 0}
            colours = {self.chains[i].colour for i in bordering}
            if len(colours) == 1 and len(bordering) > 1:
                first, *rest = bordering
                for other in rest:
                    parent[find(other)] = find(first)
        members: dict[int, list[int]] = {}
        for i in range(len(self.chains)):
            members.setdefault(find(i), []).append(i)
        return list(members.values())

    def empty_regions(self) -> list[list[int]]:
        """Maximal connected sets of empty points."""
        seen = [False] * len(self.board)
        regions = []
        for start, colour in enumerate(self.board):
            if colour is not None or seen[start]:
                continue
            seen[start] = True
            region = [start]
            i = 0
            while i < len(region):
                for n in self.neighbours[region[i]]:
                    if self.board[n] is None and not seen[n]:
                        seen[n] = True
                        region.append(n)
                i += 1
            regions.append(region)
        return regions
