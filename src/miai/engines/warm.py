"""Compile every engine's numba kernels once, or load them from numba's cache: a tiny game of each kind at
a low and a high level, a review position and the estimator. `python -m miai.engines.warm` prints what each
took. A fresh install compiles for a few minutes of CPU; afterwards this takes a second or two.

The test command runs it beside ruff and mypy, so that the parallel test workers load one cache instead of
each compiling the same kernels at once.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from miai.core.go import Rules, new_game
from miai.core.registry import KINDS

SMALL_GO = 7  # the smallest size of the offered presets: the kernels are the same at every size


def _go() -> None:
    from miai.engines.go_search import warm_up
    from miai.engines.searchers import choose_move_any_game

    warm_up(1)
    state = new_game(SMALL_GO, Rules(allowed_sizes=(SMALL_GO,)))
    for level in (1, 10):
        choose_move_any_game(state, level, seed=0, seconds=0.05)


def _estimator() -> None:
    from miai.engines.estimator import estimate

    estimate(new_game(SMALL_GO, Rules(allowed_sizes=(SMALL_GO,))), playouts=8)


def _review() -> None:
    from miai.engines.review import review_position

    review_position(new_game(SMALL_GO, Rules(allowed_sizes=(SMALL_GO,))), playouts=8)


def _kind(key: str) -> Callable[[], None]:
    def warm() -> None:
        from miai.engines.searchers import choose_move_any_game

        state = KINDS[key].new_game(KINDS[key].default_options)
        for level in (1, 10):
            choose_move_any_game(state, level, seed=0, seconds=0.05)

    return warm


def warm_all(report: Callable[[str, float], None] | None = None) -> None:
    """Run every warm-up; `report(name, seconds)` after each."""
    import miai.core.games  # noqa: F401  (registers every kind)

    steps: list[tuple[str, Callable[[], None]]] = [("go", _go), ("estimator", _estimator)]
    steps.append(("review", _review))
    steps += [(key, _kind(key)) for key in sorted(KINDS) if key != "go"]
    for name, step in steps:
        started = time.monotonic()
        step()
        if report is not None:
            report(name, time.monotonic() - started)


def main() -> int:
    warm_all(lambda name, seconds: print(f"compiled {name} in {seconds:.1f} s", flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
