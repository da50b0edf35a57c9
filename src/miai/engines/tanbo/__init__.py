"""The compiled Tanbo player (numba), bound to the rules core by tests/engines/test_tanbo_vs_core.py.

board.py    the array layout of a position; placing a stone and removing bounded roots as SPEC §4.3
            says, with every root's liberty count kept up to date
playout.py  the playout policy: captures, saving a root down to its last liberty, no self-bounding
tree.py     UCT with RAVE over a flat node pool (the Go kernel's layout), priors from the same knowledge
search.py   the searcher the server uses: budgets per level, tree reuse between moves
"""

from pathlib import Path

from miai.engines.kernel.jit import drop_stale_cache

_HERE = Path(__file__).resolve().parent
drop_stale_cache(_HERE)
