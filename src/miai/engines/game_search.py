"""What the compiled computer players of the games other than Go share: the `GameSearcher` interface, and
`moves_since`, which lets a searcher keep its tree between moves.

A searcher is made once per game seat and keeps its tree when the next state follows the previous one (it
rebuilds it otherwise, so a state restored in another process is still answered). The searchers (Hex,
Amazons, Tanbo) import this module and `levels`; the registry that chooses one by the state's type is
`searchers.py`, above them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from miai.engines.result import SearchResult


class GameSearcher(Protocol):
    """One seat's computer player for one game: asked for a move at a time."""

    def move(self, state: Any, level: int, seconds: float | None, seed: int) -> Any:
        """A legal move for the player to move in `state` (levels 1..10 as `levels.style` describes)."""
        ...

    def evaluate(self, state: Any, playouts: int, seed: int) -> SearchResult[Any]:
        """The search's statistics of `state` after `playouts` simulations of a new tree, for a game
        review: no level and no deliberate error; `win_rate` is the player to move's winning chance."""
        ...

    def close(self) -> None:
        """Free what the searcher holds (its tree)."""
        ...


SearcherFactory = Callable[[], GameSearcher]


def moves_since(root: Any, state: Any, same: Callable[[Any, Any], bool]) -> list[Any] | None:
    """The moves played from the position `root` to `state` (oldest first), or None when `state` does not
    follow it: how a searcher keeps its tree between moves.

    The record is followed back through the states' parents. A state sent to an engine process keeps only
    one step back (`pool.portable`): when the record stops one move after `root`, that move is replayed on
    `root` to check that it leads there. `same(a, b)` says whether two states hold the same position."""
    chain: list[Any] = []
    node, oldest = state, state
    while node is not None:
        if same(node, root):
            return chain[::-1]
        if node.plies <= root.plies or node.last_move is None:
            return None
        chain.append(node.last_move)
        oldest, node = node, node.parent
    if oldest.plies != root.plies + 1 or root.is_over or oldest.last_move not in root.legal_moves():
        return None
    return chain[::-1] if same(root.play(oldest.last_move), oldest) else None
