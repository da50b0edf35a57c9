"""Unconditional life (Benson 1976), for any number of colours.

A chain is unconditionally alive when the other colours together, playing as many moves as they like while
its owner passes, can never capture it. Benson's iteration: among the owner's chains and the regions they
enclose (maximal connected sets of points without the owner's stones), keep the chains with at least two
*vital* regions, drop the regions that touch a dropped chain, and repeat until nothing changes.

With two colours and suicide forbidden a region is vital to a chain when each of its empty points is a
liberty of the chain (Benson's own condition). With more colours, one opponent may capture another's
stones inside the region and so empty points that are not liberties; with multi-stone suicide allowed an
opponent may do the same to itself. In those games every point of the region, stone or not, has to touch
the chain, which keeps the proof intact: such a region can never be filled completely.
"""

from __future__ import annotations

from miai.core.go import GoState, Suicide
from miai.engines.estimator.chains import Chains


def unconditionally_alive(state: GoState, chains: Chains | None = None) -> frozenset[int]:
    """The points of every stone that no combination of opponents' moves can capture."""
    chains = chains or Chains(state)
    strict = state.colours > 2 or state.rules.suicide is Suicide.ALLOWED
    alive: set[int] = set()
    for colour in sorted({chain.colour for chain in chains.chains}):
        for index in _alive_chains(chains, colour, strict):
            alive.update(chains.chains[index].points)
    return frozenset(alive)


def _regions(chains: Chains, colour: int) -> list[list[int]]:
    """Maximal connected sets of points not holding a `colour` stone."""
    board = chains.board
    seen = [False] * len(board)
    regions = []
    for start, stone in enumerate(board):
        if stone == colour or seen[start]:
            continue
        seen[start] = True
        region = [start]
        i = 0
        while i < len(region):
            for n in chains.neighbours[region[i]]:
                if board[n] != colour and not seen[n]:
                    seen[n] = True
                    region.append(n)
            i += 1
        regions.append(region)
    return regions


def _alive_chains(chains: Chains, colour: int, strict: bool) -> set[int]:
    board = chains.board
    neighbours = chains.neighbours
    candidates = {chain.index for chain in chains.chains if chain.colour == colour}
    regions = []  # (bordering chains, chains to which the region is vital)
    for region in _regions(chains, colour):
        empty = [p for p in region if board[p] is None]
        if not empty:
            continue
        bordering = {chains.at[n] for p in region for n in neighbours[p] if board[n] == colour}
        must_touch = region if strict else empty
        vital = {
            i for i in bordering if all(any(chains.at[n] == i for n in neighbours[p]) for p in must_touch)
        }
        regions.append((bordering, vital))
    while True:
        healthy = [vital for bordering, vital in regions if bordering <= candidates]
        keep = {i for i in candidates if sum(i in vital for vital in healthy) >= 2}
        if keep == candidates:
            return keep
        candidates = keep
