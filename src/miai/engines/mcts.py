"""Monte Carlo tree search over the common game interface (`miai.core.registry.GameState`).

Works for any game and any number of players: every node keeps the mean reward *of the player who made its
move*, so each player maximises its own result (max^n UCT); with two players this is ordinary UCT.

Everything that varies is injected: the random generator (`random.Random`, so a seed fixes the search), the
clock (`now`, so a time budget is testable), the playout policy (state, rng) -> rewards, and a prior hook
that orders and weights the moves of a new node, with progressive widening (how many of those moves a node
may consider after n visits). The tree survives between moves: `advance(move)` keeps the subtree of the
move actually played, and the next `search` starts from it (the caller promises that the state it passes
is the position after the moves it reported).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from miai.core.registry import GameState
from miai.engines.result import MoveStats, SearchResult

MoveT = TypeVar("MoveT")

PlayoutPolicy = Callable[[GameState[Any], random.Random], Sequence[float]]
"""Finish the game from a state (randomly or smartly) and return each player's reward."""


@dataclass(frozen=True)
class Prior(Generic[MoveT]):
    """Equivalent experience for a move of a new node: `visits` virtual visits averaging `value`."""

    move: MoveT
    visits: float = 0.0
    value: float = 0.5


PriorHook = Callable[[GameState[Any], Sequence[Any]], Sequence[Prior[Any]]]
"""(state, legal moves) -> priors, best first. Moves left out are never searched."""

Widening = Callable[[int], int]
"""Node visits -> how many of its (prior-ordered) moves it may have as children."""


def random_playout(max_plies: int = 1000) -> PlayoutPolicy:
    """Uniformly random moves until the game ends; a game cut at `max_plies` shares the reward evenly."""

    def playout(state: GameState[Any], rng: random.Random) -> Sequence[float]:
        plies = 0
        while not state.is_over:
            if plies >= max_plies:
                return (1.0 / state.players,) * state.players
            state = state.play(rng.choice(state.legal_moves()))
            plies += 1
        return state.rewards()

    return playout


def widening(base: int = 2, factor: float = 1.0, power: float = 0.5) -> Widening:
    """Progressive widening: base + factor * visits**power children."""
    return lambda visits: base + int(factor * visits**power)


class _Node:
    __slots__ = ("children", "move", "mover", "prior_n", "prior_w", "state", "total", "untried", "visits")

    def __init__(self, state: GameState[Any], move: Any, mover: int, prior: Prior[Any] | None) -> None:
        self.state = state
        self.move = move
        self.mover = mover  # who made `move` (-1 at the root)
        self.children: list[_Node] = []
        self.untried: list[Prior[Any]] | None = None  # filled on first expansion
        self.visits = 0
        self.total = 0.0
        self.prior_n = prior.visits if prior else 0.0
        self.prior_w = prior.visits * prior.value if prior else 0.0

    def mean(self) -> float:
        n = self.visits + self.prior_n
        return (self.total + self.prior_w) / n if n else 0.5


class MCTS:
    """Seeded UCT search; one instance follows one game to reuse its tree."""

    def __init__(
        self,
        rng: random.Random,
        playout: PlayoutPolicy | None = None,
        prior: PriorHook | None = None,
        widen: Widening | None = None,
        exploration: float = 0.7,
        now: Callable[[], float] = time.monotonic,
        reuse: bool = True,
    ) -> None:
        self.rng = rng
        self.playout = playout or random_playout()
        self.prior = prior
        self.widen = widen
        self.exploration = exploration
        self.now = now
        self.reuse = reuse
        self._root: _Node | None = None
        self._advanced = False  # the root was reached through advance(): trust the next state given

    # ----------------------------------------------------------------- tree reuse

    def advance(self, move: Any) -> None:
        """The game went on with `move`: keep only that subtree (or nothing, if it was never explored)."""
        root = self._root
        self._root = None
        self._advanced = False
        if root is not None and self.reuse:
            for child in root.children:
                if child.move == move:
                    child.mover = -1
                    self._root = child
                    self._advanced = True
                    return

    def _root_for(self, state: GameState[Any]) -> _Node:
        root = self._root
        advanced, self._advanced = self._advanced, False
        if root is not None and self.reuse:
            if root.state is state or advanced:
                root.state = state  # expand from the caller's object from now on
                return root
            for child in root.children:  # the caller forgot advance(): find the state one ply down
                if child.state is state:
                    child.mover = -1
                    self._root = child
                    return child
        self._root = _Node(state, None, -1, None)
        return self._root

    # ----------------------------------------------------------------- searching

    def search(
        self, state: GameState[MoveT], playouts: int | None = None, seconds: float | None = None
    ) -> SearchResult[MoveT]:
        """Search for the player to move within the budget (a playout count, seconds, or both)."""
        if playouts is None and seconds is None:
            raise ValueError("give a playout budget, a time budget or both")
        if state.is_over:
            raise ValueError("the game is over: there is no move to search")
        start = self.now()
        root = self._root_for(state)
        reused = root.visits
        done = 0
        while playouts is None or done < playouts:
            if seconds is not None and done and self.now() - start >= seconds:
                break
            self._simulate(root)
            done += 1
        return self._result(root, done, self.now() - start, reused)

    def _simulate(self, root: _Node) -> None:
        path = [root]
        node = root
        while not node.state.is_over:
            child = self._expand(node)
            if child is not None:
                path.append(child)
                node = child
                break
            if not node.children:
                break
            node = self._select(node)
            path.append(node)
        final = node.state
        rewards = final.rewards() if final.is_over else self.playout(final, self.rng)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += rewards[visited.mover]

    def _expand(self, node: _Node) -> _Node | None:
        """A new child of `node` when widening allows one more, else None."""
        if node.untried is None:
            moves = list(node.state.legal_moves())
            if self.prior is not None:
                node.untried = list(self.prior(node.state, moves))
            else:
                self.rng.shuffle(moves)
                node.untried = [Prior(m) for m in moves]
            node.untried.reverse()  # pop() from the end takes the best first
        if not node.untried:
            return None
        if self.widen is not None and len(node.children) >= self.widen(node.visits):
            return None
        prior = node.untried.pop()
        child = _Node(node.state.play(prior.move), prior.move, node.state.to_move, prior)
        node.children.append(child)
        return child

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits + 1)
        c = self.exploration
        best = node.children[0]
        best_value = -math.inf
        for child in node.children:
            n = child.visits + child.prior_n
            value = child.mean() + c * math.sqrt(log_n / (n + 1))
            if value > best_value:
                best, best_value = child, value
        return best

    def _result(self, root: _Node, done: int, elapsed: float, reused: int) -> SearchResult[Any]:
        ranked = sorted(root.children, key=lambda ch: (-ch.visits, -ch.mean()))
        if not ranked:
            raise ValueError("the player to move has no legal move")
        best = ranked[0]
        pv = [best.move]
        node = best
        while node.children:
            node = max(node.children, key=lambda ch: (ch.visits, ch.mean()))
            if not node.visits:
                break
            pv.append(node.move)
        children = [MoveStats(ch.move, ch.visits, ch.mean()) for ch in ranked]
        return SearchResult(best.move, best.visits, best.mean(), done, elapsed, pv, children, reused)
