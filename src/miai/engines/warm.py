"""Compile every engine's numba kernels once, or load them from numba's cache: a tiny game of each kind at
a low and a high level, a review position and the estimator. `python -m miai.engines.warm` prints what each
took. A fresh install compiles for a few minutes of CPU; afterwards this takes a second or two.

The test command runs it beside ruff and mypy, so that the parallel test workers load one cache instead of
each compiling the same kernels at once.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence

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


def steps() -> list[tuple[str, Callable[[], None]]]:
    """Every warm-up by name: Go's engine, the estimator, a review position, then each other kind's."""
    import miai.core.games  # noqa: F401  (registers every kind)

    named: list[tuple[str, Callable[[], None]]] = [("go", _go), ("estimator", _estimator)]
    named.append(("review", _review))
    return named + [(key, _kind(key)) for key in sorted(KINDS) if key != "go"]


def warm_all(report: Callable[[str, float], None] | None = None, only: Sequence[str] = ()) -> None:
    """Run every warm-up (or those named in `only`); `report(name, seconds)` after each."""
    for name, step in steps():
        if only and name not in only:
            continue
        started = time.monotonic()
        step()
        if report is not None:
            report(name, time.monotonic() - started)


def main(argv: Sequence[str] = ()) -> int:
    """`python -m miai.engines.warm [NAME...]`: the named warm-ups (all without names); 2 for a name it does
    not know."""
    known = [name for name, _ in steps()]
    unknown = [name for name in argv if name not in known]
    if unknown:
        print(f"unknown warm-up {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    warm_all(lambda name, seconds: print(f"compiled {name} in {seconds:.1f} s", flush=True), argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
