"""Reviewing a finished game, one position at a time: each colour's winning chance, the score estimate, the
move the engine prefers and who owns each point; then the biggest swings of every player.

Go positions are searched by the compiled search (`go_search.KernelSearch`, max^n: each node keeps its
mover's reward). The mover's winning chance is the root's visit-weighted reward; with more than two colours
the others share the rest in proportion to their playout results from the position (the search's tree keeps
only the mover's reward at the root). Ownership and the score come from the search's own playouts, or from
the estimator's (`estimator.playouts.ownership_shares`) at the end of the game, where there is nothing to
search. Amazons, Hex and Tanbo get the winning chance of their compiled searchers (`searchers`: the
mover's win rate at the move the search would play); any other kind that of the generic search
(`mcts.MCTS`), which reads any game through the common interface.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from miai.core.go import GoState, Pass, Place
from miai.core.go.scoring import score
from miai.core.go.vertex import format_move

OWNERS = "123456789abcdefg"  # a point's owning team (colour + 1) as one character; '.' for nobody sure
SURE = 0.5  # a point is a colour's when more than this share of the playouts ends with it theirs
MAX_PLAYOUTS = 100_000  # one position's budget at most (settings may choose any depth up to it)
SWINGS_PER_PLAYER = 3
MIN_SWING = 0.05  # a swing moves the smoothed winning chance by at least this much


@dataclass(frozen=True)
class PositionReview:
    """One position of a game as the engine sees it.

    `shares`: each colour's (player's) winning chance, summing to 1. `score`: each Go colour's expected
    points (the area it owns in the engine's playouts plus its komi; with two colours Black leads by
    `score[0] - score[1]`); empty for other games. `best`: the move the engine prefers (a GTP coordinate or
    "pass"; None at the end and for other games). `ownership`: one character per point, row 0 first (the
    point's team, or '.'); None for other games."""

    shares: tuple[float, ...]
    score: tuple[float, ...] = ()
    best: str | None = None
    ownership: str | None = None

    def wire(self) -> dict[str, Any]:
        return {
            "shares": [round(s, 4) for s in self.shares],
            "score": [round(s, 1) for s in self.score],
            "best": self.best,
            "ownership": self.ownership,
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> PositionReview:
        """A position stored by `wire` (a review resumed where it stopped)."""
        return cls(
            tuple(float(s) for s in data["shares"]),
            tuple(float(s) for s in data.get("score", ())),
            data.get("best"),
            data.get("ownership"),
        )


@dataclass(frozen=True)
class Swing:
    """A move that cost its player `loss` of winning chance (the share before it minus the share after)."""

    move: int  # from 1: the position after this move is `positions[move]`
    player: int  # colour (player) index, from 0
    loss: float
    best: str | None  # what the engine preferred before the move

    def wire(self) -> dict[str, Any]:
        return {"move": self.move, "team": self.player + 1, "loss": round(self.loss, 4), "best": self.best}


def review_position(state: Any, playouts: int, seed: int = 0) -> PositionReview:
    """The engine's view of one position (`playouts` simulations; deterministic for a seed)."""
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise ValueError(f"playouts must be 1..{MAX_PLAYOUTS}, not {playouts}")
    if isinstance(state, GoState):
        return _go_position(state, playouts, seed)
    return _any_position(state, playouts, seed)


def swings(positions: Sequence[PositionReview], movers: Sequence[int]) -> list[Swing]:
    """The `SWINGS_PER_PLAYER` biggest losses of winning chance of each player, biggest first.

    `positions[0]` is the start and `positions[i]` the position after move i, made by `movers[i - 1]`
    (colour index; a negative mover, such as an agreed draw, is nobody's move). Only real losses count: a
    move is named when its player's share, smoothed over two positions (the two before the move against
    the move's and the next), fell by at least `MIN_SWING`, so that a saw-tooth of the side to move is no
    swing; the loss reported is the share before the move minus the share after it."""
    found: dict[int, list[Swing]] = {}
    for index, mover in enumerate(movers, start=1):
        if mover < 0 or index >= len(positions):
            continue
        window = positions[max(0, index - 2) : index + 2]
        if any(mover >= len(p.shares) for p in window):
            continue
        before, after = positions[index - 1], positions[index]
        loss = before.shares[mover] - after.shares[mover]
        earlier = [p.shares[mover] for p in positions[max(0, index - 2) : index]]
        later = [p.shares[mover] for p in positions[index : index + 2]]
        smoothed = sum(earlier) / len(earlier) - sum(later) / len(later)
        if loss > 0 and smoothed >= MIN_SWING:
            found.setdefault(mover, []).append(Swing(index, mover, loss, before.best))
    out: list[Swing] = []
    for mover in sorted(found):
        out += sorted(found[mover], key=lambda s: (-s.loss, s.move))[:SWINGS_PER_PLAYER]
    return sorted(out, key=lambda s: (-s.loss, s.move))


# ----------------------------------------------------------------------------- Go


def _go_position(state: GoState, playouts: int, seed: int) -> PositionReview:
    from miai.engines.estimator.playouts import ownership_shares
    from miai.engines.go_search import KernelSearch

    komi = [0.0] * state.colours
    for entry in score(state):
        komi[entry.colour] = entry.komi
    if state.is_over and state.parent is not None and not isinstance(state.last_move, Pass):
        # A resignation or timeout: the board is the one before it, the result is the state's own.
        before = _go_position(state.parent, playouts, seed)
        return PositionReview(_final_shares(state, []), before.score, None, before.ownership)
    if state.is_over:
        return _counted_position(state)
    # One fixed perspective whatever the side to move. A search from the mover's view alone gives the
    # mover its tempo and the optimism of a shallow max^n tree (the mover's moves are searched, the
    # replies hardly), so the win chance and the lead jumped with every move (issue 34). The position
    # is read from each active colour's view in turn along the line the search prefers: the mover
    # searches it, its best move is played and the next colour searches that, and so on, the budget
    # split between them; the views are averaged, so each colour's optimism counts once. (Searching for
    # a colour that is not to move would let it answer a threat with a second move: worse.)
    views = max(1, len(state.active_colours))
    each = max(1, playouts // views)
    mine: list[tuple[GoState, int, float]] = []
    owned_sum: list[list[float]] | None = None
    searched = 0
    best: str | None = None
    here = state
    for view in range(views):
        search = KernelSearch(seed=seed, capacity=max(1000, min(400_000, each * 4)), reuse=False)
        result = search.search(here, playouts=each)
        visits = sum(c.visits for c in result.children)
        rate = sum(c.visits * c.win_rate for c in result.children) / visits if visits else result.win_rate
        mine.append((here, here.to_move, min(1.0, max(0.0, rate))))
        if view == 0:
            best = format_move(result.move, state.size) if isinstance(result.move, Place | Pass) else None
        owned = search.ownership()
        if owned:
            searched += 1
            owned_sum = (
                owned
                if owned_sum is None
                else [
                    [a + b for a, b in zip(x, y, strict=True)] for x, y in zip(owned_sum, owned, strict=True)
                ]
            )
        if view + 1 < views:
            following = here.play(result.move) if isinstance(result.move, Place | Pass) else None
            if following is None or following.is_over or following.colours != state.colours:
                break
            here = following
    if owned_sum is None:  # nothing was searched (no legal move but pass): the estimator's view
        owned = ownership_shares(state, playouts, seed)
    else:
        owned = [[v / searched for v in column] for column in owned_sum]
    total = [0.0] * state.colours
    for position, mover, rate in mine:
        for c, share in enumerate(_shares_around(position, mover, rate, playouts, seed)):
            total[c] += share
    shares = tuple(t / len(mine) for t in total)
    return PositionReview(shares, _score(owned, komi), best, _owners(owned))


def _counted_position(state: GoState) -> PositionReview:
    """A game ended by passes: counted as the server counts it (`estimator.judge_end`), so the review's
    final lead is the game's count."""
    from miai.engines.estimator import judge_end, score_judged

    judgement = judge_end(state)
    result = score_judged(state, judgement)
    totals = [0.0] * state.colours
    for entry in result.scores:
        totals[entry.colour] = entry.total
    owned = [[1.0 if o == c else 0.0 for o in judgement.owner] for c in range(state.colours)]
    return PositionReview(_final_shares(state, totals), tuple(totals), None, _owners(owned))


def _shares_around(state: GoState, mover: int, mine: float, playouts: int, seed: int) -> tuple[float, ...]:
    """Every colour's share when the mover's is `mine`: two colours take the rest; more colours split it
    as their playout results from the position do."""
    if state.colours == 2:
        return tuple(mine if c == mover else 1.0 - mine for c in range(2))
    others = [c for c in state.active_colours if c != mover]
    if not others:
        return tuple(1.0 if c == mover else 0.0 for c in range(state.colours))
    totals = _playout_rewards(state, max(16, playouts // 4), seed)
    weights = {c: totals[c] for c in others}
    total = sum(weights.values())
    if total <= 0:
        weights, total = dict.fromkeys(others, 1.0), float(len(others))
    rest = 1.0 - mine
    return tuple(
        mine if c == mover else (rest * weights[c] / total if c in weights else 0.0)
        for c in range(state.colours)
    )


def _playout_rewards(state: GoState, count: int, seed: int) -> list[float]:
    from miai.engines.kernel.convert import from_state
    from miai.engines.kernel.patterns import PATTERNS
    from miai.engines.kernel.playout import new_rng, policy_knobs, repeated_playouts

    position = from_state(state)
    totals = repeated_playouts(
        position.b,
        position.hz,
        position.zob,
        position.komi,
        new_rng(seed + 1),
        PATTERNS,
        policy_knobs(),
        count,
        3 * state.size * state.size + 50,
    )
    return [float(x) for x in totals[: state.colours]]


def _final_shares(state: GoState, totals: list[float]) -> tuple[float, ...]:
    """The end of the game: a resignation or timeout decided it (the state's own rewards); passes leave it
    to the count, here the estimator's (dead stones taken out, as the server's judgement does)."""
    if not isinstance(state.last_move, Pass):
        rewards = state.rewards()
        if sum(rewards) > 0:
            return tuple(rewards)
    active = state.active_colours or list(range(state.colours))
    if not totals:
        return tuple(1.0 / len(active) if c in active else 0.0 for c in range(state.colours))
    top = max(totals[c] for c in active)
    winners = [c for c in active if totals[c] == top]
    return tuple(1.0 / len(winners) if c in winners else 0.0 for c in range(state.colours))


def _score(owned: list[list[float]], komi: list[float]) -> tuple[float, ...]:
    return tuple(sum(column) + komi[c] for c, column in enumerate(owned))


def _owners(owned: list[list[float]]) -> str:
    points = len(owned[0]) if owned else 0
    out = []
    for p in range(points):
        best = max(range(len(owned)), key=lambda c: owned[c][p])
        out.append(OWNERS[best] if owned[best][p] > SURE and best < len(OWNERS) else ".")
    return "".join(out)


# ----------------------------------------------------------------------------- other games


def _any_position(state: Any, playouts: int, seed: int) -> PositionReview:
    players = int(state.players)
    if state.is_over:
        return PositionReview(_normalised(state.rewards(), players))
    from miai.engines.mcts import MCTS
    from miai.engines.searchers import searcher_for

    searcher = searcher_for(state)
    if searcher is None:
        result = MCTS(random.Random(seed), reuse=False).search(state, playouts=playouts)
        visits = sum(c.visits for c in result.children)
        mine = sum(c.visits * c.win_rate for c in result.children) / visits if visits else result.win_rate
    else:
        try:
            mine = searcher.evaluate(state, playouts, seed).win_rate  # its best move's, as it would play
        finally:
            searcher.close()
    mine = min(1.0, max(0.0, mine))
    mover = int(state.to_move)
    rest = (1.0 - mine) / (players - 1) if players > 1 else 0.0
    return PositionReview(tuple(mine if p == mover else rest for p in range(players)))


def _normalised(rewards: Sequence[float], players: int) -> tuple[float, ...]:
    total = sum(rewards)
    if total <= 0:
        return (1.0 / players,) * players
    return tuple(r / total for r in rewards)
