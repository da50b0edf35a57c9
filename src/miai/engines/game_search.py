"""Compiled computer players for the games other than Go, chosen by the state's type.

Each game (Hex, Amazons, Tanbo) registers a factory in `SEARCHERS`; a searcher is made once per game seat
and keeps its tree between moves when the next state follows the previous one (it rebuilds it otherwise,
so a state restored in another process is still answered). A game with no compiled searcher falls back to
the generic search in `levels.choose_move_any_game`.
"""

from __future__ import annotations

import threading
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

# State type -> factory. Each game's engine module adds itself here (see `_register`).
SEARCHERS: dict[type, SearcherFactory] = {}
_registered = threading.Event()
_registering = threading.Lock()


def _register() -> None:
    """Import the compiled engines lazily: numba compiles (or loads its cache) on first use only.
    Seats ask from several threads: all wait until every engine is registered (an import that fails is
    tried again by the next caller)."""
    if _registered.is_set():
        return
    with _registering:
        if not _registered.is_set():
            _import_engines()
            _registered.set()


def _import_engines() -> None:
    # One block per game: `from miai.core.<game> import <State>`, its engine, `SEARCHERS[<State>] = ...`.
    from miai.core.amazons import AmazonsState
    from miai.engines.amazons.searcher import AmazonsSearcher

    SEARCHERS[AmazonsState] = AmazonsSearcher

    from miai.core.hex import HexState
    from miai.engines.hex.searcher import HexSearcher

    SEARCHERS[HexState] = HexSearcher

    from miai.core.tanbo import TanboState
    from miai.engines.tanbo.search import TanboSearcher

    SEARCHERS[TanboState] = TanboSearcher


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


def searcher_for(state: Any) -> GameSearcher | None:
    """A new searcher for `state`'s game, or None when that game has no compiled searcher."""
    _register()
    factory = SEARCHERS.get(type(state))
    return factory() if factory is not None else None
