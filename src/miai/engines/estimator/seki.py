"""Seki: chains of different colours that share liberties nobody can fill without being captured.

A shared liberty is a *seki point* when no colour can play there usefully: the play would be suicide, or
it would leave the player's own chain with a single liberty without capturing anything (self-atari), so
the other side takes it at once (SPEC §1.11.6). Such points are found two ways, and either suffices:
on the board itself (`fill_proof_points`, then `closed_seki`), and in the playouts, whose policy never
makes such a self-atari, so that the point is still empty and bordered by two colours when they end
(`still_shared_points`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from miai.engines.estimator.chains import Chains

STILL_SHARED = 0.5  # share of playouts at whose end a seki point is still empty and neutral


def nobody_can_fill(chains: Chains, p: int, colours: Iterable[int]) -> bool:
    """Whether every colour's stone at the empty point p would be suicide or a self-atari."""
    around = chains.around(p)
    own_empty = {n for n in chains.neighbours[p] if chains.board[n] is None}
    for colour in colours:
        liberties = set(own_empty)
        for i in around:
            chain = chains.chains[i]
            if chain.colour == colour:
                liberties |= chain.liberties
            elif chain.liberties == {p}:
                return False  # the play captures: a real move, not a self-atari
        liberties.discard(p)
        if len(liberties) >= 2:
            return False
    return True


def fill_proof_points(chains: Chains, colours: Sequence[int]) -> set[int]:
    """Empty points next to chains of two or more colours that nobody can fill."""
    shared = {
        p
        for region in chains.empty_regions()
        for p in region
        if len({chains.chains[i].colour for i in chains.around(p)}) >= 2
    }
    return {p for p in shared if nobody_can_fill(chains, p, colours)}


def closed_seki(chains: Chains, points: set[int]) -> set[int]:
    """The seki points left once every chain next to one cannot be approached from elsewhere.

    A chain with a liberty that is neither a seki point nor its own eye can be approached there without
    self-atari, and then the seki point is just the chain's last liberty: such points are dropped until
    the rest holds together.
    """
    points = set(points)
    while True:
        bad = {
            i
            for p in points
            for i in chains.around(p)
            if len(chains.chains[i].liberties) < 2
            or any(q not in points and not _own_eye(chains, q, i) for q in chains.chains[i].liberties)
        }
        drop = {p for p in points if chains.around(p) & bad}
        if not drop:
            return points
        points -= drop


def still_shared_points(chains: Chains, live: set[int], neutral_share: Sequence[float]) -> set[int]:
    """Empty points next to live chains of two or more colours that the playouts leave neutral."""
    return {
        p
        for region in chains.empty_regions()
        for p in region
        if neutral_share[p] >= STILL_SHARED
        and len({chains.chains[i].colour for i in chains.around(p) & live}) >= 2
    }


def seki_chains(chains: Chains, points: set[int]) -> set[int]:
    """The chains that touch a seki point."""
    return {i for p in points for i in chains.around(p)}


def _own_eye(chains: Chains, p: int, index: int) -> bool:
    """An empty point whose every neighbour is a stone of the chain's colour: no opponent can play there."""
    colour = chains.chains[index].colour
    return all(chains.board[n] == colour for n in chains.neighbours[p])
