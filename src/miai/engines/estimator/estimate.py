"""The dead-stone estimator: unconditional life, playout ownership, seki, then one verdict per group."""

from __future__ import annotations

from miai.core.go import GoState, Result, Scoring, outcome
from miai.core.go.moves import PASS
from miai.core.go.rules import DeadStones
from miai.core.go.scoring import ownership
from miai.core.go.vertex import format_point
from miai.engines.estimator.benson import unconditionally_alive
from miai.engines.estimator.chains import Chain, Chains
from miai.engines.estimator.judgement import Judgement, colour_name
from miai.engines.estimator.playouts import ownership_shares
from miai.engines.estimator.reading import Budget, Verdict
from miai.engines.estimator.seki import (
    closed_seki,
    fill_proof_points,
    read_candidates,
    seki_chains,
    still_shared_points,
)

DEFAULT_PLAYOUTS = 1000
# A group is alive when it keeps its points in at least this share of the playouts. Light playouts favour
# the defender of a weak group (the attacker rarely finds the killing sequence), so a group that survives
# only a little more often than not at the end of a game is usually dead: 0.62 separates the alive and dead
# groups of the OGS and GNU Go scoring sets (tests/conformance/test_scoring_accuracy.py).
ALIVE_FROM = 0.62
# Chains next to a seki point that the playouts cannot kill: the reading found no kill; or a kill only for
# the side that moves first, and both sides passed instead (OGS players score such a position as seki);
# or it went beyond its bounds, and the shared liberty nobody fills is the best evidence left.
SPARED = (Verdict.SAFE, Verdict.UNSETTLED, Verdict.OPEN)
READ_DEAD = "read out: captured even when it plays first, sacrifices included"


def judge_end(state: GoState) -> Judgement:
    """A finished game's dead stones as the server counts them: the default playouts, the plies as seed, so
    that every reader of the game (the server's count, a review's last position, a benchmark) gets the same
    verdict."""
    return estimate(state, DEFAULT_PLAYOUTS, seed=state.plies)


def estimate(state: GoState, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> Judgement:
    """Judge every stone on `state`'s board alive, dead or in seki (deterministic for a seed).

    Unconditionally alive chains (Benson) are never dead. Chains next to a seki point are read out
    (`read_candidates`): one captured even when its owner moves first is dead (SPEC §1.11.6: a seki
    that only looks like one), the others are spared. Every other group (chains joined through empty
    regions only their colour borders) is dead when its stones keep their points in fewer than
    ALIVE_FROM of the playouts; the verdict is shared by all stones of the group. The spared chains that
    still share a seki point with a live chain of another colour are in seki.
    """
    chains = Chains(state)
    certain = unconditionally_alive(state, chains)
    colours = state.active_colours or list(range(state.colours))
    shares = ownership_shares(state, playouts, seed)
    kept = [_kept_share(chains, chain, shares, certain) for chain in chains.chains]
    points = closed_seki(chains, fill_proof_points(chains, colours))
    candidates = _uncertain(chains, seki_chains(chains, points), certain)
    budget = Budget()
    verdicts = read_candidates(chains, candidates, certain, budget)

    dead_chains: set[int] = set()
    reasons: list[str] = []
    _read_dead(chains, verdicts, dead_chains, reasons)
    for group in chains.groups():
        if dead_chains.intersection(group):
            continue
        stones = sum(len(chains.chains[i].points) for i in group)
        share = sum(kept[i] * len(chains.chains[i].points) for i in group) / stones
        if share < ALIVE_FROM and not any(verdicts.get(i) in SPARED for i in group):
            dead_chains.update(group)
            reasons.append(_reason(chains, group, _kept_text(share)))
    live = set(range(len(chains.chains))) - dead_chains
    neutral_share = [1.0 - sum(column) for column in zip(*shares, strict=True)]
    more = still_shared_points(chains, live, neutral_share)
    new = _uncertain(chains, seki_chains(chains, more), certain) - candidates
    if new:  # read with the clusters they join, so that a sacrifice next to them is seen
        verdicts.update(read_candidates(chains, candidates | new, certain, budget, only=new))
        _read_dead(chains, verdicts, dead_chains, reasons)
        live -= dead_chains
    in_seki = _whole_groups(chains, _seki_members(chains, points | more, live, verdicts)) - dead_chains

    dead = frozenset(p for i in dead_chains for p in chains.chains[i].points)
    seki = frozenset(p for i in in_seki for p in chains.chains[i].points)
    owner, neutral = judged_ownership(state, dead, seki)
    return Judgement(dead, seki, neutral, owner, certain, playouts, seed, tuple(sorted(reasons)))


def judged_ownership(
    state: GoState, dead: frozenset[int], seki: frozenset[int]
) -> tuple[tuple[int | None, ...], frozenset[int]]:
    """Who every point counts for, and the neutral points, once `dead` and `seki` stones are decided.

    For an administrator's corrected verdict as much as for the estimator's. Neutral points are the empty
    and dead-stone points that count for nobody; under territory scoring with `seki_territory == False`
    they include every region (empty and dead-stone points) that touches a stone in seki.
    """
    board = state.board()
    seki_eyes: set[int] = set()
    if state.rules.scoring is Scoring.TERRITORY and not state.rules.seki_territory:
        seki_eyes = _regions_touching(state, dead, seki)
    owner = ownership(state, dead, seki_eyes)
    neutral = frozenset(p for p, c in enumerate(owner) if c is None and (board[p] is None or p in dead))
    return owner, neutral


def score_with_estimate(state: GoState, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> Result:
    """The result of `state` scored with the estimator's dead stones, as if the game ended by passes now."""
    return score_judged(state, estimate(state, playouts, seed))


def score_judged(state: GoState, judgement: Judgement) -> Result:
    """The result of `state` with the given verdict (passes are added first if the game has not ended).

    Under `dead_stones=all_alive` the verdict is ignored: every stone counts as alive.
    """
    final = state
    while final.ended is None:
        final = final.play_as(final.to_move, PASS)
    if state.rules.dead_stones is DeadStones.ALL_ALIVE:
        result = outcome(final, dead=())
    else:
        result = outcome(final, dead=judgement.dead, neutral=judgement.neutral)
    if result is None:  # unreachable: the loop above ends the game
        raise AssertionError("a game ended by passes has a result")
    return result


def _kept_share(chains: Chains, chain: Chain, shares: list[list[float]], certain: frozenset[int]) -> float:
    """The mean share of the playouts in which the chain's points count for its colour."""
    if chain.points <= certain:
        return 1.0
    own = shares[chain.colour]
    return sum(own[p] for p in chain.points) / len(chain.points)


def _read_dead(chains: Chains, verdicts: dict[int, Verdict], dead: set[int], reasons: list[str]) -> None:
    """Add the groups with a chain the reading kills to `dead`, each with its reason."""
    for group in chains.groups():
        if not dead.intersection(group) and any(verdicts.get(i) is Verdict.DEAD for i in group):
            dead.update(group)
            reasons.append(_reason(chains, group, READ_DEAD))


def _seki_members(chains: Chains, points: set[int], live: set[int], verdicts: dict[int, Verdict]) -> set[int]:
    """The spared live chains next to a seki point that live chains of two or more colours touch."""
    out: set[int] = set()
    for p in points:
        around = chains.around(p) & live
        if len({chains.chains[i].colour for i in around}) >= 2:
            out.update(i for i in around if verdicts.get(i) in SPARED)
    return out


def _uncertain(chains: Chains, members: set[int], certain: frozenset[int]) -> set[int]:
    """The chains that are not unconditionally alive."""
    return {i for i in members if not chains.chains[i].points <= certain}


def _whole_groups(chains: Chains, members: set[int]) -> set[int]:
    out = set(members)
    for group in chains.groups():
        if any(i in members for i in group):
            out.update(group)
    return out


def _regions_touching(state: GoState, dead: frozenset[int], seki: frozenset[int]) -> set[int]:
    """Connected sets of empty and dead-stone points that touch a stone in seki."""
    board = state.board()
    neighbours = state.geo.neighbours
    open_points = [board[p] is None or p in dead for p in range(len(board))]
    seen = [False] * len(board)
    out: set[int] = set()
    for start in range(len(board)):
        if not open_points[start] or seen[start]:
            continue
        seen[start] = True
        region = [start]
        touches = False
        i = 0
        while i < len(region):
            for n in neighbours[region[i]]:
                if open_points[n]:
                    if not seen[n]:
                        seen[n] = True
                        region.append(n)
                elif n in seki:
                    touches = True
            i += 1
        if touches:
            out.update(region)
    return out


def _kept_text(share: float) -> str:
    return f"kept its points in {share:.0%} of the playouts; alive needs {ALIVE_FROM:.0%}"


def _reason(chains: Chains, group: list[int], why: str) -> str:
    points = sorted(p for i in group for p in chains.chains[i].points)
    vertices = " ".join(format_point(p, chains.state.size) for p in points)
    name = colour_name(chains.chains[group[0]].colour)
    return f"Dead: {name} {vertices} ({why})."
