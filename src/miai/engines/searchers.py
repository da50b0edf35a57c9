"""The registry of the compiled computer players (Amazons, Hex, Tanbo) by state type, and a move for any
registered game: Go goes to its own engine (`levels.make_move_generator`), a game with a compiled searcher
to it, any other game to the generic search at the level's budget (`levels.game_budget`).

The searchers import only shared pieces (`game_search`, `levels`, their own kernels); this module imports
them, lazily, and nothing below imports it back.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from miai.core.go import GoState, Move
from miai.core.registry import GameState
from miai.engines.game_search import GameSearcher, SearcherFactory
from miai.engines.levels import check_level, game_budget, make_move_generator
from miai.engines.mcts import MCTS

# State type -> factory: every game's compiled searcher, imported by `_import_engines`.
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


def searcher_for(state: Any) -> GameSearcher | None:
    """A new searcher for `state`'s game, or None when that game has no compiled searcher."""
    _register()
    factory = SEARCHERS.get(type(state))
    return factory() if factory is not None else None


def choose_move_any_game(
    state: GameState[Any],
    level: int,
    seed: int = 0,
    seconds: float | None = None,
    now: Callable[[], float] = time.monotonic,
) -> Any:
    """A move for the player to move in any registered game (Go goes to its own engine)."""
    if isinstance(state, GoState):
        move: Move = make_move_generator(level, seconds, seed)(state, state.to_move, seconds)
        return move
    check_level(level)
    searcher = searcher_for(state)
    if searcher is not None:  # a one-off search (the pool's path): no tree to keep
        try:
            return searcher.move(state, level, seconds, seed)
        finally:
            searcher.close()
    rng = random.Random(seed)
    budget = game_budget(level, seconds)
    if budget.blunders and rng.random() < budget.blunders:
        return rng.choice(list(state.legal_moves()))
    search = MCTS(random.Random(rng.getrandbits(64)), now=now)
    return search.search(state, playouts=budget.playouts, seconds=budget.seconds).move
