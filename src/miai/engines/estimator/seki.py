"""Seki: chains of different colours that share liberties nobody can fill, and that nobody can kill.

A shared liberty is a *seki point* when no colour can play there usefully: the play would be suicide, or
it would leave the player's own chain with a single liberty without capturing anything (self-atari), so
the other side takes it at once. Such points are found two ways: on the board itself
(`fill_proof_points`, then `closed_seki`), and in the playouts, whose policy never makes such a self-atari,
so that the point is still empty and bordered by two colours when they end (`still_shared_points`).

A seki point only makes a seki candidate: a sacrifice may still kill (SPEC §1.11.6, straight or bent
three with the vital point taken, a throw-in that leaves one eye). `read_candidates` reads every
candidate chain out (`miai.engines.estimator.reading`); the estimator kills those captured even when
their owner moves first and spares the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from miai.engines.estimator.chains import Chains
from miai.engines.estimator.reading import Budget, LocalReading, Verdict

STILL_SHARED = 0.5  # share of playouts at whose end a seki point is still empty and neutral
JOIN_LIBERTIES = 3  # a chain next to a seki cluster with this many liberties or fewer takes part in its fight


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


def read_candidates(
    chains: Chains,
    candidates: set[int],
    certain: frozenset[int],
    budget: Budget,
    only: set[int] | None = None,
) -> dict[int, Verdict]:
    """A verdict for every candidate chain (or those in `only`), read with the candidates it shares
    liberties with and the short-of-liberties chains around them (`_fight`)."""
    verdicts: dict[int, Verdict] = {}
    for cluster in _clusters(chains, candidates):
        wanted = cluster if only is None else cluster & only
        if not wanted:
            continue
        reading = LocalReading(chains, _fight(chains, cluster, certain), budget)
        for i in sorted(wanted):
            chain = chains.chains[i]
            verdicts[i] = reading.verdict(chain.points, chain.colour)
    return verdicts


def _fight(chains: Chains, cluster: set[int], certain: frozenset[int]) -> set[int]:
    """The cluster and the chains next to it or to its liberties with at most JOIN_LIBERTIES liberties.

    A wall that short of liberties may itself be captured, or cost an eye to connect to, so the reading
    must not take it for alive. One ring only: further out, a fight would take in half the board.
    """
    near = {
        j
        for i in cluster
        for p in chains.chains[i].points | chains.chains[i].liberties
        for n in chains.neighbours[p]
        if (j := chains.at[n]) >= 0
    }
    return set(cluster) | {
        j
        for j in near - cluster
        if len(chains.chains[j].liberties) <= JOIN_LIBERTIES and not chains.chains[j].points <= certain
    }


def _clusters(chains: Chains, candidates: set[int]) -> list[set[int]]:
    """The candidates joined through liberties they share, whatever their colours."""
    parent = {i: i for i in candidates}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owners: dict[int, int] = {}
    for i in sorted(candidates):
        for p in chains.chains[i].liberties:
            if p in owners:
                parent[find(i)] = find(owners[p])
            else:
                owners[p] = i
    out: dict[int, set[int]] = {}
    for i in candidates:
        out.setdefault(find(i), set()).add(i)
    return list(out.values())


def _own_eye(chains: Chains, p: int, index: int) -> bool:
    """An empty point whose every neighbour is a stone of the chain's colour: no opponent can play there."""
    colour = chains.chains[index].colour
    return all(chains.board[n] == colour for n in chains.neighbours[p])
